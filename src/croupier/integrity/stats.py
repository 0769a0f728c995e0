"""The statistics the integrity monitors and the RNG battery rest on.

Everything here is a pure function of counts or sequences. The chi-square tail is computed
with our own regularized incomplete gamma function (checked against ``scipy.stats.chi2`` in
the tests); the runs test uses the normal approximation (checked against a direct count and
against the exact permutation distribution for small samples).

>>> round(chi2_sf(11.07, 5), 4)
0.05
>>> result = chi_square_gof([10, 10, 10, 10, 10, 10], [1 / 6] * 6)
>>> result.statistic, result.df, result.p_value
(0.0, 5, 1.0)
>>> runs_test([0, 1, 0, 1, 0, 1, 0, 1]).runs
8
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the upper regularized incomplete gamma function.

    The series for P = 1 - Q below ``a + 1``, Lentz's continued fraction for Q above it
    (Numerical Recipes §6.2), so small tail probabilities keep their relative precision.
    """
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(_MAX_ITER):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return math.exp(log_front) * h


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("df must be positive")
    return regularized_gamma_q(df / 2, statistic / 2)


def two_sided_normal_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return min(1.0, math.erfc(abs(z) / math.sqrt(2)))


@dataclass(frozen=True)
class ChiSquare:
    """A chi-square goodness-of-fit result. ``approximate`` when an expected count is below 5."""

    statistic: float
    df: int
    p_value: float
    min_expected: float

    @property
    def approximate(self) -> bool:
        return self.min_expected < 5


def chi_square_gof(
    observed: Sequence[int] | npt.NDArray[np.int64], probs: Sequence[float] | npt.NDArray[np.float64]
) -> ChiSquare:
    """Pearson's chi-square test of ``observed`` counts against cell probabilities ``probs``."""
    obs = np.asarray(observed, dtype=np.float64)
    p = np.asarray(probs, dtype=np.float64)
    if obs.shape != p.shape or obs.ndim != 1 or len(obs) < 2:
        raise ValueError("observed and probs must be equal-length vectors of two or more cells")
    if abs(float(p.sum()) - 1) > 1e-9 or (p <= 0).any():
        raise ValueError("probs must be positive and sum to 1")
    n = float(obs.sum())
    df = len(obs) - 1
    if n == 0:
        return ChiSquare(0.0, df, 1.0, 0.0)
    expected = n * p
    statistic = float(((obs - expected) ** 2 / expected).sum())
    return ChiSquare(statistic, df, chi2_sf(statistic, df), float(expected.min()))


def merge_small_cells(
    observed: npt.NDArray[np.float64], probs: npt.NDArray[np.float64], n: float, minimum: float = 5.0
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Merge adjacent cells (from the ends inwards) until every expected count is at least
    ``minimum``: the usual condition for the chi-square approximation."""
    obs = [float(o) for o in observed]
    pr = [float(q) for q in probs]
    # Merge from the right: each too-small cell into its left neighbour.
    i = len(pr) - 1
    while i > 0 and len(pr) > 2:
        if pr[i] * n < minimum:
            pr[i - 1] += pr.pop(i)
            obs[i - 1] += obs.pop(i)
        i -= 1
    # Then the leftmost cells into their right neighbours.
    while len(pr) > 2 and pr[0] * n < minimum:
        first_p, first_o = pr.pop(0), obs.pop(0)
        pr[0] += first_p
        obs[0] += first_o
    return np.array(obs), np.array(pr)


@dataclass(frozen=True)
class RunsTest:
    """The Wald-Wolfowitz runs test on a two-valued sequence (normal approximation)."""

    runs: int
    n1: int
    n2: int
    expected: float
    variance: float
    z: float
    p_value: float


def runs_test(sequence: Sequence[int] | npt.NDArray[np.int64] | npt.NDArray[np.bool_]) -> RunsTest:
    """Runs of equal values in a 0/1 sequence; two-sided p-value from the normal approximation.

    With n1 ones and n2 zeros (n = n1 + n2) the number of runs R has mean 1 + 2 n1 n2 / n and
    variance 2 n1 n2 (2 n1 n2 - n) / (n^2 (n - 1)).
    """
    x = np.asarray(sequence).astype(bool)
    n = len(x)
    n1 = int(x.sum())
    n2 = n - n1
    runs = 1 + int(np.count_nonzero(x[1:] != x[:-1])) if n else 0
    if n1 == 0 or n2 == 0:
        return RunsTest(runs, n1, n2, float(runs), 0.0, 0.0, 1.0)
    mean = 1 + 2 * n1 * n2 / n
    var = 2 * n1 * n2 * (2 * n1 * n2 - n) / (n * n * (n - 1))
    z = (runs - mean) / math.sqrt(var) if var > 0 else 0.0
    return RunsTest(runs, n1, n2, mean, var, z, two_sided_normal_p(z))


def binomial_sf(k: Sequence[int], n: int, p: float) -> list[float]:
    """P(X >= k) for X binomial(n, p), for each k."""
    # Imported here: scipy's statistics take longer to import than a server takes to start,
    # and only a wheel's count test needs them.
    from scipy import stats  # type: ignore[import-untyped]

    return [float(v) for v in stats.binom.sf(np.asarray(k) - 1, n, p)]

