"""A .mtok exported from a tokenizer folder renders chat templates exactly as
transformers does when it loads the original folder."""

import copy

import pytest

import corpus
import mtok
from chat_cases import CONVERSATIONS, _args, run_transformers

transformers = pytest.importorskip("transformers")


def run_exported(tok, case):
    try:
        return ("ok", tok.apply_chat_template(copy.deepcopy(case["messages"]), **_args(case)))
    except mtok.TemplateError as exc:
        return ("error",)


@pytest.mark.parametrize("name", ["llama3", "qwen3", "gemma3"])
def test_exported_mtok_renders_like_transformers(name, tmp_path):
    folder = corpus.file_path("tokenizers", name, "tokenizer.json").parent
    out = tmp_path / f"{name}.mtok"
    mtok.Tokenizer.from_file(folder).save(out)
    ours = mtok.Tokenizer.from_file(out)
    ref = transformers.AutoTokenizer.from_pretrained(str(folder))
    rendered = 0
    for case_name, case in CONVERSATIONS.items():
        expected = run_transformers(ref, case)
        got = run_exported(ours, case)
        assert got[0] == expected[0], f"{case_name}: transformers {expected[:2]}, mtok {got[:2]}"
        if expected[0] == "ok":
            assert got[1] == expected[1], case_name
            ids = ours.apply_chat_template(copy.deepcopy(case["messages"]), tokenize=True, **_args(case))
            assert ids == ref.apply_chat_template(copy.deepcopy(case["messages"]), tokenize=True,
                                                  return_dict=False, **_args(case)), case_name
            rendered += 1
    assert rendered >= 3
