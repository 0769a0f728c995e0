"""Layout geometry: which sets of numbers form each inside wager, derived from the boxes.

The layout is drawn on a grid: twelve rows of three boxes (row ``r`` holds 3r-2, 3r-1, 3r;
column 1 is 1, 4, ..., 34), with the zero row above row 1. A column is two grid units
wide so that the double-zero layout's 0 and 00 can each take a box a column and a half wide
(0 over 1 and half of 2, 00 over the other half of 2 and 3); on a single-zero layout the 0
box spans the row. Wagers are then what 20.32(e) says in terms of boxes:

* split (e)2: two boxes sharing a line;
* three numbers (e)3: one row of three, or three boxes sharing a corner ((e)3i, ii);
* four numbers (e)4: four boxes sharing a corner; and, on a single-zero layout, the zero row
  with the first row (0-1-2-3, bet at their outside common corner like a six-number line);
* first five (e)5: the zero row with the first row on a double-zero layout;
* six numbers (e)6: two contiguous rows of three.

>>> DOUBLE_ZERO_LAYOUT.forms("split", frozenset({0, "00"}))
True
>>> DOUBLE_ZERO_LAYOUT.forms("three_numbers", frozenset({0, 2, "00"}))
True
>>> SINGLE_ZERO_LAYOUT.forms("four_numbers", frozenset({0, 1, 2, 3}))
True
>>> DOUBLE_ZERO_LAYOUT.forms("split", frozenset({3, 4}))
False
>>> sorted(DOUBLE_ZERO_LAYOUT.column(1))[:3], sorted(DOUBLE_ZERO_LAYOUT.dozen(3))[-1]
([1, 4, 7], 36)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, pairwise

from croupier.roulette.wheel import Pocket

Cover = frozenset[Pocket]

ROWS = 12
COLUMNS = 3
COLUMN_WIDTH = 2


@dataclass(frozen=True)
class Box:
    """A box on the layout: ``x`` from ``x0`` to ``x1``, ``y`` (rows, downwards) ``y0`` to ``y1``."""

    pocket: Pocket
    x0: int
    x1: int
    y0: int
    y1: int

    def corners(self) -> tuple[tuple[int, int], ...]:
        return ((self.x0, self.y0), (self.x1, self.y0), (self.x0, self.y1), (self.x1, self.y1))

    def touches_point(self, x: int, y: int) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def shares_line(self, other: Box) -> bool:
        """Whether the two boxes have a common side of positive length."""
        overlap_x = min(self.x1, other.x1) - max(self.x0, other.x0)
        overlap_y = min(self.y1, other.y1) - max(self.y0, other.y0)
        return (overlap_x == 0 and overlap_y > 0) or (overlap_y == 0 and overlap_x > 0)


def _number_boxes() -> tuple[Box, ...]:
    boxes = []
    for row in range(1, ROWS + 1):
        for col in range(COLUMNS):
            n = 3 * (row - 1) + col + 1
            boxes.append(Box(n, COLUMN_WIDTH * col, COLUMN_WIDTH * (col + 1), row, row + 1))
    return tuple(boxes)


class Layout:
    """A roulette layout: its boxes and the number sets each inside wager may cover."""

    def __init__(self, layout_id: str, zero_boxes: tuple[Box, ...]) -> None:
        self.id = layout_id
        self.boxes: tuple[Box, ...] = zero_boxes + _number_boxes()

    def _rows(self) -> list[frozenset[Pocket]]:
        """The rows from the top (the zero row first), each as the numbers in it."""
        by_row: dict[int, set[Pocket]] = {}
        for box in self.boxes:
            by_row.setdefault(box.y0, set()).add(box.pocket)
        return [frozenset(by_row[y]) for y in sorted(by_row)]

    def _corner_groups(self) -> set[Cover]:
        """For every point where boxes' corners lie, the boxes meeting there."""
        points = {p for box in self.boxes for p in box.corners()}
        return {frozenset(b.pocket for b in self.boxes if b.touches_point(x, y)) for x, y in points}

    def _line_pairs(self) -> set[Cover]:
        """Two contiguous rows together (bet at their outside common corner)."""
        rows = self._rows()
        return {a | b for a, b in pairwise(rows)}

    @cached_property
    def shapes(self) -> dict[str, frozenset[Cover]]:
        """Wager id -> every number set that forms that wager on this layout."""
        corners = self._corner_groups()
        lines = self._line_pairs()
        streets = {row for row in self._rows() if len(row) == COLUMNS}
        return {
            "straight": frozenset(frozenset({b.pocket}) for b in self.boxes),
            "split": frozenset(
                frozenset({a.pocket, b.pocket})
                for a, b in combinations(self.boxes, 2)
                if a.shares_line(b)
            ),
            "three_numbers": frozenset(streets | {c for c in corners if len(c) == 3}),
            "four_numbers": frozenset(
                {c for c in corners if len(c) == 4} | {ln for ln in lines if len(ln) == 4}
            ),
            "first_five": frozenset(ln for ln in lines if len(ln) == 5),
            "six_numbers": frozenset(ln for ln in lines if len(ln) == 6),
        }

    def forms(self, shape: str, numbers: Cover) -> bool:
        """Whether ``numbers`` form the wager ``shape`` on this layout."""
        return numbers in self.shapes.get(shape, frozenset())

    def column(self, index: int) -> Cover:
        """Column ``index`` (1-3): the twelve numbers in it, below the zero row."""
        x0 = COLUMN_WIDTH * (index - 1)
        return frozenset(b.pocket for b in self.boxes if b.y0 >= 1 and b.x0 == x0 and
                         b.x1 == x0 + COLUMN_WIDTH)

    def dozen(self, index: int) -> Cover:
        """Dozen ``index`` (1-3): the numbers in rows 4(index-1)+1 to 4*index."""
        first, last = 4 * (index - 1) + 1, 4 * index
        return frozenset(b.pocket for b in self.boxes if first <= b.y0 <= last)


_WIDTH = COLUMN_WIDTH * COLUMNS
DOUBLE_ZERO_LAYOUT = Layout(
    "double-zero", (Box(0, 0, _WIDTH // 2, 0, 1), Box("00", _WIDTH // 2, _WIDTH, 0, 1))
)
SINGLE_ZERO_LAYOUT = Layout("single-zero", (Box(0, 0, _WIDTH, 0, 1),))
LAYOUTS: dict[str, Layout] = {la.id: la for la in (DOUBLE_ZERO_LAYOUT, SINGLE_ZERO_LAYOUT)}
