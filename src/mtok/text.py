"""How Python text reaches the native core."""


def clean_surrogates(text: str) -> str:
    """Replaces lone surrogates (which UTF-8 cannot hold) by U+FFFD, as
    tiktoken does; other text is returned unchanged."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
