"""The bounded pre-token cache (cpp/src/fast_paths/piece_cache.h): the same
ids with the cache off, cold, warm, small (entries replaced and rings
wrapped all the time) and on two threads, for every script of the corpus;
its bound set through the API and MTOK_CACHE_MB; debug_info's figures; the
memory it may take however many distinct pre-tokens come; and that memory
on 4 KB pages."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import corpus
import mtok
from harness import assert_same

REPO = Path(__file__).resolve().parents[2]
# The byte-level route (three pre-token scanners) and the Metaspace route.
NAMES = ("llama3", "qwen3", "gpt-4o-o200k-hf", "xlm-roberta")


@pytest.fixture(autouse=True)
def restore_bound():
    before = mtok.piece_cache_mb()
    yield
    mtok.set_piece_cache_mb(before)


def corpus_chunks(step=3, size=4096):
    """Every `step`-th 4096-character chunk of every corpus text: all
    languages and scripts, code and emoji lists."""
    out = []
    for _, text in corpus.text_files():
        out += [text[i:i + size] for i in range(0, len(text), size)][::step]
    return out


@pytest.fixture(scope="module")
def chunks():
    if not corpus.available():
        pytest.skip(f"corpus not found at {corpus.CORPUS}")
    return corpus_chunks()


@pytest.mark.parametrize("name", NAMES)
def test_same_ids_cache_off_cold_warm_small_and_two_threads(name, chunks):
    ref, tok = corpus.hf_pair(name)
    expected = [e.ids for e in ref.encode_batch(chunks, add_special_tokens=False)]
    encode = lambda: [tok.encode(c, add_special_tokens=False) for c in chunks]  # noqa: E731
    mtok.set_piece_cache_mb(0)
    assert_same(f"{name} cache off", chunks, expected, encode(), limit=2)
    assert tok.debug_info()["piece_cache"] == "off (bound 0)"
    mtok.set_piece_cache_mb(64)  # a new bound: this thread's cache starts empty
    assert_same(f"{name} cold", chunks, expected, encode(), limit=2)
    assert_same(f"{name} warm", chunks, expected, encode(), limit=2)
    info = tok.debug_info()
    assert int(info["piece_cache_hits"]) > int(info["piece_cache_misses"]) > 0, info
    assert 0 < int(info["piece_cache_bytes"]) <= int(info["piece_cache_bound"]) == 64 << 20, info
    # 1 MB: the tables are full, the id and key rings wrap many times; slots
    # left pointing into overwritten ring space must miss, not return ids.
    mtok.set_piece_cache_mb(1)
    for rnd in ("small, cold", "small, warm"):
        assert_same(f"{name} {rnd}", chunks, expected, encode(), limit=2)
    assert int(tok.debug_info()["piece_cache_bytes"]) <= 1 << 20
    mtok.set_piece_cache_mb(64)
    for rnd in ("two threads, cold", "two threads, warm"):
        got = tok.encode_batch(chunks, add_special_tokens=False, num_threads=2)
        assert_same(f"{name} {rnd}", chunks, expected, got, limit=2)


def test_a_bound_past_the_machines_memory_still_grows():
    """The tables grow into address space reserved for the bound's shares.
    A bound far past the memory (1 TB: the kernel refuses a 384 GB mapping)
    reserves what the kernel grants: the tables still grow, the ids stay
    exact."""
    import random

    ref, tok = corpus.hf_pair("llama3")
    mtok.set_piece_cache_mb(1 << 20)
    rng = random.Random(5)
    letters = "abcdefghijklmnopqrstuvwxyz"
    text = "".join(" " + "".join(rng.choice(letters) for _ in range(rng.randint(3, 14))) for _ in range(40000))
    assert tok.encode(text, add_special_tokens=False, num_threads=1) == ref.encode(text, add_special_tokens=False).ids
    info = tok.debug_info()
    assert int(info["piece_cache_bound"]) == 1 << 40
    assert int(info["piece_cache_bytes"]) > 8 << 20, f"the tables did not grow: {info}"


def test_bound_api_and_errors():
    mtok.set_piece_cache_mb(8)
    assert mtok.piece_cache_mb() == 8
    mtok.set_piece_cache_mb(0.5)
    assert mtok.piece_cache_mb() == 0.5
    for bad in (-1, float("nan"), 2 ** 21):
        with pytest.raises(ValueError):
            mtok.set_piece_cache_mb(bad)
    for bad in ("8", None, True):
        with pytest.raises(TypeError):
            mtok.set_piece_cache_mb(bad)


def _child(code, env):
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env), cwd=str(REPO))
    return run


def test_env_sets_the_bound_and_a_bad_value_is_a_clear_error():
    run = _child("import mtok; print(mtok.piece_cache_mb())", {"MTOK_CACHE_MB": "12"})
    assert run.returncode == 0 and run.stdout.strip() == "12.0", run.stderr
    code = "import mtok\ntry:\n    mtok.piece_cache_mb()\nexcept mtok.MtokError as e:\n    print(e)"
    run = _child(code, {"MTOK_CACHE_MB": "lots"})
    assert "MTOK_CACHE_MB=lots is not a whole number of MB" in run.stdout, (run.stdout, run.stderr)


# Encodes MB of unique random words (bench/memory.py's generator), 1 MB a
# call, and reports the growth of the peak RSS over the encodes, the cache
# size debug_info reports and the bound.
_MEMORY_CHILD = r"""
import json, sys
sys.path.insert(0, {repo!r})
import mtok
from bench.memory import CHUNK, random_words
from bench.traffic import rss_kb
tok = mtok.Tokenizer.from_file({path!r})
tok.encode(random_words(999, CHUNK))
before = rss_kb("VmHWM")
for k in range({mb}):
    tok.encode(random_words(k, CHUNK))
info = tok.debug_info()
print(json.dumps({{"growth_mb": (rss_kb("VmHWM") - before) / 1024, "bytes": int(info["piece_cache_bytes"]),
                  "bound": int(info["piece_cache_bound"])}}))
"""


def test_memory_stays_within_the_bound_for_unique_words():
    """The rule of 64 MB of cache and 200 MB of input (RSS grows by at most
    the bound plus 96 MB), at 4 MB and 24 MB: every pre-token is new, so
    an unbounded cache would keep ~2.6M of them (over 100 MB)."""
    path = corpus.file_path("tokenizers", "llama3", "tokenizer.json")
    run = _child(_MEMORY_CHILD.format(repo=str(REPO), path=str(path), mb=24), {"MTOK_CACHE_MB": "4"})
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["bound"] == 4 << 20
    assert 0 < got["bytes"] <= got["bound"], got
    assert got["growth_mb"] <= 4 + 96, got


# Encodes MB of unique random words once the loaded tables (and the
# short-token table, built on a thread after the first encode) are in
# place, and reports how much of the process's memory on transparent 2 MB
# pages that added, with the cache's size.
_PAGES_CHILD = r"""
import json, sys
sys.path.insert(0, {repo!r})
import mtok
from bench.memory import CHUNK, random_words
from corpus import settled_debug_info
def anon_huge_kb():
    with open("/proc/self/smaps") as f:
        return sum(int(line.split()[1]) for line in f if line.startswith("AnonHugePages:"))
tok = mtok.Tokenizer.from_file({path!r})
tok.encode(random_words(999, 4096))
settled_debug_info(tok)
before = anon_huge_kb()
for k in range({mb}):
    tok.encode(random_words(k, CHUNK))
print(json.dumps({{"huge_growth_kb": anon_huge_kb() - before, "bytes": int(tok.debug_info()["piece_cache_bytes"])}}))
"""


def _thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return f.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        return None


def test_the_cache_grows_on_4kb_pages():
    """The cache is backed while text is encoded, and a VM's host may back
    a fresh 2 MB page ten times more slowly than 4 KB ones
    (kPieceCacheHugePages): a cache that grows to tens of MB adds nothing
    on transparent huge pages. Checked where THP is "madvise", the mode in
    which only memory asked for gets them."""
    if _thp_mode() != "madvise":
        pytest.skip(f"transparent huge pages are {_thp_mode()!r} here; the check needs 'madvise'")
    path = corpus.file_path("tokenizers", "llama3", "tokenizer.json")
    run = _child(_PAGES_CHILD.format(repo=str(REPO), path=str(path), mb=12), {"MTOK_CACHE_MB": "64"})
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["bytes"] > 16 << 20, got  # the cache did grow
    assert got["huge_growth_kb"] == 0, got
