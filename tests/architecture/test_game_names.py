"""No module outside the game registry branches on a game's name (issue 11, item 3).

Whatever differs between games is a field of its entry in ``croupier/games.py`` (its table,
events, readers, the profile section holding its rules, its default profile, its wagers...);
code elsewhere asks the entry. This test reads every module of ``src/croupier`` with
:mod:`ast` and fails on a comparison of a value with a game's name (or a family's, which are
game names too): ``game == "craps"``, ``"roulette" != game``, ``game in ("craps",
"mini-craps")``, or ``case "roulette":``. Naming a game elsewhere (a default value, a
docstring, a dict of demo tables, the profile loader's ``"craps" in raw`` looking up the
section of that name) is no branch and is not flagged.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from croupier.games import FAMILIES, GAMES

SRC = Path(__file__).resolve().parents[2] / "src"
NAMES = frozenset(GAMES) | frozenset(FAMILIES)

# Where a branch on a game's name is allowed, each with the reason. Paths are relative to src/.
ALLOWED_FILES: dict[str, str] = {
    "croupier/games.py": "the registry itself",
}
ALLOWED_DIRS: dict[str, str] = {}


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


def _allowed(rel: str) -> bool:
    return rel in ALLOWED_FILES or any(rel.startswith(d) for d in ALLOWED_DIRS)


def test_no_module_outside_the_registry_branches_on_a_game_name() -> None:
    found: list[str] = []
    for path in sorted((SRC / "croupier").rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if _allowed(rel):
            continue
        text = path.read_text("utf-8")
        for line, name in branches_on_game_names(ast.parse(text)):
            found.append(f"{rel}:{line}: compares with the game name {name!r}")
    assert not found, ("ask the game's registry entry (croupier/games.py) instead:\n"
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
