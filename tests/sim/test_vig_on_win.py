"""Commission collected bet by bet (13:69F-1.5(a), (b): ``vig_on_win``) in the simulator.

A table that collects buy and lay commission when the bet is made may collect it only on the
win for bets it names. Every kernel (the layout tables, the kernel generated per strategy, the
generic kernel) plays such a table to the cent as the reference engine does, which plays the
strategy through the craps engine's own table (:class:`croupier.craps.table.CrapsTable`).
Random tables play on the layout tables and the generic kernel (a kernel generated per
strategy takes seconds to compile); one fixed table plays on all three.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.dice import OUTCOMES, POINTS
from croupier.sim.compile import Compiled, compile_table
from croupier.sim.engine import Results, Simulation, outcome_stream, run_block, simulate
from croupier.sim.strategy import Strategy
from croupier.sim.table_play import play_on_tables

COMMISSIONED = [f"{w}:{n}" for w in ("buy", "lay") for n in POINTS]
# Stakes every number pays in whole dollars: buys at 2:1, 3:2, 6:5; lays at 1:2, 2:3, 5:6.
STAKES = {"buy": [10, 20, 30, 40, 50, 60, 100], "lay": [30, 60, 90, 120]}
FIELDS = ("final", "bank", "wagered", "rolls", "status", "endroll", "hist")


@st.composite
def commission_rule(draw: st.DrawFn) -> dict[str, Any]:
    """A buy or lay bet on a number, at one stake or pressed and regressed by a progression
    (so that commissions are topped up and bets partly taken down)."""
    wager = draw(st.sampled_from(["buy", "lay"]))
    levels = draw(st.integers(1, 3))
    amounts = [str(draw(st.sampled_from(STAKES[wager]))) for _ in range(levels)]
    rule: dict[str, Any] = {"wager": wager, "number": draw(st.sampled_from(POINTS)),
                            "when": draw(st.sampled_from(["always", "point_on"]))}
    if levels == 1:
        return {**rule, "amount": amounts[0]}
    level = st.integers(0, levels - 1)
    return {**rule, "amounts": amounts,
            "on_win": draw(st.lists(level, min_size=levels, max_size=levels)),
            "on_lose": draw(st.lists(level, min_size=levels, max_size=levels))}


@st.composite
def vig_tables(draw: st.DrawFn) -> list[Strategy]:
    """One or two players with buy and lay bets (and maybe a pass line) at a 13:69F table
    that names some buy and lay bets, in play or not, whose commission waits for the win."""
    players = []
    for i in range(draw(st.integers(1, 2))):
        rules = draw(st.lists(commission_rule(), min_size=1, max_size=3,
                              unique_by=lambda r: (r["wager"], r["number"])))
        if draw(st.booleans()):
            rules.append({"wager": "pass", "amount": "10"})
        raw: dict[str, Any] = {"name": f"p{i}", "rules": "nj-13-69f", "bets": rules}
        if draw(st.booleans()):
            raw["stop_loss"] = str(draw(st.sampled_from([50, 150])))
        players.append(raw)
    players[0]["table"] = {
        "vig": draw(st.sampled_from(["0.05", "0.04", "0.025"])),
        "vig_on_win": draw(st.lists(st.sampled_from(COMMISSIONED), unique=True, max_size=6)),
    }
    return [Strategy.from_dict(p) for p in players]


def _same(a: Results, b: Results) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.5(b)")
@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(strategies=vig_tables(), bankroll=st.sampled_from([90, 400, 5000]),
       seed=st.integers(0, 2**32 - 1))
def test_every_kernel_plays_the_engines_game_to_the_cent(strategies: list[Strategy],
                                                         bankroll: int, seed: int) -> None:
    compiled = compile_table(strategies)
    sim = Simulation(37, 600, bankroll * 100, seed, n_hist=37)
    tabled = simulate(compiled, sim)
    _same(tabled, simulate(compiled, sim, kernel="generic"))
    _same_as_reference(compiled, tabled, seed, bankroll, sessions=2, rolls=200)


def _same_as_reference(compiled: Compiled, res: Results, seed: int, bankroll: int,
                       sessions: int, rolls: int) -> None:
    for i in range(sessions):
        dice = outcome_stream(seed, i, rolls, compiled.n_outcomes)
        ref = play_on_tables(compiled, [int(o) for o in dice], Decimal(bankroll))
        for p in range(compiled.players):
            assert [Decimal(int(c)) / 100 for c in res.hist[i, p, 1:ref.rolls + 1]] \
                == ref.history[p], f"session {i} player {p}"


PRESSED = """
name = "pressed"
rules = "nj-13-69f"
table = { vig_on_win = ["buy:4", "lay:9"] }
[[bets]]
wager = "buy"
number = 4
amount = "25"
[[bets]]
wager = "buy"
number = 6
amounts = ["30", "60", "10"]
on_win = [1, 2, 0]
on_lose = [0, 0, 0]
[[bets]]
wager = "lay"
number = 9
amounts = ["60", "120"]
on_win = [1, 0]
on_lose = [0, 1]
[[bets]]
wager = "lay"
number = 5
amount = "30"
[[bets]]
wager = "pass"
amount = "10"
"""


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.5(b)")
def test_pressed_and_regressed_bets_play_alike_on_every_kernel() -> None:
    # The buy on the 6 pays its commission when made, and again out of each win to stay up
    # ($1 on $30, $3 on $60, nothing on $10): pressed back to $30 after a win at $10 it owes
    # $1 more, not what was paid on the $60. The buy on the 4 and the lay against the 9 pay
    # theirs only out of a win.
    compiled = compile_table([Strategy.from_toml(PRESSED)])
    sim = Simulation(37, 400, 50000, 77, n_hist=37)
    tabled = simulate(compiled, sim)
    _same(tabled, simulate(compiled, sim, kernel="generic"))
    _same(tabled, simulate(compiled, sim, kernel="specialised"))
    _same_as_reference(compiled, tabled, 77, 500, sessions=4, rolls=400)


BUYS = """
name = "buys"
rules = "nj-13-69f"
table = {{ vig_on_win = {on_win} }}
[[bets]]
wager = "buy"
number = 4
amount = "25"
[[bets]]
wager = "buy"
number = 10
amount = "25"
"""


def _history(on_win: list[str], rolls: list[tuple[int, int]]) -> list[Decimal]:
    strategy = Strategy.from_toml(BUYS.format(on_win=str(on_win).replace("'", '"')))
    compiled = compile_table([strategy])
    dice = np.array([[OUTCOMES.index(r) for r in rolls]], np.uint8)
    res = run_block(compiled, 0, Simulation(1, len(rolls), 100000, 0, n_hist=1),
                    outcomes_fn=lambda r0: dice)
    history = [Decimal(int(c)) / 100 for c in res.hist[0, 0, 1:]]
    assert history == play_on_tables(compiled, [int(o) for o in dice[0]],
                                     Decimal(1000)).history[0]
    return history


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_a_named_buy_bet_pays_its_commission_only_out_of_its_win() -> None:
    # $25 buys on the 4 and 10 from $1000 at 5% ($1.25, rounded down to the $1 unit). Point 6,
    # a 4, a 10, a seven-out, then a come-out 11 after both are bought again.
    rolls = [(3, 3), (1, 3), (4, 6), (3, 4), (5, 6)]
    # the 4 named: it costs $25 and $1 comes out of each of its wins; the 10 costs $26
    assert _history(["buy:4"], rolls) == [Decimal(n) for n in (949, 998, 1047, 1047, 996)]
    # neither named: each costs $26, and pays $1 again out of its win to stay up
    assert _history([], rolls) == [Decimal(n) for n in (948, 997, 1046, 1046, 994)]
