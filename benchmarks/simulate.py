"""croupier's simulation kernel against crapssim, side by side in one run.

    .venv/bin/python benchmarks/simulate.py [--reps 5] [--quick] [--json] [--threads 1]
                                            [--compare-with CHECKOUT] [--profile]

Scenarios: the pass line alone; pass + 3x odds + two come bets with 3x odds; place 6 and 8;
six players with six different strategies at one table; the pass line with a $5 fire bet on every
new shooter. For each: rolls per second, the
median of ``--reps`` repetitions, for crapssim (its ``Table.run``) and for croupier (steady
state: the layout tables, or the kernel specialised to the strategies, are built, compiled and
cached before timing; one thread unless ``--threads``), their ratio, and
croupier as a percentage of the raw bound: numpy's PCG64 drawing the same number of two-dice
rolls (``Generator.integers(1, 7, size=(n, 2))``; the uint8 draw, the faster, is the bound),
timed in the same run. A separate whole-process figure runs ``croupier simulate`` in a fresh
interpreter (imports, numba cache load, compile of the strategy, the run itself).

``--compare-with CHECKOUT`` (another checkout of croupier, e.g. ``git worktree add
/tmp/sim-before main``) first times croupier's side of every scenario with that checkout's
code, in a child process of the same run (its ``src`` on ``PYTHONPATH``), and prints it as the
"before" column next to this checkout's.

``--profile`` also splits the six players' time per roll: drawing the dice, and playing,
against each player's strategy played alone at a table on the same dice (their sum, beside
the six together: what sharing the processor's caches costs); with ``--compare-with``, for
that checkout's code too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from croupier.sim import engine
from croupier.sim.compile import compile_table
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


def simulate(compiled: Any, sessions: int, rolls: int, bankroll: int, seed: int,
             threads: int = 1) -> Any:
    """The engine's ``simulate`` (``--compare-with`` may run a checkout from before the
    simulation's parameters were one :class:`~croupier.sim.engine.Simulation`)."""
    run: Any = engine.simulate
    if hasattr(engine, "Simulation"):
        return run(compiled, engine.Simulation(sessions, rolls, bankroll, seed), threads=threads)
    return run(compiled, sessions, rolls, bankroll, seed, threads=threads)


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


def scenarios_for(quick: bool) -> list[tuple[str, list[str], int, int, int]]:
    """(title, strategies, crapssim rolls, croupier sessions, croupier rolls) per scenario."""
    scale = 4 if quick else 1
    return [
        ("pass line", ["pass-line"], 20000 // scale, 16384 // scale, 2000),
        ("pass + 3x odds + 2 come", ["pass-odds-come"], 6000 // scale, 8192 // scale, 1000),
        ("place 6 and 8", ["place-6-8"], 20000 // scale, 16384 // scale, 1000),
        ("six players, six strategies", SIX, 1500 // scale, 4096 // scale, 1000),
        ("pass + fire bet", ["pass-fire"], 20000 // scale, 16384 // scale, 2000),
    ]


def croupier_only(args: argparse.Namespace) -> dict[str, float]:
    """Croupier's rolls per second per scenario (the median of ``--reps``), nothing else."""
    out: dict[str, float] = {}
    for title, names, _, sessions, rolls in scenarios_for(args.quick):
        time_croupier(names, 8, 10, 0)
        out[title] = statistics.median(time_croupier(names, sessions, rolls, 200 + k,
                                                     args.threads)[0]
                                       for k in range(args.reps))
    return out


def _ns_per_roll(fn: Any, rolls: int, reps: int) -> float:
    fn()
    best = min(_timed(fn) for _ in range(reps))
    return 1e9 * best / rolls


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def profile(args: argparse.Namespace) -> dict[str, Any]:
    """Where the six players' time goes: nanoseconds per roll to draw the dice (the chunks of
    outcomes the run draws), to play the six together, and to play each one's strategy alone
    (the fastest of ``--reps``)."""
    _, names, _, sessions, rolls = scenarios_for(args.quick)[3]
    n = sessions * rolls
    chunks = -(-sessions // engine.BLOCK) * -(-rolls // engine.ROLL_CHUNK)
    player = engine.chunk_player(compile_table([BUILT_IN[x] for x in names]), "layouts", 8)
    buf = player.buffer() if hasattr(player, "buffer") else \
        np.empty((engine.BLOCK, engine.ROLL_CHUNK), np.uint8)
    rng = engine.block_stream(1, 0)

    def dice() -> None:
        for _ in range(chunks):
            if hasattr(player, "draw"):
                player.draw(rng, buf, 36)
            else:
                engine.draw_outcomes(rng, buf, 36)

    def play(strategies: list[str]) -> Any:
        compiled = compile_table([BUILT_IN[x] for x in strategies])
        return lambda: simulate(compiled, sessions, rolls, 10**9, 7)

    out: dict[str, Any] = {"dice_ns": _ns_per_roll(dice, n, args.reps),
                           "six_ns": _ns_per_roll(play(names), n, args.reps)}
    out["alone_ns"] = {x: _ns_per_roll(play([x]), n, args.reps) - out["dice_ns"]
                       for x in names}
    return out


def print_profile(label: str, prof: dict[str, Any], bound: float) -> None:
    """One checkout's profile of the six players, in ns per roll and as shares of it."""
    bound_ns = 1e9 / bound
    six, dice = prof["six_ns"], prof["dice_ns"]
    alone = prof["alone_ns"]
    print(f"{label}: six players {six:.2f} ns a roll ({100 * bound_ns / six:.1f}% of the bound, "
          f"{bound_ns:.2f} ns): dice {dice:.2f} ns, playing {six - dice:.2f} ns; each "
          f"strategy alone: {' + '.join(f'{v:.2f}' for v in alone.values())} = "
          f"{sum(alone.values()):.2f} ns")


def time_before(checkout: str, args: argparse.Namespace) -> dict[str, Any]:
    """:func:`croupier_only` with the code of another checkout, in a child process."""
    env = dict(os.environ, PYTHONPATH=str(Path(checkout).resolve() / "src"))
    cmd = [sys.executable, __file__, "--croupier-only", "--reps", str(args.reps), "--threads",
           str(args.threads)] + (["--quick"] if args.quick else []) \
        + (["--profile"] if args.profile else [])
    got = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(got.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1, help="croupier's threads (blocks of "
                    "sessions at once; the same results)")
    ap.add_argument("--compare-with", metavar="CHECKOUT",
                    help="time croupier's side with this checkout's code too (before)")
    ap.add_argument("--profile", action="store_true", help="split the six players' time "
                    "per roll (dice, each player alone, together)")
    ap.add_argument("--croupier-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.croupier_only:
        got: dict[str, Any] = dict(croupier_only(args))
        if args.profile:
            got["profile"] = profile(args)
        print(json.dumps(got))
        return 0
    scale = 4 if args.quick else 1
    load_start = os.getloadavg()
    before = time_before(args.compare_with, args) if args.compare_with else {}
    scenarios = scenarios_for(args.quick)
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
        row = {"scenario": title, "crapssim_rolls_per_s": cs, "croupier_rolls_per_s": cr,
               "ratio": cr / cs, "raw_bound_rolls_per_s": bound,
               "raw_int64_rolls_per_s": raw64, "croupier_pct_of_raw": 100 * cr / bound}
        if title in before:
            row["before_rolls_per_s"] = before[title]
            row["before_pct_of_raw"] = 100 * before[title] / bound
            row["before_ratio"] = before[title] / cs
        rows.append(row)
    wp = whole_process("pass-line", 2048 // scale, 2000)
    prof = profile(args) if args.profile else None
    load = {"start": load_start, "end": os.getloadavg()}
    if args.json:
        print(json.dumps({"scenarios": rows, "whole_process_pass_line_rolls_per_s": wp,
                          "load_average": load, "profile": prof,
                          "before_profile": before.get("profile")}, indent=2))
        return 0
    print_table(rows, bool(before))
    if prof is not None:
        six_bound = rows[3]["raw_bound_rolls_per_s"]
        if "profile" in before:
            print_profile("\nbefore", before["profile"], six_bound)
        print_profile("now" if "profile" in before else "\nnow", prof, six_bound)
    print(f"\nrolls/s are medians of {args.reps} repetitions; raw bound: numpy PCG64 two dice "
          "per roll (uint8; int64 draws are slower), same roll count, same run.")
    if before:
        print(f"before: croupier's side with the code of {args.compare_with}, same run.")
    print("load average (1, 5, 15 min) at start: "
          + ", ".join(f"{x:.2f}" for x in load["start"]) + "; at end: "
          + ", ".join(f"{x:.2f}" for x in load["end"]))
    print(f"whole process (fresh interpreter, `croupier simulate pass-line`, "
          f"{2048 // scale} x 2000 rolls): {wp:,.0f} rolls/s")
    return 0


def print_table(rows: list[dict[str, Any]], with_before: bool) -> None:
    """The scenarios as a text table (before and after where there is a before)."""
    head = f"{'scenario':30s} {'crapssim':>10s} "
    if with_before:
        head += f"{'before':>13s} {'ratio':>7s} {'% raw':>6s} "
    head += f"{'croupier':>13s} {'ratio':>7s} {'raw bound':>13s} {'% raw':>6s}"
    print(head)
    for r in rows:
        line = f"{r['scenario']:30s} {r['crapssim_rolls_per_s']:10,.0f} "
        if with_before:
            line += (f"{r['before_rolls_per_s']:13,.0f} {r['before_ratio']:6,.0f}x "
                     f"{r['before_pct_of_raw']:5.1f}% ")
        line += (f"{r['croupier_rolls_per_s']:13,.0f} {r['ratio']:6,.0f}x "
                 f"{r['raw_bound_rolls_per_s']:13,.0f} {r['croupier_pct_of_raw']:5.1f}%")
        print(line)


if __name__ == "__main__":
    raise SystemExit(main())
