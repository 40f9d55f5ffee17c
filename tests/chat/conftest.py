"""Fixtures for the chat template tests.

The tests use :mod:`mtok.chat` directly and compare it with HF transformers
where that is installed.
"""

import datetime as _dt
import sys
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # for chat_cases, whatever pytest's import mode
    sys.path.insert(0, str(HERE))


from chat_cases import BOS, EOS, FIXED_NOW, TOKENIZER_FILE  # noqa: E402


class _FixedDatetime(_dt.datetime):
    @classmethod
    def now(cls, tz=None):
        return FIXED_NOW if tz is None else FIXED_NOW.replace(tzinfo=tz)


@pytest.fixture(scope="session")
def hf_tokenizer():
    """A transformers tokenizer (llama3 tokenizer.json, BOS/EOS set)."""
    transformers = pytest.importorskip("transformers", reason="transformers is not installed")
    if not TOKENIZER_FILE.is_file():
        pytest.skip(f"shared corpus tokenizer not found at {TOKENIZER_FILE}")
    return transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(TOKENIZER_FILE), bos_token=BOS, eos_token=EOS
    )


@pytest.fixture
def pinned_clock(monkeypatch):
    """Pin strftime_now(): monkeypatch transformers' clock; return mtok's."""
    try:
        import transformers.utils.chat_template_utils as ctu
    except ImportError:
        pass
    else:
        monkeypatch.setattr(ctu, "datetime", _FixedDatetime)
    return lambda: FIXED_NOW


# ---------------------------------------------------------------------------
# Parity matrix bookkeeping: each parity test records its outcome here and the
# summary is printed at the end of the run.
# ---------------------------------------------------------------------------

PARITY_RESULTS = []


@pytest.fixture
def parity_record():
    return PARITY_RESULTS.append


def pytest_terminal_summary(terminalreporter):
    if not PARITY_RESULTS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("mtok chat template parity (vs transformers)")
    total = len(PARITY_RESULTS)
    same = sum(1 for r in PARITY_RESULTS if r["identical"])
    rendered = sum(1 for r in PARITY_RESULTS if r["identical"] and r["outcome"] == "ok")
    rejected = [r for r in PARITY_RESULTS if r["identical"] and r["outcome"] != "ok"]
    templates = len({r["template"] for r in PARITY_RESULTS})
    write(
        f"{templates} templates, {total} comparisons: {same} identical"
        f" ({rendered} rendered the same text, {len(rejected)} rejected by both"
        f" for the same reason), {total - same} different"
    )
    reasons = Counter((r["template"], r["reason"]) for r in rejected)
    for (template, reason), count in sorted(reasons.items()):
        cases = ", ".join(r["case"] for r in rejected if r["template"] == template and r["reason"] == reason)
        write(f"  both reject {template} [{cases}]: {reason}")


@pytest.fixture(scope="session")
def native_renderer():
    """tests/native/chat_render_driver, built once per session (plain cmake,
    core only) into build/native, the build tests/native/test_alloc_free.py
    uses too: the core compiles once for both. MTOK_CHAT_DRIVER names a
    prebuilt driver instead (an ASan/UBSan build, for instance)."""
    import os

    from native_driver import REPO, build_driver

    prebuilt = os.environ.get("MTOK_CHAT_DRIVER")  # e.g. an ASan build (see docs in native_driver.py)
    if prebuilt:
        return Path(prebuilt)
    return build_driver(REPO / "build" / "native")
