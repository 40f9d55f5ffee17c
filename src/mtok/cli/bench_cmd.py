"""mtok bench [--suite bpe|unigram|load|all] [--quick] ...: mtok and its
peers side by side. A thin front for the harness in the source tree's
bench/ package (``python -m bench``); see bench/README.md."""

import sys
from pathlib import Path

# src/mtok/cli/bench_cmd.py -> the repository root, which holds bench/.
_REPO = Path(__file__).resolve().parents[3]


def _harness():
    """bench.cli, from the source tree when it is not already importable;
    None for an installed mtok without its source tree."""
    try:
        from bench import cli
        return cli
    except ImportError:
        pass
    if (_REPO / "bench" / "cli.py").exists():
        sys.path.insert(0, str(_REPO))
        from bench import cli
        return cli
    return None


def register(sub) -> None:
    p = sub.add_parser("bench", help="benchmark mtok against the installed peers (source tree only)")
    harness = _harness()
    if harness is not None:
        harness.add_arguments(p)
    p.set_defaults(run=run)


def run(args) -> int:
    harness = _harness()
    if harness is None:
        print("mtok bench: needs mtok's source tree (the bench/ folder beside src/)", file=sys.stderr)
        return 1
    harness.run_args(args)
    return 0
