"""croupier's roulette simulation against pyroulette, side by side in one run.

    .venv/bin/python benchmarks/simulate_roulette.py [--reps 5] [--quick] [--json]

pyroulette (PyPI, "a package for exploring roulette strategies") is the fastest roulette
strategy simulator found there: pure Python, float money, a fixed spread of bets a spin
(penny-ante and roulette-simulator play one wheel with no strategy layer). It is optional:
without it its column says "not installed" (``pip install pyroulette``).

Scenarios (double-zero wheel): $10 on red; James Bond ($140 on 19-36, $50 on the six numbers
13-18 (two streets at pyroulette), $10 on 0: three bets a spin); martingale on red ($5
doubled after each loss up to $640, back to $5 after a win: pyroulette has no progressions,
so its spread is changed between spins through its API, as a user would). For each: spins
per second, the median of ``--reps`` repetitions, for pyroulette (``spin_wheel`` over one
player) and for croupier (``simulate``: the kernel generated for the strategy,
:mod:`croupier.sim.specialise`, in steady state: generated and numba compiled before timing,
one thread; each spin's pocket drawn from PCG64 as in every run), their ratio, and the
generic kernel (:func:`croupier.sim.kernel.play_chunk`) for scale. The load average is
printed with the results: on a shared machine only ratios measured in the same run compare.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

from croupier.sim.compile import compile_table
from croupier.sim.engine import KernelName, Simulation, simulate
from croupier.sim.library import BUILT_IN

SCENARIOS = (("$10 on red", "roulette-flat"), ("James Bond, 3 bets a spin", "james-bond"),
             ("martingale on red", "martingale-red"))


def _pyroulette() -> Any:
    try:
        import pyroulette.roulette as pr  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    return pr


def _spread(pr: Any, name: str, level: int) -> Any:
    if name == "roulette-flat":
        placements = [pr.Placement(1, 10, "red")]
    elif name == "james-bond":
        placements = [pr.Placement(1, 140, "19-36"), pr.Placement(1, 25, "street-5"),
                      pr.Placement(1, 25, "street-6"), pr.Placement(1, 10, "0")]
    else:
        placements = [pr.Placement(1, 5 * 2 ** level, "red")]
    return pr.Strategy(budget=10**9, placements=placements)


def time_pyroulette(pr: Any, name: str, spins: int, seed: int) -> float:
    import random

    random.seed(seed)
    player = pr.Player(budget=10**9, strategy=_spread(pr, name, 0), id=1)
    level = 0
    t0 = time.perf_counter()
    for _ in range(spins):
        won = pr.spin_wheel([player])[0]
        player.wallet += won - player.strategy.value
        if name == "martingale-red":  # the progression, driven from outside pyroulette
            level = 0 if won > 0 else min(level + 1, 7)
            player.strategy = _spread(pr, name, level)
    return spins / (time.perf_counter() - t0)


def time_croupier(name: str, sessions: int, spins: int, seed: int, *,
                  kernel: KernelName = "layouts") -> float:
    compiled = compile_table([BUILT_IN[name]])
    t0 = time.perf_counter()
    res = simulate(compiled, Simulation(sessions, spins, 10**11, seed), kernel=kernel)
    dt = time.perf_counter() - t0
    return int(res.rolls.sum()) / dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    scale = 4 if args.quick else 1
    sessions, spins, peer_spins = 8192 // scale, 1000, 20000 // scale
    pr = _pyroulette()
    for _, name in SCENARIOS:  # warm: numba compile or cache load, the generated kernels
        time_croupier(name, 8, 10, 0)
        time_croupier(name, 8, 10, 0, kernel="generic")
    rows: list[dict[str, Any]] = []
    for title, name in SCENARIOS:
        peer = (statistics.median(time_pyroulette(pr, name, peer_spins, k)
                                  for k in range(args.reps)) if pr is not None else None)
        ours = statistics.median(time_croupier(name, sessions, spins, 200 + k)
                                 for k in range(args.reps))
        generic = statistics.median(time_croupier(name, sessions, spins, 200 + k,
                                                  kernel="generic") for k in range(args.reps))
        rows.append({"scenario": title, "pyroulette": peer, "croupier": ours,
                     "generic_kernel": generic,
                     "vs_pyroulette": None if peer is None else ours / peer})
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"spins_per_s": rows, "load_average": load}, indent=2))
        return 0
    print(f"{'scenario':27s} {'pyroulette':>13s} {'croupier':>13s} {'ratio':>9s} "
          f"{'generic kernel':>15s}")
    for r in rows:
        peer_s = "not installed" if r["pyroulette"] is None else f"{r['pyroulette']:13,.0f}"
        ratio = "" if r["vs_pyroulette"] is None else f"{r['vs_pyroulette']:8,.0f}x"
        print(f"{r['scenario']:27s} {peer_s:>13s} {r['croupier']:13,.0f} {ratio:>9s} "
              f"{r['generic_kernel']:15,.0f}")
    print(f"\nspins/s, medians of {args.reps} repetitions in this run (croupier: {sessions} "
          f"sessions x {spins} spins, one thread; pyroulette: {peer_spins} spins); "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
