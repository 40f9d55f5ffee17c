"""atheris target: mutated tokenizer.json / .model / .tiktoken / MNN .txt
files through mtok.Tokenizer.from_file (see README.md).

    PYTHONPATH=src:tests/fuzz python tests/fuzz/fuzz_convert.py KIND \
        -atheris_runs=100000 -timeout=1 build/fuzz/corpus/convert_KIND build/fuzz/seeds/convert_KIND
"""

import sys

import atheris

with atheris.instrument_imports(include=["mtok"]):
    import mtok  # noqa: F401
    from convert_harness import FILE_NAMES, run_one


def main():
    kind = sys.argv.pop(1)
    if kind not in FILE_NAMES:
        sys.exit(f"KIND must be one of {', '.join(FILE_NAMES)}")
    atheris.Setup(sys.argv, lambda data: run_one(kind, data))
    atheris.Fuzz()


if __name__ == "__main__":
    main()
