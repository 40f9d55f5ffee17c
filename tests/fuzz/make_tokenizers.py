"""Converts one corpus tokenizer per model family to .mtok, for the
fuzz_encode target (MTOK_FUZZ_TOKENIZER) and the encode seeds.

    PYTHONPATH=src:tests python tests/fuzz/make_tokenizers.py build/fuzz/tokenizers
"""

import json
import sys
import tempfile
from pathlib import Path

import mtok
from mtok.convert import to_mtok_bytes
from corpus import file_path

# family -> corpus path parts: each exercises a different model or pipeline.
FAMILIES = {
    "gpt2": ("tokenizers", "gpt2", "tokenizer.json"),              # byte-level BPE, GPT-2 regex
    "llama3": ("tokenizers", "llama3", "tokenizer.json"),          # byte-level BPE, ignore_merges
    "o200k": ("tokenizers", "gpt-4o-o200k-hf", "tokenizer.json"),  # byte-level BPE, o200k regex
    "qwen3": ("tokenizers", "qwen3", "tokenizer.json"),            # NFC + byte-level BPE
    "cl100k": ("tiktoken", "cl100k_base.tiktoken"),                # tiktoken rank merges
    "bert": ("tokenizers", "bert-base-uncased", "tokenizer.json"),  # WordPiece
    "t5": ("tokenizers", "t5-small", "tokenizer.json"),            # Unigram, Precompiled
    "xlmr": ("tokenizers", "xlm-roberta", "tokenizer.json"),       # Unigram
    "mistral": ("tokenizers", "mistral-7b-v0.1", "tokenizer.json"),  # BPE, byte fallback
    "llama2_spm": ("tokenizers", "llama2", "tokenizer.model"),     # SentencePiece BPE
    "t5_spm": ("tokenizers", "t5-small", "spiece.model"),          # SentencePiece Unigram
}

# GPT-2's split pattern in a group, so no hand-written scanner recognises it
# and the backtracking regex engine (with its budget) runs instead.
GENERIC_REGEX = (r"""(?:'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)""")
SPLIT = {"type": "Split", "pattern": {"Regex": GENERIC_REGEX}, "behavior": "Isolated", "invert": False}
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
# gpt2 with regex stages: name -> pre-tokenizers. [Split, ByteLevel] takes the
# byte-level fast route; with Whitespace (also a regex) first, the general one.
REGEX_VARIANTS = {
    "gpt2_regex": [SPLIT, BYTE_LEVEL],
    "gpt2_whitespace": [{"type": "Whitespace"}, SPLIT, BYTE_LEVEL],
}


def regex_variant(pre_tokenizers: list, dest: Path) -> Path:
    spec = json.loads(file_path("tokenizers", "gpt2", "tokenizer.json").read_text())
    spec["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": pre_tokenizers}
    spec["normalizer"] = {"type": "Replace", "pattern": {"Regex": r"(?:\r\n|\r)+"}, "content": "\n"}
    dest.write_text(json.dumps(spec))
    return dest


def main(out_dir: str) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, parts in FAMILIES.items():
        # The pure-Python writer: no native build needed to make the files.
        try:
            data = to_mtok_bytes(str(file_path(*parts)))
        except mtok.MtokError as e:  # a family mtok cannot convert yet
            print(f"{name}: skipped ({e})")
            continue
        (out / f"{name}.mtok").write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, pre_tokenizers in REGEX_VARIANTS.items():
        with tempfile.TemporaryDirectory() as tmp:
            data = to_mtok_bytes(str(regex_variant(pre_tokenizers, Path(tmp) / "tokenizer.json")))
        (out / f"{name}.mtok").write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/fuzz/tokenizers")
