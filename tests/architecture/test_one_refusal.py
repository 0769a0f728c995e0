"""One type says "the rules refuse this": :class:`croupier.errors.Refusal` (the reason in the
regulation's terms, and the clause). The service raises it for a coupon, an account, the
equipment register and the house's pay table alike, and the API answers each with the same
409 ``{"error": {"code": "refused", "reason", "clause"}}``; what is not a refusal by the rules
is an :class:`~croupier.service.errors.ApiError` (404, 403, 422) or
:class:`~croupier.errors.Malformed`.

This test reads every module of ``src/croupier`` with :mod:`ast` and fails on an exception
class named ``...Refused`` (a clone of ``Refusal`` beside it), or a second ``Refusal``.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
DEFINED_AT = "croupier/errors.py"

# Exception classes named so that are not clones of Refusal, each with the reason.
NOT_CLONES: dict[str, str] = {
    "croupier/sim/compile.py:StrategyRefused": "the simulator's error for a strategy's bet: "
    "it carries the strategy, the bet's index and the core Refusal it wraps (``.refusal``)",
    "croupier/sim/session_chain.py:SessionRefused": "a limit of the exact session analysis "
    "(too many states, no win goal), not a rule of the game",
}
EXCEPTION_BASES = ("Exception", "Error", "Refusal", "Refused", "_RefusalFields")


def _base_names(node: ast.ClassDef) -> list[str]:
    return [b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
            for b in node.bases]


def refusal_classes(tree: ast.AST, rel: str) -> tuple[list[str], list[str]]:
    """The exception classes named ``...Refused`` in ``tree`` and the classes named
    ``Refusal``, each as ``path:name``."""
    clones, refusals = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        is_exception = any(b.endswith(EXCEPTION_BASES) for b in _base_names(node))
        if node.name.endswith("Refused") and is_exception:
            clones.append(f"{rel}:{node.name}")
        elif node.name == "Refusal":
            refusals.append(f"{rel}:{node.name}")
    return clones, refusals


def _everywhere() -> tuple[list[str], list[str]]:
    clones, refusals = [], []
    for path in sorted((SRC / "croupier").rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        found = refusal_classes(ast.parse(path.read_text("utf-8"), rel), rel)
        clones += found[0]
        refusals += found[1]
    return clones, refusals


def test_one_refusal_type_and_no_clone() -> None:
    clones, refusals = _everywhere()
    assert refusals == [f"{DEFINED_AT}:Refusal"]
    assert [c for c in clones if c not in NOT_CLONES] == []
    assert sorted(set(NOT_CLONES) - set(clones)) == [], "an exemption names no class any more"


def test_a_clone_is_found_and_an_event_is_not() -> None:
    source = ("class CouponRefused(Exception):\n    pass\n"
              "class ShootRefused(Event):\n    pass\n"
              "class Refusal(_RefusalFields):\n    pass\n")
    assert refusal_classes(ast.parse(source), "m.py") == (["m.py:CouponRefused"],
                                                           ["m.py:Refusal"])
