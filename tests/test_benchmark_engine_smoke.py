"""Smoke test for the croupier side of benchmarks/engine.py (the engine's rolls per second
beside crapssim): no timing here, only that the benchmark measures a real game.

It plays 200 rolls of the benchmark's bet mix and checks the driver really exercises the engine:
chips are conserved and at least one come bet travelled to a number.
"""

from __future__ import annotations

import importlib.util
import sys
from decimal import Decimal
from pathlib import Path
from types import ModuleType

from croupier.craps.events import BetMade, Moved, Rolled

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"


def load_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("croupier_benchmark_engine", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_croupier_driver_plays_the_mix() -> None:
    bench = load_benchmark()
    dice = bench.draw_dice(200, 7)
    table = bench.new_croupier_table()
    start = table.total_chips()
    assert start == Decimal(bench.BANKROLL)

    bench.play_croupier(dice, table)

    assert sum(1 for e in table.events if isinstance(e, Rolled)) == 200
    assert table.total_chips() == start
    travelled = [e for e in table.events if isinstance(e, Moved) and e.wager == "come"]
    assert travelled, "no come bet travelled to a number in 200 rolls"
    made = {e.wager_id for e in table.events if isinstance(e, BetMade)}
    assert {"pass", "pass_odds", "come", "come_odds", "place_win", "field"} <= made
