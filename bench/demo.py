#!/usr/bin/env python3
"""`make demo`: what mtok does, on a bare clone.

On the built-in o200k_base (GPT-4o's encoding, shipped in the package):
export it to .mtok and time the load; encode and decode multilingual text
with the token boundaries shown; render a chat template; time encoding
against the peers installed here (same text, ids compared). With the shared
corpus (../shared/corpus or $MTOK_CORPUS) it does the same for Llama 3's
tokenizer.json, including the first load (conversion) and the cached one.
`--quick` times less text (the test runs it so).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mtok

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MTOK_CORPUS", REPO.parent / "shared" / "corpus"))

SAMPLES = [
    "Hello, world! mtok encodes exactly like the reference libraries.",
    "Le tokenizer découpe le texte en morceaux.",
    "Токенизатор разбивает текст на части.",
    "机器学习模型需要分词器。",
    "トークナイザーはテキストを分割します。",
    "Tiếng Việt có dấu thanh.",
    "المُرَمِّز يقسم النص إلى أجزاء.",
    "def f(x):\n    return x ** 2  # 🚀",
]
MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "Translate 'tokenizer' into French."},
    {"role": "assistant", "content": "« Tokeniseur » (ou « segmenteur »)."},
]
# A ChatML-style template (o200k_base itself has none).
CHATML = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def best_of(fn, repeat=3):
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def fresh_load_ms(path: Path) -> float:
    """Load + first encode of a file in a new process (imports untimed)."""
    code = ("import sys, time, mtok; t = time.perf_counter(); tok = mtok.Tokenizer.from_file(sys.argv[1]); "
            "tok.encode('Hello'); print((time.perf_counter() - t) * 1e3)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], check=True, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    return float(out.stdout.strip().splitlines()[-1])


def show_boundaries(tok, text: str) -> None:
    enc = tok.encode(text, add_special_tokens=False, return_encoding=True)
    spans = []  # a character split into several byte tokens shows once, with their count
    for span in enc.offsets:
        if spans and spans[-1][0] == span:
            spans[-1][1] += 1
        else:
            spans.append([span, 1])
    pieces = "|".join(text[s:e] + (f"(x{n})" if n > 1 else "") for (s, e), n in spans).replace("\n", "\\n")
    back = tok.decode(enc.ids)
    print(f"  {len(enc.ids):3d} tokens  {pieces}")
    assert back == text, (back, text)


def repo_text() -> str:
    """Real English text present in every clone: the repo's documentation."""
    files = [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md"))
    return "\n\n".join(p.read_text(encoding="utf-8") for p in files if p.exists())


def speed(rows_name: str, ours, peers, lines, nbytes) -> None:
    print(f"\n  encoding speed, {len(lines)} lines ({nbytes / 1e6:.2f} MB), one thread:")
    base, want = best_of(lambda: [ours(l) for l in lines])
    print(f"    {'mtok':<24} {nbytes / base / 1e6:8.2f} MB/s")
    for name, fn in peers:
        secs, got = best_of(lambda: [fn(l) for l in lines])
        print(f"    {name:<24} {nbytes / secs / 1e6:8.2f} MB/s  mtok is {secs / base:4.1f}x as fast  "
              f"ids match: {got == want}")
    if not peers:
        print(f"    (no peer library installed for {rows_name}: pip install tiktoken tokenizers)")


def o200k_part(work: Path, text: str, quick: bool) -> None:
    print("== o200k_base (built in) ==")
    enc = mtok.get_encoding("o200k_base")
    tok = enc._tokenizer
    out = work / "o200k_base.mtok"
    t = time.perf_counter()
    tok.save(out)
    print(f"exported to {out} ({out.stat().st_size / 1e6:.1f} MB) in {(time.perf_counter() - t) * 1e3:.0f} ms")
    print(f"load + first encode of the .mtok in a fresh process: {fresh_load_ms(out):.1f} ms")
    print("\ntoken boundaries (decoded back exactly):")
    for s in SAMPLES:
        show_boundaries(tok, s)
    print("\nchat template (ChatML-style, given as source):")
    rendered = tok.apply_chat_template(MESSAGES, chat_template=CHATML, add_generation_prompt=True)
    print("  " + rendered.replace("\n", "\n  ").rstrip())
    print(f"  -> {len(tok.encode(rendered, add_special_tokens=False))} tokens")

    lines = [l for l in text.splitlines() if l.strip()]
    lines = (lines * (1 if quick else 20))[: 400 if quick else 40000]
    peers = []
    try:
        import tiktoken
    except ImportError:  # the peer is not installed: mtok alone
        tiktoken = None
    if tiktoken is not None:
        from mtok.convert.openai_encodings import ENCODING_SPECS
        from mtok.encodings import _ranks

        base, digest, pattern, specials, _ = ENCODING_SPECS["o200k_base"]
        ref = tiktoken.Encoding("o200k_base", pat_str=pattern, mergeable_ranks=_ranks(base, digest),
                                special_tokens=dict(specials))
        peers.append((f"tiktoken {tiktoken.__version__}", ref.encode_ordinary))
    speed("o200k_base", enc.encode_ordinary, peers, lines, sum(len(l.encode()) for l in lines))


def llama3_part(work: Path, quick: bool) -> None:
    src = CORPUS / "tokenizers" / "llama3" / "tokenizer.json"
    text_path = CORPUS / "text" / "debian-handbook" / "en-US.txt"
    if not src.exists():
        print(f"\n(no corpus at {CORPUS}: the llama3 part is skipped; set MTOK_CORPUS to run it)")
        return
    print("\n== llama3 (tokenizer.json from the corpus) ==")
    env_cache = os.environ.get("MTOK_CACHE_DIR")
    os.environ["MTOK_CACHE_DIR"] = str(work / "cache")  # an empty cache: the first load converts
    try:
        first, second = fresh_load_ms(src), fresh_load_ms(src)
    finally:
        if env_cache is None:
            os.environ.pop("MTOK_CACHE_DIR")
        else:
            os.environ["MTOK_CACHE_DIR"] = env_cache
    print(f"first load (converts, fills the cache): {first:.0f} ms; later load (cached .mtok): {second:.1f} ms")
    tok = mtok.Tokenizer.from_file(src)
    print("\ntoken boundaries:")
    for s in SAMPLES:
        show_boundaries(tok, s)
    print("\nchat template (from tokenizer_config.json):")
    rendered = tok.apply_chat_template(MESSAGES[:2], add_generation_prompt=True)
    print("  " + rendered.replace("\n", "\n  ").rstrip())
    if not text_path.exists():
        return
    lines = [l for l in text_path.read_text(encoding="utf-8").splitlines() if l.strip()]
    lines = lines[: 400 if quick else 20000]
    peers = []
    try:
        import tokenizers

        ref = tokenizers.Tokenizer.from_file(str(src))
        peers.append((f"tokenizers {tokenizers.__version__}",
                      lambda l: ref.encode(l, add_special_tokens=False).ids))
    except ImportError:
        pass
    speed("llama3", lambda l: tok.encode(l, add_special_tokens=False), peers, lines,
          sum(len(l.encode()) for l in lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="time less text")
    args = parser.parse_args(argv)
    print(f"mtok {mtok.__version__} from {Path(mtok.__file__).parent}")
    with tempfile.TemporaryDirectory(prefix="mtok-demo-") as tmp:
        work = Path(tmp)
        o200k_part(work, repo_text(), args.quick)
        llama3_part(work, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
