"""The strings the suites encode: windows of the corpus cut to about N
tokens of the reference tokenizer, and the unseen text of the cold pass."""

from . import corpus

# Strings per size and their kinds: distinct windows, cycled by the timer,
# so no library's whole-input cache sees the same string twice in a row.
MIX = ("en", "multi", "code", "en", "multi", "code", "multi", "en")
QUICK_MIX = ("en", "multi", "code")


def _line_start(text: str, pos: int) -> int:
    """The start of the line at or after pos (windows begin on a line)."""
    nl = text.find("\n", pos)
    return pos if nl < 0 or nl - pos > 200 else nl + 1


def cut(text: str, start: int, n_tokens: int, count) -> str:
    """A window of `text` from `start` holding about n_tokens tokens, as
    counted by count(str) -> int. The text is treated as circular so short
    pools still give long windows. Within ~2% (secant steps on the length)."""
    ring = text
    chars = max(16, n_tokens * 3)
    best = None
    for _ in range(8):
        while len(ring) < start + chars:
            ring += "\n\n" + text
        window = ring[start:start + chars]
        got = count(window)
        if best is None or abs(got - n_tokens) < abs(best[1] - n_tokens):
            best = (window, got)
        if abs(got - n_tokens) <= max(2, n_tokens // 50):
            break
        chars = max(1, int(chars * n_tokens / max(got, 1)))
    return best[0]


def sized_strings(count, size: int, mix=MIX) -> list:
    """One string per entry of `mix`, each about `size` tokens. Strings of a
    kind start at evenly spaced offsets of its pool (different files of a
    multilingual pool, hence different languages)."""
    out, seen = [], {}
    for kind in mix:
        i = seen[kind] = seen.get(kind, -1) + 1
        pool = corpus.pool_text(kind)
        start = _line_start(pool, int((i + 0.37) * len(pool) / mix.count(kind)))
        out.append(cut(pool, start, size, count))
    return out


# The languages the per-language cold pass reports (each alone, fresh).
COLD_LANGUAGES = ("en-US", "zh-CN", "vi-VN", "ru-RU")


def language_chunks(lang: str, limit_bytes=None, chunk_chars: int = 8192) -> list:
    """One Debian handbook translation in line-aligned chunks of about
    chunk_chars: the per-language cold pass (a fresh process, so no cache
    has seen it even though the sized strings come from the same file)."""
    return _chunks((f"debian-handbook/{lang}.txt",), limit_bytes, chunk_chars)


def cold_chunks(limit_bytes=None, chunk_chars: int = 8192) -> list:
    """The cold-pass text (COLD_TEXTS, seen by no other part of a run) in
    line-aligned chunks of about chunk_chars, as documents would come."""
    return _chunks(corpus.COLD_TEXTS, limit_bytes, chunk_chars)


def _chunks(rels, limit_bytes, chunk_chars) -> list:
    chunks, used = [], 0
    for rel in rels:
        text = corpus.read_text(rel)
        pos = 0
        while pos < len(text):
            end = text.find("\n", pos + chunk_chars)
            end = len(text) if end < 0 else end + 1
            chunk = text[pos:end]
            chunks.append(chunk)
            used += len(chunk.encode("utf-8"))
            pos = end
            if limit_bytes and used >= limit_bytes:
                return chunks
    return chunks


# --- the traffic suite: every corpus text, mixed --------------------------

def mixed_chunks(chunk_chars: int = 8192) -> list:
    """Every file of the corpus text folder (all of it, in every language
    and script, code and emoji lists too) in line-aligned chunks of about
    chunk_chars, taken from the files in turn: consecutive chunks are in
    different languages, as mixed traffic is."""
    per_file = [_chunks((rel,), None, chunk_chars) for rel in corpus.all_text_files()]
    out = []
    for k in range(max(len(c) for c in per_file)):
        out += [c[k] for c in per_file if k < len(c)]
    return out


def mixed_text() -> str:
    return "".join(mixed_chunks())


def _char_start(data: bytes, pos: int) -> int:
    while pos < len(data) and (data[pos] & 0xC0) == 0x80:
        pos += 1
    return pos


def text_windows(size_bytes: int, count: int, rel: str = None) -> tuple:
    """(warm, timed): 2 x count windows (windows()) taken in turns, of the
    mixed text or of the corpus text file `rel` (relative to the corpus
    text folder, say "debian-handbook/ja-JP.txt"); from a file, as many
    pairs as it holds, up to count."""
    if rel is None:
        cut = windows(size_bytes, 2 * count)
    else:
        text = corpus.file_path("text/" + rel).read_bytes().decode("utf-8", errors="replace")
        fits = len(text.encode("utf-8")) // (2 * size_bytes)
        if fits < 1:
            raise ValueError(f"{rel} is too short for two windows of {size_bytes} bytes")
        cut = windows(size_bytes, 2 * min(count, fits), text)
    return cut[0::2], cut[1::2]


def windows(size_bytes: int, count: int, text: str = None) -> list:
    """`count` windows of about size_bytes UTF-8 bytes (cut at character
    boundaries, starting on a line when one starts within 200 bytes) from
    evenly spaced, non-overlapping offsets of the mixed text."""
    data = (text if text is not None else mixed_text()).encode("utf-8")
    step = len(data) // count
    if step < size_bytes:
        raise ValueError(f"{count} windows of {size_bytes} bytes do not fit in {len(data)} bytes of text")
    out = []
    for i in range(count):
        start = i * step
        nl = data.find(b"\n", start, start + 200)
        start = _char_start(data, nl + 1 if nl >= 0 else start)
        end = _char_start(data, min(start + size_bytes, len(data)))
        out.append(data[start:end].decode("utf-8"))
    return out
