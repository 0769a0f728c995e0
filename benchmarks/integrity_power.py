"""Detection delays and false alarms of the fairness monitors, before and after (prints; not a test).

    .venv/bin/python benchmarks/integrity_power.py [--baseline REV] [--runs 10000] [--night 1000]

Runs every measurement twice in one run, on the same seeded outcomes: with the monitors of this
tree ("new") and with those of commit ``--baseline`` ("old", by default the commit before the
monitors for gross biases came in), extracted with ``git archive`` into a temporary directory
and run in a child process (``--baseline none`` skips it).

* Detection delay: the outcomes after the equipment went wrong until an alert, for gross faults
  (dice showing 6-6 every roll, a die showing six every roll, a ball in 17 every spin; on new
  equipment and after 1,000 fair outcomes) and for the small biases the monitors are designed
  for (a die's six at 1/5, pocket 17 at 2/38). "live" is the sequential monitors the server
  runs on each roll or spin (``croupier.integrity``): the outcome by which 50 % / 90 % / 95 % of
  runs alerted. "offline" is the end-of-run tests of ``croupier integrity --ledger`` read after
  every outcome (they say nothing below 30 rolls or 190 spins, "too little data"): the first
  outcome at which they flag 95 % of runs.
* False alarms: the fraction of fair dice sets and wheels whose sequential monitors alert within
  a night (``--night`` outcomes; 1,000 by default, about ten hours of a busy craps table at 100
  rolls an hour) and within the whole horizon of the guarantee (10,000), with the exact union
  bound of the calibrated thresholds over the same length; the documented bound is 0.5 %.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

BASELINE = "c6479be91a381b53ebbb9be075d0cf5ce3b8fc23"
"""The last commit whose monitors were designed only for small biases."""

Outcomes = npt.NDArray[np.int64]
GRID = (250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 8000, 10_000)
SEED = 20_261_129
PRELUDE = 1000


def _fair(rng: np.random.Generator, runs: int, steps: int, cells: int) -> Outcomes:
    return rng.integers(0, cells, size=(runs, steps), dtype=np.int64)


def _stuck(runs: int, steps: int, cell: int) -> Outcomes:
    return np.full((runs, steps), cell, dtype=np.int64)


def _scenarios(rng: np.random.Generator, power_runs: int) -> list[tuple[str, str, Outcomes, int]]:
    """(name, kind, outcomes, fair outcomes before the fault) for each fault measured."""
    from croupier.integrity.simulate import FAIR_DIE, biased_wheel, dice_outcomes, loaded_die, wheel_outcomes
    from croupier.roulette.wheel import DOUBLE_ZERO

    six_six = 35  # outcome (6 - 1) * 6 + (6 - 1)
    pocket17 = DOUBLE_ZERO.order.index(17)
    gross_runs = max(power_runs // 4, 100)
    one_six = _fair(rng, gross_runs, 200, 6) + 30  # die 1 shows six, die 2 fair
    return [
        ("dice showing 6-6 every roll, new set", "dice", _stuck(1, 200, six_six), 0),
        ("dice showing 6-6 every roll after 1,000 fair", "dice",
         np.hstack([_fair(rng, gross_runs, PRELUDE, 36), _stuck(gross_runs, 200, six_six)]), PRELUDE),
        ("die 1 showing six every roll, die 2 fair", "dice", one_six, 0),
        ("die 1's six at 1/5 (designed small bias)", "dice",
         dice_outcomes(rng, power_runs, 10_000, loaded_die(6, 1 / 5), FAIR_DIE), 0),
        ("ball in 17 every spin, new wheel", "wheel", _stuck(1, 400, pocket17), 0),
        ("ball in 17 every spin after 1,000 fair", "wheel",
         np.hstack([_fair(rng, gross_runs, PRELUDE, 38), _stuck(gross_runs, 400, pocket17)]), PRELUDE),
        ("pocket 17 at 2/38 (designed small bias)", "wheel",
         wheel_outcomes(rng, power_runs, 10_000, biased_wheel(38, pocket17, 2 / 38)), 0),
    ]


def _bank_and_tests(kind: str) -> tuple[Any, Callable[[Outcomes], bool], int]:
    """The monitors' bank, the end-of-run tests on one run's outcomes, and their minimum."""
    from croupier.integrity.dice import dice_bank, dice_tests
    from croupier.integrity.model import MonitorConfig
    from croupier.integrity.report import MIN_EXPECTED
    from croupier.integrity.wheel import wheel_bank, wheel_tests
    from croupier.roulette.wheel import DOUBLE_ZERO

    config = MonitorConfig()
    if kind == "dice":
        def dice(row: Outcomes) -> bool:
            pairs = np.bincount(row, minlength=36).reshape(6, 6).tolist()
            return any(t.alert for t in dice_tests(pairs, config))
        return dice_bank(config), dice, MIN_EXPECTED * 6

    order = DOUBLE_ZERO.order

    def wheel(row: Outcomes) -> bool:
        return any(t.alert for t in wheel_tests(np.bincount(row, minlength=38).tolist(), order, config))
    return wheel_bank(order, config), wheel, MIN_EXPECTED * 38


def _live(bank: Any, outcomes: Outcomes, prelude: int) -> dict[str, Any]:
    from croupier.integrity.sequential import first_alarm_times

    first = np.concatenate([first_alarm_times(bank, outcomes[i:i + 1000])
                            for i in range(0, len(outcomes), 1000)])
    early = int(((first > 0) & (first <= prelude)).sum())
    runs = first[first > prelude] - prelude if prelude else first[first > 0]
    missed = len(outcomes) - early - len(runs)
    quantiles = {}
    for q in (0.5, 0.9, 0.95):
        need = math.ceil(q * (len(outcomes) - early))
        quantiles[str(q)] = int(np.sort(runs)[need - 1]) if need <= len(runs) else None
    return {"runs": len(outcomes), "alarmed_before_fault": early, "never": missed, "quantiles": quantiles}


def _offline(flags: Callable[[Outcomes], bool], minimum: int, outcomes: Outcomes, prelude: int) -> int | None:
    """The outcomes after the fault at which the end-of-run tests flag 95 % of runs (at most
    500): every length for a gross fault (at most 400 outcomes simulated), else the grid."""
    rows = outcomes[:500]
    steps = outcomes.shape[1] - prelude
    lengths = range(1, steps + 1) if steps <= 400 else [m for m in GRID if m <= steps]
    for m in lengths:
        n = prelude + m
        if n < minimum:
            continue
        if sum(flags(row[:n]) for row in rows) >= 0.95 * len(rows):
            return m
    return None


def _false_alarms(kind: str, rng: np.random.Generator, runs: int, steps: int) -> dict[str, Any]:
    from croupier.integrity.sequential import alarm_probability, first_alarm_times

    bank, flags, _ = _bank_and_tests(kind)
    cells = 36 if kind == "dice" else 38
    alarmed = final = either = 0
    for done in range(0, runs, 1000):
        chunk = _fair(rng, min(1000, runs - done), steps, cells)
        first = first_alarm_times(bank, chunk)
        alarmed += int((first > 0).sum())
        if steps >= 10_000:
            tests = np.array([flags(row) for row in chunk], dtype=bool)
            final += int(tests.sum())
            either += int((tests | (first > 0)).sum())
    exact = {(s.p0, s.u, s.d, s.threshold): 0.0 for s in bank.specs}
    for key in exact:
        exact[key] = alarm_probability(key[0], key[1], key[2], key[3], steps)
    bound = sum(exact[(s.p0, s.u, s.d, s.threshold)] for s in bank.specs)
    return {"runs": runs, "steps": steps, "monitors": len(bank.specs), "sequential": alarmed / runs,
            "final": final / runs if steps >= 10_000 else None,
            "any": either / runs if steps >= 10_000 else None, "union_bound": bound}


def measure(runs: int, power_runs: int, night: int) -> dict[str, Any]:
    """Every measurement, with the monitors of the ``croupier`` this process imports."""
    import croupier

    rng = np.random.default_rng(SEED)
    delays = []
    for name, kind, outcomes, prelude in _scenarios(rng, power_runs):
        start = time.perf_counter()
        bank, flags, minimum = _bank_and_tests(kind)
        delays.append({"name": name, "kind": kind, "live": _live(bank, outcomes, prelude),
                       "offline": _offline(flags, minimum, outcomes, prelude),
                       "seconds": time.perf_counter() - start})
    alarms = [_false_alarms(kind, rng, n, steps)
              for kind in ("dice", "wheel") for n, steps in ((runs, night), (runs, 10_000))]
    return {"code": str(Path(croupier.__file__).parent), "delays": delays, "false_alarms": alarms}


def _baseline(rev: str, args: argparse.Namespace) -> dict[str, Any]:
    """``measure`` run by the monitors of commit ``rev``, in a child process."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "src"], check=True,
                             capture_output=True).stdout
    with tempfile.TemporaryDirectory(prefix="croupier-baseline-") as tmp:
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        code = str(Path(tmp) / "src")
        out = subprocess.run(
            [sys.executable, __file__, "--child", code, "--runs", str(args.runs),
             "--power-runs", str(args.power_runs), "--night", str(args.night)],
            check=True, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": code})
        result: dict[str, Any] = json.loads(out.stdout)
        if not result["code"].startswith(code):
            raise RuntimeError(f"the baseline ran {result['code']}, not {code}")
        return result


def _q(live: dict[str, Any]) -> str:
    q = live["quantiles"]
    values = [q["0.5"], q["0.9"], q["0.95"]]
    if live["runs"] == 1:
        return str(values[0] or "never")
    return " / ".join(str(v) if v is not None else "never" for v in values)


def _ratio(old: int | None, new: int | None) -> str:
    if old is None or new is None:
        return "-"
    return f"{new / old:.2f}"


def report(new: dict[str, Any], old: dict[str, Any] | None) -> None:
    print("Detection delay, in outcomes after the fault (live: alerted in 50 % / 90 % / 95 % of runs;"
          " offline: the tests flag 95 % of runs)")
    head = "| fault | live, old | live, new | new/old at 95 % | offline (tests) |"
    print(head + "\n|---|---|---|---|---|")
    for k, d in enumerate(new["delays"]):
        o = old["delays"][k] if old else None
        live_old = _q(o["live"]) if o else "-"
        q95 = "0.5" if d["live"]["runs"] == 1 else "0.95"
        ratio = _ratio(o["live"]["quantiles"][q95] if o else None, d["live"]["quantiles"][q95])
        early = d["live"]["alarmed_before_fault"]
        note = f" ({early} of {d['live']['runs']} alerted before the fault)" if early else ""
        print(f"| {d['name']} | {live_old} | {_q(d['live'])}{note} | {ratio} | {d['offline'] or 'never'} |")
    print("\nFalse alarms of the sequential monitors on fair equipment (documented bound 0.5 %)")
    print("| equipment, outcomes | runs | old: simulated (exact bound) | new: simulated (exact bound) |"
          " new monitors | end-of-run tests | any alert, new (bound 1 %) |\n|---|---|---|---|---|---|---|")
    for k, f in enumerate(new["false_alarms"]):
        o = old["false_alarms"][k] if old else None
        se = math.sqrt(max(f["sequential"] * (1 - f["sequential"]), 1e-12) / f["runs"])
        old_text = f"{o['sequential']:.2%} ({o['union_bound']:.3%})" if o else "-"
        final = f"{f['final']:.2%}" if f["final"] is not None else "-"
        either = f"{f['any']:.2%}" if f.get("any") is not None else "-"
        kind = "dice" if k < 2 else "wheel"
        print(f"| fair {kind}, {f['steps']:,} | {f['runs']:,} | {old_text} | "
              f"{f['sequential']:.2%} ± {se:.2%} ({f['union_bound']:.3%}) | {f['monitors']} | "
              f"{final} | {either} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10_000, help="fair runs for each false-alarm rate")
    parser.add_argument("--power-runs", type=int, default=2_000, help="runs for each small bias")
    parser.add_argument("--night", type=int, default=1000, help="outcomes in a night (default 1000)")
    parser.add_argument("--baseline", default=BASELINE, help="the commit to compare with, or none")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        sys.path.insert(0, args.child)
        print(json.dumps(measure(args.runs, args.power_runs, args.night)))
        return
    start = time.perf_counter()
    old = None if args.baseline == "none" else _baseline(args.baseline, args)
    new = measure(args.runs, args.power_runs, args.night)
    print(f"old: monitors of {args.baseline}; new: {new['code']}; night = {args.night:,} outcomes; "
          f"seed {SEED} ({time.perf_counter() - start:.0f} s)\n")
    report(new, old)


if __name__ == "__main__":
    main()
