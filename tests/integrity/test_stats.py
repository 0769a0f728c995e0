"""The statistics against scipy and against straightforward reference computations."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from croupier.integrity.stats import (
    binomial_sf,
    chi2_sf,
    chi_square_gof,
    merge_small_cells,
    regularized_gamma_q,
    runs_test,
)


@pytest.mark.parametrize("df", [1, 2, 5, 10, 35, 37, 1443])
def test_chi2_sf_matches_scipy(df: int) -> None:
    for q in (1e-12, 1e-6, 0.001, 0.05, 0.5, 0.95, 0.999999):
        x = float(sps.chi2.isf(q, df))
        assert chi2_sf(x, df) == pytest.approx(q, rel=1e-9)
    assert chi2_sf(0.0, df) == 1.0


def test_regularized_gamma_matches_scipy_far_in_the_tail() -> None:
    from scipy.special import gammaincc

    for a, x in [(0.5, 80.0), (17.5, 300.0), (2.5, 0.01), (100.0, 99.0), (3.0, 3.99)]:
        assert regularized_gamma_q(a, x) == pytest.approx(float(gammaincc(a, x)), rel=1e-9)


def test_chi_square_gof_matches_scipy_chisquare() -> None:
    rng = np.random.default_rng(1)
    for probs in ([1 / 6] * 6, [(6 - abs(t - 7)) / 36 for t in range(2, 13)], [1 / 38] * 38):
        counts = rng.multinomial(5000, probs)
        ours = chi_square_gof(counts, probs)
        ref = sps.chisquare(counts, np.asarray(probs) * counts.sum())
        assert ours.statistic == pytest.approx(float(ref.statistic), rel=1e-12)
        assert ours.p_value == pytest.approx(float(ref.pvalue), rel=1e-9)
        assert ours.df == len(probs) - 1


def _runs_reference(seq: list[int]) -> tuple[int, float]:
    """Count runs with itertools.groupby and compute z from the textbook formulas."""
    runs = sum(1 for _ in itertools.groupby(seq))
    n1 = sum(seq)
    n2 = len(seq) - n1
    n = n1 + n2
    mean = 2 * n1 * n2 / n + 1
    var = (mean - 1) * (mean - 2) / (n - 1)
    return runs, (runs - mean) / math.sqrt(var)


def test_runs_test_matches_reference_computation() -> None:
    rng = np.random.default_rng(2)
    for n in (20, 101, 5000):
        seq = rng.integers(0, 2, n).tolist()
        ours = runs_test(seq)
        runs, z = _runs_reference(seq)
        assert ours.runs == runs
        assert ours.z == pytest.approx(z, rel=1e-12)
        assert ours.p_value == pytest.approx(2 * float(sps.norm.sf(abs(z))), rel=1e-9)


def test_runs_moments_are_exact_against_enumeration() -> None:
    """Mean and variance of the number of runs over every arrangement of 6 ones and 8 zeros."""
    n1, n2 = 6, 8
    counts = []
    for ones in itertools.combinations(range(n1 + n2), n1):
        seq = [1 if i in ones else 0 for i in range(n1 + n2)]
        counts.append(sum(1 for _ in itertools.groupby(seq)))
    r = runs_test([1] * n1 + [0] * n2)
    assert r.expected == pytest.approx(float(np.mean(counts)), rel=1e-12)
    assert r.variance == pytest.approx(float(np.var(counts)), rel=1e-12)


def test_merge_small_cells_keeps_totals_and_merges_ends() -> None:
    obs = np.array([1.0, 40, 300, 380, 79, 0])
    probs = np.array([6, 450, 3000, 3600, 720, 0.001]) / 7776.001
    o, p = merge_small_cells(obs, probs, 800)
    assert o.sum() == obs.sum() and p.sum() == pytest.approx(probs.sum())
    assert list(o) == [41, 300, 380, 79]
    assert (p * 800 >= 5).all()


def test_binomial_sf_matches_scipy() -> None:
    assert binomial_sf([0, 5, 40], 100, 0.2) == pytest.approx(
        [1.0, float(sps.binom.sf(4, 100, 0.2)), float(sps.binom.sf(39, 100, 0.2))]
    )
