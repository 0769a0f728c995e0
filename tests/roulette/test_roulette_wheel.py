"""Wheels: pockets, colours and order, checked against properties of real wheels that do not
depend on how the code stores them."""

from __future__ import annotations

import pytest

from croupier.roulette.wheel import (
    DOUBLE_ZERO,
    DOUBLE_ZERO_AS_SINGLE,
    SINGLE_ZERO,
    Pocket,
    Wheel,
    colour,
    is_pocket,
)

ALL_WHEELS = [DOUBLE_ZERO, SINGLE_ZERO, DOUBLE_ZERO_AS_SINGLE]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
def test_pockets() -> None:
    """20.32(b)1: 36 numbers and 0 and 00; a single-zero wheel lacks 00."""
    assert DOUBLE_ZERO.pockets == frozenset([*range(37), "00"])
    assert len(DOUBLE_ZERO.order) == 38
    assert SINGLE_ZERO.pockets == frozenset(range(37))
    assert len(SINGLE_ZERO.order) == 37
    assert DOUBLE_ZERO_AS_SINGLE.pockets == DOUBLE_ZERO.pockets
    assert DOUBLE_ZERO_AS_SINGLE.in_play == frozenset(range(37))


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)9", "N.J.A.C. 13:47-20.32(e)10")
def test_red_and_black() -> None:
    """Eighteen of each; 1 and 3 red, 2 and 4 black (as on every wheel); zeros green."""
    reds = [n for n in range(1, 37) if colour(n) == "red"]
    assert len(reds) == 18
    assert [colour(n) for n in (1, 2, 3, 4, 10, 11, 19, 20, 28, 29)] == [
        "red", "black", "red", "black", "black", "black", "red", "black", "black", "black",
    ]  # fmt: skip
    assert colour(0) == colour("00") == "green"


@pytest.mark.parametrize("wheel", ALL_WHEELS, ids=lambda w: w.id)
@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
def test_colours_alternate_around_the_wheel(wheel: Wheel) -> None:
    """On a real wheel, red and black alternate between neighbouring numbers (zeros aside)."""
    order = wheel.order
    for a, b in zip(order, order[1:] + order[:1], strict=True):
        if a not in (0, "00") and b not in (0, "00"):
            assert colour(a) != colour(b), (a, b)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
def test_double_zero_wheel_puts_consecutive_pairs_opposite() -> None:
    """On the American wheel each odd number sits opposite the next even number, and 0
    opposite 00."""
    order = DOUBLE_ZERO.order
    half = len(order) // 2

    def opposite(p: Pocket) -> Pocket:
        return order[(order.index(p) + half) % len(order)]

    assert opposite(0) == "00"
    for n in range(1, 36, 2):
        assert opposite(n) == n + 1


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
def test_single_zero_wheel_sectors_are_contiguous() -> None:
    """The European wheel's traditional sectors (voisins du zero, tiers du cylindre,
    orphelins) partition the 37 pockets and each lies together on the wheel."""
    voisins = [22, 18, 29, 7, 28, 12, 35, 3, 26, 0, 32, 15, 19, 4, 21, 2, 25]
    tiers = [27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33]
    orphelins_a = [1, 20, 14, 31, 9]
    orphelins_b = [17, 34, 6]
    assert sorted(voisins + tiers + orphelins_a + orphelins_b) == list(range(37))
    doubled = SINGLE_ZERO.order + SINGLE_ZERO.order
    for sector in (voisins, tiers, orphelins_a, orphelins_b):
        start = SINGLE_ZERO.order.index(sector[0])
        assert list(doubled[start : start + len(sector)]) == sector


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1i")
@pytest.mark.parametrize(
    ("wheel", "center", "expected"),
    [
        # Read off the wheels clockwise: ... 14 2 [0] 28 9 ... and ... 36 13 [1] 00 27 ...
        (DOUBLE_ZERO, 0, (14, 2, 0, 28, 9)),
        (DOUBLE_ZERO, 1, (36, 13, 1, "00", 27)),
        (DOUBLE_ZERO, 2, (35, 14, 2, 0, 28)),
        (DOUBLE_ZERO, "00", (13, 1, "00", 27, 10)),
        # ... 3 26 [0] 32 15 ... and 12 35 [3] 26 0 ...; 26 wraps around the end of the list
        (SINGLE_ZERO, 0, (3, 26, 0, 32, 15)),
        (SINGLE_ZERO, 26, (35, 3, 26, 0, 32)),
        (SINGLE_ZERO, 17, (2, 25, 17, 34, 6)),
        (DOUBLE_ZERO_AS_SINGLE, 0, (14, 2, 0, 28, 9)),
    ],
)
def test_five_adjacent_neighbours(wheel: Wheel, center: Pocket, expected: tuple[Pocket, ...]) -> None:
    """20.32(e)1i: the five adjacent numbers are the centre and two each side on the wheel."""
    assert wheel.neighbours(center) == expected


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
def test_is_pocket_domain() -> None:
    assert all(is_pocket(n) for n in range(37))
    assert is_pocket("00")
    for bad in (-1, 37, "0", "000", 1.0, True, False, None, [1]):
        assert not is_pocket(bad)
