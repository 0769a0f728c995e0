"""Roulette strategies in the compiled kernel against the roulette engine, to the cent.

Random strategies (one to three bets a spin of every kind of wager, bounded progressions on
wins and losses, stop loss, win goal) on random wheels, zero rules and bankrolls, over random
spins: after every spin the kernel's chips in hand equal those of the engine
(:class:`croupier.roulette.table.RouletteTable`) playing the same bets, spin for spin, and the
player stops for the same reason at the same spin. The generic kernel plays them here (one
compile for every example); the kernels generated per strategy give its results exactly
(``test_specialise.py``, roulette tables included).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.events import Settled
from croupier.roulette.table import PlaceBet, RouletteTable, Spin
from croupier.roulette.wagers import WAGERS
from croupier.sim.compile import compile_table, roulette_qualifier
from croupier.sim.engine import Simulation, run_block
from croupier.sim.kernel import ACTIVE, RUINED, STOP_LOSS, WIN_GOAL
from croupier.sim.strategy import Strategy

# (wager, its qualifier in a bet rule): one of each kind the wheel of every profile takes.
BETS: list[tuple[str, dict[str, Any]]] = [
    ("red", {}), ("black", {}), ("odd", {}), ("even", {}), ("low", {}), ("high", {}),
    ("dozen", {"number": 3}), ("column", {"number": 2}), ("straight", {"numbers": [0]}),
    ("straight", {"numbers": [17]}), ("split", {"numbers": [17, 20]}),
    ("six_numbers", {"numbers": [13, 14, 15, 16, 17, 18]}), ("five_adjacent", {"number": 17}),
]


@st.composite
def bet_rules(draw: st.DrawFn, half: bool) -> dict[str, Any]:
    wager, qualifier = draw(st.sampled_from(BETS))
    w = WAGERS[wager]
    chip = w.parts * (2 if half and w.even_money else 1)
    levels = draw(st.integers(1, 4))
    amounts = [str(chip * draw(st.integers(0 if i else 1, 12))) for i in range(levels)]
    rule: dict[str, Any] = {"wager": wager, **qualifier}
    if levels == 1:
        return {**rule, "amount": amounts[0]}
    level = st.integers(0, levels - 1)
    return {**rule, "amounts": amounts, "on_win": draw(st.lists(level, min_size=levels,
                                                                max_size=levels)),
            "on_lose": draw(st.lists(level, min_size=levels, max_size=levels))}


@st.composite
def tables(draw: st.DrawFn) -> tuple[Strategy, int, list[int]]:
    wheel = draw(st.sampled_from(["double-zero", "single-zero", "double-zero-as-single"]))
    half = wheel == "double-zero" and draw(st.booleans())
    raw: dict[str, Any] = {
        "name": "drawn", "game": "roulette",
        "table": {"wheel": wheel, "zero_rule": "half" if half else "full"},
        "bets": draw(st.lists(bet_rules(half), min_size=1, max_size=3,
                              unique_by=lambda b: (b["wager"], str(b.get("number")),
                                                   str(b.get("numbers"))))),
    }
    for key in ("stop_loss", "win_goal"):
        if draw(st.booleans()):
            raw[key] = str(draw(st.integers(5, 300)))
    strategy = Strategy.from_dict(raw)
    bankroll = draw(st.integers(1, 400))
    pockets = draw(st.lists(st.integers(0, 36), min_size=1, max_size=60))
    return strategy, bankroll, pockets


def engine_play(strategy: Strategy, profile: str, config: Any, faces: list[Any],
                bankroll: int, outcomes: list[int]) -> tuple[list[int], int, int]:
    """The bets played on the roulette engine itself: chips in cents after each spin, why the
    player stopped, and at which spin (-1: played out)."""
    table = RouletteTable.open(profile, config, {"p": Decimal(bankroll)})
    levels = {p.name: 0 for p in strategy.progressions}
    start, status, stopped = Decimal(bankroll), ACTIVE, -1
    history: list[int] = []
    for r, o in enumerate(outcomes):
        if status == ACTIVE:
            status, made = _bets(table, strategy, levels, start)
            stopped = r if status != ACTIVE else -1
        if status != ACTIVE:
            history.extend([int(table.chips("p") * 100)] * (len(outcomes) - r))
            break
        events = table.act(Spin(faces[o]))
        for prog in strategy.progressions:
            keys = {k for k, name in made.items() if name == prog.name}
            settled = [e for e in events if isinstance(e, Settled)
                       and (e.part_of or e.wager) in keys]
            if any(e.result == "win" for e in settled):
                levels[prog.name] = prog.on_win[levels[prog.name]]
            elif settled:
                levels[prog.name] = prog.on_lose[levels[prog.name]]
        history.append(int(table.chips("p") * 100))
    return history, status, stopped


def _bets(table: RouletteTable, strategy: Strategy, levels: dict[str, int],
          start: Decimal) -> tuple[int, dict[str, str | None]]:
    chips = table.chips("p")
    if strategy.stop_loss and chips <= start - strategy.stop_loss:
        return STOP_LOSS, {}
    if strategy.win_goal and chips >= start + strategy.win_goal:
        return WIN_GOAL, {}
    made: dict[str, str | None] = {}
    short = False
    for bet in strategy.bets:
        level = levels[bet.progression] if bet.progression else 0
        amount = bet.amounts[min(level, len(bet.amounts) - 1)]
        if amount == 0:
            continue
        if amount > table.chips("p"):
            short = True
            continue
        q = roulette_qualifier(bet)
        table.act(PlaceBet("p", bet.wager, q, amount))
        made[WAGERS[bet.wager].key(q)] = bet.progression
    return (RUINED if short and not made else ACTIVE), made


def kernel_play(strategy: Strategy, bankroll: int,
                outcomes: list[int]) -> tuple[Any, list[int], int, int]:
    compiled = compile_table([strategy])
    spins = np.array([outcomes], np.uint8)
    res = run_block(compiled, 0, Simulation(1, len(outcomes), bankroll * 100, 0, n_hist=1),
                    outcomes_fn=lambda r0: spins)  # the default kernel, as simulate plays
    return compiled, [int(x) for x in res.hist[0, 0, 1:]], int(res.status[0, 0]), \
        int(res.endroll[0, 0])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_kernel_equals_the_engine_to_the_cent(drawn: tuple[Strategy, int, list[int]]) -> None:
    strategy, bankroll, pockets = drawn
    outcomes = [p % compile_table([strategy]).n_outcomes for p in pockets]
    compiled, history, status, stopped = kernel_play(strategy, bankroll, outcomes)
    expected = engine_play(strategy, compiled.profile, compiled.roulette_config,
                           list(compiled.outcome_faces), bankroll, outcomes)
    assert (history, status, stopped) == expected
