"""The check made before a tokenizer moves onto mtok: the HF tokenizer and
the mtok backend built from its tokenizer.json encode and decode a few
texts identically (ids, type ids, masks, offsets; single and pair), or the
tokenizer stays on HF tokenizers.

The texts cover scripts, digits, spacing, accents, emoji and every added
token (inside words and between spaces). A mismatch raises MtokError naming
the text and the field; it is a bug in mtok, reported so that the result
never silently differs.
"""

from ..errors import MtokError

_TEXTS = (
    "Hello, world! It's 2024: 12.5% of 3,000 items cost $9.99.",
    "  leading and trailing spaces  \n\ttabs\r\nnew lines\n\n\n",
    "Ünïcödé accents: café, naïve, Straße, ÅNGSTRÖM, ﬁ ligature, ½ ² Ⅻ",
    "日本語のテキストと中文文本，한국어 텍스트",
    "Русский текст, ελληνικά, العربية, עברית, हिन्दी, ไทย",
    "emoji 👩‍👩‍👧‍👦 🇫🇷 👍🏽 and symbols ← → ∑ ∞",
    "def f(x):\n    return x ** 2  # code\n",
    "CamelCaseWords and snake_case_words and UPPER CASE",
    "",
)
_FIELDS = ("ids", "type_ids", "attention_mask", "special_tokens_mask", "offsets")
_MAX_ADDED = 64


def probe_texts(hf_tokenizer) -> list:
    texts = list(_TEXTS)
    added = sorted(hf_tokenizer.get_added_tokens_decoder().items())[:_MAX_ADDED]
    for i, (_, token) in enumerate(added):
        texts.append(f"a{token.content}b {token.content} x {_TEXTS[i % 4][:20]}{token.content}")
    return texts


def check_same(hf_tokenizer, backend) -> None:
    """Raises MtokError at the first difference between the two."""
    texts = probe_texts(hf_tokenizer)
    for add in (True, False):
        ref = hf_tokenizer.encode_batch(texts, add_special_tokens=add)
        ours = backend.encode_batch(texts, add_special_tokens=add)
        _compare(texts, ref, ours, f"add_special_tokens={add}")
        pairs = list(zip(texts[:4], texts[4:8]))
        _compare(pairs, hf_tokenizer.encode_batch(pairs, add_special_tokens=add),
                 backend.encode_batch(pairs, add_special_tokens=add), f"pairs, add_special_tokens={add}")
        for skip in (False, True):
            ids = [e.ids for e in ref]
            if hf_tokenizer.decode_batch(ids, skip_special_tokens=skip) != backend.decode_batch(
                    ids, skip_special_tokens=skip):
                raise MtokError(f"decode differs from HF tokenizers (skip_special_tokens={skip})")


def _compare(texts, ref, ours, where):
    for text, a, b in zip(texts, ref, ours):
        for field in _FIELDS:
            if list(getattr(a, field)) != list(getattr(b, field)):
                raise MtokError(f"{field} differ from HF tokenizers on {text!r} ({where})")
