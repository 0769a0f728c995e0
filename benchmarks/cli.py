"""How long the command line takes to start, every ``--help`` and a small replay: what a person
waits for at each command, before it does any work.

Each command runs as a fresh process (``python -m croupier ...``), as a user starts it; the
median of the repetitions is printed per command. With ``--before DIR`` (a checkout of an
earlier commit, e.g. ``git worktree add /tmp/cli-before <commit>``) the same commands run
from that checkout too, interleaved with this one's so both see the same machine load, and
the ratio before/after is printed. Both the wall clock (what a user waits) and the CPU time
(user + system, which hardly depends on the machine's other work) are printed, and the load
average at the start and the end.

    .venv/bin/python benchmarks/cli.py                          # this checkout, 5 repetitions
    .venv/bin/python benchmarks/cli.py --before /tmp/cli-before --repetitions 5

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from croupier.cli import COMMAND_MODULES

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "examples" / "craps-pass-odds.json"
COMMANDS = ["", "replay", *COMMAND_MODULES]


def _runs(small: Path) -> list[tuple[str, list[str]]]:
    helps = [(f"{c} --help".strip(), [*([c] if c else []), "--help"]) for c in COMMANDS]
    return [*helps, (f"replay {small.name}", ["replay", str(small)])]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(src: Path, argv: list[str], cwd: str) -> tuple[float | None, float | None]:
    """Wall-clock and CPU seconds (user + system) of one run; None when this checkout has no
    such command. The CPU time hardly depends on what else the machine runs; the wall clock
    is what a user waits."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run([sys.executable, "-m", "croupier", *argv], env=env, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed, used = time.perf_counter() - start, _cpu() - cpu
    if done.returncode == 2 and b"invalid choice" in done.stderr:
        return None, None
    if done.returncode != 0:
        raise SystemExit(f"{src}: croupier {' '.join(argv)} exited {done.returncode}: "
                         f"{done.stderr.decode(errors='replace').strip()}")
    return elapsed, used


def _median(runs: list[float | None]) -> float | None:
    """The median, or None for a command the checkout does not have."""
    return None if None in runs else statistics.median(r for r in runs if r is not None)


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="a checkout of an earlier commit to compare")
    parser.add_argument("--repetitions", type=int, default=5, help="runs of each command")
    parser.add_argument("--small", type=Path, default=SMALL, help="the transcript replayed")
    args = parser.parse_args()
    trees = {"after": ROOT / "src"}
    if args.before is not None:
        trees = {"before": args.before.resolve() / "src", **trees}
    print(f"start: {_load()}")
    times: dict[tuple[str, str, int], list[float | None]] = {}
    runs = _runs(args.small.resolve())
    with tempfile.TemporaryDirectory() as cwd:
        for _ in range(args.repetitions):
            for label, argv in runs:
                for tree, src in trees.items():
                    for kind, value in enumerate(_time(src, argv, cwd)):
                        times.setdefault((label, tree, kind), []).append(value)
    for kind, title in enumerate(("wall clock", "CPU time (user + system)")):
        print(f"{title}: medians of {args.repetitions} runs, each a fresh process")
        header = f"{'croupier ...':<28}" + "".join(f"{t + ' (s)':>13}" for t in trees)
        print(header + (f"{'ratio':>9}" if len(trees) == 2 else ""))
        for label, _argv in runs:
            medians = [_median(times[(label, t, kind)]) for t in trees]
            line = f"{label:<28}" + "".join(f"{m:>13.3f}" if m else f"{'-':>13}" for m in medians)
            known = [m for m in medians if m]
            if len(medians) == 2 and len(known) == 2:
                line += f"{known[0] / known[1]:>8.1f}x"
            print(line)
    print(f"end: {_load()}")


if __name__ == "__main__":
    main()
