"""mtok decode -t TOKENIZER IDS..."""

from .common import add_tokenizer_arg, load_tokenizer


def register(sub) -> None:
    p = sub.add_parser("decode", help="print the text of token ids")
    add_tokenizer_arg(p)
    p.add_argument("ids", nargs="+", type=int)
    p.add_argument("--skip-special", action="store_true", help="leave special tokens out")
    p.set_defaults(run=run)


def run(args) -> int:
    tok = load_tokenizer(args.tokenizer)
    print(tok.decode(args.ids, skip_special_tokens=args.skip_special))
    return 0
