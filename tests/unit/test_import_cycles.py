"""The Python package has no import circle: every import between mtok's
modules, at module level or inside a function, points one way. The one
circle allowed is tiktoken's pickling by name (mtok.tiktoken.core pickles a
built-in Encoding as its name in mtok.encodings, which makes them)."""

import ast
import pathlib

SRC = pathlib.Path(__file__).resolve().parents[2] / "src"
ALLOWED = {("mtok.tiktoken.core", "mtok.encodings")}  # pickling by name, lazy on both sides


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: pathlib.Path, name: str, known: set) -> set:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            mod = node.module or ""
            root = f"{base}.{mod}".strip(".") if node.level else mod
            targets = [root] + [f"{root}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            # The deepest known module the import names (a package's
            # submodule, else the package, else a name inside a module).
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and t.startswith("mtok"):
                out.add(t)
    return out


def _graph() -> dict:
    files = {_module_name(p): p for p in SRC.joinpath("mtok").rglob("*.py")}
    known = set(files)
    return {name: _imports(path, name, known) for name, path in files.items()}


def _is_ancestor(a: str, b: str) -> bool:
    # `import mtok.x.y` runs mtok/__init__ and mtok/x/__init__ first; a
    # package importing its own submodules is not a circle between modules.
    return b.startswith(a + ".")


def test_no_import_cycles():
    graph = _graph()
    edges = {(a, b) for a, targets in graph.items() for b in targets
             if not _is_ancestor(a, b) and not _is_ancestor(b, a)}
    for a, b in ALLOWED:
        assert (a, b) in edges, f"{a} no longer imports {b}: drop it from ALLOWED"
    edges -= ALLOWED | {(b, a) for a, b in ALLOWED}
    succ = {}
    for a, b in edges:
        succ.setdefault(a, set()).add(b)
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(succ.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(succ):
        if node not in state:
            visit(node, [])
    assert not cycles, "import circles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_writer_and_format_stay_below_the_core():
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("mtok.format"):
            assert "mtok._native" not in targets, f"{name} imports _native"
            assert not any(t.startswith("mtok.convert") for t in targets), f"{name} imports convert"
