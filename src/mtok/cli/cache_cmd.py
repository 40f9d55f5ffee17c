"""mtok cache info | clear"""

import datetime

from .. import cache


def register(sub) -> None:
    p = sub.add_parser("cache", help="show or clear the on-disk cache of converted tokenizers")
    actions = p.add_subparsers(dest="action", required=True)
    info = actions.add_parser("info", help="where the cache is, its entries and their sources")
    info.set_defaults(run=run_info)
    clear = actions.add_parser("clear", help="remove every entry (or the oldest, with --max-mb)")
    clear.add_argument("--max-mb", type=float, default=None,
                       help="keep the newest entries up to this many MB instead of removing all")
    clear.set_defaults(run=run_clear)


def _folder():
    folder = cache.cache_dir()
    if folder is None:
        print(f"cache: off (${cache.ENV_DIR}=off)")
    return folder


def run_info(args) -> int:
    folder = _folder()
    if folder is None:
        return 0
    found = cache.entries(folder)
    total = sum(e[2] for e in found)
    print(f"cache: {folder}")
    print(f"entries: {len(found)}, {total / 1e6:.1f} MB (limit {cache.max_bytes() / 1e6:.0f} MB, "
          f"${cache.ENV_MAX_MB})")
    sources = cache.entry_sources(folder)
    # A small entry's record is written by the load after the one that made it (cache.RECORD_MIN_BYTES).
    unknown = ["(source recorded at its next load)"]
    for name, _, size, mtime in found:
        when = datetime.datetime.fromtimestamp(mtime / 1e9).strftime("%Y-%m-%d %H:%M")
        print(f"  {name[:16]}  {size / 1e6:8.1f} MB  {when}  {', '.join(sources.get(name, unknown))}")
    return 0


def run_clear(args) -> int:
    folder = _folder()
    if folder is None:
        return 0
    if args.max_mb is not None:
        removed = cache.prune(folder, int(args.max_mb * 1e6))
        print(f"removed {len(removed)} entries from {folder}")
        return 0
    count, freed = cache.clear(folder)
    print(f"removed {count} files ({freed / 1e6:.1f} MB) from {folder}")
    return 0
