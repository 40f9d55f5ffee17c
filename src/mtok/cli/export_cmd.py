"""mtok export SRC -o OUT.mtok  |  mtok export SRC --legacy-txt -o tokenizer.txt"""

import os
import shlex
import sys

from ..convert import load_spec
from ..convert.malformed import malformed_as_format_error
from ..convert.export import export_mtok

_YES_NO = {"yes": True, "no": False}


def register(sub) -> None:
    p = sub.add_parser("export", help="convert a tokenizer file to .mtok (or MNN's legacy tokenizer.txt)",
                       description="Converts tokenizer.json, SentencePiece .model, .tiktoken or MNN "
                                   "files (or a folder holding one) to .mtok. tokenizer_config.json "
                                   "and chat_template.jinja beside the source are picked up.")
    p.add_argument("source")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--pattern", help="split regex (or a preset name: gpt2, llama3, qwen2, cl100k_base, ...) "
                                     "for a .tiktoken file that is not a known OpenAI encoding, or for an "
                                     "MNN tokenizer.txt of type 1 or 3")
    legacy = p.add_argument_group("MNN tokenizer.txt sources (facts the file does not record; "
                                  "see docs/legacy_txt.md)")
    legacy.add_argument("--normalizer", choices=("NFC", "NFD", "NFKC", "NFKD"),
                        help="type 1/3: Unicode normalization before splitting (overrides the preset's)")
    legacy.add_argument("--ignore-merges", choices=_YES_NO,
                        help="type 3: look a whole pre-token up before merging (overrides the preset's)")
    legacy.add_argument("--lowercase", choices=_YES_NO, help="type 2: uncased (yes) or cased (no) model")
    legacy.add_argument("--strip-accents", choices=_YES_NO, help="type 2: default follows --lowercase")
    legacy.add_argument("--sp-model", choices=("bpe", "unigram"),
                        help="type 0: the SentencePiece model kind (default bpe, as MNN runs it)")
    out = p.add_argument_group("writing MNN's legacy tokenizer.txt")
    out.add_argument("--legacy-txt", action="store_true",
                     help="write a legacy tokenizer.txt (types 0-3) instead of .mtok")
    out.add_argument("--legacy-type", type=int, choices=(0, 1, 2, 3),
                     help="the legacy type (default: the one the model fits)")
    out.add_argument("--allow-loss", action="store_true",
                     help="write the legacy file even when it cannot keep the tokenizer's behaviour")
    p.set_defaults(run=run)


def _legacy_options(args) -> dict:
    yes_no = lambda v: None if v is None else _YES_NO[v]  # noqa: E731
    return {"normalizer": args.normalizer, "ignore_merges": yes_no(args.ignore_merges),
            "lowercase": yes_no(args.lowercase), "strip_accents": yes_no(args.strip_accents),
            "sp_model": args.sp_model}


def _write(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _option_flags(options: dict) -> str:
    """load_options as the flags of this command."""
    flags = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "yes" if value else "no"
        flags.append(f"--{key.replace('_', '-')} {shlex.quote(value)}")
    return " ".join(flags)


def run(args) -> int:
    with malformed_as_format_error(args.source):
        spec = load_spec(args.source, pattern=args.pattern, **_legacy_options(args))
    if not args.legacy_txt:
        if args.legacy_type is not None or args.allow_loss:
            print("mtok: --legacy-type and --allow-loss apply only with --legacy-txt", file=sys.stderr)
            return 2
        with malformed_as_format_error(args.source):
            data = export_mtok(spec)
        _write(args.output, data)
        print(f"wrote {args.output} ({len(data)} bytes)")
        return 0

    from ..convert.legacy.writer import export_legacy_txt

    result = export_legacy_txt(spec, args.legacy_type, allow_loss=args.allow_loss)
    _write(args.output, result.data)
    print(f"wrote {args.output} (MNN legacy type {result.legacy_type}, {len(result.data)} bytes)")
    if result.load_options:
        print(f"load it with: {_option_flags(result.load_options)}  "
              f"(Python: {', '.join(f'{k}={v!r}' for k, v in result.load_options.items())})")
    for loss in result.losses:
        print(f"mtok: warning: lost: {loss}", file=sys.stderr)
    for item in result.dropped:
        print(f"note: not recorded: {item}", file=sys.stderr)
    return 0
