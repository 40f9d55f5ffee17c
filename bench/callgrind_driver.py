"""Callgrind driver: ``python -m bench.callgrind_driver LIB SPEC.json TEXT N``.

Loads LIB's tokenizer, encodes TEXT once (warm-up, present in every run),
then N more times. callgrind.py runs it with N and with 0 and divides the
difference in instructions by N. Standard library only at import time.
"""

import json
import sys

from .specs import TokSpec
from .worker import _peer


def main(argv) -> int:
    lib, spec_path, text_path, n = argv[1], argv[2], argv[3], int(argv[4])
    with open(spec_path, encoding="utf-8") as f:
        spec = TokSpec.from_dict(json.load(f))
    with open(text_path, encoding="utf-8") as f:
        text = f.read()
    fn = _peer(lib).load(spec)
    fn(text)
    for _ in range(n):
        fn(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
