"""What MNN's exporter (transformers/llm/export/utils/tokenizer.py) writes, re-
implemented independently from its documented behaviour, so tests can feed
mtok the files MNN users actually have.

`mnn_mtok(folder)` is the .mtok of a tokenizer.json (seed type codes only);
`mnn_txt_sentencepiece`, `mnn_txt_huggingface` and `mnn_txt_bert` are the
legacy tokenizer.txt files of its fallback path. Where MNN asks the
`transformers` tokenizer for ids (special, stop, prefix), these helpers use
the same facts from tokenizer.json / tokenizer_config.json.
"""

import base64
import functools
import json
import struct
import unicodedata
from pathlib import Path

# --- little-endian pieces ---------------------------------------------------


def u8(v):
    return struct.pack("<B", v)


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def s16(text) -> bytes:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return u16(len(raw)) + raw


# --- per-code-point normalization tables ------------------------------------


@functools.lru_cache(maxsize=None)
def norm_table(form: str) -> bytes:
    """Every code point whose `form` differs from itself, with its UTF-8
    result: one lookup per code point, so nothing composes across them."""
    entries = []
    for cp in range(0x110000):
        ch = chr(cp)
        out = unicodedata.normalize(form, ch)
        if out != ch:
            entries.append(u32(cp) + s16(out.encode("utf-8", "surrogatepass")))
    return u32(len(entries)) + b"".join(entries)


def table_map(form: str):
    """The same table as a Python function over text (for reference runs)."""
    cache = {}

    def apply(text: str) -> str:
        out = []
        for ch in text:
            if ch not in cache:
                cache[ch] = unicodedata.normalize(form, ch)
            out.append(cache[ch])
        return "".join(out)
    return apply


# --- sections ----------------------------------------------------------------


def _pattern_text(pattern, kinds=("String",)):
    if isinstance(pattern, dict):
        for kind in kinds:
            if kind in pattern:
                return pattern[kind]
        return ""
    return pattern if isinstance(pattern, str) else ""


def normalizer(spec) -> bytes:
    if spec is None:
        return u8(0)
    kind = spec.get("type", "")
    if kind in ("NFKC", "Precompiled", "NFKD"):
        return u8(6) + norm_table("NFKC")  # all three become an NFKC table
    if kind == "NFC":
        return u8(6) + norm_table("NFC")
    if kind == "Prepend":
        return u8(2) + s16(spec.get("prepend", ""))
    if kind == "Replace":  # a Regex pattern is written as "" (a no-op)
        return u8(3) + s16(_pattern_text(spec.get("pattern"))) + s16(spec.get("content", ""))
    if kind == "Sequence":
        parts = spec.get("normalizers", [])
        return u8(4) + u32(len(parts)) + b"".join(normalizer(p) for p in parts)
    if kind == "BertNormalizer":
        strip = spec.get("strip_accents", False)
        if strip is None and spec.get("lowercase", True):
            strip = True
        strip = int(bool(strip))
        body = bytes([int(spec.get("clean_text", True)), int(spec.get("handle_chinese_chars", True)),
                      strip, int(spec.get("lowercase", True))])
        return (u8(7) + body + norm_table("NFD")) if strip else (u8(5) + body)
    if kind == "Lowercase":
        return u8(5) + bytes([0, 0, 0, 1])
    if kind == "StripAccents":
        return u8(7) + bytes([0, 0, 1, 0]) + norm_table("NFD")
    if kind == "Strip":
        return u8(8) + bytes([int(spec.get("strip_left", True)), int(spec.get("strip_right", True))])
    return u8(0)  # anything else (NFD, ...) is dropped


# MNN's Split behaviours; every other HF behaviour becomes Removed.
SPLIT_BEHAVIOR = {"Isolated": 0, "MergedWithPrevious": 2}


def pre_tokenizer(spec) -> bytes:
    if spec is None:
        return u8(0)
    kind = spec.get("type", "")
    if kind == "ByteLevel":  # add_prefix_space is dropped
        return u8(1) + u8(int(spec.get("use_regex", True)))
    if kind == "Digits":
        return u8(2) + u8(int(spec.get("individual_digits", False)))
    if kind == "Metaspace":  # prepend_scheme and split are dropped
        return u8(3) + s16(spec.get("replacement", "\u2581")) + u8(int(spec.get("add_prefix_space", True)))
    if kind == "Split":  # a String pattern is written where a regex goes
        pattern = _pattern_text(spec.get("pattern"), ("Regex", "String"))
        return (u8(4) + s16(pattern) + u8(int(spec.get("invert", False)))
                + u8(SPLIT_BEHAVIOR.get(spec.get("behavior", "Isolated"), 1)))
    if kind == "BertPreTokenizer":
        return u8(5)
    if kind == "Sequence":
        parts = spec.get("pretokenizers", [])
        return u8(6) + u32(len(parts)) + b"".join(pre_tokenizer(p) for p in parts)
    if kind == "WhitespaceSplit":
        return u8(4) + s16(r"\s+") + u8(0) + u8(1)
    return u8(0)


def _contains(spec, kind, key) -> bool:
    """spec is `kind`, or a Sequence with a `kind` among spec[key]."""
    if not spec:
        return False
    if spec.get("type") == kind:
        return True
    return spec.get("type") == "Sequence" and any(p.get("type") == kind for p in spec.get(key, []))


def model(tj) -> bytes:
    m = tj.get("model", {})
    kind = m.get("type", "")
    if not kind:
        if "continuing_subword_prefix" in m and "merges" not in m:
            kind = "WordPiece"
        elif isinstance(m.get("vocab"), list):
            kind = "Unigram"
        else:
            kind = "BPE"
    if kind == "BPE":
        vocab = m.get("vocab", {})
        pre = tj.get("pre_tokenizer")
        # MNN sets byte_level only for a Sequence without ByteLevel whose decoder is ByteLevel.
        byte_level = int(bool(pre) and pre.get("type") == "Sequence"
                         and not _contains(pre, "ByteLevel", "pretokenizers")
                         and _contains(tj.get("decoder"), "ByteLevel", "decoders"))
        merges = []
        for rank, merge in enumerate(m.get("merges", [])):
            a, b = merge.split(" ", 1) if isinstance(merge, str) else merge[:2]
            merges.append((vocab[a], vocab[b], rank))
        merges.sort(key=lambda x: (x[0] << 32) | x[1])
        out = [u8(0), u32(len(vocab)), u8(int(m.get("byte_fallback", False))), u8(byte_level), u32(len(merges))]
        out += [s16(t) + u32(i) for t, i in sorted(vocab.items())]
        out += [u32(a) + u32(b) + u32(r) for a, b, r in merges]
        return b"".join(out)
    if kind == "WordPiece":
        vocab = m.get("vocab", {})
        out = [u8(1), u32(len(vocab)), s16(m.get("unk_token", "[UNK]")), s16(m.get("continuing_subword_prefix", "##")),
               u32(m.get("max_input_chars_per_word", 100))]
        out += [s16(t) + u32(i) for t, i in sorted(vocab.items())]
        return b"".join(out)
    if kind == "Unigram":
        items = sorted((p[0], i, p[1]) for i, p in enumerate(m.get("vocab", [])))
        out = [u8(2), u32(len(items)), u32(m.get("unk_id", 0)), u8(int(m.get("byte_fallback", False)))]
        out += [s16(t) + u32(i) + struct.pack("<d", s) for t, i, s in items]
        return b"".join(out)
    raise ValueError(f"MNN's exporter writes no model for {kind}")


def decoder(spec) -> bytes:
    if spec is None:
        return u8(0)  # MNN has no "none": ByteLevel
    kind = spec.get("type", "")
    if kind == "ByteFallback":
        return u8(1)
    if kind == "Metaspace":
        return u8(2) + s16(spec.get("replacement", "\u2581")) + u8(int(spec.get("add_prefix_space", True)))
    if kind == "WordPiece":
        return u8(3) + s16(spec.get("prefix", "##")) + u8(int(spec.get("cleanup", True)))
    if kind == "Fuse":
        return u8(4)
    if kind == "Replace":
        return u8(5) + s16(_pattern_text(spec.get("pattern"))) + s16(spec.get("content", ""))
    if kind == "Strip":
        return u8(6) + s16(spec.get("content", "")) + u32(spec.get("start", 0)) + u32(spec.get("stop", 0))
    if kind == "Sequence":
        parts = spec.get("decoders", [])
        return u8(7) + u32(len(parts)) + b"".join(decoder(p) for p in parts)
    return u8(0)  # ByteLevel and anything unknown


def post_program(spec) -> list:
    """MNN's single-sequence program: [(0, None) | (1, id)], or [] when the
    processor is not a TemplateProcessing it understands."""
    if not isinstance(spec, dict):
        return []
    if spec.get("type") == "Sequence":
        for child in spec.get("processors", []):
            ops = post_program(child)
            if ops:
                return ops
        return []
    if spec.get("type") != "TemplateProcessing":
        return []
    ops = []
    for item in spec.get("single", []):
        (key, value), = item.items()
        if key == "Sequence":
            if value.get("id") != "A":
                return []
            ops.append((0, None))
        elif key == "SpecialToken":
            ids = value.get("ids") or spec.get("special_tokens", {}).get(value.get("id"), {}).get("ids", [])
            ops += [(1, int(i)) for i in ids]
        else:
            return []
    return ops


def _text(value) -> str:
    if isinstance(value, dict):
        return value.get("content", "")
    return str(value) if value else ""


# --- whole files ---------------------------------------------------------------


def header_ids(folder: Path, tj: dict):
    """(special, stop, prefix) as MNN derives them: special added tokens,
    the eos id, and the ids before "A" when they decode to nothing but it."""
    from tokenizers import Tokenizer

    special = [t["id"] for t in tj.get("added_tokens", []) if t.get("special")]
    cfg = _config(folder)
    vocab = tj["model"].get("vocab")
    ids = dict(vocab) if isinstance(vocab, dict) else {}
    ids.update((t["content"], t["id"]) for t in tj.get("added_tokens", []))
    eos = _text(cfg.get("eos_token"))
    stop = [ids[eos]] if eos in ids else []
    ref = Tokenizer.from_str(json.dumps(tj))
    ref.no_truncation()
    a = ref.encode("A").ids
    prefix = a[:-1] if len(a) > 1 and ref.decode([a[-1]]) == "A" else []
    return special, stop, prefix


def _config(folder: Path) -> dict:
    path = folder / "tokenizer_config.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def mnn_mtok(tokenizer_json: Path) -> bytes:
    """The tokenizer.mtok MNN's exporter writes for this tokenizer.json."""
    folder = Path(tokenizer_json).parent
    tj = json.loads(Path(tokenizer_json).read_text(encoding="utf-8"))
    special, stop, prefix = header_ids(folder, tj)
    head = f"430 4\n{len(special)} {len(stop)} {len(prefix)}\n{' '.join(map(str, special + stop + prefix))}\n"
    body = [normalizer(tj.get("normalizer")), pre_tokenizer(tj.get("pre_tokenizer")), model(tj),
            decoder(tj.get("decoder"))]
    added = tj.get("added_tokens", [])
    body.append(u32(len(added)))
    for t in added:
        body.append(u32(t["id"]) + bytes([int(t.get("special", False)), int(t.get("lstrip", False)),
                                          int(t.get("rstrip", False))]) + s16(t["content"]))
    cfg = _config(folder)
    template = cfg.get("chat_template") or ""
    template = template.encode("utf-8") if isinstance(template, str) else b""
    body.append(u32(len(template)) + template)
    body.append(s16(_text(cfg.get("eos_token"))))
    body.append(u8(1 if cfg.get("clean_up_tokenization_spaces") is True else 0))
    body.append(s16(_text(cfg.get("bos_token"))))
    ops = post_program(tj.get("post_processor"))
    body.append(u16(len(ops)) + b"".join(u8(op) + (u32(i) if op == 1 else b"") for op, i in ops))
    return head.encode("utf-8") + b"".join(body)


# --- legacy tokenizer.txt (MNN's fallback when there is no tokenizer.json) ----


def _legacy_header(kind, special, stop, prefix=()) -> str:
    # MNN writes every id followed by a space.
    ids = "".join(f"{i} " for i in list(special) + list(stop) + list(prefix))
    return f"430 {kind}\n{len(special)} {len(stop)} {len(prefix)}\n{ids}\n"


def mnn_txt_sentencepiece(model_path: Path) -> bytes:
    """Type 0 from a SentencePiece .model, as MNN writes it for Llama 2:
    specials are the added-token ids then the special ids (so repeated),
    U+2581 is written as a space, user-defined pieces as NORMAL."""
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(model_path))
    lines = []
    for i in range(sp.GetPieceSize()):
        kind = 1
        if sp.IsUnknown(i):
            kind = 2
        elif sp.IsControl(i):
            kind = 3
        elif sp.IsUnused(i):
            kind = 5
        elif sp.IsByte(i):
            kind = 6
        token = sp.IdToPiece(i).replace("\u2581", " ")
        lines.append(f"{base64.b64encode(token.encode('utf-8')).decode()} {sp.GetScore(i)} {kind}\n")
    controls = [i for i in range(sp.GetPieceSize()) if sp.IsControl(i) or sp.IsUnknown(i)]
    special = controls + [i for i in (sp.bos_id(), sp.eos_id(), sp.unk_id()) if i >= 0]
    # encode("A") = [bos, "▁A"] when the model has a BOS, and "▁A" decodes to "A".
    prefix = [sp.bos_id()] if sp.bos_id() >= 0 else []
    stop = [sp.eos_id()] if sp.eos_id() >= 0 else []
    return (_legacy_header(0, special, stop, prefix) + f"{len(lines)}\n" + "".join(lines)).encode()


def mnn_txt_huggingface(folder: Path) -> bytes:
    """Type 3 from vocab.json + merges.txt: raw tokens ('<unk>' for ids no
    token has), then merges.txt copied line for line, header included."""
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    tokens = ["<unk>"] * len(vocab)
    for token, i in vocab.items():
        tokens[i] = token
    merges = (folder / "merges.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    special = [i for t, i in vocab.items() if t == "<|endoftext|>"]
    text = _legacy_header(3, special, special) + f"{len(tokens)} {len(merges)}\n"
    return (text + "".join(t + "\n" for t in tokens) + "".join(merges)).encode("utf-8")


def mnn_txt_bert(tokenizer_json: Path) -> bytes:
    """Type 2 (MNN's auto-detected BERT path): base64 tokens, no prefix."""
    tj = json.loads(Path(tokenizer_json).read_text(encoding="utf-8"))
    vocab = tj["model"]["vocab"]
    tokens = ["<unk>"] * len(vocab)
    for token, i in vocab.items():
        tokens[i] = token
    special = [t["id"] for t in tj["added_tokens"]]
    lines = "".join(base64.b64encode(t.encode("utf-8")).decode() + "\n" for t in tokens)
    return (_legacy_header(2, special, []) + f"{len(tokens)}\n" + lines).encode()
