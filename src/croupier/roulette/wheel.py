"""Roulette wheels: the pockets, their colours and their order around the wheel.

A pocket is a number 0 to 36 or the string ``"00"``. Three wheels are played
(N.J.A.C. 13:47-20.32(b)1, (h), (i)): a double-zero wheel, a single-zero wheel, and a
double-zero wheel used as a single-zero wheel, on which a ball in 00 is "no spin".

>>> DOUBLE_ZERO.neighbours(0)
(14, 2, 0, 28, 9)
>>> SINGLE_ZERO.neighbours(0)
(3, 26, 0, 32, 15)
>>> colour(1), colour(2), colour("00")
('red', 'black', 'green')
>>> sorted([3, "00", 0, 1], key=pocket_key)
[0, '00', 1, 3]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Pocket = int | Literal["00"]
"""A compartment of the wheel: an integer 0 to 36, or ``"00"``."""

DOUBLE_ZERO_POCKET: Final = "00"
ZEROS: frozenset[Pocket] = frozenset({0, "00"})
NUMBERS: tuple[int, ...] = tuple(range(1, 37))

# The numbers with a red background (20.32(e)9); every other number 1-36 is black and the
# zeros are green. The same on both wheels.
RED: frozenset[int] = frozenset(
    {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
)
BLACK: frozenset[int] = frozenset(NUMBERS) - RED


def is_pocket(value: object) -> bool:
    """Whether a JSON value names a roulette number (an int 0-36 or ``"00"``; never a bool).

    >>> is_pocket(36), is_pocket(37), is_pocket("00"), is_pocket(True), is_pocket("7")
    (True, False, True, False, False)
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return 0 <= value <= 36
    return value == DOUBLE_ZERO_POCKET


def pocket_key(pocket: Pocket) -> int:
    """Sort key putting 0 first, then 00, then 1 to 36 (the layout's reading order)."""
    return 1 if pocket == DOUBLE_ZERO_POCKET else 2 * int(pocket)


def label(pockets: tuple[Pocket, ...] | frozenset[Pocket]) -> str:
    """Numbers joined the way wager keys show them: ``0-00-2``."""
    return "-".join(str(p) for p in sorted(pockets, key=pocket_key))


def colour(pocket: Pocket) -> Literal["red", "black", "green"]:
    if pocket in RED:
        return "red"
    if pocket in ZEROS:
        return "green"
    return "black"


@dataclass(frozen=True)
class Wheel:
    """A wheel as played: its pockets clockwise, the layout it is played on, and the pockets
    that do not count (a ball there is "no spin" and wagers covering them are not taken)."""

    id: str
    name: str
    order: tuple[Pocket, ...]
    layout_id: str
    void: frozenset[Pocket] = frozenset()
    # Only a true double-zero game may choose to lose half of even-money wagers on a zero
    # (20.32(g)); single-zero play loses them whole ((h), (i)3).
    half_rule: bool = False

    @property
    def pockets(self) -> frozenset[Pocket]:
        """Every compartment of the physical wheel."""
        return frozenset(self.order)

    @property
    def in_play(self) -> frozenset[Pocket]:
        """The pockets a spin can count on and a wager may cover."""
        return self.pockets - self.void

    def neighbours(self, center: Pocket, each_side: int = 2) -> tuple[Pocket, ...]:
        """``center`` and ``each_side`` pockets either side of it, in clockwise order."""
        i = self.order.index(center)
        n = len(self.order)
        return tuple(self.order[(i + k) % n] for k in range(-each_side, each_side + 1))


# Clockwise from 0, as the wheels are built.
_DOUBLE_ZERO_ORDER: tuple[Pocket, ...] = (
    0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1,
    "00", 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2,
)  # fmt: skip
_SINGLE_ZERO_ORDER: tuple[Pocket, ...] = (
    0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
    5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
)  # fmt: skip

DOUBLE_ZERO = Wheel(
    "double-zero", "double zero wheel", _DOUBLE_ZERO_ORDER, "double-zero", half_rule=True
)
SINGLE_ZERO = Wheel("single-zero", "single zero wheel", _SINGLE_ZERO_ORDER, "single-zero")
# 20.32(i): the physical double-zero wheel and layout, with 00 out of play.
DOUBLE_ZERO_AS_SINGLE = Wheel(
    "double-zero-as-single",
    "double zero wheel used as a single zero wheel",
    _DOUBLE_ZERO_ORDER,
    "double-zero",
    void=frozenset({"00"}),
)

WHEELS: dict[str, Wheel] = {w.id: w for w in (DOUBLE_ZERO, SINGLE_ZERO, DOUBLE_ZERO_AS_SINGLE)}
