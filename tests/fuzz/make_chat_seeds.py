"""Seeds for fuzz_chat_template: every corpus chat template with each
conversation of tests/chat/chat_cases.py, as "template \\0 messages \\0 options".

    PYTHONPATH=src:tests/chat python tests/fuzz/make_chat_seeds.py build/fuzz/seeds/chat_template
"""
import json
import sys
from pathlib import Path

from chat_cases import CONVERSATIONS, TEMPLATE_DIR


def main(out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(TEMPLATE_DIR.rglob("*.jinja")):
        source = path.read_bytes()
        for name, case in CONVERSATIONS.items():
            options = {k: case[k] for k in ("tools", "documents", "add_generation_prompt", "continue_final_message")
                       if k in case}
            options.update(case.get("kwargs", {}))
            data = source + b"\0" + json.dumps(case["messages"]).encode() + b"\0" + json.dumps(options).encode()
            (out / f"{path.stem}-{name}").write_bytes(data)
            count += 1
    print(f"{count} seeds in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
