"""Bernoulli CUSUM monitors with thresholds calibrated exactly for a run of stated length.

One monitor watches one event (a die showing a six, the ball landing in pocket 17, or in a
sector of neighbouring pockets) whose probability is ``p0`` on fair equipment and ``p1`` under
the bias it is designed to catch. Its statistic is the CUSUM of the log-likelihood ratio,

    S_t = max(0, S_{t-1} + a)   when the event happens,  a = ln(p1 / p0)
    S_t = max(0, S_{t-1} - b)   otherwise,               b = ln((1 - p0) / (1 - p1))

with the two steps scaled to small integers ``u`` and ``d`` (u / d within 2 % of a / b), so
that the statistic lives on the integers 0, 1, 2, ... and its law under fair play is a finite
Markov chain. The alarm threshold ``H`` is the smallest integer for which the exact probability
of an alarm within ``horizon`` observations of fair equipment is at most the monitor's share of
the false-alarm budget. A bank of K monitors gives each ``budget / K`` (union bound), so

    P(any monitor of the bank alarms within ``horizon`` fair observations) <= budget.

The integer weights are what the monitor runs, so this is exact, not an approximation of it.

>>> design_weights(1 / 6, 1 / 5)
(9, 2)
>>> p = alarm_probability(1 / 6, 9, 2, 60, 1000)
>>> 0 < p < 1
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]


def design_weights(p0: float, p1: float, tolerance: float = 0.02, max_d: int = 8) -> tuple[int, int]:
    """Integer up and down steps (u, d) whose ratio is within ``tolerance`` of the LLR ratio."""
    if not 0 < p0 < p1 < 1:
        raise ValueError("need 0 < p0 < p1 < 1")
    up = math.log(p1 / p0)
    down = math.log((1 - p0) / (1 - p1))
    ratio = up / down
    best = (max(1, round(ratio)), 1)
    for d in range(1, max_d + 1):
        u = max(1, round(ratio * d))
        if abs(u / d - ratio) / ratio <= tolerance:
            return u, d
        if abs(u / d - ratio) < abs(best[0] / best[1] - ratio):
            best = (u, d)
    return best


def _alarm_probability_loop(p0: float, u: int, d: int, h: int, horizon: int) -> float:
    q0 = 1.0 - p0
    v = np.zeros(h)
    new = np.zeros(h)
    v[0] = 1.0
    absorbed = 0.0
    for _ in range(horizon):
        for j in range(h):
            new[j] = 0.0
        for s in range(h):
            mass = v[s]
            if mass == 0.0:
                continue
            if s + u >= h:
                absorbed += p0 * mass
            else:
                new[s + u] += p0 * mass
            new[max(0, s - d)] += q0 * mass
        v, new = new, v
    return absorbed


def _compiled(fn: Callable[..., float]) -> Callable[..., float]:
    """``fn`` compiled, its machine code cached beside the source where that can be written;
    where nothing can (an install read-only to the user running it), compiled per process."""
    import numba  # here: importing numba costs every process that never calibrates a monitor

    try:
        return cast("Callable[..., float]", numba.njit(cache=True)(fn))
    except RuntimeError:  # numba: "cannot cache function ...: no locator available"
        return cast("Callable[..., float]", numba.njit(fn))


@lru_cache(maxsize=1)
def _alarm_probability_fast() -> Callable[[float, int, int, int, int], float]:
    return _compiled(_alarm_probability_loop)


def alarm_probability(p0: float, u: int, d: int, threshold: int, horizon: int) -> float:
    """Exact P(S_t >= threshold for some t <= horizon) when S_0 = 0 and the event has
    probability ``p0`` at each step (a Markov chain on the states 0 .. threshold - 1;
    compiled with numba, the same loop as ``_alarm_probability_loop``)."""
    if threshold < 1 or horizon < 0:
        raise ValueError("threshold must be positive and horizon non-negative")
    fast = _alarm_probability_fast()
    return float(fast(float(p0), int(u), int(d), int(threshold), int(horizon)))


def _theta(p0: float, u: int, d: int) -> float:
    """The positive root of p0 e^(θu) + (1 - p0) e^(-θd) = 1 (the exponential tail rate)."""

    def f(t: float) -> float:
        return p0 * math.exp(t * u) + (1 - p0) * math.exp(-t * d) - 1

    hi = 1.0
    while f(hi) <= 0:
        hi *= 2
    return _bisect(f, 1e-9, hi)


def _bisect(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The root of ``f`` in [lo, hi] (f(lo) < 0 < f(hi)) to the last bit of a float: halving
    until the midpoint is one of the ends (a few dozen steps; scipy's solvers cost a
    server more to import than this costs to run).

    >>> round(_bisect(lambda t: t * t - 2, 0.0, 2.0), 12)
    1.414213562373
    """
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return mid
        if f(mid) <= 0:
            lo = mid
        else:
            hi = mid


BUILT_IN: dict[tuple[float, int, int, int, float], int] = {
    # (p0, u, d, horizon, target): threshold, for the monitors of the default MonitorConfig:
    # a die's faces and a pair of dice, the pockets of each built-in wheel. Worked out by
    # calibrate_exactly once and kept as data, so that a server's first roll or spin does
    # not wait seconds for numba to load; tests/integrity work every entry out again and
    # check that the default banks need nothing else.
    (1 / 38, 10, 1, 10_000, 2.6315789473684212e-05): 83,
    (1 / 38, 25, 1, 10_000, 5.2631578947368424e-05): 491,
    (1 / 37, 19, 2, 10_000, 2.7027027027027027e-05): 156,
    (1 / 37, 25, 1, 10_000, 5.4054054054054054e-05): 521,
    (1 / 36, 23, 2, 10_000, 2.0833333333333333e-05): 218,
    (5 / 38, 17, 3, 10_000, 5.2631578947368424e-05): 905,
    (5 / 37, 11, 2, 10_000, 5.4054054054054054e-05): 592,
    (1 / 6, 9, 2, 10_000, 0.0003333333333333333): 587,
    (1 / 6, 13, 6, 10_000, 2.0833333333333333e-05): 214,
}


def calibrate(p0: float, u: int, d: int, horizon: int, target: float) -> int:
    """The smallest integer threshold whose exact false-alarm probability within ``horizon``
    steps is at most ``target``: the built-in monitors' from :data:`BUILT_IN`, any other
    worked out (:func:`calibrate_exactly`).

    >>> calibrate(1 / 6, 9, 2, 10_000, 1 / 3000)
    587
    """
    known = BUILT_IN.get((p0, u, d, horizon, target))
    return known if known is not None else calibrate_exactly(p0, u, d, horizon, target)


@lru_cache(maxsize=256)
def calibrate_exactly(p0: float, u: int, d: int, horizon: int, target: float) -> int:
    """:func:`calibrate`, worked out: the exact false-alarm probability of candidate
    thresholds (numba's compiled loop), from the exponential tail's estimate to the boundary."""
    if not 0 < target < 1:
        raise ValueError("target must be in (0, 1)")
    theta = _theta(p0, u, d)
    h = max(u, math.ceil(math.log(horizon / target) / theta))
    p = alarm_probability(p0, u, d, h, horizon)
    # One Newton-like jump on log p (tail ~ e^(-θ H)), then unit steps to the exact boundary.
    h = max(1, h + round(math.log(p / target) / theta)) if p > 0 else h
    p = alarm_probability(p0, u, d, h, horizon)
    while p > target:
        h += 1
        p = alarm_probability(p0, u, d, h, horizon)
    while h > 1 and alarm_probability(p0, u, d, h - 1, horizon) <= target:
        h -= 1
    return h


@dataclass(frozen=True)
class CusumSpec:
    """One calibrated monitor: event probability p0 (fair) and p1 (designed bias)."""

    name: str
    p0: float
    p1: float
    u: int
    d: int
    threshold: int
    horizon: int
    budget: float

    @property
    def unit(self) -> float:
        """The log-likelihood ratio worth one integer step of the statistic."""
        return math.log((1 - self.p0) / (1 - self.p1)) / self.d

    @property
    def exact_false_alarm(self) -> float:
        return alarm_probability(self.p0, self.u, self.d, self.threshold, self.horizon)


def make_spec(name: str, p0: float, p1: float, horizon: int, budget: float) -> CusumSpec:
    """A monitor for one event, calibrated to false-alarm probability ``budget`` over ``horizon``."""
    u, d = design_weights(p0, p1)
    return CusumSpec(name, p0, p1, u, d, calibrate(p0, u, d, horizon, budget), horizon, budget)


@dataclass(frozen=True)
class Bank:
    """Monitors over one categorical stream: outcome ``i`` is an up-step for the monitors
    listed in ``hits[i]`` and a down-step for every other monitor."""

    specs: tuple[CusumSpec, ...]
    hits: tuple[tuple[int, ...], ...]
    _arrays: dict[str, IntArray] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        widths = {len(h) for h in self.hits}
        if len(widths) != 1:
            raise ValueError("every outcome must hit the same number of monitors")
        self._arrays["u"] = np.array([s.u for s in self.specs], dtype=np.int64)
        self._arrays["d"] = np.array([s.d for s in self.specs], dtype=np.int64)
        self._arrays["h"] = np.array([s.threshold for s in self.specs], dtype=np.int64)
        self._arrays["hits"] = np.array(self.hits, dtype=np.int64)

    def array(self, key: str) -> IntArray:
        return self._arrays[key]


class BankState:
    """The running statistics of a bank, updated lazily: a monitor's value is brought up to
    date only when its event happens, since k down-steps from s give max(0, s - k d)."""

    def __init__(self, bank: Bank) -> None:
        self.bank = bank
        self.t = 0
        self._s = [0] * len(bank.specs)
        self._last = [0] * len(bank.specs)
        self.alarmed_at: list[int] = [0] * len(bank.specs)

    def step(self, outcome: int) -> list[int]:
        """Observe one outcome (an index into ``bank.hits``); return monitors newly alarmed."""
        self.t += 1
        t = self.t
        new: list[int] = []
        for k in self.bank.hits[outcome]:
            spec = self.bank.specs[k]
            s = max(0, self._s[k] - spec.d * (t - 1 - self._last[k])) + spec.u
            self._s[k] = s
            self._last[k] = t
            if s >= spec.threshold and not self.alarmed_at[k]:
                self.alarmed_at[k] = t
                new.append(k)
        return new

    def value(self, k: int) -> int:
        """Monitor ``k``'s statistic now."""
        return max(0, self._s[k] - self.bank.specs[k].d * (self.t - self._last[k]))

    def ratios(self) -> list[float]:
        """Each statistic as a fraction of its threshold (an alarm at 1)."""
        return [self.value(k) / spec.threshold for k, spec in enumerate(self.bank.specs)]


def first_alarm_times(bank: Bank, outcomes: IntArray) -> IntArray:
    """For each row of ``outcomes`` (runs x steps of outcome indices), the 1-based time of the
    bank's first alarm, 0 if none: the same lazy update as :class:`BankState`, vectorised
    over runs, for simulation."""
    runs, steps = outcomes.shape
    size = len(bank.specs)
    u, d, h, hits = bank.array("u"), bank.array("d"), bank.array("h"), bank.array("hits")
    s = np.zeros((runs, size), dtype=np.int64)
    last = np.zeros((runs, size), dtype=np.int64)
    first = np.zeros(runs, dtype=np.int64)
    rows = np.arange(runs)[:, None]
    by_time = np.ascontiguousarray(outcomes.T)
    for t in range(1, steps + 1):
        idx = hits[by_time[t - 1]]
        value = np.maximum(s[rows, idx] - d[idx] * (t - 1 - last[rows, idx]), 0) + u[idx]
        s[rows, idx] = value
        last[rows, idx] = t
        alarm = (value >= h[idx]).any(axis=1)
        first[alarm & (first == 0)] = t
    return first


def sector_arcs(n: int, width: int) -> list[tuple[int, ...]]:
    """The ``n`` arcs of ``width`` consecutive positions on a circle of ``n`` positions."""
    return [tuple((j + k) % n for k in range(width)) for j in range(n)]

