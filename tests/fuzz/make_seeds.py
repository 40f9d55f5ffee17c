"""Writes the seed corpora of every fuzz target under OUT (default
build/fuzz/seeds), from ../shared/corpus and the hostile-file corpus.

    PYTHONPATH=src:tests python tests/fuzz/make_seeds.py [OUT]
"""

import json
import random
import sys
from pathlib import Path

from corpus import CORPUS, file_path, text_files
from shrink import shrink_sentencepiece, shrink_tiktoken, shrink_tokenizer_json

JSON_FAMILIES = ["gpt2", "llama3", "gpt-4o-o200k-hf", "qwen3", "bert-base-uncased", "t5-small",
                 "xlm-roberta", "mistral-7b-v0.1", "gemma3"]
MODEL_FILES = [("llama2", "tokenizer.model"), ("t5-small", "spiece.model"),
               ("sentencepiece-test", "test_model.model")]
HOSTILE = Path(__file__).resolve().parents[1] / "format" / "hostile"


def write(folder: Path, name: str, data: bytes) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


def main(out: Path) -> None:
    import mtok
    from mtok.convert import load_spec
    from mtok.convert.export import export_mtok
    from mtok.convert.legacy.writer import export_legacy_txt

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from small_spec import small_spec

    write(out / "load_mtok", "small_spec.mtok", export_mtok(small_spec()))
    for fam in JSON_FAMILIES:
        spec = json.loads(file_path("tokenizers", fam, "tokenizer.json").read_text("utf-8"))
        small = shrink_tokenizer_json(spec)
        data = json.dumps(small, ensure_ascii=False).encode()
        write(out / "convert_json", f"{fam}.json", data)
        tmp = out / "tmp" / fam / "tokenizer.json"
        write(tmp.parent, tmp.name, data)
        try:
            spec = load_spec(str(tmp))
            write(out / "load_mtok", f"{fam}.mtok", export_mtok(spec))
        except mtok.MtokError as e:
            print(f"{fam}: no .mtok seed ({e})")
            continue
        try:
            txt = export_legacy_txt(spec, allow_loss=True)
            write(out / "convert_txt", f"{fam}.txt", getattr(txt, "data", txt))
        except (mtok.MtokError, TypeError) as e:
            print(f"{fam}: no legacy .txt seed ({e})")
    for fam, name in MODEL_FILES:
        write(out / "convert_model", f"{fam}.model", shrink_sentencepiece(file_path("tokenizers", fam, name).read_bytes()))
    for name in ("r50k_base", "cl100k_base"):
        write(out / "convert_tiktoken", f"{name}.tiktoken",
              shrink_tiktoken((CORPUS / "tiktoken" / f"{name}.tiktoken").read_bytes()))
    for f in sorted(HOSTILE.glob("*.mtok")):
        write(out / "load_mtok", f.name, f.read_bytes())
    # Encode seeds: byte 0 picks the options, the rest is text.
    rng = random.Random(0)
    for i, (name, text) in enumerate(text_files()):
        for k in range(4):
            at = rng.randrange(max(1, len(text) - 400))
            chunk = text[at:at + rng.choice([16, 64, 400])].encode("utf-8", "replace")
            write(out / "encode", f"{i:03d}-{k}", bytes([rng.randrange(256)]) + chunk)
    specials = b"<|endoftext|><s></s>[CLS][SEP]<unk><|im_start|>"
    write(out / "encode", "specials", b"\x03" + specials)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "build/fuzz/seeds"))
