"""Reading HF `pattern` fields: {"String": s} is a literal, {"Regex": r} a regex."""

from ..errors import FormatError


def parse_pattern(pattern, where: str):
    """Returns (is_regex, text) for an HF pattern object."""
    if isinstance(pattern, dict) and len(pattern) == 1:
        (kind, text), = pattern.items()
        if kind == "String" and isinstance(text, str):
            return False, text
        if kind == "Regex" and isinstance(text, str):
            return True, text
    raise FormatError(f"{where}: pattern must be {{'String': ...}} or {{'Regex': ...}}, got {pattern!r}")
