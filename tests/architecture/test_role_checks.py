"""Who may do what is decided in one place: the typed dependencies of
``croupier/service/api/deps.py`` (and the functions there they call).

This test reads every module of ``src/croupier`` with :mod:`ast` and fails on a comparison
with a user's role (``user.role == "player"``, ``row.role in roles``, ``x.role != y``) anywhere
else. A route that needs to know the capacity its caller acts in asks for it as a dependency
(``shooter: AsPlayer``, ``reading: CouponReading``); the express lane calls the same function
as the ``Player`` dependency. A role that carries a rule of its own (a player's account has a
wallet) says so on the :class:`~croupier.service.auth.Role` enum.

A SQL expression on the users table's column (``users.c.role == Role.ADMIN``, a ``WHERE``
clause) compares no user's role in Python and is not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
ROLE_CHECKS_AT = "croupier/service/api/deps.py"


def _on_role(node: ast.AST) -> bool:
    """A user's role: ``x.role``, but not a table's column ``t.c.role`` in a SQL expression."""
    if not (isinstance(node, ast.Attribute) and node.attr == "role"):
        return False
    owner = node.value
    return not (isinstance(owner, ast.Attribute) and owner.attr == "c")


def role_comparisons(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that compare a user's role with something."""
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Compare)
            and any(_on_role(o) for o in (node.left, *node.comparators))]


def test_no_role_is_compared_outside_the_dependencies() -> None:
    found = []
    for path in sorted((SRC / "croupier").rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel == ROLE_CHECKS_AT:
            continue
        tree = ast.parse(path.read_text("utf-8"), rel)
        found += [f"{rel}:{line}" for line in role_comparisons(tree)]
    assert found == [], f"role checks outside {ROLE_CHECKS_AT}: {found}"


def test_the_dependencies_do_compare_roles() -> None:
    """The rule reads what it is meant to: deps.py itself compares roles (and is exempt)."""
    assert role_comparisons(ast.parse((SRC / ROLE_CHECKS_AT).read_text("utf-8")))


def test_a_role_comparison_is_found_and_a_sql_column_is_not() -> None:
    source = ("if user.role != 'player':\n    pass\n"
              "ok = row.role in ROLES\n"
              "query = sa.select(t).where(store.users.c.role == 'admin')\n"
              "same = role == 'player'\n")
    assert role_comparisons(ast.parse(source)) == [1, 3]
