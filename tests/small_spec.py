"""A small hand-made tokenizer spec that uses every section of the format,
for round-trip and hostile-file tests."""


def small_spec():
    chars = [chr(c) for c in range(ord("a"), ord("z") + 1)] + ["Ġ", "!", "."]
    vocab = {c: i for i, c in enumerate(chars)}
    merges = []
    for a, b in [("h", "e"), ("l", "l"), ("he", "ll"), ("Ġ", "w"), ("o", "r"), ("Ġw", "or")]:
        vocab.setdefault(a + b, len(vocab))
        merges.append(f"{a} {b}")
    n = len(vocab)
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "normalizer": {"type": "Sequence", "normalizers": [
            {"type": "NFC"}, {"type": "Replace", "pattern": {"String": "\t"}, "content": " "}]},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": r"\s+|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+"},
             "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]},
        "model": {"type": "BPE", "vocab": vocab, "merges": merges, "ignore_merges": True,
                  "dropout": None, "unk_token": None, "byte_fallback": False, "fuse_unk": False,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "TemplateProcessing",
                           "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                      {"Sequence": {"id": "A", "type_id": 0}}],
                           "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                    {"Sequence": {"id": "B", "type_id": 1}}],
                           "special_tokens": {"<s>": {"id": "<s>", "ids": [n], "tokens": ["<s>"]}}},
        "added_tokens": [
            {"id": n, "content": "<s>", "special": True, "lstrip": False, "rstrip": False,
             "single_word": False, "normalized": False},
            {"id": n + 1, "content": "</s>", "special": True, "lstrip": True, "rstrip": True,
             "single_word": False, "normalized": False},
        ],
        "mtok": {"chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}",
                 "eos_token": "</s>", "bos_token": "<s>", "stop_ids": [n + 1]},
    }
