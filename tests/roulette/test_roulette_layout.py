"""Layout geometry checked perft-style: counts and sets worked out independently, by hand or
by plain arithmetic on the layout's numbering, never by the geometry code itself.

The layout has twelve rows of three (row r: 3r-2, 3r-1, 3r) under a zero row.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from croupier.roulette.layout import DOUBLE_ZERO_LAYOUT, SINGLE_ZERO_LAYOUT, Layout
from croupier.roulette.wagers import WAGERS
from croupier.roulette.wheel import (
    DOUBLE_ZERO,
    DOUBLE_ZERO_AS_SINGLE,
    SINGLE_ZERO,
    Pocket,
    Wheel,
)

ZZ: Pocket = "00"


def fs(*numbers: Pocket) -> frozenset[Pocket]:
    return frozenset(numbers)


# Independent arithmetic descriptions of the 1-36 part of the layout.
NUMBER_SPLITS = {fs(n, n + 3) for n in range(1, 34)} | {
    fs(n, n + 1) for n in range(1, 36) if n % 3 != 0
}
STREETS = {fs(3 * r - 2, 3 * r - 1, 3 * r) for r in range(1, 13)}
CORNERS = {fs(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3 != 0}
SIX_LINES = {frozenset(range(3 * r - 2, 3 * r + 4)) for r in range(1, 12)}

DOUBLE_ZERO_EXPECTED = {
    "straight": {fs(n) for n in range(37)} | {fs(ZZ)},
    # 20.32(e)2 and the contract's zero bets: 0-1, 0-2, 00-2, 00-3, 0-00.
    "split": NUMBER_SPLITS | {fs(0, 1), fs(0, 2), fs(ZZ, 2), fs(ZZ, 3), fs(0, ZZ)},
    # 20.32(e)3i: 0-1-2, 0-2-00, 00-2-3.
    "three_numbers": STREETS | {fs(0, 1, 2), fs(0, 2, ZZ), fs(ZZ, 2, 3)},
    "four_numbers": CORNERS,
    "first_five": {fs(0, ZZ, 1, 2, 3)},
    "six_numbers": SIX_LINES,
}
SINGLE_ZERO_EXPECTED = {
    "straight": {fs(n) for n in range(37)},
    "split": NUMBER_SPLITS | {fs(0, 1), fs(0, 2), fs(0, 3)},
    "three_numbers": STREETS | {fs(0, 1, 2), fs(0, 2, 3)},
    "four_numbers": CORNERS | {fs(0, 1, 2, 3)},
    "first_five": set(),
    "six_numbers": SIX_LINES,
}

SIZES = {
    "straight": 1,
    "split": 2,
    "three_numbers": 3,
    "four_numbers": 4,
    "first_five": 5,
    "six_numbers": 6,
}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)3", "N.J.A.C. 13:47-20.32(e)2-6")
def test_independent_descriptions_have_the_hand_counted_sizes() -> None:
    """Counting by hand on the 12 x 3 grid (so the arithmetic sets above are right):

    * splits among 1-36: each row has 2 inner vertical lines (12 x 2 = 24) and each of the
      11 boundaries between rows has 3 boxes above it (11 x 3 = 33): 57;
    * streets: one per row, 12;
    * corners: 11 row boundaries x 2 inner column lines = 22;
    * six-number lines: 11 pairs of contiguous rows.
    """
    assert (len(NUMBER_SPLITS), len(STREETS), len(CORNERS), len(SIX_LINES)) == (57, 12, 22, 11)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)3")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)4")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)5")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)6")
def test_double_zero_layout_counts() -> None:
    """Double-zero layout, 20.32(e)1-6: 38 straights; 57 + 5 zero splits = 62; 12 streets +
    3 zero three-numbers = 15; 22 four-numbers; 1 first five; 11 six-numbers."""
    counts = {shape: len(sets) for shape, sets in DOUBLE_ZERO_LAYOUT.shapes.items()}
    assert counts == {
        "straight": 38,
        "split": 62,
        "three_numbers": 15,
        "four_numbers": 22,
        "first_five": 1,
        "six_numbers": 11,
    }


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)3")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)4")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)6")
def test_single_zero_layout_counts() -> None:
    """Single-zero layout: 37 straights; 57 + 3 (0-1, 0-2, 0-3) = 60 splits; 12 + 2 (0-1-2,
    0-2-3) = 14 three-numbers; 22 + 1 (0-1-2-3) = 23 four-numbers; no first five; 11 six."""
    counts = {shape: len(sets) for shape, sets in SINGLE_ZERO_LAYOUT.shapes.items()}
    assert counts == {
        "straight": 37,
        "split": 60,
        "three_numbers": 14,
        "four_numbers": 23,
        "first_five": 0,
        "six_numbers": 11,
    }


@pytest.mark.parametrize(
    ("layout", "expected"),
    [(DOUBLE_ZERO_LAYOUT, DOUBLE_ZERO_EXPECTED), (SINGLE_ZERO_LAYOUT, SINGLE_ZERO_EXPECTED)],
    ids=["double-zero", "single-zero"],
)
@pytest.mark.parametrize("shape", list(SIZES))
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2-6", "N.J.A.C. 13:47-20.32(d)2")
def test_exhaustive_enumeration_accepts_exactly_the_expected_sets(
    layout: Layout, expected: dict[str, set[frozenset[Pocket]]], shape: str
) -> None:
    """Every candidate set of the wager's size, of every pocket on the layout, is tried: the
    ones the layout accepts are exactly the independently described ones, so every other
    candidate is refused."""
    pockets = sorted({b.pocket for b in layout.boxes}, key=str)
    accepted = {
        frozenset(c)
        for c in combinations(pockets, SIZES[shape])
        if layout.forms(shape, frozenset(c))
    }
    assert accepted == expected[shape]


@pytest.mark.parametrize(
    ("wheel", "expected"),
    [
        (DOUBLE_ZERO, DOUBLE_ZERO_EXPECTED),
        (SINGLE_ZERO, SINGLE_ZERO_EXPECTED),
        (DOUBLE_ZERO_AS_SINGLE, DOUBLE_ZERO_EXPECTED),
    ],
    ids=lambda v: getattr(v, "id", ""),
)
@pytest.mark.parametrize("wager_id", ["split", "three_numbers", "four_numbers"])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2-6", "N.J.A.C. 13:47-20.32(d)2")
def test_wager_definitions_refuse_every_invalid_candidate(
    wheel: Wheel, expected: dict[str, set[frozenset[Pocket]]], wager_id: str
) -> None:
    """20.32(e)2-4 through the wager definitions, in every order of the numbers for the
    smaller sizes: a candidate is covered iff it forms that wager on the wheel's layout."""
    wager = WAGERS[wager_id]
    pockets: list[Pocket] = [*range(37), ZZ]
    for combo in combinations(pockets, SIZES[wager_id]):
        covered = wager.covers(combo, wheel)
        if frozenset(combo) in expected[wager_id]:
            assert covered == frozenset(combo), combo
        else:
            assert covered is None, combo


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)7")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)8")
def test_column_and_dozen_from_the_grid() -> None:
    """20.32(e)7, 8: column 1 is 1, 4, ..., 34; dozens are 1-12, 13-24, 25-36."""
    for layout in (DOUBLE_ZERO_LAYOUT, SINGLE_ZERO_LAYOUT):
        for c in (1, 2, 3):
            assert layout.column(c) == frozenset(range(c, 37, 3))
        for d in (1, 2, 3):
            assert layout.dozen(d) == frozenset(range(12 * d - 11, 12 * d + 1))
        cols = [layout.column(c) for c in (1, 2, 3)]
        assert frozenset().union(*cols) == frozenset(range(1, 37))


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)5")
def test_first_five_wager_covers_the_zero_row_and_first_row() -> None:
    """20.32(e)5: 0, 00, 1, 2, 3 on a double-zero layout; no such place on single zero."""
    assert WAGERS["first_five"].covers(None, DOUBLE_ZERO) == fs(0, ZZ, 1, 2, 3)
    assert WAGERS["first_five"].covers(None, SINGLE_ZERO) is None
