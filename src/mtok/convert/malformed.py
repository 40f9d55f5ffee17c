"""Reading a tokenizer file's content as a spec indexes dicts and lists and
converts values that a damaged or hand-written file may not hold. Rather
than guard every access, the conversion runs inside `malformed_as_format_error`,
which turns the structural errors such a file causes into a FormatError."""

from contextlib import contextmanager

from ..errors import FormatError

# What indexing, int()/str() conversion and deep nesting raise on bad content.
STRUCTURAL_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError,
                     OverflowError, RecursionError)


@contextmanager
def malformed_as_format_error(path: str):
    try:
        yield
    except FormatError:
        raise
    except STRUCTURAL_ERRORS as e:
        raise FormatError(f"{path}: malformed tokenizer file ({type(e).__name__}: {e})") from e
