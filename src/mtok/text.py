"""How Python text reaches the native core."""


def clean_surrogates(text: str) -> str:
    """Replaces lone surrogates (which UTF-8 cannot hold) by U+FFFD, as
    tiktoken does; other text is returned unchanged."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def call_with_text(fn, text, *args):
    """Calls fn(text, *args); a str with lone surrogates is retried cleaned.
    bytes must be valid UTF-8 (checked natively)."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        return None, bytes(text)
    if not isinstance(text, str):
        raise TypeError(f"text must be str or bytes, not {type(text).__name__}")
    try:
        return fn(text, *args), None
    except (TypeError, UnicodeEncodeError):
        return fn(clean_surrogates(text), *args), None
