"""What the subcommands share: resolving -t/--tokenizer."""

from ..encodings import get_encoding, list_encoding_names
from ..tokenizer import Tokenizer

DEFAULT_TOKENIZER = "o200k_base"


def add_tokenizer_arg(p) -> None:
    p.add_argument("-t", "--tokenizer", default=DEFAULT_TOKENIZER,
                   help="a tokenizer file or folder, or a built-in encoding name "
                        f"({', '.join(list_encoding_names())}); default {DEFAULT_TOKENIZER}")


def load_tokenizer(name: str) -> Tokenizer:
    if name in list_encoding_names():
        return get_encoding(name)._tokenizer
    return Tokenizer.from_file(name)
