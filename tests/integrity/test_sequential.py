"""The CUSUM machinery: exact calibration, checked by simulation; lazy == eager updates."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from croupier.integrity import sequential
from croupier.integrity.dice import DiceMonitor, dice_bank
from croupier.integrity.model import MonitorConfig
from croupier.integrity.sequential import (
    BUILT_IN,
    Bank,
    BankState,
    alarm_probability,
    calibrate,
    calibrate_exactly,
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


def test_built_in_thresholds_are_the_ones_calibration_works_out() -> None:
    """The thresholds kept as data are each the smallest meeting its target, as worked out."""
    for (p0, u, d, horizon, target), threshold in BUILT_IN.items():
        assert calibrate_exactly(p0, u, d, horizon, target) == threshold
        assert alarm_probability(p0, u, d, threshold, horizon) <= target


def test_default_monitors_need_no_calibration_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die's and every built-in wheel's monitors under the default settings come from the
    kept thresholds: no numba on a server's first roll or spin. A changed setting is worked
    out (and agrees with the kept threshold where they share one)."""
    from croupier.integrity.wheel import WheelMonitor
    from croupier.roulette.wheel import DOUBLE_ZERO, DOUBLE_ZERO_AS_SINGLE, SINGLE_ZERO

    def refuse(*args: object) -> int:
        raise AssertionError(f"calibrated at run time: {args}")

    monkeypatch.setattr(sequential, "calibrate_exactly", refuse)
    monitors = [DiceMonitor("d"), *(WheelMonitor(w, "w") for w in
                                    (DOUBLE_ZERO, SINGLE_ZERO, DOUBLE_ZERO_AS_SINGLE))]
    assert all(m.bank.specs for m in monitors)
    with pytest.raises(AssertionError, match="calibrated at run time"):
        dice_bank(MonitorConfig(horizon=9_999))


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
