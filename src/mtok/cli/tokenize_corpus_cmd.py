"""mtok tokenize-corpus INPUT... -t TOKENIZER -o OUTDIR [options]"""

import sys

from .common import add_tokenizer_arg, load_tokenizer


def register(sub) -> None:
    """Adds the subcommand and its options to the `mtok` parser."""
    p = sub.add_parser(
        "tokenize-corpus",
        help="tokenize text/JSONL/Parquet files into resumable token shards",
        description="Tokenize a corpus into shards of token ids (flat uint16/uint32 .bin files "
                    "with uint64 .idx document offsets and a manifest.json; see docs/corpus.md). "
                    "Rerunning the same command resumes: finished, verified shards are kept. "
                    "Read the result with mtok.corpus.open(OUTDIR).")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="input files or folders, in document order")
    add_tokenizer_arg(p)
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    p.add_argument("--format", dest="input_format", default="auto",
                   choices=("auto", "text", "jsonl", "parquet"),
                   help="input format; auto goes by extension (.jsonl/.ndjson/.json, .parquet, else text)")
    p.add_argument("--doc-per", choices=("line", "file"), default="line",
                   help="plain text: one document per line (empty lines skipped) or per file (default line)")
    p.add_argument("--field", default="text", help="JSONL/Parquet field holding the text (default text)")
    p.add_argument("--append-eos", action="store_true",
                   help="append the tokenizer's EOS id (its first stop id) to every document")
    p.add_argument("--add-special-tokens", action="store_true",
                   help="let the tokenizer's post-processor add its special tokens (e.g. BOS)")
    p.add_argument("--shard-size", default="32MB",
                   help="input per shard: a record count (10000) or bytes (64MB, 1GiB); default 32MB")
    p.add_argument("--on-error", choices=("fail", "skip"), default="fail",
                   help="a malformed JSONL line, missing or non-string field, or invalid UTF-8: "
                        "stop (default) or report it with file:line and skip it")
    p.add_argument("--engine", choices=("local", "threads", "dask"), default="local",
                   help="local: a process pool; threads: native encode_batch threads in one process; "
                        "dask: a Dask distributed cluster (default local)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes, threads or local Dask workers (default: all cores)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="Dask scheduler address (tcp://host:8786); without it --engine dask "
                        "starts a local cluster of --workers processes")
    p.add_argument("--overwrite", action="store_true",
                   help="delete a different job's output in OUTDIR instead of refusing")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args) -> int:
    """Runs the job described by the parsed arguments."""
    from ..corpus.errors import CorpusError
    from ..corpus.job import summary_line, tokenize_corpus
    from ..corpus.options import JobOptions, parse_shard_size

    if args.scheduler and args.engine != "dask":
        raise CorpusError("--scheduler needs --engine dask")
    if args.workers is not None and args.workers < 1:
        raise CorpusError("--workers must be at least 1")
    options = JobOptions(input_format=args.input_format, doc_per=args.doc_per, field=args.field,
                         append_eos=args.append_eos, add_special_tokens=args.add_special_tokens,
                         shard_size=parse_shard_size(args.shard_size), on_error=args.on_error)
    tok = load_tokenizer(args.tokenizer)
    summary = tokenize_corpus(args.inputs, tok, args.output, options, engine=args.engine,
                              workers=args.workers, scheduler=args.scheduler, overwrite=args.overwrite,
                              show_progress=not args.no_progress and sys.stderr.isatty())
    print(f"mtok: {summary_line(summary)}", file=sys.stderr)
    return 0
