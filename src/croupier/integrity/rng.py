"""The RNG battery of 25 CFR 547.14 on the production RNG's scaled output.

The production RNG is the operating system's CSPRNG (``os.urandom``, what :mod:`secrets`
uses), scaled to a die (1..6) or a wheel (0..37, 37 standing for 00) *without bias* by
rejection sampling: a byte b is used only when b < 256 - 256 % sides, and then gives
``low + b % sides``; every accepted value is reached by exactly the same number of bytes.
The live table's scaler is ``croupier.dice.scale_byte`` (same rule); :class:`SecureDie`
calls it for single values and applies the identical rule vectorised for the battery's
millions of values (a test checks the two agree on all 256 bytes).

The battery: chi-square on the values, the runs test, serial correlation, equidistribution of
pairs, the gap, poker, coupon-collector and permutation tests (Knuth, TAOCP 3.3.2). Each
gives a p-value; the verdict is "pass" when every p-value is at least ``alpha / m`` for the
m tests run (Bonferroni), so a correct RNG fails with probability at most ``alpha``.

>>> die = SecureDie(6)
>>> 1 <= die.roll() <= 6
True
>>> [SecureDie(6).scale(b) for b in (0, 5, 6, 251, 252, 255)]
[1, 6, 1, 6, None, None]
>>> [ModuloDie(6).scale(b) for b in (251, 252, 255)]
[6, 1, 4]
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.dice import scale_byte
from croupier.integrity.sequential import IntArray
from croupier.integrity.stats import chi_square_gof, merge_small_cells, runs_test, two_sided_normal_p

ByteSource = Callable[[int], bytes]


class SecureDie:
    """Unbiased integers ``low .. low + sides - 1`` from a byte source by rejection sampling."""

    def __init__(self, sides: int, low: int = 1, source: ByteSource = os.urandom) -> None:
        if not 2 <= sides <= 256:
            raise ValueError("sides must be 2 to 256")
        self.sides = sides
        self.low = low
        self.source = source
        self.limit = 256 - 256 % sides

    def scale(self, byte: int) -> int | None:
        """The value a byte gives, or None when the byte is rejected (the service's rule)."""
        value = scale_byte(byte, self.sides)
        return None if value is None else self.low + value

    def roll(self) -> int:
        """One value."""
        while True:
            value = self.scale(self.source(1)[0])
            if value is not None:
                return value

    def draw(self, n: int) -> IntArray:
        """``n`` values (vectorised: the same rejection rule on a block of bytes)."""
        out: list[IntArray] = []
        have = 0
        while have < n:
            need = n - have
            raw = np.frombuffer(self.source(need * 256 // self.limit + 64), dtype=np.uint8)
            kept = self._kept(raw)[:need]
            out.append(self.low + kept.astype(np.int64) % self.sides)
            have += len(kept)
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def _kept(self, raw: np.ndarray[Any, np.dtype[np.uint8]]) -> np.ndarray[Any, np.dtype[np.uint8]]:
        return raw[raw < self.limit]


class ModuloDie(SecureDie):
    """The classic mistake, for demonstration only: ``byte % sides`` with no rejection, which
    over-weights the values reached by the 256 % sides leftover bytes (43/256 vs 42/256)."""

    def __init__(self, sides: int, low: int = 1, source: ByteSource = os.urandom) -> None:
        super().__init__(sides, low, source)
        self.limit = 256

    def scale(self, byte: int) -> int | None:
        return self.low + byte % self.sides


def seeded_source(seed: int) -> ByteSource:
    """A reproducible byte source (numpy PCG64) for tests and simulations, never for play."""
    rng = np.random.default_rng(seed)

    def source(n: int) -> bytes:
        return rng.bytes(n)

    return source


@dataclass(frozen=True)
class BatteryTest:
    """One test of the battery."""

    name: str
    statistic: float
    p_value: float
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "statistic": round(self.statistic, 6),
            "p_value": self.p_value,
            "detail": self.detail,
        }


def frequency_test(x: IntArray, sides: int, low: int) -> BatteryTest:
    """Chi-square on how often each value occurs."""
    r = chi_square_gof(np.bincount(x - low, minlength=sides), [1 / sides] * sides)
    return BatteryTest("chi-square", r.statistic, r.p_value, f"df {r.df}")


def runs_battery_test(x: IntArray, sides: int, low: int) -> BatteryTest:
    """Wald-Wolfowitz runs of low half / high half values (normal approximation)."""
    r = runs_test((x - low) >= sides // 2)
    return BatteryTest("runs", r.z, r.p_value, f"{r.runs} runs, expected {r.expected:.1f}")


def serial_correlation_test(x: IntArray) -> BatteryTest:
    """Lag-1 correlation r of successive values; sqrt(n) r is about standard normal."""
    a = x[:-1].astype(np.float64)
    b = x[1:].astype(np.float64)
    sa, sb = a.std(), b.std()
    r = float(((a - a.mean()) * (b - b.mean())).mean() / (sa * sb)) if sa > 0 and sb > 0 else 0.0
    z = r * math.sqrt(len(a))
    return BatteryTest("serial correlation", r, two_sided_normal_p(z), f"z {z:.3f}")


def equidistribution_test(x: IntArray, sides: int, low: int) -> BatteryTest:
    """Chi-square on non-overlapping pairs: every one of sides^2 pairs equally likely."""
    m = len(x) // 2
    pairs = (x[: 2 * m : 2] - low) * sides + (x[1 : 2 * m : 2] - low)
    cells = sides * sides
    r = chi_square_gof(np.bincount(pairs, minlength=cells), [1 / cells] * cells)
    return BatteryTest("equidistribution", r.statistic, r.p_value, f"pairs, df {r.df}")


def _gof_merged(observed: np.ndarray[Any, Any], probs: list[float]) -> tuple[float, float, int]:
    obs = np.asarray(observed, dtype=np.float64)
    n = float(obs.sum())
    o, p = merge_small_cells(obs, np.asarray(probs), n)
    p = p / p.sum()
    r = chi_square_gof(o.astype(np.int64), p)
    return r.statistic, r.p_value, r.df


def gap_test(x: IntArray, sides: int, low: int) -> BatteryTest:
    """Knuth's gap test: gaps between values in the lowest sixth of the range are geometric."""
    width = max(1, round(sides / 6))
    p = width / sides
    where = np.flatnonzero((x - low) < width)
    gaps = np.diff(where) - 1
    if len(gaps) < 10:
        return BatteryTest("gap", 0.0, 1.0, "too few gaps")
    t = max(1, int(math.log(5 / len(gaps)) / math.log(1 - p))) if len(gaps) > 5 else 1
    probs = [p * (1 - p) ** r for r in range(t)] + [(1 - p) ** t]
    observed = np.bincount(np.minimum(gaps, t), minlength=t + 1)
    stat, pv, df = _gof_merged(observed, probs)
    return BatteryTest("gap", stat, pv, f"{len(gaps)} gaps, df {df}")


def _stirling2(n: int, k: int) -> int:
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for i in range(1, n + 1):
        for j in range(1, min(i, k) + 1):
            table[i][j] = j * table[i - 1][j] + table[i - 1][j - 1]
    return table[n][k]


def poker_test(x: IntArray, sides: int, low: int, hand: int = 5) -> BatteryTest:
    """Knuth's poker test: the number of distinct values in hands of five."""
    m = len(x) // hand
    hands = np.sort(x[: m * hand].reshape(m, hand), axis=1)
    distinct = 1 + np.count_nonzero(np.diff(hands, axis=1), axis=1)
    probs = [math.perm(sides, r) * _stirling2(hand, r) / sides**hand for r in range(1, min(hand, sides) + 1)]
    observed = np.bincount(distinct - 1, minlength=len(probs))[: len(probs)]
    stat, pv, df = _gof_merged(observed, probs)
    return BatteryTest("poker", stat, pv, f"{m} hands, df {df}")


def coupon_probabilities(sides: int, longest: int) -> list[float]:
    """P(a segment collecting all values has length r) for r = sides .. longest - 1, then
    P(length >= longest)."""
    # f[k] = P(k distinct values seen after r draws); a segment ends on the draw completing it.
    f = np.zeros(sides + 1)
    f[0] = 1.0
    probs: list[float] = []
    for r in range(1, longest):
        complete = f[sides - 1] / sides
        new = np.zeros(sides + 1)
        k = np.arange(sides)
        new[1 : sides + 1] += f[:sides] * (sides - k) / sides
        new[:sides] += f[:sides] * k / sides
        new[sides] = 0.0
        f = new
        if r >= sides:
            probs.append(complete)
    probs.append(float(f.sum()))  # still collecting after longest - 1 draws
    return probs


def coupon_collector_test(x: IntArray, sides: int, low: int) -> BatteryTest:
    """Knuth's coupon-collector test: lengths of segments that contain every value."""
    lengths: list[int] = []
    seen = 0
    full = (1 << sides) - 1
    start = 0
    for i, v in enumerate((x - low).tolist()):
        seen |= 1 << v
        if seen == full:
            lengths.append(i + 1 - start)
            start = i + 1
            seen = 0
    if len(lengths) < 10:
        return BatteryTest("coupon collector", 0.0, 1.0, "too few segments")
    mean = sides * sum(1 / k for k in range(1, sides + 1))
    longest = int(mean * 4)
    probs = coupon_probabilities(sides, longest)
    observed = np.bincount(np.minimum(np.asarray(lengths), longest) - sides, minlength=len(probs))
    stat, pv, df = _gof_merged(observed, probs)
    return BatteryTest("coupon collector", stat, pv, f"{len(lengths)} segments, df {df}")


def permutation_test(x: IntArray, group: int = 3) -> BatteryTest:
    """Knuth's permutation test on non-overlapping triples of distinct values: the 6 orderings
    are equally likely (ties, frequent with few sides, are left out, which is exact for i.i.d.
    values)."""
    m = len(x) // group
    g = x[: m * group].reshape(m, group)
    distinct = np.all(np.diff(np.sort(g, axis=1), axis=1) != 0, axis=1)
    order = np.argsort(g[distinct], axis=1)
    code = np.zeros(len(order), dtype=np.int64)
    for j in range(group):
        code = code * group + order[:, j]
    _values, counts = np.unique(code, return_counts=True)
    cells = math.factorial(group)
    observed = np.zeros(cells, dtype=np.int64)
    observed[: len(counts)] = counts  # absent orderings count zero
    r = chi_square_gof(observed, [1 / cells] * cells)
    return BatteryTest("permutation", r.statistic, r.p_value, f"{int(distinct.sum())} triples, df {r.df}")


def battery(x: IntArray, sides: int, low: int) -> list[BatteryTest]:
    """All eight tests on one scaled sequence."""
    return [
        frequency_test(x, sides, low),
        runs_battery_test(x, sides, low),
        serial_correlation_test(x),
        equidistribution_test(x, sides, low),
        gap_test(x, sides, low),
        poker_test(x, sides, low),
        coupon_collector_test(x, sides, low),
        permutation_test(x),
    ]


@dataclass(frozen=True)
class BatteryReport:
    """The battery on one scaler's output, and its verdict at level ``alpha`` (Bonferroni)."""

    name: str
    samples: int
    tests: list[BatteryTest]
    alpha: float

    @property
    def level(self) -> float:
        return self.alpha / len(self.tests)

    @property
    def passed(self) -> bool:
        return all(t.p_value >= self.level for t in self.tests)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "samples": self.samples,
            "level": self.level,
            "verdict": "pass" if self.passed else "fail",
            "tests": [dict(t.to_json(), alert=t.p_value < self.level) for t in self.tests],
        }


def run_battery(die: SecureDie, samples: int, alpha: float, name: str) -> BatteryReport:
    """Draw ``samples`` values from ``die`` and run the battery."""
    x = die.draw(samples)
    return BatteryReport(name, samples, battery(x, die.sides, die.low), alpha)


def production_scalers(source: ByteSource = os.urandom, modulo: bool = False) -> dict[str, SecureDie]:
    """The die (1..6) and the double-zero wheel (0..37, 37 is 00) as the table draws them."""
    cls = ModuloDie if modulo else SecureDie
    return {"die 1..6": cls(6, 1, source), "wheel 0..37": cls(38, 0, source)}


def verdict(reports: list[BatteryReport]) -> bool:
    """Overall pass: every scaler passes its battery at ``alpha / (number of scalers)``."""
    return all(r.passed for r in reports)
