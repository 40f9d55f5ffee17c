"""JSON numbers read as HF tokenizers reads them.

tokenizers parses tokenizer.json with serde_json's default float parser,
which is not correctly rounded: it reads the digits into a u64
significand, converts that to f64, then multiplies or divides by a power of
ten (two roundings). Unigram scores read this way differ from Python's
float() by an ulp in about a quarter of t5-small's vocab, and the Viterbi
ties follow those bits, so the importer parses scores the same way.
"""

import re

_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?\Z")
_POW10 = [float("1e%d" % k) for k in range(309)]
_U64_MAX = (1 << 64) - 1


def serde_f64(text: str) -> float:
    """The f64 serde_json (without float_roundtrip) gives for a JSON number."""
    m = _NUMBER.match(text)
    if not m:
        return float(text)
    significand, exponent, overflow = 0, 0, False
    for k, digits in enumerate((m.group(1), m.group(2) or "")):
        for d in digits:
            if overflow:
                if k == 0:
                    exponent += 1  # integer digits past the u64 still scale
                continue
            nxt = significand * 10 + ord(d) - 48
            if nxt > _U64_MAX:
                overflow = True  # serde ignores the remaining digits
                if k == 0:
                    exponent += 1
                continue
            significand = nxt
            if k == 1:
                exponent -= 1
    if m.group(3):
        exponent += int(m.group(3))
    f = float(significand)
    while True:
        if abs(exponent) < len(_POW10):
            f = f * _POW10[exponent] if exponent >= 0 else f / _POW10[-exponent]
            break
        if f == 0.0:
            break
        if exponent >= 0:
            return float("inf") if text[0] != "-" else float("-inf")
        f /= 1e308
        exponent += 308
    return -f if text[0] == "-" else f
