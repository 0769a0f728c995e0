"""What a player says at a real table and the replay contract does not take by default:
"down on the win" (table option ``down_on_win``) and "off" during a point (table option
``off_during_point``). Each option defaults to false, the contract's reading; while it is off
its call is refused, citing the reading.

Expected payouts are worked out from the texts: 13:69F-1.4(b) (place 6 and 8 pay 7 to 6),
13:69F-1.5(a) (buy 4 pays 2 to 1, the percentage "of the amount wagered ... at the time of
making the bet" or "only on winning bets"), 13:69F-1.5(b) (lay 4 pays 1 to 2, the percentage
of the amount wagered), 13:47-20.25(k) (the lay commission a share of what the bet could win).
"""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS
from croupier.errors import Malformed
from croupier.games import GAMES
from croupier.rules import load_profile
from croupier.transcript import replay

BOTH = {"down_on_win": True, "off_during_point": True}


def play(actions: list[dict[str, Any]], rules: str = "nj-13-69f", bankroll: int = 100,
         **options: Any) -> dict[str, Any]:
    return replay({"game": "craps", "rules": rules, "options": options,
                   "players": {"a": bankroll}, "actions": actions})


def bet(wager: str, amount: int, **qualifier: Any) -> dict[str, Any]:
    return {"player": "a", "bet": wager, **qualifier, "amount": amount}


def call(verb: str, wager: str, **qualifier: Any) -> dict[str, Any]:
    return {"player": "a", verb: wager, **qualifier}


def roll(d1: int, d2: int) -> dict[str, Any]:
    return {"roll": [d1, d2]}


def money(result: dict[str, Any]) -> tuple[str, str]:
    player = result["players"]["a"]
    return player["bankroll"], player["on_table"]


def settles(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in result["events"] if e["type"] == "settle"]


# --- down on the win -------------------------------------------------------------------------


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "replay contract: What stays up")
def test_a_buy_called_down_on_the_win_comes_down_paying_no_new_commission() -> None:
    """Buy 4 for 20 with the point 10: 5% of 20 = 1 paid when the bet is made (1.5(a)). The 4
    wins 2 to 1 = 40; called down on the win, the 20 comes back with the 40 and no commission
    is collected again: 100 - 21 + 60 = 139, nothing left on the layout."""
    actions = [roll(5, 5), bet("buy", 20, number=4), call("down_on_win", "buy", number=4),
               roll(1, 3)]
    result = play(actions, down_on_win=True)
    assert result["rejected"] == []
    assert money(result) == ("139.00", "0.00")
    [won] = settles(result)
    assert (won["paid"], won["returned"], won["commission"], won["stays_up"]) == (
        "40.00", "20.00", "0.00", False)
    # The contract's reading: it stays up and pays its commission again to do so,
    # 100 - 21 + 40 - 1 = 118 in hand and the 20 still down.
    assert money(play([a for a in actions if "down_on_win" not in a])) == ("118.00", "20.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "replay contract: What stays up")
def test_a_commission_collected_only_on_the_win_is_still_collected_from_it() -> None:
    """1.5(a): "collect the percentage of the amount wagered only on winning bets". Buy 4 for
    20, nothing at placement; the win of 40 owes 5% of 20 = 1, collected from the win; the 20
    comes back: 100 - 20 + 20 + 40 - 1 = 139."""
    result = play([roll(5, 5), bet("buy", 20, number=4), call("down_on_win", "buy", number=4),
                   roll(1, 3)], down_on_win=True, vig_collected="win")
    assert money(result) == ("139.00", "0.00")
    [won] = settles(result)
    assert (won["paid"], won["returned"], won["commission"]) == ("40.00", "20.00", "1.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)", "replay contract: What stays up")
def test_a_lay_called_down_on_the_win_under_13_69f() -> None:
    """Lay 4 for 40: 1.5(b) takes 5% of the amount wagered, 2, when the bet is made; a 7 wins
    it 1 to 2 = 20 (a lay works on the come-out under 1.3(e): "All other wagers shall be
    considered On"). Down on the win: 100 - 42 + 40 + 20 = 118, nothing down."""
    result = play([bet("lay", 40, number=4), call("down_on_win", "lay", number=4), roll(3, 4)],
                  down_on_win=True)
    assert money(result) == ("118.00", "0.00")
    assert settles(result)[0]["commission"] == "0.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)", "replay contract: What stays up")
def test_a_lay_called_down_on_the_win_at_casino_night() -> None:
    """20.25(k): the percentage is "of the amount the player could win": lay 4 for 40 could
    win 20 at 1 to 2, so 5% of 20 = 1 when the bet is made. The 7 wins 20; down on the win:
    100 - 41 + 40 + 20 = 119."""
    result = play([bet("lay", 40, number=4), call("down_on_win", "lay", number=4), roll(3, 4)],
                  rules="nj-casino-night", down_on_win=True)
    assert money(result) == ("119.00", "0.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)",
                    "replay contract: What stays up")
@pytest.mark.parametrize("rules", ["nj-13-69f", "nj-casino-night", "nj-19-47"])
def test_a_place_bet_called_down_on_the_win_under_every_profile(rules: str) -> None:
    """Place 6 for 12 pays 7 to 6 = 14 under each text. Called down, it comes down with its
    win (100 - 12 + 26 = 114); the next place 6 is a new wager that stays up after its win:
    114 - 12 + 14 = 116 in hand, 12 down."""
    result = play([roll(2, 2), bet("place_win", 12, number=6),
                   call("down_on_win", "place_win", number=6), roll(1, 5),
                   bet("place_win", 12, number=6), roll(2, 4)], rules=rules, down_on_win=True)
    assert result["rejected"] == []
    first, second = settles(result)
    assert (first["paid"], first["returned"], first["stays_up"]) == ("14.00", "12.00", False)
    assert (second["paid"], second["stays_up"]) == ("14.00", True)
    assert money(result) == ("116.00", "12.00")


@pytest.mark.clause("replay contract: What stays up")
@pytest.mark.parametrize(("rules", "options"), [("nj-13-69f", {}), ("nj-casino-night", {}),
                                                ("nj-19-47", {"down_on_win": False})])
def test_down_on_the_win_is_refused_while_the_option_is_off(rules: str,
                                                            options: dict[str, Any]) -> None:
    result = play([roll(2, 2), bet("place_win", 12, number=6),
                   call("down_on_win", "place_win", number=6), roll(1, 5)], rules=rules,
                  **options)
    [refused] = result["rejected"]
    assert refused["index"] == 2 and refused["clause"] == "replay contract: What stays up"
    assert "down_on_win" in refused["reason"] and "stays up" in refused["reason"]
    # Nothing changed: the place bet stays up after its win, as the contract has it.
    assert money(result) == ("102.00", "12.00")


@pytest.mark.clause("replay contract: What stays up")
def test_down_on_the_win_only_on_place_buy_and_lay_bets_down_and_once() -> None:
    result = play([bet("pass", 10), roll(2, 2), bet("hard", 10, number=6),
                   call("down_on_win", "hard", number=6), call("down_on_win", "pass"),
                   call("down_on_win", "buy", number=5),
                   bet("place_lose", 11, number=4), call("down_on_win", "place_lose", number=4),
                   call("down_on_win", "place_lose", number=4)], down_on_win=True)
    by_index = {r["index"]: r["reason"] for r in result["rejected"]}
    assert set(by_index) == {3, 4, 5, 8}
    assert "only Place Bet to Win, Place Bet to Lose, Buy Bet and Lay Bet" in by_index[3]
    assert "Pass Bet cannot be called" in by_index[4]
    assert "has no Buy Bet (buy:5) on the layout" in by_index[5]
    assert "already called down on its win" in by_index[8]
    assert all(r["clause"] == "replay contract: What stays up" for r in result["rejected"])
    assert [e["type"] for e in result["events"]].count("down_on_win") == 1


# --- off during a point -------------------------------------------------------------------------


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:69F-1.4(b)")
def test_a_place_bet_called_off_during_the_point_works_again_when_it_is_decided() -> None:
    """Pass 10, point 6; place 8 for 12, called off for the point: the 8 does not win it, the
    seven-out does not lose it (pass lost: 100 - 10 - 12 = 78, 12 down). The point decided,
    it works again: off on the come-out (1.3(e), not called on), then the new point 8 is made
    and the place 8 wins 7 to 6 = 14, staying up: 92 in hand, 12 down."""
    result = play([bet("pass", 10), roll(3, 3), bet("place_win", 12, number=8),
                   call("off_during_point", "place_win", number=8), roll(4, 4), roll(3, 4),
                   roll(4, 4), roll(2, 6)], off_during_point=True)
    assert result["rejected"] == []
    assert [(s["wager"], s["result"]) for s in settles(result)] == [
        ("pass", "lose"), ("place_win:8", "win")]
    assert money(result) == ("92.00", "12.00")
    # The contract's reading, the same actions without the call: the 8 wins it (14, up),
    # then the seven-out takes it: 100 - 10 - 12 + 14 = 92 and nothing down, before the
    # new place bet ... none was made, so the last two rolls change nothing.
    contract = play([bet("pass", 10), roll(3, 3), bet("place_win", 12, number=8),
                     roll(4, 4), roll(3, 4), roll(4, 4), roll(2, 6)])
    assert money(contract) == ("92.00", "0.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:69F-1.5(b)")
def test_a_lay_called_off_survives_the_seven_out_and_works_on_the_come_out() -> None:
    """Point 6; lay 4 for 40 (2 paid, 5% of the amount wagered), called off for the point: the
    seven-out does not win it. On the come-out it works again ("All other wagers shall be
    considered On"): the 7 wins it 1 to 2 = 20 and it stays up, paying 2 again: 100 - 42 + 20 -
    2 = 76, 40 down."""
    result = play([roll(3, 3), bet("lay", 40, number=4),
                   call("off_during_point", "lay", number=4), roll(3, 4), roll(3, 4)],
                  off_during_point=True)
    assert result["rejected"] == []
    [won] = settles(result)
    assert won["action"] == 4 and (won["paid"], won["commission"]) == ("20.00", "2.00")
    assert money(result) == ("76.00", "40.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:69F-1.4(b)")
def test_called_on_again_a_hardway_works_at_once() -> None:
    """Point 4; hard 6 for 10, off for the point: 3-3 does not win it. Called on, the next 3-3
    wins it 9 to 1 = 90 (1.4(b)) and it stays up: 100 - 10 + 90 = 180, 10 down."""
    result = play([roll(2, 2), bet("hard", 10, number=6),
                   call("off_during_point", "hard", number=6), roll(3, 3),
                   call("on", "hard", number=6), roll(3, 3)], off_during_point=True)
    assert result["rejected"] == []
    [won] = settles(result)
    assert won["action"] == 5 and won["paid"] == "90.00"
    assert money(result) == ("180.00", "10.00")
    kinds = [(e["type"], e.get("off")) for e in result["events"] if e["type"] == "off_during_point"]
    assert kinds == [("off_during_point", True), ("off_during_point", False)]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_off_keeps_the_contracts_meaning_at_a_table_with_the_option() -> None:
    """"off" is the contract's call for come-out rolls: during a point it is accepted and the
    wager keeps working, option or not (the place 8 wins 14 and stays up)."""
    result = play([roll(3, 3), bet("place_win", 12, number=8), call("off", "place_win", number=8),
                   roll(4, 4)], off_during_point=True)
    assert result["rejected"] == [] and money(result) == ("102.00", "12.00")


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5")
@pytest.mark.parametrize(("rules", "clause"), [
    ("nj-13-69f", "N.J.A.C. 13:69F-1.3(e)"), ("nj-casino-night", "N.J.A.C. 13:47-20.25(h)1v"),
    ("nj-19-47", "N.J.A.C. 19:47-1.2(a)5")])
def test_off_during_a_point_is_refused_while_the_option_is_off(rules: str, clause: str) -> None:
    result = play([roll(3, 3), bet("place_win", 12, number=8),
                   call("off_during_point", "place_win", number=8), roll(4, 4)], rules=rules)
    [refused] = result["rejected"]
    assert refused["clause"] == clause and "off_during_point" in refused["reason"]
    assert money(result) == ("102.00", "12.00")  # it kept working: the 8 won it 14


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_off_during_a_point_needs_a_point_a_wager_it_applies_to_and_is_said_once() -> None:
    result = play([bet("place_win", 12, number=8), call("off_during_point", "place_win", number=8),
                   bet("pass", 10), roll(3, 3), call("off_during_point", "pass"),
                   bet("field", 5), call("off_during_point", "field"),
                   call("off_during_point", "place_win", number=8),
                   call("off_during_point", "place_win", number=8)], off_during_point=True)
    by_index = {r["index"]: r["reason"] for r in result["rejected"]}
    assert set(by_index) == {1, 4, 6, 8}
    assert "no point is established" in by_index[1]
    assert "Pass Bet cannot be called" in by_index[4] and "Field Bet cannot" in by_index[6]
    assert "already off" in by_index[8]
    assert {r["clause"] for r in result["rejected"]} == {"N.J.A.C. 13:69F-1.3(e)"}


# --- reading and options ----------------------------------------------------------------------


@pytest.mark.parametrize(("doc", "where"), [
    ({"options": {"down_on_win": "yes"}}, "options.down_on_win"),
    ({"options": {"off_during_point": 1}}, "options.off_during_point"),
    ({"actions": [{"player": "a", "down_on_win": "buy", "number": 4, "amount": 5}]},
     "actions[0].amount"),
    ({"actions": [{"player": "a", "off_during_point": "place_win"}]}, "actions[0].number"),
    ({"actions": [{"player": "a", "down_on_win": "bye", "number": 4}]},
     "actions[0].down_on_win"),
])
def test_malformed_options_and_calls_name_the_place(doc: dict[str, Any], where: str) -> None:
    full = {"game": "craps", "rules": "nj-13-69f", "players": {"a": 100}, "actions": [], **doc}
    with pytest.raises(Malformed) as bad:
        replay(full)
    assert bad.value.where == where


PLAIN = st.one_of(
    st.tuples(st.just("roll"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.sampled_from(["bet", "bet", "remove", "on", "off"]),
              st.sampled_from(sorted(WAGERS)), st.sampled_from([4, 5, 6, 8, 9, 10]),
              st.sampled_from([5, 6, 10, 12, 20, 40])),
)


def _action(step: tuple[Any, ...]) -> dict[str, Any]:
    if step[0] == "roll":
        return roll(step[1], step[2])
    verb, wager, number, amount = step
    d = WAGERS[wager]
    out: dict[str, Any] = {"player": "a", verb: wager}
    if d.qualifier == "number":
        if number not in d.domain:
            number = d.domain[0]
        out["number"] = number
    elif d.qualifier == "dice":
        out["dice"] = [1, 3]
    if verb == "bet":
        out["amount"] = amount
    return out


@given(st.sampled_from(["nj-13-69f", "nj-casino-night", "nj-19-47"]),
       st.lists(PLAIN, max_size=40))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_options_alone_change_nothing(rules: str, steps: list[tuple[Any, ...]]) -> None:
    """With the options on and neither call made, every result is the contract's, byte for
    byte: the options only let the calls be made."""
    actions = [_action(s) for s in steps]
    plain = play(copy.deepcopy(actions), rules=rules, bankroll=500)
    with_options = play(copy.deepcopy(actions), rules=rules, bankroll=500, **BOTH)
    assert json.dumps(with_options) == json.dumps(plain)


def test_the_calls_rebuild_from_their_events() -> None:
    """A table folded from its events has the calls as they were (the ledger rebuilds so)."""
    profile = load_profile("nj-13-69f")
    table = GAMES["craps"].open(profile, BOTH, {"a": Decimal(100)})
    assert isinstance(table, CrapsTable)
    for action in (roll(3, 3), bet("buy", 20, number=4), bet("place_win", 12, number=8),
                   call("down_on_win", "buy", number=4),
                   call("off_during_point", "place_win", number=8)):
        table.act(GAMES["craps"].read_action(action, "a", ["a"], table))
    rebuilt = CrapsTable.from_events(table.config, table.events)
    flags = {k: (w.down_on_win, w.off_for_point) for k, w in rebuilt.wagers.items()}
    assert flags == {("a", "buy:4"): (True, False), ("a", "place_win:8"): (False, True)}
    assert rebuilt.is_off(rebuilt.wagers[("a", "place_win:8")])


def test_the_call_events_are_stored_losslessly() -> None:
    """Each call is an event of its own kind, which the ledger's codec reads back as it was."""
    from croupier.craps.events import CalledDownOnWin, CalledOffDuringPoint
    from croupier.service import codec

    for event in (CalledDownOnWin("a", "buy:4"), CalledOffDuringPoint("a", "hard:6", True)):
        assert codec.decode("mini-craps", codec.encode(event)) == event
    assert (CalledDownOnWin.kind, CalledOffDuringPoint.kind) == ("down_on_win", "off_during_point")


def test_the_offer_names_the_wagers_each_call_may_be_made_on() -> None:
    """What a table offers (the server and the felt read it) says which calls it takes."""
    profile = load_profile("nj-casino-night")
    assert GAMES["craps"].offer(profile, {})["calls"] == {"down_on_win": [],
                                                         "off_during_point": []}
    calls = GAMES["craps"].offer(profile, BOTH)["calls"]
    # 13:47-20.25 permits place bets to win and to lose, buy and lay bets and hardways.
    assert calls == {"down_on_win": ["place_win", "place_lose", "buy", "lay"],
                     "off_during_point": ["place_win", "place_lose", "buy", "lay", "hard"]}
    mini = GAMES["mini-craps"].offer(load_profile("nj-19-47"), BOTH)["calls"]
    assert "buy" not in mini["down_on_win"]  # 19:47-1.2(b): no buy or lay bets
