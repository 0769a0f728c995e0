"""The craps engine's rolls per second on a realistic bet mix, side by side with crapssim (an
engine of the same game that checks no regulation): what the exact rules cost.

The mix, identical on both sides and decided before every roll from the table's state:

* $10 pass line on every come-out;
* odds behind the pass line once a point is on: 3x/4x/5x ($30 on 4/10, $40 on 5/9, $50 on 6/8);
* up to two $10 come bets at a time (one in the come box at most), each getting the same
  3x/4x/5x odds once it has travelled to its number;
* $12 place 6 and $12 place 8 while a point is on, whenever that number has no place bet up;
* $5 field on every roll.

Both engines play the same pre-drawn dice: croupier through ``CrapsTable.roll(d1, d2)`` and
crapssim 0.4.1 through ``Table.fixed_run(dice)`` (one ``TableUpdate`` per pair, the same loop
as ``Table.run`` without drawing random numbers). Before anything is timed the two are played in
lockstep and their bankrolls compared after every roll, so the mixes are known to be the same
game. Each repetition runs in its own child process, alternating croupier and crapssim, so the
timings come from one process tree under the same conditions.

    .venv/bin/python benchmarks/engine.py              # 5 repetitions, N calibrated to ~2 s
    .venv/bin/python benchmarks/engine.py --profile    # plus a cProfile of the croupier side

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from importlib import metadata
from typing import TYPE_CHECKING, Any

from croupier.craps.config import CrapsConfig
from croupier.craps.events import Rolled
from croupier.craps.table import CrapsTable
from croupier.rules import load_profile

if TYPE_CHECKING:
    from crapssim.table import Player as CsPlayer
    from crapssim.table import Table as CsTable

Dice = tuple[int, int]

PLAYER = "p"
BANKROLL = 10**9
PROFILE = "nj-13-69f"
OPTIONS: dict[str, Any] = {"odds": "3-4-5"}

LINE = 10  # pass and each come bet
PLACE = 12  # place 6 and place 8
FIELD = 5
MAX_COME = 2  # come bets (in the box or on numbers) at a time
ODDS_MULTIPLE = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}  # 3x/4x/5x of the flat bet
PLACE_NUMBERS = (6, 8)

_D_LINE = Decimal(LINE)
_D_PLACE = Decimal(PLACE)
_D_FIELD = Decimal(FIELD)
_PASS = (PLAYER, "pass")
_PASS_ODDS = (PLAYER, "pass_odds")
_PLACE_KEYS = tuple((n, (PLAYER, f"place_win:{n}")) for n in PLACE_NUMBERS)


def draw_dice(n: int, seed: int) -> list[Dice]:
    """``n`` rolls of two fair dice from a seeded generator (the same for both engines)."""
    rng = random.Random(seed)
    return [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(n)]


# --- croupier side -------------------------------------------------------------------------


def new_croupier_table(bankroll: int = BANKROLL) -> CrapsTable:
    """A table under the NJ 13:69F profile with 3-4-5 odds and one player, ``p``."""
    config = CrapsConfig.from_options(load_profile(PROFILE), OPTIONS)
    return CrapsTable(config, {PLAYER: Decimal(bankroll)})


@dataclass
class Layout:
    """What the player has on the table that the mix looks at: the pass line and its odds, the
    come bets (one in the box, and the flat and odds stakes on each number), the place bets."""

    pass_line: Any = None
    pass_odds: Any = 0
    come_box: bool = False
    come_units: int = 0
    come_flat: dict[int, Any] = field(default_factory=dict)
    come_odds: dict[int, Any] = field(default_factory=dict)
    placed: set[int] = field(default_factory=set)


def croupier_layout(table: CrapsTable) -> Layout:
    """The mix's view of croupier's table (its pass line and place bets are looked up by key
    where the mix needs them)."""
    lay = Layout()
    for wager in table.wagers.values():
        wager_id = wager.wager_id
        if wager_id == "come":
            lay.come_units += int(wager.stake) // LINE
            state = wager.state
            if state is None:
                lay.come_box = True
            else:
                assert isinstance(state, int)
                lay.come_flat[state] = wager.stake
        elif wager_id == "come_odds":
            assert isinstance(wager.state, int)
            lay.come_odds[wager.state] = wager.stake
    return lay


def croupier_bets(table: CrapsTable) -> None:
    """Put down whatever the mix calls for before the next roll (refusals propagate)."""
    wagers = table.wagers
    point = table.point
    bet = table.bet
    lay = croupier_layout(table)
    if point is None:
        if _PASS not in wagers:
            bet(PLAYER, "pass", None, _D_LINE)
    else:
        flat = wagers.get(_PASS)
        if flat is not None:
            odds = wagers.get(_PASS_ODDS)
            short = ODDS_MULTIPLE[point] * flat.stake - (odds.stake if odds is not None else 0)
            if short > 0:
                bet(PLAYER, "pass_odds", None, short)
        if not lay.come_box and lay.come_units < MAX_COME:
            bet(PLAYER, "come", None, _D_LINE)
        for number, key in _PLACE_KEYS:
            if key not in wagers:
                bet(PLAYER, "place_win", number, _D_PLACE)
    for number, stake in lay.come_flat.items():
        short = ODDS_MULTIPLE[number] * stake - lay.come_odds.get(number, 0)
        if short > 0:
            bet(PLAYER, "come_odds", number, short)
    bet(PLAYER, "field", None, _D_FIELD)


def play_croupier(dice: Sequence[Dice], table: CrapsTable | None = None) -> CrapsTable:
    """Play the mix on croupier for every pair in ``dice``; returns the table."""
    if table is None:
        table = new_croupier_table()
    roll = table.roll
    for d1, d2 in dice:
        croupier_bets(table)
        roll(d1, d2)
    return table


def croupier_cash(table: CrapsTable) -> float:
    """The player's bankroll plus stakes down (what crapssim calls total player cash)."""
    return float(table.players[PLAYER].bankroll + table.on_table(PLAYER))


# --- crapssim side (imported lazily: crapssim is a benchmark-only dependency) ---------------


def new_crapssim_table(bankroll: int = BANKROLL) -> tuple[CsTable, CsPlayer]:
    """A crapssim table (classic rules, 3-4-5 max odds by default) with the mix as strategy."""
    import crapssim.bet as cs
    from crapssim.strategy.tools import Strategy
    from crapssim.table import Table

    class Mix(Strategy):
        """The same mix, decided from crapssim's table and the player's bets."""

        def completed(self, player: Any) -> bool:
            return False

        def update_bets(self, player: Any) -> None:
            crapssim_bets(player, crapssim_layout(player, cs), cs)

    table = Table()
    player = table.add_player(bankroll=bankroll, strategy=Mix(), name=PLAYER)
    return table, player


def crapssim_layout(player: Any, cs: Any) -> Layout:
    """The mix's view of a crapssim player's bets (``cs``: crapssim's module of bets)."""
    Come, Odds, PassLine, Place = cs.Come, cs.Odds, cs.PassLine, cs.Place

    lay = Layout(pass_odds=0.0)
    for b in player.bets:
        kind = type(b)
        if kind is PassLine:
            lay.pass_line = b
        elif kind is Come:
            lay.come_units += 1
            if b.number is None:
                lay.come_box = True
            else:
                lay.come_flat[b.number] = lay.come_flat.get(b.number, 0.0) + b.amount
        elif kind is Odds:
            if b.base_type is PassLine:
                lay.pass_odds = b.amount
            else:
                lay.come_odds[b.number] = b.amount
        elif kind is Place:
            lay.placed.add(b.number)
    return lay


def crapssim_bets(player: Any, lay: Layout, cs: Any) -> None:
    """Put down on crapssim whatever the mix calls for before the next roll."""
    Come, Field, Odds, PassLine, Place = cs.Come, cs.Field, cs.Odds, cs.PassLine, cs.Place

    point: int | None = player.table.point.number
    add = player.add_bet
    if point is None:
        if lay.pass_line is None:
            add(PassLine(LINE))
    else:
        if lay.pass_line is not None:
            short = ODDS_MULTIPLE[point] * lay.pass_line.amount - lay.pass_odds
            if short > 0:
                add(Odds(PassLine, point, short))
        if not lay.come_box and lay.come_units < MAX_COME:
            add(Come(LINE))
        for number in PLACE_NUMBERS:
            if number not in lay.placed:
                add(Place(number, PLACE))
    for number, stake in lay.come_flat.items():
        short = ODDS_MULTIPLE[number] * stake - lay.come_odds.get(number, 0.0)
        if short > 0:
            add(Odds(Come, number, short))
    add(Field(FIELD))


def play_crapssim(dice: Sequence[Dice]) -> tuple[CsTable, CsPlayer]:
    """Play the mix on crapssim for every pair in ``dice``; returns the table and the player."""
    table, player = new_crapssim_table()
    table.fixed_run(dice, verbose=False)
    if table.dice.n_rolls != len(dice):
        raise RuntimeError(f"crapssim counted {table.dice.n_rolls} rolls for {len(dice)} pairs")
    return table, player


# --- equivalence check, workers, report ---------------------------------------------------


def check_same_game(n: int, seed: int) -> None:
    """Play both engines in lockstep; their bankrolls must agree after every roll."""
    from crapssim.table import TableUpdate

    dice = draw_dice(n, seed)
    ours = new_croupier_table()
    cs_table, cs_player = new_crapssim_table()
    start = ours.total_chips()
    for i, (d1, d2) in enumerate(dice):
        croupier_bets(ours)
        ours.roll(d1, d2)
        TableUpdate().run(cs_table, (d1, d2))
        mine, theirs = float(ours.players[PLAYER].bankroll), cs_player.bankroll
        if abs(mine - theirs) > 1e-6 or abs(croupier_cash(ours) - cs_player.total_player_cash) > 1e-6:
            raise SystemExit(f"the engines disagree after roll {i + 1} {(d1, d2)}: bankroll "
                             f"croupier {mine} vs crapssim {theirs}")
    if ours.total_chips() != start:
        raise SystemExit("croupier did not conserve chips")


def run_worker(side: str, rolls: int, seed: int) -> dict[str, Any]:
    """One timed repetition of one engine (run in a child process).

    Wall-clock time is the headline; CPU time of the process is kept too, since it is less
    disturbed by other work on a small shared machine.
    """
    dice = draw_dice(rolls, seed)
    if side == "croupier":
        table = new_croupier_table()
        t0, c0 = time.perf_counter(), time.process_time()
        play_croupier(dice, table)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        # The engine's own count: one Rolled event per roll.
        counted_rolls = sum(1 for e in table.events if isinstance(e, Rolled))
        cash = croupier_cash(table)
    else:
        t0, c0 = time.perf_counter(), time.process_time()
        _, player = play_crapssim(dice)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
        counted_rolls = rolls  # play_crapssim checked dice.n_rolls == rolls
        cash = player.total_player_cash
    if counted_rolls != rolls:
        raise RuntimeError(f"{side} counted {counted_rolls} rolls for {rolls} pairs")
    return {"side": side, "rolls": rolls, "seconds": elapsed, "cpu_seconds": cpu,
            "rate": rolls / elapsed, "cpu_rate": rolls / cpu, "cash": cash}


def spawn(side: str, rolls: int, seed: int) -> dict[str, Any]:
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", side,
           "--rolls", str(rolls), "--seed", str(seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def environment() -> str:
    cores = os.cpu_count()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores
    return (f"python {platform.python_version()} ({platform.python_implementation()}), "
            f"{platform.machine()} {platform.system()}, {cores} cores ({usable} usable), "
            f"crapssim {metadata.version('crapssim')}, numpy {metadata.version('numpy')}")


def profile_croupier(rolls: int, seed: int, top: int = 10) -> str:
    dice = draw_dice(rolls, seed)
    table = new_croupier_table()
    profiler = cProfile.Profile()
    profiler.enable()
    play_croupier(dice, table)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=0,
                        help="rolls per repetition (default: calibrated to --seconds on the slower side)")
    parser.add_argument("--seconds", type=float, default=2.0, help="target seconds per repetition")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per engine")
    parser.add_argument("--seed", type=int, default=20240602)
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile the croupier side and print the top 10 functions")
    parser.add_argument("--worker", choices=("croupier", "crapssim"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(run_worker(args.worker, args.rolls, args.seed)))
        return 0

    print(environment())
    check_same_game(20_000, args.seed)
    print("same game: croupier and crapssim agree on the bankroll after each of 20000 rolls")

    rolls = args.rolls
    if rolls <= 0:
        probe = min(spawn(side, 20_000, args.seed)["cpu_rate"] for side in ("croupier", "crapssim"))
        rolls = max(10_000, int(round(probe * args.seconds, -3)))
    print(f"{args.repeat} repetitions x {rolls} rolls per engine, alternating, one child process each")

    rates: dict[str, list[float]] = {"croupier": [], "crapssim": []}
    cpu_rates: dict[str, list[float]] = {"croupier": [], "crapssim": []}
    for rep in range(args.repeat):
        seed = args.seed + rep
        order = ("croupier", "crapssim") if rep % 2 == 0 else ("crapssim", "croupier")
        cash: dict[str, float] = {}
        for side in order:
            result = spawn(side, rolls, seed)
            rates[side].append(result["rate"])
            cpu_rates[side].append(result["cpu_rate"])
            cash[side] = result["cash"]
            print(f"  rep {rep + 1} {side:8}  {result['seconds']:6.2f} s  {result['rate']:10,.0f} rolls/s"
                  f"  (cpu {result['cpu_seconds']:.2f} s, {result['cpu_rate']:,.0f} rolls/s)")
        if abs(cash["croupier"] - cash["crapssim"]) > 1e-6:
            raise SystemExit(f"rep {rep + 1}: the engines ended with different cash {cash}")

    for side in ("croupier", "crapssim"):
        print(f"median {side:8} {statistics.median(rates[side]):10,.0f} rolls/s  "
              f"(min {min(rates[side]):,.0f}, max {max(rates[side]):,.0f}; "
              f"cpu-time median {statistics.median(cpu_rates[side]):,.0f} rolls/s)")
    ratio = statistics.median(rates["croupier"]) / statistics.median(rates["crapssim"])
    cpu_ratio = statistics.median(cpu_rates["croupier"]) / statistics.median(cpu_rates["crapssim"])
    print(f"ratio croupier/crapssim {ratio:.2f} (wall-clock medians; cpu-time medians {cpu_ratio:.2f})")

    if args.profile:
        print()
        print(profile_croupier(min(rolls, 100_000), args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
