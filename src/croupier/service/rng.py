"""Random outcomes for rolls and spins: the OS's secure generator, scaled without bias.

A die or a pocket is drawn from raw bytes by rejection sampling: a byte ``b`` is used only if
``b < n * (256 // n)`` and then gives ``b % n``, so every outcome is equally likely; rejected
bytes are drawn again. Every raw byte (used or rejected) is recorded with the outcome.

A seeded generator (``random.Random``) makes every roll predictable, so it replaces the OS
generator only when a test asks for it twice over: ``croupier serve --insecure-test-rng-seed N
--test-mode`` (a start with the seed alone is refused, and the environment is never read for
it), and then only on a test ledger, which ``croupier init --test-mode`` makes and nothing makes
afterwards (``audit.seeding``: every other ledger refuses it at start, and the audit names any
seeded draw in one). Its source says "insecure-test-seeded" and never the seed.

>>> rng = SeededRng(7)
>>> d = rng.dice()
>>> len(d.outcome), all(1 <= x <= 6 for x in d.outcome), str(d.source)
(2, True, 'insecure-test-seeded')
>>> scale_byte(251, 6), scale_byte(252, 6)
(5, None)
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

SEED_ENV = "CROUPIER_RNG_SEED"
"""The variable an older release read for its seed: a start with it set is refused."""


# The scaling rule lives with the dice (core), where the RNG battery reads it too.
from croupier.dice import scale_byte as scale_byte  # noqa: E402


class DrawSource(StrEnum):
    """Where a round's outcome came from, as its draw records it (``source``): the generator
    that drew it, or ``entered`` (the dealer entered what physical dice or a wheel showed). A
    member is its string in every record and reply. A ledger of an older release may name a
    generator no member names (``seeded:11``): a record's source is read by comparing it with
    :attr:`ENTERED`, never by converting it."""

    OS = "os"
    """The operating system's secure generator, the only one of a live table."""
    TEST_SEEDED = "insecure-test-seeded"
    """A seeded generator of test mode (:class:`SeededRng`), never naming its seed."""
    ENTERED = "entered"
    """No generator: the dealer entered the outcome."""


@dataclass(frozen=True)
class Draw:
    """One draw: where it came from, every raw byte, and the scaled outcome."""

    source: DrawSource
    raw: tuple[int, ...]
    outcome: tuple[Any, ...]
    """The outcome (:meth:`Rng.dice`, :meth:`Rng.pocket`) or the indices (:meth:`Rng.draw`)."""


class Rng:
    """A source of raw bytes and the unbiased scaling over it."""

    source: DrawSource = DrawSource.OS

    def byte(self) -> int:
        return secrets.randbits(8)

    def _pick(self, n: int, raw: list[int]) -> int:
        while True:
            b = self.byte()
            raw.append(b)
            scaled = scale_byte(b, n)
            if scaled is not None:
                return scaled

    def draw(self, ranges: Sequence[int]) -> Draw:
        """One equally likely index below each of ``ranges`` (a table's
        :meth:`~croupier.table.Table.draw_ranges`), with every raw byte behind them."""
        raw: list[int] = []
        indices = tuple(self._pick(n, raw) for n in ranges)
        return Draw(self.source, tuple(raw), indices)

    def dice(self) -> Draw:
        """Two dice, 1 to 6 each."""
        drawn = self.draw((6, 6))
        return Draw(drawn.source, drawn.raw, tuple(i + 1 for i in drawn.outcome))

    def pocket(self, pockets: Sequence[Any]) -> Draw:
        """One of ``pockets`` (the wheel's pockets in their order), each equally likely."""
        drawn = self.draw((len(pockets),))
        return Draw(drawn.source, drawn.raw, (pockets[drawn.outcome[0]],))


class SeededRng(Rng):
    """Deterministic bytes for tests: never used unless a seed is given."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.source = DrawSource.TEST_SEEDED

    def byte(self) -> int:
        return self._random.getrandbits(8)


class InsecureRng(Exception):
    """A seeded generator was asked for without the explicit test mode."""


def make_rng(seed: int | None = None, test_mode: bool = False) -> Rng:
    """The OS generator; a seeded one only for a seed given together with ``test_mode``.

    >>> make_rng().source is DrawSource.OS
    True
    >>> make_rng(3)
    Traceback (most recent call last):
    ...
    croupier.service.rng.InsecureRng: a seeded RNG makes every roll predictable: it needs --test-mode too
    """
    if os.environ.get(SEED_ENV):
        raise InsecureRng(f"{SEED_ENV} is set: the environment never chooses the RNG (a test "
                          "gives --insecure-test-rng-seed N --test-mode); unset it")
    if seed is None:
        return Rng()
    if not test_mode:
        raise InsecureRng("a seeded RNG makes every roll predictable: it needs --test-mode too")
    return SeededRng(seed)
