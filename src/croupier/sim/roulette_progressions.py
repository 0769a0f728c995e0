"""The betting systems players name (martingale, d'Alembert, Fibonacci, Paroli), with bounds.

A bet rule may name its system instead of writing out its levels::

    [[bets]]
    wager = "red"
    amount = "5"                  # the first bet: one unit
    progression = "martingale"    # doubled after each loss, back to one unit after a win
    max_amount = "640"            # never above this: the bound the table or the bankroll sets
    at_max = "hold"               # a loss at the bound: stay there ("hold") or start again ("reset")

:func:`expand` turns it into the rule's own levels (``amounts``, ``on_win``, ``on_lose``)
before the strategy is read, so the kernels, the reference engine check and ``croupier
session`` play it as any other progression: the level moves after each spin (or roll) in which
the rule's wager won or lost. The systems, in units of ``amount``:

* ``martingale``: 1, 2, 4, 8, ... up to the bound; a loss goes one level up, a win to 1.
* ``dalembert``: 1, 2, 3, ... up to the bound; a loss one level up, a win one down.
* ``fibonacci``: 1, 1, 2, 3, 5, 8, ... up to the bound; a loss one step on, a win two back.
* ``paroli``: 1, 2, 4, ... for ``wins`` wins in a row (default 3; never above the bound),
  then back to 1; a loss goes back to 1.

Written for roulette, where such systems are played; a fixed bet rule at craps may name one too.
A rule naming a shared ``[progressions.NAME]`` of the same name keeps that one.

>>> rule = expand({"name": "m", "bets": [{"wager": "red", "amount": "5",
...     "progression": "martingale", "max_amount": "40"}]})["bets"][0]
>>> rule["amounts"], rule["on_win"], rule["on_lose"]
(['5', '10', '20', '40'], [0, 0, 0, 0], [1, 2, 3, 3])
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from croupier.errors import Malformed
from croupier.money import parse_amount

SYSTEMS = ("martingale", "dalembert", "fibonacci", "paroli")
MAX_LEVELS = 100
"""The most levels a named system may have (a bound far below it is the usual case)."""
_KEYS = ("max_amount", "at_max", "wins")

Levels = tuple[list[int], list[int], list[int]]  # units per level, on_win, on_lose


def expand(raw: Mapping[str, Any], where: str = "strategy") -> dict[str, Any]:
    """``raw`` (a parsed strategy file) with every bet rule naming a system given its levels;
    Malformed naming the place for a system's key that is missing or wrong."""
    out = dict(raw)
    bets = raw.get("bets")
    if not isinstance(bets, list):
        return out
    shared = raw.get("progressions", {})
    shared_names = set(shared) if isinstance(shared, dict) else set()
    out["bets"] = [_expand_rule(body, f"{where}.bets[{i}]", shared_names)
                   if isinstance(body, dict) else body for i, body in enumerate(bets)]
    return out


def _expand_rule(body: dict[str, Any], where: str, shared: set[str]) -> dict[str, Any]:
    system = body.get("progression")
    if system not in SYSTEMS or system in shared:
        for key in _KEYS:
            if key in body:
                raise Malformed(f"{where}.{key}", f"belongs to a named progression "
                                f"({', '.join(SYSTEMS)})")
        return body
    for key in ("amounts", "on_win", "on_lose"):
        if key in body:
            raise Malformed(f"{where}.{key}", f"the {system} progression sets the levels")
    if "amount" not in body or "max_amount" not in body:
        raise Malformed(where, f"a {system} progression needs amount (one unit) and "
                        "max_amount (its bound)")
    unit = parse_amount(body["amount"], f"{where}.amount")
    bound = parse_amount(body["max_amount"], f"{where}.max_amount")
    if bound < unit:
        raise Malformed(f"{where}.max_amount", "is below the first bet (amount)")
    at_max = body.get("at_max", "hold")
    if at_max not in ("hold", "reset"):
        raise Malformed(f"{where}.at_max", 'must be "hold" or "reset"')
    wins = _wins(body, where, system)
    units, on_win, on_lose = _levels(system, int(bound // unit), at_max == "reset", wins)
    if len(units) > MAX_LEVELS:
        raise Malformed(f"{where}.max_amount", f"gives {len(units)} levels; at most "
                        f"{MAX_LEVELS}")
    rest = {k: v for k, v in body.items() if k not in ("progression", "amount", *_KEYS)}
    return {**rest, "amounts": [str(unit * Decimal(u)) for u in units], "on_win": on_win,
            "on_lose": on_lose}


def _wins(body: dict[str, Any], where: str, system: str) -> int:
    """The wins a paroli progression doubles for before it starts again (3 unless given)."""
    wins = body.get("wins", 3)
    if system != "paroli" and "wins" in body:
        raise Malformed(f"{where}.wins", "belongs to a paroli progression")
    if isinstance(wins, bool) or not isinstance(wins, int) or wins < 1:
        raise Malformed(f"{where}.wins", "must be a whole number of wins, at least 1")
    return wins


def _levels(system: str, top: int, reset: bool, wins: int) -> Levels:
    """The units of each level up to ``top`` units and where a win and a loss lead."""
    if system == "dalembert":
        units = list(range(1, top + 1))
        return units, [max(i - 1, 0) for i in range(len(units))], _up(len(units), reset)
    if system == "fibonacci":
        units = [1, 1]
        while units[-1] + units[-2] <= top:
            units.append(units[-1] + units[-2])
        return units, [max(i - 2, 0) for i in range(len(units))], _up(len(units), reset)
    units = [1]
    while units[-1] * 2 <= top and (system == "martingale" or len(units) < wins):
        units.append(units[-1] * 2)
    if system == "martingale":
        return units, [0] * len(units), _up(len(units), reset)
    # paroli: up on a win, back to one unit after the last doubling or any loss
    return units, [i + 1 for i in range(len(units) - 1)] + [0], [0] * len(units)


def _up(n: int, reset: bool) -> list[int]:
    """One level up after a loss; at the top, hold there or start again."""
    return [i + 1 for i in range(n - 1)] + [0 if reset else n - 1]
