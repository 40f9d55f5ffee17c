"""mtok inspect FILE"""

from .common import load_tokenizer


def register(sub) -> None:
    p = sub.add_parser("inspect", help="describe a tokenizer file: sections, model, specials")
    p.add_argument("file")
    p.add_argument("--runtime", action="store_true",
                   help="also load it and print how it runs (fast path, table storage)")
    p.set_defaults(run=run)


def run(args) -> int:
    tok = load_tokenizer(args.file)
    info = tok.inspect()
    print(f"header: 430 4 (pipeline); {len(info['special_ids'])} special, "
          f"{len(info['stop_ids'])} stop, {len(info['prefix_ids'])} prefix ids")
    print(f"model: {info['model_type']}, vocab {tok.vocab_size} ({len(tok)} with added tokens)")
    print("sections:")
    for s in info["sections"]:
        kind = f"  {s['type']}" if s["type"] else ""
        print(f"  {s['name']:<20} offset {s['offset']:>10}  size {s['size']:>10}{kind}")
    specials = [tok.id_to_token(i) for i in info["special_ids"]]
    shown = ", ".join(repr(s) for s in specials[:10]) + (" ..." if len(specials) > 10 else "")
    print(f"special tokens: {shown or 'none'}")
    print(f"stop ids: {info['stop_ids']}")
    print(f"eos: {info['eos_token']!r}  bos: {info['bos_token']!r}")
    print(f"chat template: {'yes' if info['chat_template'] else 'no'}"
          + (f" (+ named: {info['chat_json'][:60]})" if info["chat_json"] else ""))
    if args.runtime:
        print("runtime:")
        for name, value in tok.debug_info().items():
            print(f"  {name}: {value}")
    return 0
