"""Two dice: the 36 equally likely ordered outcomes and the names the regulations give them.

>>> len(OUTCOMES)
36
>>> len(HOPS)
17
"""

from __future__ import annotations

from fractions import Fraction

Roll = tuple[int, int]

FACES = range(1, 7)
OUTCOMES: tuple[Roll, ...] = tuple((a, b) for a in FACES for b in FACES)
P_OUTCOME = Fraction(1, 36)

POINTS = (4, 5, 6, 8, 9, 10)
HARDWAYS = (4, 6, 8, 10)
CRAPS = (2, 3, 12)


def hop_key(d1: int, d2: int) -> str:
    """The pay-table key of a hop, smaller die first: ``hop:1-3``."""
    lo, hi = sorted((d1, d2))
    return f"hop:{lo}-{hi}"


# The seventeen hop wagers of N.J.A.C. 19:47-1.2(a)22-38 and 13:69F-1.2(a)22-38: the four
# hardways on the hop and the thirteen two-different-dice combinations of totals 4 to 10.
HOPS: tuple[Roll, ...] = tuple(
    sorted(
        {(a, b) for a in FACES for b in FACES if a <= b and 4 <= a + b <= 10}
    )
)


def scale_byte(raw: int, n: int) -> int | None:
    """``raw`` (0..255) scaled to 0..n-1, or None when it must be rejected to avoid bias.

    The rule the live tables' RNG draws by and the RNG battery tests (rejection sampling: a
    byte is used only below ``n * (256 // n)``).

    >>> scale_byte(251, 6), scale_byte(252, 6)
    (5, None)
    """
    if not 0 < n <= 256:
        raise ValueError("n must be 1 to 256")
    limit = n * (256 // n)
    return raw % n if raw < limit else None

