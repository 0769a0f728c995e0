"""Simulated runs for measuring the monitors' size (false alarms) and power (detection).

The sequential part uses :func:`~croupier.integrity.sequential.first_alarm_times`, the
monitors' own update vectorised over runs (checked against ``observe`` in the tests); the
end-of-run part calls the monitors' own test functions on each run's counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.integrity.dice import dice_bank, dice_tests
from croupier.integrity.model import MonitorConfig
from croupier.integrity.sequential import IntArray, first_alarm_times
from croupier.integrity.wheel import wheel_bank, wheel_tests
from croupier.roulette.wheel import DOUBLE_ZERO, Wheel

FAIR_DIE = (1 / 6,) * 6


def loaded_die(face: int = 6, p: float = 1 / 5) -> tuple[float, ...]:
    """A die whose ``face`` comes up with probability ``p``, the others equally often."""
    return tuple(p if f == face else (1 - p) / 5 for f in range(1, 7))


def biased_wheel(n: int = 38, position: int = 9, p: float = 2 / 38) -> tuple[float, ...]:
    """A wheel whose pocket at ``position`` (clockwise from 0) comes up with probability ``p``."""
    return tuple(p if i == position else (1 - p) / (n - 1) for i in range(n))


def dice_outcomes(
    rng: np.random.Generator, runs: int, steps: int, die1: Sequence[float], die2: Sequence[float]
) -> IntArray:
    """Outcome indices (d1 - 1) * 6 + (d2 - 1), shape runs x steps."""
    return _draw(rng, die1, (runs, steps)) * 6 + _draw(rng, die2, (runs, steps))


def wheel_outcomes(rng: np.random.Generator, runs: int, steps: int, probs: Sequence[float]) -> IntArray:
    """Wheel positions (clockwise from 0), shape runs x steps."""
    return _draw(rng, probs, (runs, steps))


def _draw(rng: np.random.Generator, probs: Sequence[float], size: tuple[int, int]) -> IntArray:
    p = np.asarray(probs, dtype=np.float64)
    if np.allclose(p, 1 / len(p), rtol=0, atol=1e-15):
        return rng.integers(0, len(p), size=size, dtype=np.int64)
    cdf = np.cumsum(p)
    cdf[-1] = 1.0
    return np.searchsorted(cdf, rng.random(size), side="right").astype(np.int64)


@dataclass(frozen=True)
class RunResults:
    """Per run: the first sequential alarm (0: none) and whether the end-of-run tests alert."""

    first_alarm: IntArray
    final_alert: npt.NDArray[np.bool_]

    @property
    def alert(self) -> npt.NDArray[np.bool_]:
        return (self.first_alarm > 0) | self.final_alert


def run_dice(outcomes: IntArray, config: MonitorConfig, final_tests: bool = True) -> RunResults:
    first = first_alarm_times(dice_bank(config), outcomes)
    final = np.zeros(len(outcomes), dtype=bool)
    if final_tests:
        for r, row in enumerate(outcomes):
            pairs = np.bincount(row, minlength=36).reshape(6, 6).tolist()
            final[r] = any(t.alert for t in dice_tests(pairs, config))
    return RunResults(first, final)


def run_wheel(
    outcomes: IntArray, config: MonitorConfig, wheel: Wheel = DOUBLE_ZERO, final_tests: bool = True
) -> RunResults:
    first = first_alarm_times(wheel_bank(wheel.order, config), outcomes)
    final = np.zeros(len(outcomes), dtype=bool)
    if final_tests:
        n = len(wheel.order)
        for r, row in enumerate(outcomes):
            counts = np.bincount(row, minlength=n).tolist()
            final[r] = any(t.alert for t in wheel_tests(counts, wheel.order, config))
    return RunResults(first, final)

