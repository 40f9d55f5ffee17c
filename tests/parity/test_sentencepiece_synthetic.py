"""Parity with sentencepiece on generated Unigram models that stress its
arithmetic: piece scores large enough to force path rebasing every few
characters, near-ties, user-defined pieces and unknown characters."""

import random

import pytest

import mtok
from harness import assert_same

spm = pytest.importorskip("sentencepiece")
pb = pytest.importorskip("sentencepiece.sentencepiece_model_pb2")

ALPHABET = "abcdeé中文"


def _model(rng: random.Random, score_scale: float, user_defined: int) -> bytes:
    m = pb.ModelProto()
    m.trainer_spec.model_type = pb.TrainerSpec.UNIGRAM
    m.trainer_spec.unk_id, m.trainer_spec.bos_id, m.trainer_spec.eos_id = 0, -1, -1
    m.normalizer_spec.name = "identity"
    m.normalizer_spec.add_dummy_prefix = False
    m.normalizer_spec.remove_extra_whitespaces = False
    unk = m.pieces.add()
    unk.piece, unk.type = "<unk>", pb.ModelProto.SentencePiece.UNKNOWN
    seen = set()
    while len(seen) < 60:
        piece = "".join(rng.choice(ALPHABET[:-1]) for _ in range(rng.randint(1, 4)))
        if piece in seen:
            continue
        seen.add(piece)
        p = m.pieces.add()
        p.piece = piece
        # Few distinct magnitudes make near-ties common.
        p.score = -score_scale * rng.choice([1.0, 1.0001, 1.5, 2.0, 2.0002, 3.25])
        if user_defined and rng.random() < user_defined / 60:
            p.type = pb.ModelProto.SentencePiece.USER_DEFINED
    return m.SerializeToString()


@pytest.mark.parametrize("score_scale", [1.0, 997.0, 31337.0])
@pytest.mark.parametrize("user_defined", [0, 6])
def test_generated_models(tmp_path, score_scale, user_defined):
    rng = random.Random(f"{score_scale}-{user_defined}")
    for k in range(4):
        path = tmp_path / f"m{k}.model"
        path.write_bytes(_model(rng, score_scale, user_defined))
        ref = spm.SentencePieceProcessor(model_file=str(path))
        ours = mtok.Tokenizer.from_file(path)
        texts = ["".join(rng.choice(ALPHABET) for _ in range(rng.choice([5, 50, 500, 5000])))
                 for _ in range(40)]
        assert_same(f"generated unigram x{score_scale} ud={user_defined}", texts,
                    ref.encode(texts), ours.encode_batch(texts))
