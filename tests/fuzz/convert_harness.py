"""One fuzz input through the public loading path, shared by the atheris
target (fuzz_convert.py) and any regression test of its findings.

The input is written as a file of the given kind and loaded with
mtok.Tokenizer.from_file; a tokenizer that loads must encode and decode.
Only mtok.MtokError may escape: anything else is a bug to fix."""

import os
import tempfile

import mtok

FILE_NAMES = {"json": "tokenizer.json", "model": "tokenizer.model", "tiktoken": "ranks.tiktoken",
              "txt": "tokenizer.txt", "mtok": "tokenizer.mtok"}
# A .tiktoken file that is not one of OpenAI's needs its split pattern.
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
                  r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
PROBES = ["Hello world", " <s> [CLS] <|endoftext|> x", "", "日本語 don't 123 \t\n  ", "é" * 40]

_DIR = tempfile.mkdtemp(prefix="mtok-fuzz-")


def run_one(kind: str, data: bytes) -> None:
    path = os.path.join(_DIR, FILE_NAMES[kind])
    with open(path, "wb") as f:
        f.write(data)
    try:
        pattern = CL100K_PATTERN if kind == "tiktoken" else None
        tok = mtok.Tokenizer.from_file(path, pattern=pattern)
    except mtok.MtokError:
        return
    for text in PROBES:
        try:
            ids = tok.encode(text)
        except mtok.EncodeError:
            continue
        tok.decode(ids)
        tok.decode(ids, skip_special_tokens=True)
    tok.decode(list(range(64)))
