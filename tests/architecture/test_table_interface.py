"""What ``croupier/table.py`` and docs/architecture.md say of the ``Table`` protocol, checked.

- The service (``service/``, ``web/``) and the replay (``transcript.py``) call a table only
  through the protocol: no call of an engine's own public method (one of ``CrapsTable`` or
  ``RouletteTable`` the protocol does not declare, and that no function outside the engines
  is named, so that a call by the name is a call to an engine). The analysis and the
  simulator of a family may ask its engine more (a stake's check, a commission), as the
  document says.
- ``apply`` is the only code that changes a table once it is made: outside the engines, no
  assignment to an attribute of a table (``x.table.a = ...``, ``table.a = ...``) but of the
  two settings the protocol declares for its keeper (``keep_log``, ``earlier_release_pays``).
- The document names every method of the protocol.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from croupier.games import GAMES
from croupier.table import Table

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
ENGINES = ("croupier/craps/table.py", "croupier/roulette/table.py")
ENGINE_CLASSES = frozenset(g.table_class.__name__ for g in GAMES.values())
SPEAKS_ONLY_THROUGH_IT = ("croupier/service/", "croupier/web/", "croupier/transcript.py")
SETTINGS = frozenset({"keep_log", "earlier_release_pays"})
"""What the protocol lets its keeper set: how a table keeps its log and reads old records."""


@functools.cache
def modules() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the package, parsed once for the tests of this file."""
    return tuple((path.relative_to(SRC).as_posix(), ast.parse(path.read_text("utf-8")))
                 for path in sorted((SRC / "croupier").rglob("*.py")))


def protocol_methods() -> frozenset[str]:
    return frozenset(n for n, v in vars(Table).items()
                     if callable(v) and not n.startswith("_"))


def engine_only_methods(trees: dict[str, ast.Module]) -> frozenset[str]:
    engine: set[str] = set()
    for rel in ENGINES:
        for node in ast.walk(trees[rel]):
            if isinstance(node, ast.ClassDef) and node.name in ENGINE_CLASSES:
                engine |= {f.name for f in node.body
                           if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}
    elsewhere = {f.name for rel, tree in trees.items() if rel not in ENGINES
                 for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
    return frozenset(engine - protocol_methods() - elsewhere)


def engine_calls(trees: dict[str, ast.Module], methods: frozenset[str]) -> list[str]:
    return [f"{rel}:{node.lineno} .{node.func.attr}()"
            for rel, tree in trees.items() if rel.startswith(SPEAKS_ONLY_THROUGH_IT)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in methods]


def _is_table(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "table") or (
        isinstance(node, ast.Attribute) and node.attr == "table")


def table_writes(rel: str, tree: ast.Module) -> list[str]:
    """Assignments to an attribute of a table, but of its settings."""
    out = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign)
                   else [])
        out += [f"{rel}:{node.lineno} .{t.attr} =" for t in targets
                if isinstance(t, ast.Attribute) and _is_table(t.value)
                and t.attr not in SETTINGS]
    return out


def test_the_service_and_the_replay_call_a_table_only_through_the_protocol() -> None:
    trees = dict(modules())
    methods = engine_only_methods(trees)
    assert {"check_stake", "check_bet"} <= methods  # what the analysis may still ask
    assert engine_calls(trees, methods) == []


def test_only_apply_changes_a_table_once_it_is_made() -> None:
    assert set(Table.__annotations__) >= SETTINGS
    found = [w for rel, tree in modules() if rel not in ENGINES for w in table_writes(rel, tree)]
    assert found == []


def test_a_call_and_a_write_past_the_protocol_are_found() -> None:
    tree = ast.parse("live.table.check_stake(d)\nlive.table.config = c\ntable.keep_log = False\n"
                     "table.house += 1\n")
    trees = {"croupier/service/x.py": tree}
    assert engine_calls(trees, frozenset({"check_stake"})) == [
        "croupier/service/x.py:1 .check_stake()"]
    assert table_writes("x.py", tree) == ["x.py:2 .config =", "x.py:4 .house ="]


def test_the_document_names_every_method_of_the_protocol() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    bullet = re.search(r"^- `table\.py`:.*?(?=^- )", doc, re.S | re.M)
    assert bullet is not None
    named = set(re.findall(r"`(\w+)`", bullet.group(0)))
    assert sorted(protocol_methods() - named) == []
