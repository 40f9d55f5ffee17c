"""Converts one corpus tokenizer per model family to .mtok, for the
fuzz_encode target (MTOK_FUZZ_TOKENIZER) and the encode seeds.

    PYTHONPATH=src:tests python tests/fuzz/make_tokenizers.py build/fuzz/tokenizers
"""

import sys
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


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/fuzz/tokenizers")
