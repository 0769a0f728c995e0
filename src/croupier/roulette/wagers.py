"""Every roulette wager of N.J.A.C. 13:47-20.32(e), each defined once: data plus one pure
decision function (:func:`decide`).

A definition says what qualifier the wager takes, which numbers it covers for that
qualifier (or ``None`` when they do not form the wager on the layout), which pay-table entry
pays it, whether the zero rule of (g) applies to it, which table option offers it and into
how many straight wagers it breaks ((e)1iii: five adjacent numbers).

>>> from croupier.roulette.wheel import DOUBLE_ZERO
>>> split = WAGERS["split"]
>>> sorted(split.covers((0, "00"), DOUBLE_ZERO), key=str)
[0, '00']
>>> split.covers((1, 5), DOUBLE_ZERO) is None
True
>>> decide(WAGERS["red"], WAGERS["red"].covers(None, DOUBLE_ZERO) or frozenset(), "00", "half")
Decision(outcome='lose_half', pay_key=None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from croupier.roulette.layout import LAYOUTS, Cover
from croupier.roulette.wheel import BLACK, NUMBERS, RED, ZEROS, Pocket, Wheel, label

QualifierKind = Literal["numbers", "center", "column", "dozen"]
Qualifier = tuple[Pocket, ...] | Pocket | None
"""A bet's qualifier: a tuple of numbers, a centre number, a column or dozen index, or none."""

Outcome = Literal["win", "lose", "lose_half"]


@dataclass(frozen=True)
class Decision:
    """What one spin does to one wager: ``win`` at the ``pay_key`` entry, ``lose``, or
    ``lose_half`` (20.32(g): half collected, half returned)."""

    outcome: Outcome
    pay_key: str | None = None


@dataclass(frozen=True)
class RouletteWager:
    """One wager of 20.32(e), as data."""

    id: str
    name: str
    qualifier: QualifierKind | None
    covers: Callable[[Qualifier, Wheel], Cover | None]
    pay_key: str
    even_money: bool = False
    offered_by: str | None = None
    parts: int = 1

    def key(self, qualifier: Qualifier) -> str:
        """The wager's place on the layout, naming it in events: ``split:0-00``, ``red``."""
        if qualifier is None:
            return self.id
        if isinstance(qualifier, tuple):
            return f"{self.id}:{label(qualifier)}"
        return f"{self.id}:{qualifier}"


def _on_layout(shape: str) -> Callable[[Qualifier, Wheel], Cover | None]:
    """Numbers named by the player that must form ``shape`` on the wheel's layout."""

    def covers(qualifier: Qualifier, wheel: Wheel) -> Cover | None:
        numbers = frozenset(qualifier) if isinstance(qualifier, tuple) else frozenset()
        if isinstance(qualifier, tuple) and len(numbers) != len(qualifier):
            return None  # a number named twice: the chips are not on that wager's spot
        return numbers if LAYOUTS[wheel.layout_id].forms(shape, numbers) else None

    return covers


def _whole_shape(shape: str) -> Callable[[Qualifier, Wheel], Cover | None]:
    """A wager with one place on the layout (first five): the one set of that shape, if any."""

    def covers(_qualifier: Qualifier, wheel: Wheel) -> Cover | None:
        sets = LAYOUTS[wheel.layout_id].shapes[shape]
        return next(iter(sets)) if len(sets) == 1 else None

    return covers


def _fixed(numbers: frozenset[int]) -> Callable[[Qualifier, Wheel], Cover | None]:
    cover: Cover = frozenset(numbers)
    return lambda _qualifier, _wheel: cover


def _five_adjacent(qualifier: Qualifier, wheel: Wheel) -> Cover | None:
    # The centre must be a pocket of this wheel (the caller refuses 00 on a single-zero wheel
    # before asking); the wager covers it and two neighbours each side on the wheel.
    if isinstance(qualifier, tuple) or qualifier is None or qualifier not in wheel.pockets:
        return None
    return frozenset(wheel.neighbours(qualifier))


def _column(qualifier: Qualifier, wheel: Wheel) -> Cover | None:
    return LAYOUTS[wheel.layout_id].column(qualifier) if isinstance(qualifier, int) else None


def _dozen(qualifier: Qualifier, wheel: Wheel) -> Cover | None:
    return LAYOUTS[wheel.layout_id].dozen(qualifier) if isinstance(qualifier, int) else None


_DEFINITIONS: tuple[RouletteWager, ...] = (
    RouletteWager("straight", "Straight", "numbers", _on_layout("straight"), "straight"),
    RouletteWager(
        "five_adjacent", "Five adjacent numbers", "center", _five_adjacent, "straight",
        offered_by="five_adjacent", parts=5,
    ),
    RouletteWager("split", "Split", "numbers", _on_layout("split"), "split"),
    RouletteWager(
        "three_numbers", "Three numbers", "numbers", _on_layout("three_numbers"), "three_numbers"
    ),
    RouletteWager(
        "four_numbers", "Four numbers", "numbers", _on_layout("four_numbers"), "four_numbers"
    ),
    RouletteWager(
        "first_five", "First five numbers", None, _whole_shape("first_five"), "first_five"
    ),
    RouletteWager(
        "six_numbers", "Six numbers", "numbers", _on_layout("six_numbers"), "six_numbers"
    ),
    RouletteWager("column", "Column", "column", _column, "column"),
    RouletteWager("dozen", "Dozen", "dozen", _dozen, "dozen"),
    RouletteWager("red", "Red", None, _fixed(RED), "red", even_money=True),
    RouletteWager("black", "Black", None, _fixed(BLACK), "black", even_money=True),
    RouletteWager(
        "odd", "Odd", None, _fixed(frozenset(n for n in NUMBERS if n % 2)), "odd", even_money=True
    ),
    RouletteWager(
        "even", "Even", None, _fixed(frozenset(n for n in NUMBERS if not n % 2)), "even",
        even_money=True,
    ),
    RouletteWager("low", "1 to 18", None, _fixed(frozenset(range(1, 19))), "low", even_money=True),
    RouletteWager(
        "high", "19 to 36", None, _fixed(frozenset(range(19, 37))), "high", even_money=True
    ),
    RouletteWager(
        "seven_numbers", "Seven numbers", None,
        _fixed(frozenset({10, 11, 12, 13, 14, 15, 33})), "seven_numbers",
        offered_by="seven_numbers",
    ),
)  # fmt: skip

WAGERS: dict[str, RouletteWager] = {w.id: w for w in _DEFINITIONS}

# Column and dozen indexes run 1 to 3.
INDEX_DOMAIN = range(1, 4)


def decide(wager: RouletteWager, covered: Cover, number: Pocket, zero_rule: str) -> Decision:
    """What a valid spin landing on ``number`` does to a wager covering ``covered``.

    A wager of several parts (five adjacent) is decided part by part, each a straight.
    Under ``zero_rule == "half"`` an even-money wager meeting 0 or 00 loses half (20.32(g));
    the table only allows that rule on a true double-zero wheel.

    >>> decide(WAGERS["straight"], frozenset({17}), 17, "full")
    Decision(outcome='win', pay_key='straight')
    >>> decide(WAGERS["even"], frozenset(range(2, 37, 2)), 0, "full")
    Decision(outcome='lose', pay_key=None)
    """
    if number in covered:
        return Decision("win", wager.pay_key)
    if wager.even_money and number in ZEROS and zero_rule == "half":
        return Decision("lose_half")
    return Decision("lose")
