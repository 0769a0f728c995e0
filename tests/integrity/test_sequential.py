"""The CUSUM machinery: exact calibration, checked by simulation; lazy == eager updates."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from croupier.integrity.dice import dice_bank
from croupier.integrity.model import MonitorConfig
from croupier.integrity.sequential import (
    Bank,
    BankState,
    alarm_probability,
    calibrate,
    design_weights,
    first_alarm_times,
    make_spec,
)


def test_design_weights_approximate_the_llr_ratio() -> None:
    for p0, p1 in [(1 / 6, 1 / 5), (1 / 38, 2 / 38), (5 / 38, 6.25 / 38)]:
        u, d = design_weights(p0, p1)
        ratio = math.log(p1 / p0) / math.log((1 - p0) / (1 - p1))
        assert abs(u / d - ratio) / ratio <= 0.02


def test_calibrated_threshold_is_the_smallest_meeting_the_target() -> None:
    u, d = design_weights(1 / 6, 1 / 5)
    h = calibrate(1 / 6, u, d, 2000, 0.01)
    assert alarm_probability(1 / 6, u, d, h, 2000) <= 0.01 < alarm_probability(1 / 6, u, d, h - 1, 2000)


def test_exact_alarm_probability_agrees_with_simulation() -> None:
    """A single CUSUM with a loose threshold, so the probability is large enough to measure."""
    p0, u, d, h, horizon, runs = 1 / 6, 9, 2, 60, 400, 20_000
    exact = alarm_probability(p0, u, d, h, horizon)
    watched = replace(make_spec("six", p0, 1 / 5, horizon, 0.5), u=u, d=d, threshold=h)
    dummy = replace(watched, name="never", threshold=10**9)
    bank = Bank((watched, dummy), ((0,), (1,)))  # outcome 0: the event; outcome 1: not
    rng = np.random.default_rng(7)
    outcomes = (rng.random((runs, horizon)) >= p0).astype(np.int64)
    simulated = float((first_alarm_times(bank, outcomes) > 0).mean())
    se = math.sqrt(exact * (1 - exact) / runs)
    assert 0.05 < exact < 0.95
    assert abs(simulated - exact) < 4 * se


def test_lazy_bank_equals_eager_cusum_and_vectorised_path() -> None:
    config = MonitorConfig(horizon=2000)
    bank = dice_bank(config)
    rng = np.random.default_rng(3)
    p = np.array([0.15, 0.15, 0.15, 0.15, 0.15, 0.25])
    outcomes = (rng.choice(6, (30, 2000), p=p) * 6 + rng.integers(0, 6, (30, 2000))).astype(np.int64)
    vectorised = first_alarm_times(bank, outcomes)
    for r in range(30):
        state = BankState(bank)
        eager = [0] * len(bank.specs)
        first = 0
        for t, o in enumerate(outcomes[r].tolist(), start=1):
            for k, spec in enumerate(bank.specs):
                eager[k] = max(0, eager[k] + (spec.u if k in bank.hits[o] else -spec.d))
            new = state.step(o)
            assert [state.value(k) for k in range(len(eager))] == eager
            if new and not first:
                first = t
        assert first == vectorised[r]
    assert (vectorised > 0).mean() > 0.5


def test_alarm_probability_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        alarm_probability(0.1, 1, 1, 0, 10)
