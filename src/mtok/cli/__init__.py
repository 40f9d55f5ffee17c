"""The `mtok` command line. Each subcommand lives in its own module."""

import argparse
import sys

from ..errors import MtokError
from . import bench_cmd, cache_cmd, chat_cmd, decode_cmd, encode_cmd, export_cmd, inspect_cmd, tokenize_corpus_cmd

COMMANDS = (export_cmd, encode_cmd, decode_cmd, inspect_cmd, chat_cmd, tokenize_corpus_cmd, bench_cmd, cache_cmd)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mtok", description="Exact, fast tokenizers.")
    sub = parser.add_subparsers(dest="command", required=True)
    for cmd in COMMANDS:
        cmd.register(sub)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except MtokError as e:
        print(f"mtok: error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
