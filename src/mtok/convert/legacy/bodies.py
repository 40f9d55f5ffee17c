"""The vocab lines of each legacy tokenizer.txt type, and the checks that say
what each type cannot record (docs/legacy_txt.md)."""

import base64

from .options import GPT2_PATTERN, UNICODE_FORMS, preset_name
from .specs import SP_DECODER, SP_NORMALIZER, is_cased
from ..sp_merges import (BYTE, BYTE_PIECE, CONTROL, NORMAL, SP_SPACE, UNKNOWN, check_round_trip,
                                 scores_from_merges)
from ..tiktoken_file import BYTE_CHARS
from ...errors import FormatError
from ...format.models import _merge_pairs

_CHAR_BYTES = {c: b for b, c in BYTE_CHARS.items()}


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _id_table(spec, vocab: dict, out) -> list:
    """Token text per id (vocab first, then added tokens beyond it); None
    where no token has the id."""
    ids = dict((i, t) for t, i in vocab.items())
    for t in spec.get("added_tokens") or []:
        if ids.setdefault(t["id"], t["content"]) != t["content"]:
            out.losses.append(f"added token {t['content']!r} shares id {t['id']} with vocab token "
                              f"{ids[t['id']]!r}; a line holds one token")
    table = [None] * (max(ids) + 1 if ids else 0)
    for i, t in ids.items():
        table[i] = t
    return table


def _pattern_options(out, pattern, normalizer, ignore_merges) -> None:
    """load_options for the split regex: a preset name when one matches."""
    name = preset_name(pattern, normalizer, ignore_merges)
    if name is not None:
        out.load_options["pattern"] = name
        return
    out.load_options["pattern"] = pattern
    if normalizer:
        out.load_options["normalizer"] = normalizer
    if ignore_merges:
        out.load_options["ignore_merges"] = True


def _unicode_form(spec, out):
    norm = spec.get("normalizer")
    if norm is None:
        return None
    if norm.get("type") in UNICODE_FORMS:
        return norm["type"]
    out.losses.append(f"normalizer {norm.get('type')!r} cannot be recorded (only a Unicode form can be "
                      "passed back at load time)")
    return None


def _check_decoder(spec, out, want: dict) -> None:
    have = spec.get("decoder")
    # ByteLevel's options change offsets only, not the decoded text.
    same = (have or {}).get("type") == "ByteLevel" if want == {"type": "ByteLevel"} else have == want
    if not same:
        out.losses.append(f"decoder {have!r} differs from the type's fixed decoder {want!r}")


def _byte_level_split(pre):
    """(regex, behavior, invert) of a byte-level BPE pre-tokenizer: a regex
    split then ByteLevel without a prefix space; None otherwise."""
    if pre and pre.get("type") == "ByteLevel" and pre.get("use_regex", True) \
            and not pre.get("add_prefix_space", True):
        return GPT2_PATTERN, "Isolated", False
    if pre and pre.get("type") == "Sequence" and len(pre.get("pretokenizers", [])) == 2:
        split, level = pre["pretokenizers"]
        regex = (split.get("pattern") or {}).get("Regex")
        if split.get("type") == "Split" and regex and level.get("type") == "ByteLevel" \
                and not level.get("use_regex", True) and not level.get("add_prefix_space", True):
            return regex, split.get("behavior"), bool(split.get("invert", False))
    return None


def _dialect(spec):
    """The regex dialect a .tiktoken import marks on its Split, or None."""
    parts = (spec.get("pre_tokenizer") or {}).get("pretokenizers") or [{}]
    return parts[0].get("mtok_dialect")


def _huggingface(spec, out) -> list:
    model = spec["model"]
    if model.get("mtok_rank_merges"):
        raise FormatError("this BPE merges by token rank (tiktoken); write it as type 1")
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key):
            out.losses.append(f"BPE {key} {model[key]!r} cannot be recorded")
    if model.get("byte_fallback"):
        out.losses.append("BPE byte_fallback cannot be recorded (write type 0)")
    split = _byte_level_split(spec.get("pre_tokenizer"))
    pattern = split[0] if split and split[1:] == ("Isolated", False) else None
    if pattern is None:
        out.losses.append(f"pre-tokenizer {spec.get('pre_tokenizer')!r} is not a regex split (Isolated) "
                          "then ByteLevel without a prefix space")
    elif _dialect(spec) == "rust":
        out.losses.append("the split regex is in tiktoken's dialect; a type 3 file is read with HF's")
    normalizer = _unicode_form(spec, out)
    _check_decoder(spec, out, {"type": "ByteLevel"})
    ignore = bool(model.get("ignore_merges", False))
    if pattern is not None:
        _pattern_options(out, pattern, normalizer, ignore)
    table = _id_table(spec, model["vocab"], out)
    lines = []
    for i, token in enumerate(table):
        if token is not None and ("\n" in token or not token):
            raise FormatError(f"token {i} ({token!r}) cannot be a line of a type 3 file")
        lines.append(token or "")
    merges = []
    for a, b in _merge_pairs(model):
        if " " in a or " " in b:
            raise FormatError(f"merge {a!r} {b!r}: a type 3 merge line cannot hold a token with a space")
        merges.append(f"{a} {b}")
    return [f"{len(lines)} {len(merges)}"] + lines + merges


def _tiktoken(spec, out) -> list:
    model = spec["model"]
    if not model.get("mtok_rank_merges"):
        raise FormatError("a type 1 file holds tiktoken ranks; this BPE has merges (write type 3)")
    split = _byte_level_split(spec.get("pre_tokenizer"))
    pattern = split[0] if split and split[1:] == ("Removed", True) else None
    if pattern is None:
        raise FormatError("a type 1 file needs tiktoken's pre-tokenizer (a regex keeping the matches, "
                          "then ByteLevel)")
    normalizer = _unicode_form(spec, out)
    _check_decoder(spec, out, {"type": "ByteLevel"})
    _pattern_options(out, pattern, normalizer, None)
    added = {t["id"] for t in spec.get("added_tokens") or []}
    lines = []
    for i, token in enumerate(_id_table(spec, model["vocab"], out)):
        if token is None:
            lines.append("")  # an id no token has (cl100k's 100256)
        elif i in added:
            lines.append(_b64(token.encode("utf-8")))
        elif all(c in _CHAR_BYTES for c in token):
            lines.append(_b64(bytes(_CHAR_BYTES[c] for c in token)))
        else:
            raise FormatError(f"token {i} ({token!r}) is not byte-level text")
    return [str(len(lines))] + lines


def _bert(spec, out) -> list:
    model = spec["model"]
    fixed = {"unk_token": "[UNK]", "continuing_subword_prefix": "##", "max_input_chars_per_word": 100}
    for key, want in fixed.items():
        if model.get(key, want) != want:
            out.losses.append(f"WordPiece {key} is {model[key]!r}; a type 2 file means {want!r}")
    norm = spec.get("normalizer") or {}
    if norm.get("type") != "BertNormalizer" or not norm.get("clean_text", True) \
            or not norm.get("handle_chinese_chars", True):
        out.losses.append(f"normalizer {spec.get('normalizer')!r} is not BertNormalizer with clean_text "
                          "and handle_chinese_chars")
    lowercase = bool(norm.get("lowercase", True))
    strip = norm.get("strip_accents")
    strip = lowercase if strip is None else bool(strip)
    if not lowercase or is_cased(model["vocab"]):
        out.load_options["lowercase"] = lowercase
    if strip != lowercase:
        out.load_options["strip_accents"] = strip
    if (spec.get("pre_tokenizer") or {}).get("type") != "BertPreTokenizer":
        out.losses.append(f"pre-tokenizer {spec.get('pre_tokenizer')!r} is not BertPreTokenizer")
    _check_decoder(spec, out, {"type": "WordPiece", "prefix": "##", "cleanup": True})
    lines = [_b64(t.encode("utf-8")) if t is not None else "" for t in _id_table(spec, model["vocab"], out)]
    return [str(len(lines))] + lines


def _sentencepiece(spec, out) -> list:
    model = spec["model"]
    if spec.get("normalizer") != SP_NORMALIZER or spec.get("pre_tokenizer") is not None:
        out.losses.append("a type 0 file means: prepend U+2581 to each text between added tokens and turn "
                          "spaces into U+2581, nothing else; this tokenizer normalizes or pre-tokenizes "
                          "differently")
    _check_decoder(spec, out, SP_DECODER)
    if model["type"] == "Unigram":
        out.load_options["sp_model"] = "unigram"
        vocab = {piece: i for i, (piece, _) in enumerate(model["vocab"])}
        scores = {piece: float(score) for piece, score in model["vocab"]}
        unk = model["vocab"][model["unk_id"]][0] if model.get("unk_id") is not None else None
    else:
        vocab = model["vocab"]
        for key in ("continuing_subword_prefix", "end_of_word_suffix", "ignore_merges"):
            if model.get(key):
                out.losses.append(f"BPE {key} cannot be recorded in a type 0 file")
        merges = [tuple(m) for m in _merge_pairs(model)]
        scores = scores_from_merges(merges)
        unk = model.get("unk_token")
        if unk is not None and not model.get("byte_fallback") and not model.get("fuse_unk"):
            out.losses.append("BPE fuse_unk=false cannot be recorded (a type 0 file fuses unknowns)")
    specials = {t["id"] for t in spec.get("added_tokens") or [] if t.get("special")}
    byte_fallback = bool(model.get("byte_fallback"))
    pieces = []
    for i, text in enumerate(_id_table(spec, vocab, out)):
        if text is None:
            raise FormatError(f"a type 0 file has a piece for every id; no token has id {i}")
        if " " in text:
            raise FormatError(f"piece {i} ({text!r}) holds a space, which a type 0 file cannot record")
        if text == unk:
            kind = UNKNOWN
        elif i in specials:
            kind = CONTROL
        elif byte_fallback and BYTE_PIECE.fullmatch(text):
            kind = BYTE
        else:
            kind = NORMAL
        pieces.append((text, scores.get(text, 0.0), kind))
    if model["type"] != "Unigram":
        try:
            check_round_trip(pieces, merges, "type 0")
        except FormatError as e:
            out.losses.append(str(e))
    # MNN's exporter writes U+2581 as a space.
    lines = [f"{_b64(text.replace(SP_SPACE, ' ').encode('utf-8'))} {score!r} {kind}"
             for text, score, kind in pieces]
    return [str(len(lines))] + lines


BODY_WRITERS = {0: _sentencepiece, 1: _tiktoken, 2: _bert, 3: _huggingface}


def choose_type(spec) -> int:
    """The legacy type a spec's model fits."""
    model = spec.get("model") or {}
    kind = model.get("type")
    if kind == "WordPiece":
        return 2
    if kind == "Unigram":
        return 0
    if kind == "BPE":
        if model.get("mtok_rank_merges"):
            return 1
        if model.get("byte_fallback") or spec.get("normalizer") == SP_NORMALIZER:
            return 0
        return 3
    raise FormatError(f"a {kind} model has no legacy tokenizer.txt type")
