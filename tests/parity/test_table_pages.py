"""The pair and raw-token tables of a byte-level BPE file are copied onto
2 MB pages at load (cpp/src/common/huge_pages.h, CopyToHugePages): the ids
must not change, whichever pages they end up on, and MTOK_HUGE_PAGES=0
reads them in place from the file (a copy on 4 KB pages would buy nothing)."""

import json
import os
import subprocess
import sys

import pytest

import mtok
from harness import assert_same, exported, short_parity_strings

HUGE = {"2 MB pages (MAP_HUGETLB)", "2 MB transparent huge pages (madvise)"}
IN_PLACE = "4 KB pages, read in place from the file"
LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")


@pytest.fixture(scope="module")
def files():
    return exported(LLAMA3)



def test_copied_tables_give_the_same_ids(files):
    with_sections, without = files
    copied = mtok.Tokenizer.from_bytes(with_sections)
    built = mtok.Tokenizer.from_bytes(without)
    assert copied.debug_info()["bpe_table_pages"] in HUGE | {IN_PLACE}
    assert built.debug_info()["bpe_table_pages"].startswith("built at load")
    texts = short_parity_strings(2000)
    assert_same("tables on huge pages vs built", texts,
                built.encode_batch(texts, add_special_tokens=False),
                copied.encode_batch(texts, add_special_tokens=False))


def test_huge_pages_can_be_turned_off(files, tmp_path):
    path = tmp_path / "llama3.mtok"
    path.write_bytes(files[0])
    texts = short_parity_strings(2000)[:300]
    script = ("import json, sys, mtok\n"
              "tok = mtok.Tokenizer.from_file(sys.argv[1])\n"
              "texts = json.load(open(sys.argv[2]))\n"
              "print(json.dumps([tok.debug_info()['bpe_table_pages'],"
              " tok.encode_batch(texts, add_special_tokens=False)]))\n")
    (tmp_path / "texts.json").write_text(json.dumps(texts))
    env = dict(os.environ, MTOK_HUGE_PAGES="0")
    out = subprocess.run([sys.executable, "-c", script, str(path), str(tmp_path / "texts.json")],
                         env=env, capture_output=True, text=True, check=True).stdout
    pages, ids = json.loads(out)
    assert pages == IN_PLACE
    expected = mtok.Tokenizer.from_bytes(files[0]).encode_batch(texts, add_special_tokens=False)
    assert_same("tables read in place", texts, expected, ids)
