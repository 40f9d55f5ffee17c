"""mtok encode [-t TOKENIZER] (TEXT | -f FILE) [--show]"""

import sys

from .common import add_tokenizer_arg, load_tokenizer

# Background colours cycled over tokens by --show.
_COLOURS = ("\x1b[48;5;153m", "\x1b[48;5;223m", "\x1b[48;5;194m", "\x1b[48;5;218m", "\x1b[48;5;230m")
_RESET = "\x1b[0m"


def register(sub) -> None:
    p = sub.add_parser("encode", help="print the token ids of a text")
    add_tokenizer_arg(p)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("text", nargs="?")
    src.add_argument("-f", "--file", help="read the text from a file ('-' for stdin)")
    p.add_argument("--show", action="store_true", help="show the text with token boundaries coloured")
    p.add_argument("--no-special", action="store_true", help="do not add special tokens")
    p.set_defaults(run=run)


def _read(args) -> str:
    if args.file is None:
        return args.text
    if args.file == "-":
        return sys.stdin.read()
    with open(args.file, encoding="utf-8") as f:
        return f.read()


def show(tok, ids) -> str:
    """The text of each token on a coloured background."""
    parts = []
    for i, tid in enumerate(ids):
        piece = tok.decode([tid])
        parts.append(_COLOURS[i % len(_COLOURS)] + piece + _RESET)
    return "".join(parts)


def run(args) -> int:
    tok = load_tokenizer(args.tokenizer)
    ids = tok.encode(_read(args), add_special_tokens=not args.no_special)
    if args.show:
        print(show(tok, ids))
        print(f"{len(ids)} tokens")
    else:
        print(" ".join(map(str, ids)))
    return 0
