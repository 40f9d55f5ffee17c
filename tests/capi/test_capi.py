"""The native SDK: the installed package's layout and exported symbols, the
C header as C99 and C++, the examples, the C API's error handling
(capi_checks.c), and the C API's results against the Python package's on
corpus text and chat templates (capi_driver.c): ids, decode, stream decode
and renders."""

import copy
import json
import random
import re
import subprocess
from pathlib import Path

import pytest

import corpus
import mtok
from conftest import REPO, SANITIZE, SANITIZER_FLAGS, child_env, run

# Byte-level BPE, WordPiece, Unigram, SentencePiece BPE with byte fallback
# (a tokenizer.json and a .model), and the two with chat templates.
TOKENIZERS = ["llama3", "bert-base-uncased", "t5-small", "mistral-7b-v0.1", "qwen3", "gemma3", "llama2"]
HEADERS = ["mtok.h", "export.h", "tokenizer.h", "decode_stream.h", "buffer.h", "encoding.h", "status.h"]


def project_version():
    text = (REPO / "pyproject.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


# --- the installed package ------------------------------------------------------


def test_install_layout(sdk):
    p = sdk.prefix
    assert sorted(f.name for f in (p / "include" / "mtok").iterdir()) == sorted(HEADERS)
    version = project_version()
    assert (p / "lib" / f"libmtok.so.{version}").is_file()
    assert (p / "lib" / "libmtok.so.0").resolve() == (p / "lib" / f"libmtok.so.{version}").resolve()
    assert (p / "lib" / "libmtok.a").is_file()
    for f in ("mtokConfig.cmake", "mtokConfigVersion.cmake", "mtokTargets.cmake"):
        assert (p / "lib" / "cmake" / "mtok" / f).is_file(), f
    assert (p / "lib" / "pkgconfig" / "mtok.pc").is_file()
    soname = run(["readelf", "-d", p / "lib" / "libmtok.so"])
    assert "Library soname: [libmtok.so.0]" in soname


def test_exports_only_the_public_api(sdk):
    out = run(["nm", "-D", "--defined-only", "--demangle", sdk.prefix / "lib" / "libmtok.so"])
    symbols = [line.split(" ", 2)[2] for line in out.splitlines() if line.split(" ")[1] != "A"]
    # Buffer is a polymorphic exported class: its vtable and typeinfo are its
    # ABI (an ASan build exports the vtable too).
    public = ("mtok::Tokenizer::", "mtok::DecodeStream::", "mtok::Buffer::", "typeinfo for mtok::Buffer",
              "typeinfo name for mtok::Buffer", "vtable for mtok::Buffer")
    stray = [s for s in symbols if not (re.match(r"mtok_\w+@", s) or s.startswith(public))]
    assert not stray, f"exported but not public API: {stray[:10]}"
    declared = set(re.findall(r"MTOK_API [^;(]*?\b(mtok_\w+)\(", (REPO / "cpp/include/mtok/mtok.h").read_text()))
    exported = {s.split("@")[0] for s in symbols if s.startswith("mtok_")}
    assert declared and declared == exported


@pytest.mark.parametrize("lang", ["c99", "c++11", "c++17"])
def test_header_compiles_alone(sdk, tmp_path, lang):
    src = tmp_path / ("t.c" if lang == "c99" else "t.cc")
    src.write_text('#include <mtok/mtok.h>\nint main(void) { return mtok_version() == 0; }\n')
    compiler = "cc" if lang == "c99" else "c++"
    run([compiler, f"-std={lang}", "-Wall", "-Wextra", "-pedantic", "-Werror", *(SANITIZER_FLAGS if SANITIZE else []),
         f"-I{sdk.prefix}/include",
         src, "-o", tmp_path / "t", f"-L{sdk.prefix}/lib", "-lmtok", f"-Wl,-rpath,{sdk.prefix}/lib"])
    assert subprocess.run([tmp_path / "t"], env=child_env()).returncode == 0


def test_version(sdk):
    out = run([sdk.programs / "capi_checks", "--version"])
    assert out.strip() == project_version()


# --- examples -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def examples(sdk):
    built = {}
    for lang, exe in (("c", "mtok_example"), ("cpp", "mtok_example_cpp")):
        build = sdk.work / f"example-{lang}"
        flags = " ".join(SANITIZER_FLAGS) if SANITIZE else ""
        run(["cmake", "-S", REPO / "examples" / lang, "-B", build, f"-DCMAKE_PREFIX_PATH={sdk.prefix}",
             f"-DCMAKE_C_FLAGS={flags}", f"-DCMAKE_CXX_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"])
        run(["cmake", "--build", build])
        built[lang] = build / exe
    return built


def test_c_example(examples, mtok_files):
    path = mtok_files("qwen3")
    text = "Hello, 世界! 🎉"
    out = run([examples["c"], path, text])
    tok = mtok.Tokenizer.from_file(path)
    ids = tok.encode(text)
    assert f"{len(ids)} ids: {' '.join(map(str, ids))}\n" in out
    assert f"decoded: {tok.decode(ids, skip_special_tokens=True)}\n" in out
    prompt = tok.apply_chat_template([{"role": "user", "content": "Hello!"}], add_generation_prompt=True)
    assert f"chat prompt ({len(prompt.encode())} bytes):\n{prompt}\n" in out


def test_cpp_example(examples, mtok_files):
    path = mtok_files("bert-base-uncased")
    texts = ["Héllo wörld", "a second text"]
    out = run([examples["cpp"], path, *texts])
    tok = mtok.Tokenizer.from_file(path)
    tok.no_padding()  # bert's file pads to 128; the C++ example's options do not
    for i, text in enumerate(texts):
        ids = tok.encode(text)
        assert f"text {i}: {len(ids)} ids: {' '.join(map(str, ids))}\n" in out
        assert f"  decoded: {tok.decode(ids, skip_special_tokens=True)}\n" in out


# --- error handling, threads, buffers (no Python reference needed) ---------------


@pytest.mark.parametrize("name", ["bert-base-uncased", "llama3"])
def test_checks(sdk, mtok_files, name):
    out = run([sdk.programs / "capi_checks", mtok_files(name)])
    assert re.fullmatch(r"ok \d+\n", out)


# --- results against the Python package --------------------------------------------


def write_records(path, records):
    with open(path, "wb") as f:
        for r in records:
            data = r.encode() if isinstance(r, str) else r
            f.write(b"%d\n" % len(data) + data + b"\n")


def unhex(value):
    return "" if value == "." else bytes.fromhex(value).decode()


def stream_steps(tok, ids):
    """Each step's text (None: nothing complete yet); "!" for a step that
    raised, which ends the stream."""
    stream = mtok.DecodeStream(skip_special_tokens=False)
    out = []
    for i in ids:
        try:
            out.append(stream.step(tok, i))
        except mtok.MtokError:
            out.append("!")
            break
    return out


def stream_values(line):
    return [v if v == "!" else None if v == "-" else unhex(v) for v in line.split()]


def parse_text_output(out):
    """[{"E": ids, "P": ids, "D": str, "S": str, "T": [str|None]}], batch count."""
    rows, batch = [], None
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "E":
            rows.append({})
        if tag in "EP":
            rows[-1][tag] = [int(x) for x in rest.split()]
        elif tag in "DS":
            rows[-1][tag] = unhex(rest)
        elif tag == "T":
            rows[-1][tag] = stream_values(rest)
        elif tag == "B":
            batch = int(rest)
    return rows, batch


def sample_texts(k=400, seed=23):
    """Lines, paragraphs and 4096-character chunks of every corpus language."""
    strings = corpus.parity_strings()
    rng = random.Random(seed)
    picked = rng.sample(range(len(strings)), min(k, len(strings)))
    return [strings[i] for i in sorted(picked)] + ["", " ", "\n\n", "a\u0000b"]


@pytest.fixture(scope="module")
def texts():
    if not corpus.available():
        pytest.skip(f"corpus not found at {corpus.CORPUS}")
    return sample_texts(k=100 if SANITIZE else 400)  # ASan runs the Python side too


def expected_text_rows(tok, texts):
    rows = []
    for text in texts:
        e = tok.encode(text)
        p = tok.encode(text, add_special_tokens=False)
        rows.append({"E": e, "P": p, "D": tok.decode(p), "S": tok.decode(e, skip_special_tokens=True),
                     "T": stream_steps(tok, e)})
    return rows


def check_rows(name, texts, got, expected):
    assert len(got) == len(expected)
    for text, g, e in zip(texts, got, expected):
        for key in "EPDST":
            assert g[key] == e[key], f"{name}: {key} differs on {text[:80]!r}"


@pytest.mark.parametrize("name", TOKENIZERS)
def test_text_matches_python(sdk, mtok_files, texts, tmp_path, name):
    path = mtok_files(name)
    tok = mtok.Tokenizer.from_file(path)
    tok.no_truncation()  # the C API never truncates or pads
    tok.no_padding()
    records = tmp_path / "texts.bin"
    write_records(records, texts)
    got, batch = parse_text_output(run([sdk.driver(), path, "text", records]))
    assert batch == len(texts)  # mtok_encode_batch gave mtok_encode's ids
    check_rows(name, texts, got, expected_text_rows(tok, texts))


@pytest.mark.parametrize("kind", ["static", "pkg-config"])
def test_other_builds_give_the_same_output(sdk, mtok_files, texts, tmp_path, kind):
    path = mtok_files("llama3")
    records = tmp_path / "texts.bin"
    write_records(records, texts[:100])
    assert run([sdk.driver(kind), path, "text", records]) == run([sdk.driver(), path, "text", records])


@pytest.mark.parametrize("name", ["llama3", "gemma3", "bert-base-uncased"])
def test_ids_decode_like_python(sdk, mtok_files, tmp_path, name):
    """Random ids, special and unknown ones among them: decode, decode with
    skip_special_tokens and stream decode."""
    path = mtok_files(name)
    tok = mtok.Tokenizer.from_file(path)
    rng = random.Random(name)
    n = len(tok)
    lists = [[rng.choice([rng.randrange(n), rng.randrange(n), rng.choice(tok.special_ids or [0]), n + 5])
              for _ in range(rng.randrange(1, 40))] for _ in range(300)]
    records = tmp_path / "ids.bin"
    write_records(records, [" ".join(map(str, ids)) for ids in lists])
    out = run([sdk.driver(), path, "ids", records]).splitlines()
    assert len(out) == 3 * len(lists)
    for k, ids in enumerate(lists):
        d, s, t = out[3 * k:3 * k + 3]
        assert unhex(d[2:]) == tok.decode(ids), ids
        assert unhex(s[2:]) == tok.decode(ids, skip_special_tokens=True), ids
        assert stream_values(t[2:]) == stream_steps(tok, ids), ids


# --- chat templates against the Python package ------------------------------------


def chat_options(case, **extra):
    """options_json for a chat_cases conversation (the keywords
    apply_chat_template gets in Python)."""
    return json.dumps({**_args(case), **extra}, ensure_ascii=False)


def render_python(tok, case, **extra):
    try:
        return ("ok", tok.apply_chat_template(copy.deepcopy(case["messages"]), **_args(case), **extra))
    except mtok.TemplateError as exc:
        return ("error", str(exc))


def render_c(sdk, path, tmp_path, requests):
    """[(messages_json, options_json)] -> [("ok", text) | ("error", code, message)]."""
    records = tmp_path / "chat.bin"
    write_records(records, [part for pair in requests for part in pair])
    out = []
    for line in run([sdk.driver(), path, "chat", records]).splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "R":
            out.append(("ok", unhex(rest)))
        else:
            code, _, message = rest.partition(" ")
            out.append(("error", code, unhex(message)))
    assert len(out) == len(requests)
    return out


def compare_renders(label, expected, got):
    assert got[0] == expected[0], f"{label}: Python {expected}, C {got}"
    if got[0] == "ok":
        assert got[1] == expected[1], label
    else:  # the engine's failures are MTOK_E_TEMPLATE, with a message
        assert got[1] == "MTOK_E_TEMPLATE" and got[2], f"{label}: {got}"


def _args(case):
    from chat_cases import _args as args  # tests/chat/chat_cases.py

    return args(case)


def conversations():
    from chat_cases import CONVERSATIONS

    return CONVERSATIONS


@pytest.mark.parametrize("name", ["llama3", "qwen3", "gemma3"])
def test_embedded_template_renders_like_python(sdk, mtok_files, tmp_path, name):
    path = mtok_files(name)
    tok = mtok.Tokenizer.from_file(path)
    cases = conversations()
    got = render_c(sdk, path, tmp_path, [(json.dumps(c["messages"]), chat_options(c)) for c in cases.values()])
    rendered = 0
    for (case_name, case), g in zip(cases.items(), got):
        expected = render_python(tok, case)
        compare_renders(f"{name}/{case_name}", expected, g)
        rendered += expected[0] == "ok"
    assert rendered >= 5


def corpus_templates():
    root = corpus.CORPUS / "chat_templates"
    return sorted(root.rglob("*.jinja")) if root.is_dir() else []


def test_corpus_templates_render_like_python(sdk, mtok_files, tmp_path):
    """Every corpus template x conversation, passed as {"chat_template": source}."""
    templates = corpus_templates()
    if not templates:
        pytest.skip(f"no chat templates under {corpus.CORPUS / 'chat_templates'}")
    path = mtok_files("llama3")
    tok = mtok.Tokenizer.from_file(path)
    cases = conversations()
    requests, labels, expected = [], [], []
    for template in templates:
        source = template.read_text(encoding="utf-8")
        for case_name, case in cases.items():
            requests.append((json.dumps(case["messages"], ensure_ascii=False), chat_options(case, chat_template=source)))
            labels.append(f"{template.name}/{case_name}")
            expected.append(render_python(tok, case, chat_template=source))
    for label, e, g in zip(labels, expected, render_c(sdk, path, tmp_path, requests)):
        compare_renders(label, e, g)
    assert sum(e[0] == "ok" for e in expected) >= len(templates) * 3


@pytest.fixture(scope="module")
def named_templates_file(tmp_path_factory, mtok_files):
    """A tokenizer whose config has two named templates, "default" and "tool_use"."""
    folder = tmp_path_factory.mktemp("named")
    src = corpus.file_path("tokenizers", "bert-base-uncased", "tokenizer.json")
    (folder / "tokenizer.json").write_bytes(src.read_bytes())
    config = {
        "bos_token": "[CLS]", "eos_token": "[SEP]", "unk_token": "[UNK]", "pad_token": "[PAD]",
        "additional_special_tokens": ["[MASK]"],
        "chat_template": [
            {"name": "default", "template": "{{ bos_token }}{% for m in messages %}{{ m.role }}: {{ m.content }}"
                                            "{{ eos_token }}{% endfor %}{{ unk_token }}{{ pad_token }}"},
            {"name": "tool_use", "template": "TOOLS {{ tools | tojson }} {{ additional_special_tokens }}"
                                             "{% for m in messages %}{{ m.content }}{% endfor %}"},
        ],
    }
    (folder / "tokenizer_config.json").write_text(json.dumps(config))
    out = folder / "named.mtok"
    mtok.Tokenizer.from_file(folder).save(out)
    return out


def test_named_templates_are_chosen_like_python(sdk, named_templates_file, tmp_path):
    tok = mtok.Tokenizer.from_file(named_templates_file)
    messages = [{"role": "user", "content": "Hi"}]
    tool = conversations()["tools_prompt"]["tools"][0]
    variants = [
        {}, {"tools": [tool]}, {"tools": None}, {"chat_template": "tool_use", "tools": [tool]},
        {"chat_template": "default"}, {"chat_template": "inline {{ messages[0].content }} {{ eos_token }}"},
        {"eos_token": "<override>"}, {"chat_template": 7},
    ]
    got = render_c(sdk, named_templates_file, tmp_path, [(json.dumps(messages), json.dumps(v)) for v in variants])
    for options, g in zip(variants, got):
        try:
            expected = ("ok", tok.apply_chat_template(messages, **options))
        except (mtok.TemplateError, TypeError) as exc:
            expected = ("error", str(exc))
        assert g[0] == expected[0], (options, expected, g)
        if g[0] == "ok":
            assert g[1] == expected[1], options
    assert got[-1][1] == "MTOK_E_INVALID_ARGUMENT"


def test_chat_errors(sdk, mtok_files, tmp_path):
    path = mtok_files("bert-base-uncased")  # no chat template
    messages = json.dumps([{"role": "user", "content": "Hi"}])
    requests = [
        (messages, ""),
        (messages, json.dumps({"chat_template": "{{ raise_exception('roles must alternate') }}"})),
        (messages, json.dumps({"chat_template": "{{ messages[0].missing.deeper }}"})),
        (messages, json.dumps({"chat_template": "{% for m in messages %}{{ m.content }}"})),
        (messages, json.dumps({"chat_template": "x", "add_generation_prompt": True,
                               "continue_final_message": True})),
        ("[]", json.dumps({"chat_template": "x"})),
        ('[{"role": "user"', json.dumps({"chat_template": "x"})),
        (messages, '{"chat_template": "x",}'),
        (messages, "[1]"),
    ]
    got = render_c(sdk, path, tmp_path, requests)
    codes = [g[1] for g in got]
    assert codes == ["MTOK_E_NOT_FOUND", "MTOK_E_TEMPLATE", "MTOK_E_TEMPLATE", "MTOK_E_TEMPLATE", "MTOK_E_TEMPLATE",
                     "MTOK_E_TEMPLATE", "MTOK_E_JSON", "MTOK_E_JSON", "MTOK_E_INVALID_ARGUMENT"], got
    assert "roles must alternate" in got[1][2]
    assert "offset" in got[6][2] and "messages_json" in got[6][2]
    assert "options_json" in got[7][2]
    # Python fails on the same inputs.
    tok = mtok.Tokenizer.from_file(path)
    for messages_json, options_json in requests[:6]:
        options = json.loads(options_json) if options_json else {}
        with pytest.raises((mtok.TemplateError, TypeError, ValueError)):
            tok.apply_chat_template(json.loads(messages_json), **options)


def test_docs_example(sdk, mtok_files, tmp_path):
    """docs/native.md's complete C example compiles as C99 and runs."""
    text = (REPO / "docs" / "native.md").read_text()
    code = re.search(r"## A complete C example\n\n```c\n(.*?)```", text, re.S).group(1)
    (tmp_path / "chat.c").write_text(code)
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", *(SANITIZER_FLAGS if SANITIZE else []),
         f"-I{sdk.prefix}/include", tmp_path / "chat.c", "-o", tmp_path / "chat", f"-L{sdk.prefix}/lib", "-lmtok",
         f"-Wl,-rpath,{sdk.prefix}/lib"])
    path = mtok_files("qwen3")
    out = run([tmp_path / "chat", path])
    tok = mtok.Tokenizer.from_file(path)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say hi in French."}]
    prompt = tok.apply_chat_template(messages, add_generation_prompt=True)
    ids = tok.encode(prompt, add_special_tokens=False)
    assert out.startswith(f"prompt: {len(prompt.encode())} bytes, {len(ids)} tokens\n")
