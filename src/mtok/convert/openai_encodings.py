"""OpenAI's public tiktoken encodings: split patterns, special tokens and the
sha256 of each rank file (facts of the published encodings)."""

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

R50K_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])


def _harmony_specials():
    specials = {
        "<|startoftext|>": 199998, ENDOFTEXT: 199999, ENDOFPROMPT: 200018,
        "<|reserved_200000|>": 200000, "<|reserved_200001|>": 200001, "<|return|>": 200002,
        "<|constrain|>": 200003, "<|reserved_200004|>": 200004, "<|channel|>": 200005,
        "<|start|>": 200006, "<|end|>": 200007, "<|message|>": 200008,
        "<|reserved_200009|>": 200009, "<|reserved_200010|>": 200010,
        "<|reserved_200011|>": 200011, "<|call|>": 200012,
    }
    specials.update({f"<|reserved_{i}|>": i for i in range(200013, 201088)})
    return specials


# name -> (rank file, sha256 of the rank file, pattern, special tokens, explicit n_vocab)
ENCODING_SPECS = {
    "gpt2": ("r50k_base", "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
             R50K_PATTERN, {ENDOFTEXT: 50256}, 50257),
    "r50k_base": ("r50k_base", "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
                  R50K_PATTERN, {ENDOFTEXT: 50256}, 50257),
    "p50k_base": ("p50k_base", "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
                  R50K_PATTERN, {ENDOFTEXT: 50256}, 50281),
    "p50k_edit": ("p50k_base", "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
                  R50K_PATTERN,
                  {ENDOFTEXT: 50256, FIM_PREFIX: 50281, FIM_MIDDLE: 50282, FIM_SUFFIX: 50283}, None),
    "cl100k_base": ("cl100k_base", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                    CL100K_PATTERN,
                    {ENDOFTEXT: 100257, FIM_PREFIX: 100258, FIM_MIDDLE: 100259, FIM_SUFFIX: 100260,
                     ENDOFPROMPT: 100276}, None),
    "o200k_base": ("o200k_base", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                   O200K_PATTERN, {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}, None),
    "o200k_harmony": ("o200k_base", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                      O200K_PATTERN, _harmony_specials(), None),
}

# sha256 of a rank file -> the base encoding it belongs to (for recognising files).
BY_HASH = {}
for _name in ("r50k_base", "p50k_base", "cl100k_base", "o200k_base"):
    BY_HASH[ENCODING_SPECS[_name][1]] = _name
