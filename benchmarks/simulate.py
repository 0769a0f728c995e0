"""croupier's simulation kernel against crapssim, side by side in one run.

    .venv/bin/python benchmarks/simulate.py [--reps 5] [--quick] [--json] [--threads 1]

Scenarios: the pass line alone; pass + 3x odds + two come bets with 3x odds; place 6 and 8;
six players with six different strategies at one table; the pass line with a $5 fire bet on every
new shooter. For each: rolls per second, the
median of ``--reps`` repetitions, for crapssim (its ``Table.run``) and for croupier (steady
state: the kernel specialised to the strategies is generated, compiled and cached before
timing; one thread unless ``--threads``), their ratio, and
croupier as a percentage of the raw bound: numpy's PCG64 drawing the same number of two-dice
rolls (``Generator.integers(1, 7, size=(n, 2))``; the uint8 draw, the faster, is the bound),
timed in the same run. A separate whole-process figure runs ``croupier simulate`` in a fresh
interpreter (imports, numba cache load, compile of the strategy, the run itself).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

from croupier.sim.compile import compile_table
from croupier.sim.engine import simulate
from croupier.sim.library import BUILT_IN

SIX = ["pass-line", "pass-odds-come", "place-6-8", "iron-cross", "three-point-dolly", "knockout"]


def crapssim_strategy(name: str) -> Any:
    from crapssim.strategy.examples import IronCross, Knockout, ThreePointDolly, ThreePointMolly
    from crapssim.strategy.single_bet import BetPassLine, BetPlace

    if name == "pass-line":
        return BetPassLine(10)
    if name == "pass-odds-come":
        return ThreePointMolly(10, odds_multiplier=3)
    if name == "place-6-8":
        return BetPlace({6: 12, 8: 12}, skip_point=False)
    if name == "iron-cross":
        return IronCross(10)
    if name == "three-point-dolly":
        return ThreePointDolly(10, win_multiplier=1)
    if name == "pass-fire":
        from crapssim.bet import Fire
        from crapssim.strategy.single_bet import BetSingle

        class BetFire(BetSingle):
            bet_type = Fire

        return BetPassLine(10) + BetFire(5)
    return Knockout(10)


def time_crapssim(names: list[str], rolls: int, seed: int) -> float:
    from crapssim import Table

    table = Table(seed=seed)
    for name in names:
        table.add_player(10_000_000, crapssim_strategy(name))
    start_rolls = table.dice.n_rolls
    t0 = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    dt = time.perf_counter() - t0
    return (table.dice.n_rolls - start_rolls) / dt


def time_croupier(names: list[str], sessions: int, rolls: int, seed: int,
                  threads: int = 1) -> tuple[float, int]:
    compiled = compile_table([BUILT_IN[n] for n in names])
    t0 = time.perf_counter()
    res = simulate(compiled, sessions, rolls, 10**9, seed, threads=threads)
    dt = time.perf_counter() - t0
    played = int(res.rolls.sum())
    return played / dt, played


def time_raw(n: int, dtype: Any) -> float:
    rng = np.random.Generator(np.random.PCG64(1))
    t0 = time.perf_counter()
    rng.integers(1, 7, size=(n, 2), dtype=dtype)
    return n / (time.perf_counter() - t0)


def whole_process(strategy: str, sessions: int, rolls: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "croupier", "simulate", strategy, "--sessions",
                    str(sessions), "--rolls", str(rolls), "--bankroll", "10000000", "--json",
                    "--no-progress"], check=True, capture_output=True)
    return sessions * rolls / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="croupier's threads (blocks of "
                    "sessions at once; the same results)")
    args = ap.parse_args()
    scale = 4 if args.quick else 1
    scenarios = [
        ("pass line", ["pass-line"], 20000 // scale, 16384 // scale, 2000),
        ("pass + 3x odds + 2 come", ["pass-odds-come"], 6000 // scale, 8192 // scale, 1000),
        ("place 6 and 8", ["place-6-8"], 20000 // scale, 16384 // scale, 1000),
        ("six players, six strategies", SIX, 1500 // scale, 4096 // scale, 1000),
        ("pass + fire bet", ["pass-fire"], 20000 // scale, 16384 // scale, 2000),
    ]
    # warm: compile (or load from the numba cache) before timing
    for _, names, _, _, _ in scenarios:
        time_croupier(names, 8, 10, 0)
    rows: list[dict[str, Any]] = []
    for title, names, cs_rolls, sessions, rolls in scenarios:
        cs = statistics.median(time_crapssim(names, cs_rolls, 100 + k) for k in range(args.reps))
        runs = [time_croupier(names, sessions, rolls, 200 + k, args.threads)
                for k in range(args.reps)]
        cr = statistics.median(r[0] for r in runs)
        n_rolls = runs[0][1]
        raw8 = statistics.median(time_raw(n_rolls, np.uint8) for _ in range(args.reps))
        raw64 = statistics.median(time_raw(n_rolls, np.int64) for _ in range(args.reps))
        bound = max(raw8, raw64)
        rows.append({"scenario": title, "crapssim_rolls_per_s": cs, "croupier_rolls_per_s": cr,
                     "ratio": cr / cs, "raw_bound_rolls_per_s": bound,
                     "raw_int64_rolls_per_s": raw64, "croupier_pct_of_raw": 100 * cr / bound})
    wp = whole_process("pass-line", 2048 // scale, 2000)
    if args.json:
        print(json.dumps({"scenarios": rows, "whole_process_pass_line_rolls_per_s": wp},
                         indent=2))
        return 0
    print(f"{'scenario':30s} {'crapssim':>11s} {'croupier':>13s} {'ratio':>8s} "
          f"{'raw bound':>13s} {'% of raw':>9s}")
    for r in rows:
        print(f"{r['scenario']:30s} {r['crapssim_rolls_per_s']:11,.0f} "
              f"{r['croupier_rolls_per_s']:13,.0f} {r['ratio']:7,.0f}x "
              f"{r['raw_bound_rolls_per_s']:13,.0f} {r['croupier_pct_of_raw']:8.1f}%")
    print(f"\nrolls/s are medians of {args.reps} repetitions; raw bound: numpy PCG64 two dice "
          "per roll (uint8; int64 draws are slower), same roll count, same run.")
    print(f"whole process (fresh interpreter, `croupier simulate pass-line`, "
          f"{2048 // scale} x 2000 rolls): {wp:,.0f} rolls/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
