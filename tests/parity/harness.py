"""Shared parity checks: compare id lists or strings and report the first
differences with their inputs; record how many strings were compared."""

import json
import os
from pathlib import Path

COUNTS = Path(__file__).resolve().parents[2] / "build" / "parity_counts.json"


def record(name: str, n: int) -> None:
    """Adds n compared strings under `name` to build/parity_counts.json."""
    COUNTS.parent.mkdir(exist_ok=True)
    data = {}
    if COUNTS.exists():
        try:
            data = json.loads(COUNTS.read_text())
        except ValueError:
            data = {}
    data[name] = data.get(name, 0) + n
    tmp = COUNTS.with_name(f"{COUNTS.name}.{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(tmp, COUNTS)


def assert_same(name, inputs, expected, actual, limit=3):
    """Fails with the first `limit` mismatches, showing the input."""
    assert len(expected) == len(actual), f"{name}: {len(expected)} results vs {len(actual)}"
    bad = [i for i, (e, a) in enumerate(zip(expected, actual)) if e != a]
    if bad:
        lines = [f"{name}: {len(bad)} of {len(inputs)} differ"]
        for i in bad[:limit]:
            text = inputs[i]
            e, a = expected[i], actual[i]
            where = next((k for k, (x, y) in enumerate(zip(e, a)) if x != y), min(len(e), len(a)))
            lines.append(f"  input {text[:200]!r}{'...' if len(text) > 200 else ''}")
            lines.append(f"    first difference at {where}: expected {e[max(0, where - 3):where + 5]!r}")
            lines.append(f"    {' ' * (len(str(where)) + 22)}got      {a[max(0, where - 3):where + 5]!r}")
        raise AssertionError("\n".join(lines))
    record(name, len(inputs))
