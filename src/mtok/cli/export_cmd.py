"""mtok export SRC -o OUT.mtok"""

import os

from ..convert import to_mtok_bytes


def register(sub) -> None:
    p = sub.add_parser("export", help="convert a tokenizer file to .mtok",
                       description="Converts tokenizer.json, SentencePiece .model, .tiktoken or MNN "
                                   "files (or a folder holding one) to .mtok. tokenizer_config.json "
                                   "and chat_template.jinja beside the source are picked up.")
    p.add_argument("source")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--pattern", help="split regex for a .tiktoken file that is not a known OpenAI encoding")
    p.set_defaults(run=run)


def run(args) -> int:
    data = to_mtok_bytes(args.source, pattern=args.pattern)
    tmp = args.output + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, args.output)
    print(f"wrote {args.output} ({len(data)} bytes)")
    return 0
