"""Byte-pair encoding of raw bytes in Python, for tiktoken's private
helpers that work below the regex split (bytes that are not UTF-8)."""


def byte_pair_encode(piece: bytes, ranks: dict) -> list:
    """Ranks of `piece` merged as tiktoken does: repeatedly join the adjacent
    pair whose concatenation has the lowest rank (leftmost on ties)."""
    if piece in ranks:
        return [ranks[piece]]
    parts = [piece[i:i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best, at = None, -1
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best is None or rank < best):
                best, at = rank, i
        if best is None:
            break
        parts[at:at + 2] = [parts[at] + parts[at + 1]]
    return [ranks[p] for p in parts]
