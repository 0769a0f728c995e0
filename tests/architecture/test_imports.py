"""The import graph of ``src/croupier``: no cycles, and no layer imports a layer above it.

The graph is read with :mod:`ast` from every module, counting every ``import`` and
``from ... import`` wherever it stands (module level or inside a function), except those under
``if TYPE_CHECKING:`` (never executed). ``from croupier.a import b`` is an edge to the module
``croupier.a.b`` when that is a module, else to ``croupier.a``.

The layers (docs/architecture.md), lowest first; a module may import its own layer or lower:
core (money, rules, the engines, events, the game registry) < contracts (the replay contract)
< analysis and integrity < simulation < service and the browser table < the command line
(``cli``, ``__main__`` and each package's ``commands`` module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "croupier"

LAYERS: dict[str, int] = {
    "core": 1, "contracts": 2, "analysis": 3, "integrity": 3, "sim": 4, "service": 5,
    "web": 5, "entry": 6,
}
CONTRACTS = {"croupier.transcript"}
ENTRY = {"croupier.cli", "croupier.__main__"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def layer(module: str) -> int:
    # Each package's ``commands`` module adds its subcommands to the command line: it is the
    # command line, and may put layers together (``croupier integrity --ledger``).
    if module in ENTRY or module.endswith(".commands"):
        return LAYERS["entry"]
    if module in CONTRACTS:
        return LAYERS["contracts"]
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS[parts[1]]
    return LAYERS["core"]


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node``, leaving out ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if _type_checking_only(child):
            continue
        yield child
        yield from _walk(child)


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    return {m for m in out if m in known and m != name}


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def _pop_component(stack: list[str], on_stack: set[str], root: str) -> list[str]:
    """The modules on the stack down to ``root``: one strongly connected component."""
    component = []
    while True:
        w = stack.pop()
        on_stack.discard(w)
        component.append(w)
        if w == root:
            return component


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = _pop_component(stack, on_stack, v)
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "croupier.games" in edges["croupier.transcript"]
    assert "croupier.craps.table" in edges["croupier.games"]
    # a function-level import counts: the command line imports replay only when it runs
    assert "croupier.transcript" in edges["croupier.cli"]


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_no_layer_imports_a_layer_above_it() -> None:
    upward = sorted((a, b) for a, targets in graph().items() for b in targets
                    if layer(b) > layer(a))
    assert upward == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
