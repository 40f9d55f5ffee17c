"""mtok chat -t TOKENIZER --messages conv.json [--add-generation-prompt] [--ids]"""

import json
import sys

from ..errors import MtokError
from .common import add_tokenizer_arg, load_tokenizer


def register(sub) -> None:
    p = sub.add_parser("chat", help="render a conversation with the tokenizer's chat template",
                       description="Renders a JSON list of {role, content} messages exactly as "
                                   "transformers' apply_chat_template does.")
    add_tokenizer_arg(p)
    p.add_argument("--messages", required=True, help="JSON file with the messages ('-' for stdin)")
    p.add_argument("--add-generation-prompt", action="store_true")
    p.add_argument("--continue-final-message", action="store_true")
    p.add_argument("--template", help="a template name, or a file holding a template to use instead")
    p.add_argument("--ids", action="store_true", help="print token ids instead of text")
    p.set_defaults(run=run)


def _load_messages(path: str):
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
    except (OSError, ValueError) as e:
        raise MtokError(f"{path}: cannot read messages: {e}") from None
    if isinstance(data, dict) and "messages" in data:
        data = data["messages"]
    if not isinstance(data, list):
        raise MtokError(f"{path}: expected a JSON list of messages")
    return data


def run(args) -> int:
    tok = load_tokenizer(args.tokenizer)
    template = args.template
    if template and template.endswith((".jinja", ".j2", ".txt")):
        with open(template, encoding="utf-8") as f:
            template = f.read()
    out = tok.apply_chat_template(_load_messages(args.messages),
                                  add_generation_prompt=args.add_generation_prompt,
                                  continue_final_message=args.continue_final_message,
                                  chat_template=template, tokenize=args.ids)
    print(" ".join(map(str, out)) if args.ids else out, end="" if not args.ids else "\n")
    return 0
