"""Each legacy tokenizer.txt type as a spec (a tokenizer.json-shaped dict).

What each type means is what MNN's loader runs, made exact where MNN's
runtime approximates (docs/legacy_txt.md): type 0 is SentencePiece BPE over
scores, type 1 tiktoken's rank BPE, type 2 BERT WordPiece, type 3 byte-level
BPE over merges. The facts a type does not record come from LegacyOptions.
"""

import copy

from ...errors import FormatError
from ..sp_merges import BYTE, BYTE_PIECE, SP_SPACE, UNKNOWN, UNUSED, USER_DEFINED, merges_from_scores
from ..tiktoken_file import spec_from_ranks

# What a type 0 file means around its model: "▁" before each text between
# added tokens, spaces as "▁", nothing else; decoded back the same way.
SP_NORMALIZER = {"type": "Sequence", "normalizers": [
    {"type": "Prepend", "prepend": SP_SPACE},
    {"type": "Replace", "pattern": {"String": " "}, "content": SP_SPACE}]}
SP_DECODER = {"type": "Sequence", "decoders": [
    {"type": "Replace", "pattern": {"String": SP_SPACE}, "content": " "},
    {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}


def _added(tid, content, special=True, normalized=False):
    return {"id": tid, "content": content, "special": special, "lstrip": False, "rstrip": False,
            "single_word": False, "normalized": normalized}


def _token_text(f, tid) -> str:
    token = f.tokens[tid]
    if isinstance(token, bytes):
        try:
            return token.decode("utf-8")
        except UnicodeDecodeError:
            f.fail(3, f"id {tid} is listed on line 3 but its token is not UTF-8 text")
    return token


def _specials(f) -> list:
    """Header special ids, once each, in file order. MNN splits them out of
    the text before encoding, as HF does with added tokens."""
    seen, out = set(), []
    for tid in f.special_ids:
        if tid not in seen:
            seen.add(tid)
            out.append(_added(tid, _token_text(f, tid)))
    return out


def _prefix_template(f):
    """The header's prefix ids, put before the text (MNN's encode does so)."""
    if not f.prefix_ids:
        return None
    names, items = {}, []
    for tid in f.prefix_ids:
        name = _token_text(f, tid)
        if names.get(name, {"ids": [tid]})["ids"] != [tid]:
            name = f"{name}#{tid}"  # two ids with one text: keep the names apart
        names[name] = {"id": name, "ids": [tid], "tokens": [_token_text(f, tid)]}
        items.append({"SpecialToken": {"id": name, "type_id": 0}})
    single = items + [{"Sequence": {"id": "A", "type_id": 0}}]
    pair = single + [{"Sequence": {"id": "B", "type_id": 1}}]
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": names}


def _finish(f, spec: dict) -> dict:
    """Adds what every type's header says: specials, stop ids, prefix."""
    if "added_tokens" not in spec:
        spec["added_tokens"] = _specials(f)
    spec["post_processor"] = _prefix_template(f)
    extra = dict(spec.get("mtok") or {})
    extra["stop_ids"] = list(f.stop_ids)
    extra["eos_token"] = _token_text(f, f.stop_ids[0]) if f.stop_ids else ""
    extra["bos_token"] = _token_text(f, f.prefix_ids[0]) if f.prefix_ids else ""
    spec["mtok"] = extra
    return spec


def _first_ids(f) -> dict:
    """token -> id; a token on two lines keeps its first id, as MNN's maps do."""
    vocab = {}
    for tid, token in enumerate(f.tokens):
        if token is not None and token not in vocab:
            vocab[token] = tid
    return vocab


def _unicode_normalizer(form):
    return {"type": form} if form else None


def sentencepiece_spec(f, opts) -> dict:
    opts.refuse_unused(0, ("sp_model",), f.where)
    pieces = f.pieces
    for tid, (text, _, kind) in enumerate(pieces):
        if kind == UNUSED and len(text) > 1:
            f.fail(5 + tid, f"piece {tid} ({text!r}) is UNUSED: SentencePiece merges into it and then "
                            "splits it again, which mtok does not implement")
    vocab = _first_ids(f)
    unk = next((i for i, p in enumerate(pieces) if p[2] == UNKNOWN), None)
    byte_fallback = any(kind == BYTE and BYTE_PIECE.fullmatch(text) for text, _, kind in pieces)
    if (opts.sp_model or "bpe") == "bpe":
        model = {"type": "BPE", "vocab": vocab, "merges": [list(m) for m in merges_from_scores(pieces)],
                 "unk_token": pieces[unk][0] if unk is not None else None, "byte_fallback": byte_fallback,
                 "fuse_unk": True, "dropout": None, "ignore_merges": False,
                 "continuing_subword_prefix": None, "end_of_word_suffix": None}
    else:
        if unk is None:
            f.fail(4, "a Unigram model needs an UNKNOWN piece (type 2)")
        model = {"type": "Unigram", "unk_id": unk, "byte_fallback": byte_fallback,
                 "vocab": [[text, score] for text, score, _ in pieces]}
    added = _specials(f)
    listed = {t["id"] for t in added}
    # USER_DEFINED pieces are matched whole in the normalized text, as
    # SentencePiece does.
    added += [_added(i, p[0], special=False, normalized=True)
              for i, p in enumerate(pieces) if p[2] == USER_DEFINED and i not in listed]
    spec = {
        "normalizer": copy.deepcopy(SP_NORMALIZER),
        "pre_tokenizer": None,
        "model": model,
        "decoder": copy.deepcopy(SP_DECODER),
        "added_tokens": added,
    }
    return _finish(f, spec)


def tiktoken_spec(f, opts) -> dict:
    opts.refuse_unused(1, ("pattern", "normalizer"), f.where)
    pattern, normalizer, _ = opts.resolve_pattern(f.where, "type 1 (tiktoken)")
    specials = {}
    for t in _specials(f):
        specials[t["content"]] = t["id"]
    special_ids = set(specials.values())
    ranks = {}
    for tid, token in enumerate(f.tokens):
        if token is not None and tid not in special_ids and token not in ranks:
            ranks[token] = tid
    try:
        spec = spec_from_ranks(ranks, pattern, specials)
    except FormatError as e:
        raise FormatError(f"{f.where}: {e}") from None
    spec["normalizer"] = _unicode_normalizer(normalizer)
    return _finish(f, spec)


def is_cased(vocab) -> bool:
    """True when lowercasing would change some ordinary token, which an
    uncased (lowercasing) model could then never produce."""
    return any(token.lower() != token for token in vocab
               if not (token.startswith("[") and token.endswith("]")))


def bert_spec(f, opts) -> dict:
    opts.refuse_unused(2, ("lowercase", "strip_accents"), f.where)
    vocab = _first_ids(f)
    if "[UNK]" not in vocab:
        f.fail(4, "a BERT vocab needs the token [UNK] (MNN's runtime and mtok use it for unknown words)")
    lowercase = opts.lowercase
    if lowercase is None:
        if is_cased(vocab):
            raise FormatError(
                f"{f.where}: this BERT vocab holds tokens that lowercasing would change, so the model "
                "may be cased, and a "
                "type 2 file does not say (MNN's runtime always lowercases ASCII). Pass lowercase=False "
                "for a cased model or lowercase=True (CLI: --lowercase no|yes)")
        lowercase = True
    strip = opts.strip_accents
    spec = {
        "normalizer": {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                       "strip_accents": strip, "lowercase": lowercase},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "model": {"type": "WordPiece", "vocab": vocab, "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##", "max_input_chars_per_word": 100},
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
    }
    return _finish(f, spec)


def huggingface_spec(f, opts) -> dict:
    opts.refuse_unused(3, ("pattern", "normalizer", "ignore_merges"), f.where)
    pattern, normalizer, ignore_merges = opts.resolve_pattern(f.where, "type 3 (HuggingFace BPE)")
    vocab = _first_ids(f)
    merges = []
    for left, right, line in f.merges:
        for token in (left, right, left + right):
            if token not in vocab:
                f.fail(line, f"merge {left!r} {right!r}: {token!r} is not in the vocab")
        merges.append([left, right])
    spec = {
        "normalizer": _unicode_normalizer(normalizer),
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}]},
        "model": {"type": "BPE", "vocab": vocab, "merges": merges, "ignore_merges": ignore_merges,
                  "dropout": None, "unk_token": None, "byte_fallback": False, "fuse_unk": False,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None},
        "decoder": {"type": "ByteLevel"},
    }
    return _finish(f, spec)


BUILDERS = {0: sentencepiece_spec, 1: tiktoken_spec, 2: bert_spec, 3: huggingface_spec}
