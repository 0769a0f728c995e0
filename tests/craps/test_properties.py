"""Invariants of the craps table over random action sequences (hypothesis).

- chips are conserved: bankrolls + stakes down + the house result never change;
- a refused action changes nothing;
- folding the event log rebuilds the same table.
"""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from croupier.craps.actions import DownOnWin, OffDuringPoint
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS
from croupier.errors import Refusal
from croupier.games import GAMES
from croupier.rules import PROFILE_IDS, load_profile

PLAYERS = ("ann", "bo", "cy")
CRAPS_GAMES = sorted(name for name, g in GAMES.items() if g.table_class is CrapsTable)

wager_ids = st.sampled_from(sorted(WAGERS))
amounts = st.sampled_from([Decimal(x) for x in ("1", "2", "4", "5", "6", "10", "12", "20", "25",
                                                 "30", "40", "60", "300", "2.50")])


@st.composite
def actions(draw: st.DrawFn) -> tuple[Any, ...]:
    kind = draw(st.sampled_from(["bet", "bet", "bet", "roll", "roll", "roll", "remove", "reduce",
                                 "on", "off", "shooter", "sit", "stand", "down_on_win",
                                 "off_during_point"]))
    player = draw(st.sampled_from(PLAYERS))
    if kind == "roll":
        return ("roll", draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    if kind == "shooter":
        return ("shooter", player)
    if kind in ("sit", "stand"):
        return (kind, player)
    wid = draw(wager_ids)
    d = WAGERS[wid]
    qualifier: Any = None
    if d.domain:
        qualifier = draw(st.sampled_from(d.domain))
    elif d.travels and draw(st.booleans()):
        qualifier = draw(st.sampled_from((4, 5, 6, 8, 9, 10)))
    return (kind, player, wid, qualifier, draw(amounts))


def snapshot(table: CrapsTable) -> Any:
    return (
        {n: (p.bankroll, p.seated, p.dont_pass_blocked, p.dont_come_blocked)
         for n, p in table.players.items()},
        {k: (w.wager_id, w.qualifier, w.stake, w.state, w.called_on, w.commission_paid, w.reduced,
             w.down_on_win, w.off_for_point)
         for k, w in table.wagers.items()},
        list(table.wagers),
        table.point, table.shooter, table.hand_rolls, table.house,
    )


def play(table: CrapsTable, action: tuple[Any, ...]) -> None:
    kind = action[0]
    if kind == "roll":
        table.roll(action[1], action[2])
    elif kind == "shooter":
        table.pass_dice(action[1])
    elif kind in ("sit", "stand"):
        table.seat(action[1], kind == "sit")
    else:
        _, player, wid, qualifier, amount = action
        if kind == "bet":
            table.bet(player, wid, qualifier, amount)
        elif kind == "remove":
            table.take_down(player, wid, qualifier)
        elif kind == "reduce":
            table.take_down(player, wid, qualifier, amount)
        elif kind == "down_on_win":
            table.act(DownOnWin(player, wid, qualifier))
        elif kind == "off_during_point":
            table.act(OffDuringPoint(player, wid, qualifier))
        else:
            table.call(player, wid, qualifier, kind == "on")


options = st.fixed_dictionaries({}, optional={
    "unit": st.sampled_from(["1", "0.50", "5"]),
    "vig_collected": st.sampled_from(["placement", "win"]),
    "odds": st.sampled_from(["none", "3-4-5", "2", "10"]),
    "max_bet": st.sampled_from(["100", "500"]),
    "vig_on_win": st.lists(st.sampled_from(["buy:4", "buy:6", "lay:10", "lay:5"]), unique=True),
    "min_buy": st.sampled_from(["20", "40"]),
    "min_lay": st.sampled_from(["20", "40"]),
    "place_lose_off_on_come_out": st.booleans(),
    "down_on_win": st.booleans(),
    "off_during_point": st.booleans(),
})
# The options a profile's text rules out (each is malformed there, tested on its own).
NOT_UNDER = {
    "nj-casino-night": ("vig_collected", "vig_on_win"),
    "nj-19-47": ("vig_on_win", "min_buy", "min_lay"),
    "nj-13-69f": ("place_lose_off_on_come_out",),
}


def on_the_layout(table: CrapsTable, data: st.DataObject) -> tuple[Any, ...] | None:
    """Half the time a take-down or call aims at a wager that is really there."""
    if not table.wagers or not data.draw(st.booleans()):
        return None
    wager = data.draw(st.sampled_from(list(table.wagers.values())))
    kind = data.draw(st.sampled_from(["remove", "reduce", "on", "off", "down_on_win",
                                      "off_during_point"]))
    qualifier = wager.state if wager.definition.travels else wager.qualifier
    return (kind, wager.player, wager.wager_id, qualifier, data.draw(amounts))


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profile_id=st.sampled_from(PROFILE_IDS), game_name=st.sampled_from(CRAPS_GAMES),
       opts=options, n=st.integers(1, 60), data=st.data())
def test_chips_conserved_refusals_change_nothing_and_events_rebuild(
    profile_id: str, game_name: str, opts: dict[str, Any], n: int, data: st.DataObject,
) -> None:
    profile = load_profile(profile_id)
    assume(profile.covers(game_name))
    opts = {k: v for k, v in opts.items() if k not in NOT_UNDER[profile_id]}
    if opts.get("vig_collected") == "win":
        opts.pop("vig_on_win", None)  # every commission waits for the win already
    bankrolls = {"ann": Decimal(500), "bo": Decimal("250.50"), "cy": Decimal(1000)}
    table = GAMES[game_name].open(profile, opts, bankrolls)
    assert isinstance(table, CrapsTable)
    config = table.config
    start = table.total_chips()
    assert start == sum(bankrolls.values())
    for _ in range(n):
        action = on_the_layout(table, data) or data.draw(actions())
        before = snapshot(table)
        n_events = len(table.events)
        try:
            play(table, action)
        except Refusal:
            assert snapshot(table) == before, f"refused {action} changed the table"
            assert len(table.events) == n_events
        assert table.total_chips() == start
        for p in table.players.values():
            assert p.bankroll >= 0
        for w in table.wagers.values():
            assert w.stake > 0
    rebuilt = CrapsTable.from_events(config, copy.deepcopy(table.events))
    assert snapshot(rebuilt) == snapshot(table)
