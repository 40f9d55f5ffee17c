"""How Python text reaches the native core.

The core views a str as UTF-8 without a copy; a str with lone surrogates
has no UTF-8 form, so the binding raises UnicodeEncodeError. Every encode
then retries once through :func:`retry_clean`, with the surrogates replaced
by U+FFFD as tiktoken does.
"""


def clean_surrogates(text: str) -> str:
    """Replaces lone surrogates (which UTF-8 cannot hold) by U+FFFD, as
    tiktoken does; other text is returned unchanged."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _clean(arg):
    if isinstance(arg, str):
        return clean_surrogates(arg)
    if isinstance(arg, list):
        return [clean_surrogates(a) if isinstance(a, str) else a for a in arg]
    return arg


def retry_clean(fn, *args, **kwargs):
    """fn(*args) again with lone surrogates replaced in each str argument and
    in each list of them: the retry after fn raised UnicodeEncodeError.
    Hot callers write the first try themselves (``try: return fn(...)
    except UnicodeEncodeError: return retry_clean(fn, ...)``): the common
    call then pays no extra Python frame."""
    return fn(*[_clean(a) for a in args], **kwargs)


def with_clean_text(fn, *args, **kwargs):
    """fn(*args, **kwargs), retried through :func:`retry_clean` when a str
    positional argument has lone surrogates."""
    try:
        return fn(*args, **kwargs)
    except UnicodeEncodeError:
        return retry_clean(fn, *args, **kwargs)
