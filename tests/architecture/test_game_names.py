"""No module outside the game registry and the engines asks which game it has in hand.

Whatever differs between games is a field of its entry in ``croupier/games.py`` (its table,
events, readers, the profile section holding its rules, its default profile, its wagers, the
modules of its family's server procedures and analysis...); code elsewhere asks the entry.
These tests read every module of ``src/croupier`` with :mod:`ast` and fail on

- a comparison of a value with a game's name (or a family's, which are game names too):
  ``game == "craps"``, ``"roulette" != game``, ``game in ("craps", "mini-craps")``, or
  ``case "roulette":``;
- a dict literal keyed by a game's name (``{"craps": ..., "roulette": ...}``), a table of
  per-game facts the registry should hold;
- ``isinstance`` or ``issubclass`` on an engine's table class (``CrapsTable``,
  ``RouletteTable``, alone or in a tuple), outside the engines' own packages.

Naming a game elsewhere (a default value, a docstring, the profile loader's ``"craps" in raw``
looking up the section of that name) is no branch and is not flagged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from croupier.games import FAMILIES, GAMES

SRC = Path(__file__).resolve().parents[2] / "src"
NAMES = frozenset(GAMES) | frozenset(FAMILIES)
ENGINE_CLASSES = frozenset(g.table_class.__name__ for g in GAMES.values())

# Where a branch on a game's name is allowed, each with the reason. Paths are relative to src/.
ALLOWED_FILES: dict[str, str] = {
    "croupier/games.py": "the registry itself",
}
ALLOWED_DIRS: dict[str, str] = {}
# Where a type test on an engine's table class is allowed: the engines, which know their own.
ENGINE_DIRS: dict[str, str] = {
    "croupier/craps/": "the craps engine",
    "croupier/roulette/": "the roulette engine",
}


def _names_in(node: ast.AST) -> set[str]:
    """The game names a comparison operand spells: a string, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_names_in(e) for e in node.elts)) if node.elts else set()
    return set()


def branches_on_game_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, the name compared with)`` for every comparison with a game's name in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            left = node.left
            for op, right in zip(node.ops, node.comparators, strict=True):
                # ``x in ("craps", ...)`` tests a name; ``"craps" in profile`` looks a key up.
                operands = (right,) if isinstance(op, (ast.In, ast.NotIn)) else (left, right)
                for name in sorted(set().union(*(_names_in(o) for o in operands))):
                    yield node.lineno, name
                left = right
        elif isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
            for name in sorted(_names_in(node.pattern.value)):
                yield node.pattern.lineno, name


def dicts_keyed_by_game_names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, the name)`` for every key of a dict literal in ``tree`` that is a game's name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    for name in sorted(_names_in(key)):
                        yield node.lineno, name


def engine_type_tests(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``(line, the class)`` for every ``isinstance`` or ``issubclass`` on an engine's table
    class in ``tree`` (a name or an attribute, alone or in a tuple)."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
            kinds = node.args[1]
            for kind in kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]:
                named = kind.id if isinstance(kind, ast.Name) else (
                    kind.attr if isinstance(kind, ast.Attribute) else "")
                if named in ENGINE_CLASSES:
                    yield node.lineno, named


def _allowed(rel: str) -> bool:
    return rel in ALLOWED_FILES or any(rel.startswith(d) for d in ALLOWED_DIRS)


def _modules() -> Iterator[tuple[str, ast.AST]]:
    for path in sorted((SRC / "croupier").rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), ast.parse(path.read_text("utf-8"))


def test_no_module_outside_the_registry_branches_on_a_game_name() -> None:
    found: list[str] = []
    for rel, tree in _modules():
        if _allowed(rel):
            continue
        for line, name in branches_on_game_names(tree):
            found.append(f"{rel}:{line}: compares with the game name {name!r}")
        for line, name in dicts_keyed_by_game_names(tree):
            found.append(f"{rel}:{line}: a dict keyed by the game name {name!r}")
    assert not found, ("ask the game's registry entry (croupier/games.py) instead:\n"
                       + "\n".join(found))


def test_no_module_outside_the_engines_tests_a_table_for_its_engine() -> None:
    found = [f"{rel}:{line}: a type test on {name}"
             for rel, tree in _modules()
             if not _allowed(rel) and not any(rel.startswith(d) for d in ENGINE_DIRS)
             for line, name in engine_type_tests(tree)]
    assert not found, ("ask the table through croupier.table.Table, or the family's module "
                       "the registry names (Game.procedures, Game.analysis):\n"
                       + "\n".join(found))


def test_the_check_finds_each_form_of_branch() -> None:
    code = '''
if game == "craps": pass
if "roulette" != game: pass
ok = game in ("mini-craps", "automated-craps")
match game:
    case "roulette": pass
default = "craps"
section = profile["craps"] if "craps" in profile else None
'''
    found = sorted(branches_on_game_names(ast.parse(code)))
    assert found == [(2, "craps"), (3, "roulette"), (4, "automated-craps"), (4, "mini-craps"),
                     (6, "roulette")]


def test_the_checks_find_each_dict_and_type_test() -> None:
    code = '''
pays = {"craps": 1, "roulette": 2, "other": 3}
plain = {"pass": 1, **other}
if isinstance(table, CrapsTable): pass
if isinstance(table, (int, tables.RouletteTable)): pass
if issubclass(kind, RouletteTable): pass
if isinstance(rules, CrapsRules): pass
'''
    tree = ast.parse(code)
    assert sorted(dicts_keyed_by_game_names(tree)) == [(2, "craps"), (2, "roulette")]
    assert sorted(engine_type_tests(tree)) == [(4, "CrapsTable"), (5, "RouletteTable"),
                                               (6, "RouletteTable")]
