"""What MNN's legacy tokenizer.txt files do not record, supplied at load time.

A type 1 (tiktoken) or type 3 (HuggingFace BPE) file holds no split regex;
a type 2 (BERT) file does not say whether the model is cased; a type 0
(SentencePiece) file does not say whether the model is BPE or Unigram.
`LegacyOptions` carries those facts; presets name the common ones so a user
can say `pattern="llama3"` instead of pasting a regex (docs/legacy_txt.md).
"""

import re
from dataclasses import dataclass, field

from ...errors import FormatError
from ..openai_encodings import CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN

# The regex HF's ByteLevel(use_regex=True) runs (GPT-2's).
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
# The Split regexes of Llama 3's and Qwen 2/2.5/3's tokenizer.json.
LLAMA3_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
                  r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN2_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"""
                 r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")


@dataclass(frozen=True)
class Preset:
    """A named pipeline family: its split regex and what else its
    tokenizer.json sets that a legacy file cannot say."""

    pattern: str
    normalizer: str = None       # "NFC", "NFKC", "NFD", "NFKD" or None
    ignore_merges: bool = False  # Llama 3: whole pre-token looked up first


PRESETS = {
    "gpt2": Preset(GPT2_PATTERN),
    "r50k_base": Preset(R50K_PATTERN),
    "p50k_base": Preset(R50K_PATTERN),
    "cl100k_base": Preset(CL100K_PATTERN),
    "o200k_base": Preset(O200K_PATTERN),
    "llama3": Preset(LLAMA3_PATTERN, ignore_merges=True),
    "qwen2": Preset(QWEN2_PATTERN, normalizer="NFC"),
}

UNICODE_FORMS = ("NFC", "NFD", "NFKC", "NFKD")
SP_MODELS = ("bpe", "unigram")
_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


@dataclass
class LegacyOptions:
    """Load-time facts for a legacy file. None means "not given"."""

    pattern: str = None         # types 1 and 3: a preset name or a regex
    normalizer: str = None      # types 1 and 3: a Unicode form (overrides the preset's)
    ignore_merges: bool = None  # type 3 (overrides the preset's)
    lowercase: bool = None      # type 2: uncased model (default: inferred from the vocab)
    strip_accents: bool = None  # type 2 (default: follows lowercase, as HF does)
    sp_model: str = None        # type 0: "bpe" (MNN's algorithm, the default) or "unigram"
    given: tuple = field(default=(), repr=False)

    @classmethod
    def from_kwargs(cls, **kwargs) -> "LegacyOptions":
        unknown = set(kwargs) - {"pattern", "normalizer", "ignore_merges", "lowercase",
                                 "strip_accents", "sp_model"}
        if unknown:
            raise FormatError(f"unknown legacy tokenizer.txt option(s): {', '.join(sorted(unknown))}")
        given = tuple(sorted(k for k, v in kwargs.items() if v is not None))
        opts = cls(**kwargs, given=given)
        if opts.normalizer is not None and opts.normalizer not in UNICODE_FORMS:
            raise FormatError(f"normalizer must be one of {', '.join(UNICODE_FORMS)}, got {opts.normalizer!r}")
        if opts.sp_model is not None and opts.sp_model not in SP_MODELS:
            raise FormatError(f"sp_model must be 'bpe' or 'unigram', got {opts.sp_model!r}")
        return opts

    def refuse_unused(self, legacy_type: int, allowed, where: str) -> None:
        """Options that do not apply to this type are an error, not ignored."""
        extra = [k for k in self.given if k not in allowed]
        if extra:
            raise FormatError(f"{where}: option(s) {', '.join(extra)} do not apply to a type "
                              f"{legacy_type} tokenizer.txt (it takes: {', '.join(allowed) or 'none'})")

    def resolve_pattern(self, where: str, what: str):
        """(regex, normalizer, ignore_merges) for types 1 and 3; raises when
        no pattern was given, saying what to pass."""
        if self.pattern is None:
            raise FormatError(
                f"{where}: a {what} tokenizer.txt does not record its split regex, so mtok cannot "
                f"tokenize it exactly without one. Pass pattern= (CLI: --pattern) with a regex or "
                f"one of: {', '.join(PRESETS)}")
        preset = PRESETS.get(self.pattern)
        if preset is None:
            if _NAME.fullmatch(self.pattern):
                raise FormatError(f"{where}: unknown pattern name {self.pattern!r} "
                                  f"(known: {', '.join(PRESETS)}); pass a regex for anything else")
            preset = Preset(self.pattern)
        normalizer = self.normalizer if self.normalizer is not None else preset.normalizer
        ignore = self.ignore_merges if self.ignore_merges is not None else preset.ignore_merges
        return preset.pattern, normalizer, ignore


def preset_name(pattern: str, normalizer=None, ignore_merges=None):
    """The preset that reproduces these facts exactly, or None
    (ignore_merges None: not a fact of this file type)."""
    for name, p in PRESETS.items():
        if p.pattern == pattern and p.normalizer == normalizer and ignore_merges in (None, p.ignore_merges):
            return name
    return None
