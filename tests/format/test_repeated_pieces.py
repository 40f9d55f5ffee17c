"""A SentencePiece vocab with a piece twice is refused at load, wherever
the repeat falls: the reader skips the check for pieces in byte order
(each is new) and defers their index inserts, so a repeat must still be
seen when it ends such a run (tests/format: the .mtok reader)."""

import copy

import pytest

import mtok
from corpus import require
from mtok.convert import load_spec
from mtok.format.writer import write_mtok


@pytest.fixture(scope="module")
def spec():
    return load_spec(str(require("tokenizers", "sentencepiece-test", "test_model.model")))  # the protobuf importer


@pytest.mark.parametrize("which", ["first", "middle", "last"])
def test_a_repeated_piece_is_refused(spec, which):
    s = copy.deepcopy(spec)
    model = s["model"]
    ordered = sorted(p for p, _ in model["vocab"])
    piece = {"first": ordered[0], "middle": ordered[len(ordered) // 2], "last": ordered[-1]}[which]
    model["vocab"].append([piece, -1.0])
    model["mtok_piece_types"] = list(model["mtok_piece_types"]) + [1]
    with pytest.raises(mtok.FormatError, match="appears twice"):
        mtok.Tokenizer.from_bytes(write_mtok(s))


def test_the_same_vocab_without_a_repeat_loads(spec):
    tok = mtok.Tokenizer.from_bytes(write_mtok(copy.deepcopy(spec)))
    assert tok.encode("hello world") == mtok.Tokenizer.from_file(
        require("tokenizers", "sentencepiece-test", "test_model.model"), cache=False).encode("hello world")
