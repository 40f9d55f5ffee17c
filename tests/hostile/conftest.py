import pytest

import corpus
import mtok


@pytest.fixture(scope="session")
def cl100k_pair():
    """(tiktoken reference from the corpus rank file, mtok encoding)."""
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from mtok.convert.openai_encodings import ENCODING_SPECS

    base, _, pattern, specials, n_vocab = ENCODING_SPECS["cl100k_base"]
    ranks = load_tiktoken_bpe(str(corpus.require("tiktoken", base + ".tiktoken")))
    ref = tiktoken.Encoding("cl100k_base", pat_str=pattern, mergeable_ranks=ranks,
                            special_tokens=specials, explicit_n_vocab=n_vocab)
    return ref, mtok.get_encoding("cl100k_base")


@pytest.fixture(scope="session")
def gpt2_pair():
    """(HF tokenizers reference, mtok tokenizer) for gpt2's tokenizer.json."""
    tokenizers = pytest.importorskip("tokenizers")
    path = corpus.file_path("tokenizers", "gpt2", "tokenizer.json")
    ref = tokenizers.Tokenizer.from_file(str(path))
    tok = mtok.Tokenizer.from_file(path)
    for t in (ref, tok):
        t.no_truncation()
    return ref, tok
