"""`make demo` runs on a bare clone: bench/demo.py with the corpus hidden
(MTOK_CORPUS pointing to a missing folder) and the package from src/."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_demo_without_corpus(tmp_path):
    src = Path(__import__("mtok").__file__).resolve().parents[1]
    env = dict(os.environ, MTOK_CORPUS=str(tmp_path / "no-corpus"), MTOK_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, str(REPO / "bench" / "demo.py"), "--quick"], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "== o200k_base (built in) ==" in text
    assert "load + first encode of the .mtok" in text
    assert "机器|学习" in text  # boundaries of the Chinese sample
    assert "<|im_start|>assistant" in text  # the rendered chat template
    assert "encoding speed" in text and "ids match: False" not in text
    if importlib.util.find_spec("tiktoken") is not None:  # an installed peer is compared
        assert "ids match: True" in text
    assert "the llama3 part is skipped" in text
