"""Outside the engines and the registry, no module asks which game a table plays.

The server and the analysis speak to a table through the ``Table`` protocol and reach what
differs between games through the game's registry entry (its procedures, its analysis). This
test reads every module of ``src/croupier`` with :mod:`ast` and fails on what would ask the
type instead: an ``isinstance`` or ``issubclass`` on an engine's table class, a call of
``craps()`` or ``roulette()`` or a read of ``is_craps`` (the narrowing helpers the server once
had), or a dict whose keys are game names (a table keyed by game is a branch in disguise).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from croupier.games import FAMILIES, GAMES

SRC = Path(__file__).resolve().parents[2] / "src"
ENGINE_CLASSES = frozenset({g.table_class.__name__ for g in GAMES.values()})
NAMES = frozenset(GAMES) | frozenset(FAMILIES)
NARROWING = frozenset({"craps", "roulette"})
"""Calls that narrow a table to one game's class (``live.craps()``)."""

# The engines and the registry may name their own classes and games.
ALLOWED = ("croupier/craps/", "croupier/roulette/", "croupier/games.py")


def type_questions(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, what)`` for every question ``tree`` asks of a table's type."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            for cls in sorted(named & ENGINE_CLASSES):
                yield node.lineno, f"{node.func.id} on {cls}"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in NARROWING and not node.args and not node.keywords):
            yield node.lineno, f".{node.func.attr}()"
        elif isinstance(node, ast.Attribute) and node.attr == "is_craps":
            yield node.lineno, ".is_craps"
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if len(keys & NAMES) >= 2:
                yield node.lineno, f"a dict keyed by game names {sorted(keys & NAMES)}"


def _allowed(rel: str) -> bool:
    return rel.startswith(ALLOWED)


def test_no_module_outside_the_engines_asks_a_tables_type() -> None:
    found: list[str] = []
    for path in sorted((SRC / "croupier").rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if _allowed(rel):
            continue
        for line, what in type_questions(ast.parse(path.read_text("utf-8"))):
            found.append(f"{rel}:{line}: {what}")
    assert not found, ("speak to the table through croupier.table.Table, and to what differs "
                       "through the game's registry entry:\n" + "\n".join(found))


def test_the_check_finds_each_form_of_question() -> None:
    code = '''
if isinstance(t, CrapsTable): pass
if issubclass(g.table_class, RouletteTable): pass
ok = isinstance(t, (str, croupier.craps.table.CrapsTable))
live.craps().point
if live.is_craps: pass
CONFIRMERS = {"craps": "boxperson", "mini-craps": "floorperson"}
fine = {"craps": 1, "other": 2}
also_fine = profile.craps
'''
    found = [what for _, what in sorted(type_questions(ast.parse(code)))]
    assert found == ["isinstance on CrapsTable", "issubclass on RouletteTable",
                     "isinstance on CrapsTable", ".craps()", ".is_craps",
                     "a dict keyed by game names ['craps', 'mini-craps']"], found
