"""Shared parity checks: compare id lists or strings and report the first
differences with their inputs; record how many strings were compared."""

import json
import os
from pathlib import Path

COUNTS = Path(__file__).resolve().parents[2] / "build" / "parity_counts.json"


def record(name: str, n: int) -> None:
    """Adds n compared strings under `name` to build/parity_counts.json."""
    COUNTS.parent.mkdir(exist_ok=True)
    data = {}
    if COUNTS.exists():
        try:
            data = json.loads(COUNTS.read_text())
        except ValueError:
            data = {}
    data[name] = data.get(name, 0) + n
    tmp = COUNTS.with_name(f"{COUNTS.name}.{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(tmp, COUNTS)


def assert_same(name, inputs, expected, actual, limit=3):
    """Fails with the first `limit` mismatches, showing the input."""
    assert len(expected) == len(actual), f"{name}: {len(expected)} results vs {len(actual)}"
    bad = [i for i, (e, a) in enumerate(zip(expected, actual)) if e != a]
    if bad:
        lines = [f"{name}: {len(bad)} of {len(inputs)} differ"]
        for i in bad[:limit]:
            text = inputs[i]
            e, a = expected[i], actual[i]
            where = next((k for k, (x, y) in enumerate(zip(e, a)) if x != y), min(len(e), len(a)))
            lines.append(f"  input {text[:200]!r}{'...' if len(text) > 200 else ''}")
            lines.append(f"    first difference at {where}: expected {e[max(0, where - 3):where + 5]!r}")
            lines.append(f"    {' ' * (len(str(where)) + 22)}got      {a[max(0, where - 3):where + 5]!r}")
        raise AssertionError("\n".join(lines))
    record(name, len(inputs))


def byte_level_bpe(merges):
    """An HF byte-level BPE with these merges (in this rank order, over
    byte-level characters), split like Llama-3 (Split, then ByteLevel
    without its regex) so that it takes mtok's ByteBpe path; a run of
    letters a-z is one pre-token, and so is any run of other characters."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    vocab = {ch: i for i, ch in enumerate(sorted(pre_tokenizers.ByteLevel.alphabet()))}
    for left, right in merges:
        vocab.setdefault(left + right, len(vocab))
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex("[a-z]+"), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    return tok


def compare_with_hf(ref, inputs, tmp_path, name):
    """Saves HF tokenizer `ref`, loads it with mtok, checks the ids of
    `inputs` on the ByteBpe path, and returns the mtok tokenizer."""
    import mtok

    path = tmp_path / "tokenizer.json"
    path.write_text(ref.to_str())
    ours = mtok.Tokenizer.from_file(path)
    assert ours.debug_info()["ids_route"] != "general pipeline"  # the ByteBpe path is the one under test
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    actual = [ours.encode(t, add_special_tokens=False) for t in inputs]
    assert_same(name, inputs, expected, actual)
    return ours


def section(data, name):
    """The trailer entry of section `name` (offset and size of its payload)
    in .mtok bytes `data`, or None."""
    import mtok

    tok = mtok.Tokenizer.from_bytes(data)
    return next((s for s in tok.inspect()["sections"] if s["name"] == name), None)


def trailer_entries(data):
    """{tag: position of its trailer entry} of .mtok bytes `data` (an
    entry is [u32 tag][u32 flags][u64 offset][u64 size], docs/format.md §8)."""
    import struct

    (ext,) = struct.unpack_from("<Q", data, len(data) - 16)  # the locator: offset of "MTOKEXT1"
    assert bytes(data[ext:ext + 8]) == b"MTOKEXT1"
    (n,) = struct.unpack_from("<I", data, ext + 8)
    at = [ext + 12 + 24 * k for k in range(n)]
    return {bytes(data[a:a + 4]).decode("ascii", "replace"): a for a in at}


def shrunk_section(data, name, by):
    """.mtok bytes `data` with the size in section `name`'s trailer entry
    made `by` bytes smaller (its payload then runs short)."""
    import struct

    out = bytearray(data)
    struct.pack_into("<Q", out, trailer_entries(data)[name] + 16, section(data, name)["size"] - by)
    return bytes(out)


def hide_sections(data, *names):
    """.mtok bytes `data` with the trailer entries of sections `names`
    renamed to a tag no reader knows (optional sections: then skipped), as
    a file written without them would read."""
    out = bytearray(data)
    for tag, at in trailer_entries(data).items():
        if tag in names:
            out[at:at + 4] = b"XXXX"
    return bytes(out)


def exported(parts):
    """.mtok bytes of the corpus tokenizer file at `parts`, with and without
    the acceleration sections (the tables a reader then builds itself)."""
    import corpus
    from mtok.convert import load_spec
    from mtok.convert.export import export_mtok

    spec = load_spec(str(corpus.file_path(*parts)))
    return export_mtok(spec), export_mtok(spec, accel=False)


def short_parity_strings(limit):
    """The first `limit` corpus parity strings of under 3000 characters."""
    import corpus

    return [t for t in corpus.parity_strings() if len(t) < 3000][:limit]


def byte_level_decoder():
    """GPT-2's byte-level alphabet, character -> byte."""
    printable = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[chr(b)] = b
        else:
            chars[chr(256 + extra)] = b
            extra += 1
    return chars
