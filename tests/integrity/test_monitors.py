"""Size and power of the monitors, measured by (seeded) simulation, and their API.

Stated guarantees under test (MonitorConfig defaults: alpha 1 %, horizon 10,000):
* fair dice / fair wheel, 10,000 outcomes: alert rate <= 1 % (+ 3 standard errors of the
  simulation), and the sequential part alone <= 0.5 % (+ 3 SE);
* a die whose six comes up 1/5: flagged within 5,000 rolls in >= 90 % of 200 runs;
* a wheel whose pocket 17 comes up 2/38: flagged within 2,500 spins in >= 90 % of 200 runs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from croupier.integrity import DiceMonitor, MonitorConfig, WheelMonitor
from croupier.integrity.dice import dice_bank
from croupier.integrity.simulate import (
    FAIR_DIE,
    biased_wheel,
    dice_outcomes,
    loaded_die,
    run_dice,
    run_wheel,
    wheel_outcomes,
)
from croupier.integrity.wheel import wheel_bank
from croupier.roulette.wheel import DOUBLE_ZERO, SINGLE_ZERO

CONFIG = MonitorConfig()


def _bound(level: float, runs: int) -> float:
    return level + 3 * math.sqrt(level * (1 - level) / runs)


def test_exact_per_monitor_false_alarm_within_budget() -> None:
    """Each monitor's exact false-alarm probability is within its share, and the shares add
    up to the sequential budget (the union bound of docs/integrity.md)."""
    for bank, small in ((dice_bank(CONFIG), 12), (wheel_bank(DOUBLE_ZERO.order, CONFIG), 76)):
        exact = {(s.p0, s.u, s.d, s.threshold): s.exact_false_alarm for s in bank.specs}
        gross = len(bank.specs) - small
        for k, s in enumerate(bank.specs):
            share = CONFIG.drift_alpha / small if k < small else CONFIG.gross_alpha / gross
            assert s.budget == pytest.approx(share)
            assert 0 < exact[(s.p0, s.u, s.d, s.threshold)] <= share
        assert sum(exact[(s.p0, s.u, s.d, s.threshold)] for s in bank.specs) <= CONFIG.sequential_alpha


def test_false_alarm_rate_on_fair_dice() -> None:
    runs = 2000
    res = run_dice(dice_outcomes(np.random.default_rng(11), runs, CONFIG.horizon, FAIR_DIE, FAIR_DIE), CONFIG)
    assert (res.first_alarm > 0).mean() <= _bound(CONFIG.sequential_alpha, runs)
    assert res.alert.mean() <= _bound(CONFIG.alpha, runs)


def test_false_alarm_rate_on_fair_wheel() -> None:
    runs = 1000
    res = run_wheel(wheel_outcomes(np.random.default_rng(12), runs, CONFIG.horizon, (1 / 38,) * 38), CONFIG)
    assert (res.first_alarm > 0).mean() <= _bound(CONFIG.sequential_alpha, runs)
    assert res.alert.mean() <= _bound(CONFIG.alpha, runs)


def test_loaded_die_is_flagged_within_5000_rolls() -> None:
    outcomes = dice_outcomes(np.random.default_rng(13), 200, 5000, loaded_die(6, 1 / 5), FAIR_DIE)
    first = run_dice(outcomes, CONFIG, final_tests=False).first_alarm
    assert (first > 0).mean() >= 0.90


def test_biased_pocket_is_flagged_within_2500_spins() -> None:
    position = DOUBLE_ZERO.order.index(17)
    outcomes = wheel_outcomes(np.random.default_rng(14), 200, 2500, biased_wheel(38, position, 2 / 38))
    first = run_wheel(outcomes, CONFIG, final_tests=False).first_alarm
    assert (first > 0).mean() >= 0.90


def test_dice_monitor_alerts_on_the_loaded_face_once() -> None:
    rng = np.random.default_rng(15)
    monitor = DiceMonitor("S-1")
    alerts = []
    for _ in range(8000):
        d1 = int(rng.choice(6, p=loaded_die(6, 0.25))) + 1
        alerts += monitor.observe(d1, int(rng.integers(1, 7)))
    assert alerts and alerts[0].monitor == "die1 face 6"
    assert len({a.monitor for a in alerts}) == len(alerts)
    assert alerts[0].statistic >= alerts[0].threshold
    report = monitor.report()
    assert report.alert and report.to_json()["sequential"]["first_alarm_at"] == alerts[0].at
    assert next(t for t in report.tests if t.name == "die1 faces").alert


def test_wheel_monitor_sector_alert() -> None:
    rng = np.random.default_rng(16)
    monitor = WheelMonitor(DOUBLE_ZERO, "W")
    order = DOUBLE_ZERO.order
    probs = np.full(38, 1.0)
    probs[[0, 1, 2, 3, 4]] = 1.6  # a tilted wheel: 0, 28, 9, 26, 30 favoured
    probs /= probs.sum()
    alerts = []
    for i in rng.choice(38, 6000, p=probs):
        alerts += monitor.observe(order[int(i)])
    assert any(a.monitor.startswith("sector") for a in alerts)
    assert next(t for t in monitor.tests() if t.name == "sectors").alert


def test_monitors_reject_impossible_outcomes() -> None:
    with pytest.raises(ValueError):
        DiceMonitor().observe(0, 3)
    with pytest.raises(ValueError):
        DiceMonitor().observe(True, 3)
    with pytest.raises(ValueError):
        WheelMonitor(SINGLE_ZERO).observe("00")
    with pytest.raises(ValueError):
        WheelMonitor().observe(37)


def test_fair_report_has_no_alert() -> None:
    rng = np.random.default_rng(17)
    monitor = DiceMonitor("fair")
    for a, b in rng.integers(1, 7, (3000, 2)).tolist():
        assert monitor.observe(a, b) == []
    data = monitor.report().to_json()
    assert data["alert"] is False and {t["name"] for t in data["tests"]} == {
        "die1 faces",
        "die2 faces",
        "totals",
        "pairs",
    }
    assert all(0 <= t["p_value"] <= 1 for t in data["tests"])
