"""Gross faults are caught within a few outcomes, and fair sequences stay quiet: fixed sequences
through the monitors the server runs (``DiceMonitor``, ``WheelMonitor``), no timing.

The quiet side is derived from the documented bound (docs/integrity.md: on fair equipment, any
sequential alert within 10,000 outcomes of a set or wheel with probability at most 0.5 %). A
monitor that alerted on a pattern fair equipment shows more often than that would break it:

* a night is taken as 1,000 rolls or spins (about ten hours of a busy table);
* in a night of fair dice, some ordered pair comes up 4 times in a row with probability about
  997 / 36^3 = 2.1 %, and some face of die 1 comes up 6 times in a row with probability about
  995 / 6^5 = 13 %;
* in a night of a fair wheel, some pocket comes up 4 times in a row with probability about
  997 / 38^3 = 1.8 %;
* on the first roll any of the 36 pairs has probability 1/36 = 2.8 %, any pocket 1/38 = 2.6 %.
"""

from __future__ import annotations

import random

import pytest

from croupier.dice import FACES
from croupier.integrity import DiceMonitor, MonitorConfig, WheelMonitor
from croupier.integrity.model import Alert
from croupier.roulette.wheel import DOUBLE_ZERO, SINGLE_ZERO, Pocket

NIGHT = 1000
HORIZON = MonitorConfig().horizon


def _balanced_dice(rolls: int, seed: int) -> list[tuple[int, int]]:
    """Each of the 36 ordered pairs once in every 36 rolls, in a shuffled order."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < rolls:
        block = [(a, b) for a in FACES for b in FACES]
        rng.shuffle(block)
        out += block
    return out[:rolls]


def _first_dice_alert(monitor: DiceMonitor, rolls: list[tuple[int, int]]) -> tuple[int, list[Alert]]:
    for n, (a, b) in enumerate(rolls, start=1):
        alerts = monitor.observe(a, b)
        if alerts:
            return n, alerts
    return 0, []


def _first_wheel_alert(monitor: WheelMonitor, spins: list[Pocket]) -> tuple[int, list[Alert]]:
    for n, number in enumerate(spins, start=1):
        alerts = monitor.observe(number)
        if alerts:
            return n, alerts
    return 0, []


@pytest.mark.parametrize("pair", [(a, b) for a in FACES for b in FACES])
def test_dice_showing_one_pair_every_roll_alert_by_roll_15(pair: tuple[int, int]) -> None:
    n, alerts = _first_dice_alert(DiceMonitor("S"), [pair] * 15)
    assert 1 < n <= 15
    assert f"pair {pair[0]}-{pair[1]}" in [a.monitor for a in alerts]
    assert all(a.statistic >= a.threshold and a.at == n for a in alerts)


def test_six_six_after_a_fair_night_alerts_within_15_rolls() -> None:
    monitor = DiceMonitor("S")
    rng = random.Random(7)
    fair = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(NIGHT)]
    assert _first_dice_alert(monitor, fair) == (0, [])
    n, alerts = _first_dice_alert(monitor, [(6, 6)] * 15)
    assert 0 < n <= 15 and alerts[0].at == NIGHT + n


def test_a_die_showing_six_every_roll_alerts_within_20_rolls() -> None:
    """Die 1 always six, die 2 fair (each face in turn): the gross face monitor, not the 64
    rolls the small-bias monitor needs."""
    rolls = [(6, 1 + k % 6) for k in range(20)]
    n, alerts = _first_dice_alert(DiceMonitor("S"), rolls)
    assert 0 < n <= 20
    assert [a.monitor for a in alerts] == ["die1 face 6 (gross)"]


def test_without_the_gross_monitors_six_six_takes_far_longer() -> None:
    """The cause: a monitor designed for a face at 1/5 adds ln(1.2) for a six, whatever it
    sees; with only those, 15 rolls of 6-6 raise nothing."""
    n, _ = _first_dice_alert(DiceMonitor("S", MonitorConfig(gross_share=0)), [(6, 6)] * 15)
    assert n == 0


def test_ball_in_one_pocket_every_spin_alerts_within_10_spins() -> None:
    for number in (17, 0, "00"):
        n, alerts = _first_wheel_alert(WheelMonitor(DOUBLE_ZERO, "W"), [number] * 10)
        assert 2 < n <= 10
        assert alerts[0].monitor == f"pocket {number} (gross)"


def test_a_first_roll_or_spin_never_alerts() -> None:
    for a in FACES:
        for b in FACES:
            assert DiceMonitor().observe(a, b) == []
    for wheel in (DOUBLE_ZERO, SINGLE_ZERO):
        for number in wheel.order:
            monitor = WheelMonitor(wheel)
            assert monitor.observe(number) == [] and monitor.observe(number) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_fair_dice_over_the_horizon_do_not_alert(seed: int) -> None:
    """10,000 rolls, the horizon of the guarantee: seeded draws, and exactly balanced blocks."""
    rng = random.Random(seed)
    drawn = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(HORIZON)]
    assert _first_dice_alert(DiceMonitor(), drawn) == (0, [])
    assert _first_dice_alert(DiceMonitor(), _balanced_dice(HORIZON, seed)) == (0, [])


def test_streaks_of_a_fair_night_do_not_alert() -> None:
    """A balanced night with 4 rolls of 6-6 in a row, then 6 sixes of die 1 in a row."""
    night = _balanced_dice(NIGHT, 3)
    night[400:404] = [(6, 6)] * 4
    night[700:706] = [(6, 1 + k % 6) for k in range(6)]
    assert _first_dice_alert(DiceMonitor(), night) == (0, [])


def test_fair_wheel_over_the_horizon_and_its_streaks_do_not_alert() -> None:
    rng = random.Random(4)
    order = DOUBLE_ZERO.order
    drawn: list[Pocket] = [order[rng.randrange(38)] for _ in range(HORIZON)]
    assert _first_wheel_alert(WheelMonitor(DOUBLE_ZERO), drawn) == (0, [])
    night = [order[k % 38] for k in range(NIGHT)]
    night[500:504] = [17] * 4
    assert _first_wheel_alert(WheelMonitor(DOUBLE_ZERO), night) == (0, [])
