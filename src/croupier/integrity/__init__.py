"""Fairness and integrity monitoring of dice, wheels and the RNG: biased dice, a wheel with a
favoured sector and an RNG whose output is not uniform are found from the decisions they give.

``DiceMonitor.observe(d1, d2)`` and ``WheelMonitor.observe(number)`` return the alerts each
decision raises; ``.report()`` gives the goodness-of-fit tests; ``croupier integrity`` and
``croupier rng-test`` are the command-line front ends.

The names below are imported on first use (PEP 562), so that ``croupier --help``, which
imports :mod:`croupier.integrity.commands`, does not pay for numba and scipy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.integrity.dice import DiceMonitor
    from croupier.integrity.model import Alert, MonitorConfig, SetReport, TestResult
    from croupier.integrity.wheel import WheelMonitor

__all__ = ["Alert", "DiceMonitor", "MonitorConfig", "SetReport", "TestResult", "WheelMonitor"]

_HOME = {
    "Alert": "model", "MonitorConfig": "model", "SetReport": "model", "TestResult": "model",
    "DiceMonitor": "dice", "WheelMonitor": "wheel",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
