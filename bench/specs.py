"""The tokenizers the suites know: every tokenizer in the shared corpus,
with the file each library loads and the library whose ids are the truth.

A `TokSpec` holds absolute paths once `resolve()`d, and round-trips through
a dict so a subprocess worker can receive it.
"""

import dataclasses
from typing import Optional

from . import corpus


@dataclasses.dataclass
class TokSpec:
    name: str
    model: str                      # "bpe", "unigram" or "wordpiece"
    reference: str                  # library whose ids are the truth
    json: Optional[str] = None      # tokenizer.json
    tiktoken: Optional[str] = None  # .tiktoken rank file
    encoding: Optional[str] = None  # OpenAI encoding name of that file
    spm: Optional[str] = None       # SentencePiece .model
    mtok: Optional[str] = None      # exported .mtok (filled by resolve)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "TokSpec":
        return cls(**d)


T = "tokenizers/"
# name -> TokSpec with paths relative to the corpus. "built:" means a file
# the harness makes (see spm_model.py).
CATALOG = {s.name: s for s in (
    TokSpec("o200k", "bpe", "tiktoken", json=T + "gpt-4o-o200k-hf/tokenizer.json",
            tiktoken="tiktoken/o200k_base.tiktoken", encoding="o200k_base"),
    # The same o200k from its tokenizer.json alone: every library loads that file.
    TokSpec("o200k-hf", "bpe", "tokenizers", json=T + "gpt-4o-o200k-hf/tokenizer.json"),
    TokSpec("llama3", "bpe", "tokenizers", json=T + "llama3/tokenizer.json"),
    TokSpec("qwen3", "bpe", "tokenizers", json=T + "qwen3/tokenizer.json"),
    TokSpec("gemma3", "bpe", "tokenizers", json=T + "gemma3/tokenizer.json"),
    TokSpec("gpt2", "bpe", "tokenizers", json=T + "gpt2/tokenizer.json"),
    TokSpec("mistral-7b-v0.1", "bpe", "tokenizers", json=T + "mistral-7b-v0.1/tokenizer.json"),
    TokSpec("xlm-roberta", "unigram", "tokenizers", json=T + "xlm-roberta/tokenizer.json",
            spm="built:xlm-roberta"),
    TokSpec("t5-small", "unigram", "tokenizers", json=T + "t5-small/tokenizer.json",
            spm=T + "t5-small/spiece.model"),
    TokSpec("bert-base-uncased", "wordpiece", "tokenizers", json=T + "bert-base-uncased/tokenizer.json"),
    TokSpec("llama2", "bpe", "sentencepiece", spm=T + "llama2/tokenizer.model"),
    TokSpec("mistral-v1", "bpe", "sentencepiece", spm=T + "mistral/tokenizer.model.v1"),
    TokSpec("sp-test", "unigram", "sentencepiece", spm=T + "sentencepiece-test/test_model.model"),
    TokSpec("sp-test-ja", "unigram", "sentencepiece", spm=T + "sentencepiece-test/test_ja_model.model"),
    TokSpec("r50k_base", "bpe", "tiktoken", tiktoken="tiktoken/r50k_base.tiktoken", encoding="r50k_base"),
    TokSpec("p50k_base", "bpe", "tiktoken", tiktoken="tiktoken/p50k_base.tiktoken", encoding="p50k_base"),
    TokSpec("cl100k_base", "bpe", "tiktoken", tiktoken="tiktoken/cl100k_base.tiktoken",
            encoding="cl100k_base"),
)}

# What each suite runs by default.
BPE_DEFAULT = ("o200k", "llama3", "qwen3")
UNIGRAM_DEFAULT = ("xlm-roberta",)
LOAD_DEFAULT = tuple(n for n in CATALOG if n != "o200k-hf")  # o200k loads its tokenizer.json already
# The traffic suite: the five tokenizers, every one from its tokenizer.json.
TRAFFIC_DEFAULT = ("llama3", "qwen3", "o200k-hf", "bert-base-uncased", "xlm-roberta")


def resolve(name: str, *, with_mtok: bool = True) -> TokSpec:
    """The spec with absolute paths: .xz files decompressed, the built
    SentencePiece model written and (with_mtok) the .mtok exported."""
    if name not in CATALOG:
        raise KeyError(f"unknown tokenizer {name!r}; known: {', '.join(CATALOG)}")
    spec = dataclasses.replace(CATALOG[name])
    if spec.json:
        spec.json = str(corpus.file_path(spec.json))
    if spec.tiktoken:
        spec.tiktoken = str(corpus.file_path(spec.tiktoken))
    if spec.spm and spec.spm.startswith("built:"):
        from .spm_model import built_model_path

        spec.spm = str(built_model_path(spec))
    elif spec.spm:
        spec.spm = str(corpus.file_path(spec.spm))
    if with_mtok:
        from .mtok_export import exported_path

        spec.mtok = str(exported_path(spec))
    return spec
