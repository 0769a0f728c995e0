"""Random outcomes for rolls and spins: the OS's secure generator, scaled without bias.

A die or a pocket is drawn from raw bytes by rejection sampling: a byte ``b`` is used only if
``b < n * (256 // n)`` and then gives ``b % n``, so every outcome is equally likely; rejected
bytes are drawn again. Every raw byte (used or rejected) is recorded with the outcome.

A seeded generator (``random.Random``) replaces the OS generator in test mode only
(``croupier serve --rng-seed N`` or ``CROUPIER_RNG_SEED``); its source says so.

>>> rng = SeededRng(7)
>>> d = rng.dice()
>>> len(d.outcome), all(1 <= x <= 6 for x in d.outcome), d.source
(2, True, 'seeded:7')
>>> scale_byte(251, 6), scale_byte(252, 6)
(5, None)
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SEED_ENV = "CROUPIER_RNG_SEED"


# The scaling rule lives with the dice (core), where the RNG battery reads it too.
from croupier.dice import scale_byte as scale_byte  # noqa: E402


@dataclass(frozen=True)
class Draw:
    """One draw: where it came from, every raw byte, and the scaled outcome."""

    source: str
    raw: tuple[int, ...]
    outcome: tuple[Any, ...]


class Rng:
    """A source of raw bytes and the unbiased scaling over it."""

    source = "os"

    def byte(self) -> int:
        return secrets.randbits(8)

    def _pick(self, n: int, raw: list[int]) -> int:
        while True:
            b = self.byte()
            raw.append(b)
            scaled = scale_byte(b, n)
            if scaled is not None:
                return scaled

    def dice(self) -> Draw:
        """Two dice, 1 to 6 each."""
        raw: list[int] = []
        d1 = self._pick(6, raw) + 1
        d2 = self._pick(6, raw) + 1
        return Draw(self.source, tuple(raw), (d1, d2))

    def pocket(self, pockets: Sequence[Any]) -> Draw:
        """One of ``pockets`` (the wheel's pockets in their order), each equally likely."""
        raw: list[int] = []
        index = self._pick(len(pockets), raw)
        return Draw(self.source, tuple(raw), (pockets[index],))


class SeededRng(Rng):
    """Deterministic bytes for tests: never used unless a seed is given."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.source = f"seeded:{seed}"

    def byte(self) -> int:
        return self._random.getrandbits(8)


def make_rng(seed: int | None = None) -> Rng:
    """The OS generator, or a seeded one when ``seed`` or ``CROUPIER_RNG_SEED`` is given."""
    if seed is None and os.environ.get(SEED_ENV):
        seed = int(os.environ[SEED_ENV])
    return Rng() if seed is None else SeededRng(seed)
