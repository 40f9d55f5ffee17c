"""One adapter per library: which tokenizers it can load, how to load one,
and the thinnest call of its public API that gives the ids: a list, or
for gigatoken and nanotoken a numpy array (their encode's own result;
mtok-np is mtok's encode_to_numpy, to compare like with like).

Imports of the libraries happen inside the adapters, so this module loads
anywhere (the tokenizers-1.0 worker venv has none of the other peers).
"""

import array
import hashlib
import importlib.util
from importlib import metadata


def ids_digest(ids) -> str:
    """A short digest of an id sequence (lists, numpy arrays alike), so
    workers return digests instead of megabytes of ids."""
    return hashlib.sha1(array.array("q", [int(i) for i in ids]).tobytes()).hexdigest()[:16]


class Peer:
    """A library under test. `load(spec)` returns encode(text) -> ids."""

    name = ""        # column label
    module = ""      # import name, to test availability
    dist = ""        # distribution name, for the version
    remote = False   # runs in a subprocess worker (see rc3.py)
    reads_mtok = False  # loads the exported .mtok of the spec
    in_default = True   # run when no --libs are given
    # Imported before a load is timed. None when importing is itself the
    # load (a library that builds its tables at import).
    pre_import = property(lambda self: self.module)

    def available(self) -> bool:
        try:
            return importlib.util.find_spec(self.module) is not None
        except (ImportError, ValueError):
            return False

    def version(self) -> str:
        try:
            return metadata.version(self.dist)
        except metadata.PackageNotFoundError:
            return "?"

    def supports(self, spec) -> bool:
        raise NotImplementedError

    def load(self, spec):
        raise NotImplementedError

    def load_batch(self, spec, threads: int):
        """encode_batch(list of texts) -> list of ids on `threads` threads,
        or None when the library has no batch call. Libraries on a rayon
        pool read its size from RAYON_NUM_THREADS, which the worker sets
        before they are imported (see traffic.py)."""
        return None


class Mtok(Peer):
    name, module, dist = "mtok", "mtok", "mtok"
    reads_mtok = True

    def version(self):
        import mtok

        return getattr(mtok, "__version__", None) or super().version()

    def supports(self, spec):
        return bool(spec.mtok)

    def load(self, spec):
        import mtok

        if spec.encoding:
            # OpenAI encodings through mtok's tiktoken-like API, as users call it.
            return mtok.get_encoding(spec.encoding).encode_ordinary
        return self.load_file(spec)

    def load_file(self, spec):
        """The exported .mtok, memory-mapped: what the load table times."""
        tok = load_mtok(spec.mtok)
        return lambda text: tok.encode(text, add_special_tokens=False)

    def load_batch(self, spec, threads):
        tok = load_mtok(spec.mtok)
        return lambda texts: tok.encode_batch(texts, add_special_tokens=False, num_threads=threads)


class MtokNumpy(Mtok):
    """mtok's encode_to_numpy: the ids as a uint32 array, as gigatoken's and
    nanotoken's encode give them. Run when named (--libs), and by default
    in the traffic suite."""

    name = "mtok-np"
    in_default = False

    def load(self, spec):
        import numpy  # noqa: F401  (imported by the first call otherwise: inside a timed cold pass)

        import mtok

        if spec.encoding:
            enc = mtok.get_encoding(spec.encoding)
            return lambda text: enc.encode_to_numpy(text, disallowed_special=())
        tok = load_mtok(spec.mtok)
        return lambda text: tok.encode_to_numpy(text, add_special_tokens=False)

    def load_batch(self, spec, threads):
        return None  # encode_batch_to_numpy gives one ragged array, not rows


def load_mtok(path):
    """mtok.Tokenizer with the file's default truncation and padding off:
    every library encodes whole texts."""
    import mtok

    tok = mtok.Tokenizer.from_file(path)
    tok.no_truncation()
    tok.no_padding()
    return tok


class Tiktoken(Peer):
    name, module, dist = "tiktoken", "tiktoken", "tiktoken"

    def supports(self, spec):
        return bool(spec.tiktoken)

    def load(self, spec):
        return tiktoken_encoding(spec).encode_ordinary


def tiktoken_encoding(spec):
    """tiktoken.Encoding from the corpus rank file with the pattern and
    specials of tiktoken_ext.openai_public, without touching the network:
    its rank-file loader is swapped for one reading the local file."""
    import tiktoken
    import tiktoken_ext.openai_public as public

    original = public.load_tiktoken_bpe

    def local(_url, expected_hash=None):
        return original(spec.tiktoken, expected_hash)

    public.load_tiktoken_bpe = local
    try:
        params = getattr(public, spec.encoding)()
    finally:
        public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**params)


class Tokenizers(Peer):
    """HF tokenizers; the same adapter serves 0.23 here and 1.0 in its venv."""

    name, module, dist = "tokenizers", "tokenizers", "tokenizers"

    def supports(self, spec):
        return bool(spec.json)

    def load(self, spec):
        tok = load_hf(spec.json)
        return lambda text: tok.encode(text, add_special_tokens=False).ids

    def load_batch(self, spec, threads):
        tok = load_hf(spec.json)
        return lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]


def load_hf(path):
    import tokenizers

    tok = tokenizers.Tokenizer.from_file(path)
    if hasattr(tok, "no_truncation"):  # 0.x API
        tok.no_truncation()
        tok.no_padding()
    else:                              # 1.0 API: properties
        tok.truncation = None
        tok.padding = None
    return tok


class TokenizersRc3(Tokenizers):
    """tokenizers 1.0.0rc3, in its own venv: timed by a worker (rc3.py)."""

    name, dist = "tokenizers-rc3", "tokenizers"
    remote = True

    def available(self):
        from . import rc3

        return rc3.venv_ready()

    def version(self):
        from . import rc3

        return rc3.version()


class SentencePiece(Peer):
    name, module, dist = "sentencepiece", "sentencepiece", "sentencepiece"

    def supports(self, spec):
        return bool(spec.spm)

    def load(self, spec):
        import sentencepiece

        sp = sentencepiece.SentencePieceProcessor(model_file=spec.spm)
        return sp.encode


class Iree(Peer):
    name, module, dist = "iree", "iree.tokenizer", "iree-tokenizer"
    # Encodings iree.tokenizer.Tokenizer.from_tiktoken accepts.
    ENCODINGS = ("cl100k_base", "o200k_base", "o200k_harmony", "r50k_base", "gpt2", "p50k_base", "p50k_edit")

    def supports(self, spec):
        return bool(spec.json) or spec.encoding in self.ENCODINGS

    def load(self, spec):
        from iree.tokenizer import Tokenizer

        if spec.tiktoken and spec.encoding in self.ENCODINGS:
            tok = Tokenizer.from_tiktoken(spec.tiktoken, spec.encoding)
        else:
            tok = Tokenizer.from_file(spec.json)
        return lambda text: tok.encode(text, add_special_tokens=False)


class BpeOpenai(Peer):
    """GitHub's `bpe` crate (bpe-openai). Only its bundled encodings; the
    raw binding is called, skipping the wrapper's per-call bookkeeping."""

    name, module, dist = "bpe-openai", "bpe_openai", "bpe-openai"
    ENCODINGS = ("cl100k_base", "o200k_base")
    pre_import = None  # importing its binding builds the bundled encodings (~1 s): part of the load

    def supports(self, spec):
        return spec.encoding in self.ENCODINGS

    def load(self, spec):
        from bpe_openai import _bindings

        return _bindings.tokenizer_for_encoding(spec.encoding).encode


class Kitoken(Peer):
    name, module, dist = "kitoken", "kitoken", "kitoken"

    def supports(self, spec):
        return bool(spec.json or spec.tiktoken or spec.spm)

    def load(self, spec):
        from kitoken import Kitoken as K

        if spec.tiktoken:
            tok = K.from_tiktoken_file(spec.tiktoken)
        elif spec.json:
            tok = K.from_tokenizers_file(spec.json)
        else:
            tok = K.from_sentencepiece_file(spec.spm)
        return lambda text: tok.encode(text, False)


class _HfStyle(Peer):
    """A library with HF's Tokenizer surface (encode(...).ids, encode_batch,
    no_truncation/no_padding): _open(spec) returns its tokenizer."""

    def _open(self, spec):
        raise NotImplementedError

    def _tok(self, spec):
        tok = self._open(spec)
        tok.no_truncation()
        tok.no_padding()
        return tok

    def load(self, spec):
        tok = self._tok(spec)
        return lambda text: tok.encode(text, add_special_tokens=False).ids

    def load_batch(self, spec, threads):
        tok = self._tok(spec)
        return lambda texts: [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]


class Fastokens(_HfStyle):
    """fastokens (tokenizer.json; byte-level BPE without a normalizer)."""

    name, module, dist = "fastokens", "fastokens", "fastokens"

    def supports(self, spec):
        return bool(spec.json) and spec.model == "bpe"

    def _open(self, spec):
        import fastokens

        return fastokens.Tokenizer.from_file(spec.json)


class Gigatoken(Peer):
    """gigatoken (BPE tokenizer.json). Its encode returns a numpy array;
    it adds no special tokens and has no truncation."""

    name, module, dist = "gigatoken", "gigatoken", "gigatoken"

    def supports(self, spec):
        return bool(spec.json) and spec.model == "bpe"

    def load(self, spec):
        import gigatoken

        return gigatoken.Tokenizer(spec.json).encode

    def load_batch(self, spec, threads):
        import gigatoken

        tok = gigatoken.Tokenizer(spec.json)
        return lambda texts: tok.encode_batch_list(texts, parallel=threads > 1)


class Tokie(_HfStyle):
    name, module, dist = "tokie", "tokie", "tokie"

    def supports(self, spec):
        return bool(spec.json)

    def _open(self, spec):
        import tokie

        return tokie.Tokenizer.from_json(spec.json)


class Nanotoken(Peer):
    """nanotoken: WordPiece only. Its encode returns a numpy array."""

    name, module, dist = "nanotoken", "nanotoken", "nanotoken"

    def supports(self, spec):
        return bool(spec.json) and spec.model == "wordpiece"

    def load(self, spec):
        import nanotoken

        tok = nanotoken.Tokenizer(spec.json)
        return lambda text: tok.encode(text, add_special_tokens=False)

    def load_batch(self, spec, threads):
        import nanotoken

        tok = nanotoken.Tokenizer(spec.json)
        return lambda texts: tok.encode_batch_list(texts, add_special_tokens=False, parallel=threads > 1)


ALL = (Mtok(), MtokNumpy(), Tiktoken(), Tokenizers(), TokenizersRc3(), SentencePiece(), Iree(), BpeOpenai(), Kitoken(),
       Fastokens(), Gigatoken(), Tokie(), Nanotoken())
BY_NAME = {p.name: p for p in ALL}


def select(names=None):
    """The peers to run: `names` (when None, the installed ones that run by
    default), mtok first."""
    unknown = [n for n in (names or ()) if n not in BY_NAME]
    if unknown:
        raise KeyError(f"unknown libraries {unknown}; known: {', '.join(BY_NAME)}")
    chosen = [BY_NAME[n] for n in names] if names else [p for p in ALL if p.in_default and p.available()]
    return sorted(chosen, key=lambda p: p.name != "mtok")
