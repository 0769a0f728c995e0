"""Size and power of the integrity monitors, measured by simulation (prints; not a test).

    .venv/bin/python benchmarks/integrity_power.py [--runs 10000]

Size: the fraction of fair dice sets / wheels, run for the full horizon (10,000 outcomes),
that alert (sequential alarm at any time, or a final test below its level). Power: the
number of outcomes by which 95 % of biased sets have been flagged by the sequential monitors,
and the smallest number of outcomes at which the final tests alone flag 95 % of them.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from croupier.integrity.dice import dice_tests
from croupier.integrity.model import MonitorConfig
from croupier.integrity.simulate import (
    FAIR_DIE,
    biased_wheel,
    detection_quantile,
    dice_outcomes,
    loaded_die,
    run_dice,
    run_wheel,
    wheel_outcomes,
)
from croupier.integrity.wheel import wheel_tests
from croupier.roulette.wheel import DOUBLE_ZERO

GRID = (250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 8000, 10_000)


def _se(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10_000, help="runs for the size measurement")
    parser.add_argument("--power-runs", type=int, default=2_000, help="runs for the power measurement")
    args = parser.parse_args()
    config = MonitorConfig()
    rng = np.random.default_rng(20_261_129)
    n = config.horizon
    print(f"alpha {config.alpha}, horizon {n}, sequential share {config.sequential_share}")

    for name, make, run in (
        ("dice", lambda r: dice_outcomes(rng, r, n, FAIR_DIE, FAIR_DIE), run_dice),
        ("wheel", lambda r: wheel_outcomes(rng, r, n, (1 / 38,) * 38), run_wheel),
    ):
        seq = fin = both = 0
        start = time.perf_counter()
        done = 0
        while done < args.runs:
            chunk = min(1000, args.runs - done)
            res = run(make(chunk), config)
            seq += int((res.first_alarm > 0).sum())
            fin += int(res.final_alert.sum())
            both += int(res.alert.sum())
            done += chunk
        rs, rf, rb = seq / done, fin / done, both / done
        print(
            f"size, fair {name}, {done} runs of {n}: sequential {rs:.4f} (bound {config.sequential_alpha}) "
            f"+- {_se(rs, done):.4f}; final tests {rf:.4f} (bound {config.final_alpha}) "
            f"+- {_se(rf, done):.4f}; any alert {rb:.4f} (bound {config.alpha}) +- {_se(rb, done):.4f}  "
            f"[{time.perf_counter() - start:.0f}s]"
        )

    runs = args.power_runs
    biased = dice_outcomes(rng, runs, n, loaded_die(6, 1 / 5), FAIR_DIE)
    res = run_dice(biased, config, final_tests=False)
    print(
        f"power, die with six at 1/5: sequential alarm in 50% of runs by roll "
        f"{detection_quantile(res.first_alarm, 0.5)}, 90% by {detection_quantile(res.first_alarm, 0.9)}, "
        f"95% by {detection_quantile(res.first_alarm, 0.95)}; "
        f"flagged within {n}: {(res.first_alarm > 0).mean():.4f}"
    )
    for m in GRID:
        hits = sum(
            any(
                t.alert for t in dice_tests(np.bincount(row[:m], minlength=36).reshape(6, 6).tolist(), config)
            )
            for row in biased[:500]
        )
        if hits / 500 >= 0.95:
            print(f"  final tests alone: 95% of runs flagged at {m} rolls ({hits / 500:.3f} of 500 runs)")
            break

    order = DOUBLE_ZERO.order
    position = order.index(17)
    biased = wheel_outcomes(rng, runs, n, biased_wheel(38, position, 2 / 38))
    res = run_wheel(biased, config, final_tests=False)
    print(
        f"power, wheel with pocket 17 at 2/38: sequential alarm in 50% of runs by spin "
        f"{detection_quantile(res.first_alarm, 0.5)}, 90% by {detection_quantile(res.first_alarm, 0.9)}, "
        f"95% by {detection_quantile(res.first_alarm, 0.95)}; "
        f"flagged within {n}: {(res.first_alarm > 0).mean():.4f}"
    )
    for m in GRID:
        hits = sum(
            any(t.alert for t in wheel_tests(np.bincount(row[:m], minlength=38).tolist(), order, config))
            for row in biased[:500]
        )
        if hits / 500 >= 0.95:
            print(f"  final tests alone: 95% of runs flagged at {m} spins ({hits / 500:.3f} of 500 runs)")
            break


if __name__ == "__main__":
    main()
