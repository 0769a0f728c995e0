"""Fairness and integrity monitoring of dice, wheels and the RNG (issue 8).

``DiceMonitor.observe(d1, d2)`` and ``WheelMonitor.observe(number)`` return the alerts each
decision raises; ``.report()`` gives the goodness-of-fit tests; ``croupier integrity`` and
``croupier rng-test`` are the command-line front ends.
"""

from __future__ import annotations

from croupier.integrity.dice import DiceMonitor
from croupier.integrity.model import Alert, MonitorConfig, SetReport, TestResult
from croupier.integrity.wheel import WheelMonitor

__all__ = ["Alert", "DiceMonitor", "MonitorConfig", "SetReport", "TestResult", "WheelMonitor"]
