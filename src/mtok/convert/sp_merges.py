"""SentencePiece BPE as HF-style merges, and back.

SentencePiece's BPE merges the adjacent pair whose concatenation is the
highest-scoring piece (ties: leftmost). A merge list ordered by that score
runs the same algorithm in an HF BPE model, as HF's own converter does: for
each piece, best score first, every split into two pieces, ordered by
(left id, right id) within the piece.
"""

import re

from ..errors import FormatError

# SentencePiece piece types, as ModelProto numbers them.
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = range(1, 7)
SP_SPACE = "\u2581"
BYTE_PIECE = re.compile(r"<0x[0-9A-F]{2}>")


def merges_from_scores(pieces) -> list:
    """pieces: [(text, score, type)] indexed by id. Returns [(left, right)]."""
    mergeable = {}
    for i, (text, _, kind) in enumerate(pieces):
        if kind == NORMAL and text not in mergeable:
            mergeable[text] = i
    order = sorted(mergeable.values(), key=lambda i: (-pieces[i][1], i))
    merges = []
    for i in order:
        text = pieces[i][0]
        local = []
        for cut in range(1, len(text)):
            left, right = text[:cut], text[cut:]
            if left in mergeable and right in mergeable:
                local.append((mergeable[left], mergeable[right], left, right))
        local.sort()
        merges += [(left, right) for _, _, left, right in local]
    return merges


def scores_from_merges(merges) -> dict:
    """Scores that make `merges_from_scores` give back `merges`: each piece
    scores minus the rank of its first merge. Pieces no merge produces score
    0 (SentencePiece never ranks them). Whether the scores express the
    merges exactly is for `check_round_trip` to say."""
    scores = {}
    for rank, (left, right) in enumerate(merges):
        scores.setdefault(left + right, -float(rank) - 1.0)
    return scores


def check_round_trip(pieces, merges, where: str) -> None:
    """The writer's guarantee: scores written give the same merge list."""
    again = merges_from_scores(pieces)
    want = [tuple(m) for m in merges]
    if again != want:
        first = next((i for i, (a, b) in enumerate(zip(again, want)) if a != b), min(len(again), len(want)))
        got = again[first] if first < len(again) else None
        exp = want[first] if first < len(want) else None
        raise FormatError(
            f"{where}: the BPE merges are not in SentencePiece score order, so a type 0 file "
            f"cannot express them (merge {first}: the scores would give {got!r}, the model has {exp!r})")
