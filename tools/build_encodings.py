#!/usr/bin/env python3
"""Copies OpenAI's rank files from ../shared/corpus/tiktoken into the package
(src/mtok/data/*.tiktoken.xz), checking each file's published sha256.

This is the one copy of corpus data the package ships: it lets
mtok.get_encoding work offline. Run from the repo root:
    python tools/build_encodings.py [--corpus ../shared/corpus]
"""

import argparse
import hashlib
import lzma
import os
import sys

import importlib.util

# Loaded by path: the package itself needs its native module built.
_spec = importlib.util.spec_from_file_location(
    "openai_encodings", os.path.join(os.path.dirname(__file__), "..", "src", "mtok", "convert", "openai_encodings.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
BY_HASH = _mod.BY_HASH


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus"))
    args = ap.parse_args()
    out_dir = os.path.join(os.path.dirname(__file__), "..", "src", "mtok", "data")
    os.makedirs(out_dir, exist_ok=True)
    for digest, name in sorted(BY_HASH.items(), key=lambda kv: kv[1]):
        src = os.path.join(args.corpus, "tiktoken", name + ".tiktoken")
        with open(src, "rb") as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() != digest:
            print(f"{src}: sha256 does not match the published {name} file", file=sys.stderr)
            return 1
        dst = os.path.join(out_dir, name + ".tiktoken.xz")
        with open(dst, "wb") as f:
            f.write(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
        print(f"{dst}: {os.path.getsize(dst)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
