"""The craps engine in process: line bets, odds, place/buy/lay commission, one-roll and
multi-part wagers, hop, fire, mini-craps seating, automated craps, rebuilding from events,
and a check that changes nothing. Fast: no subprocess, no JSON."""

from __future__ import annotations

import copy
from decimal import Decimal as D
from typing import Any

import pytest

from croupier.craps.actions import Bet, Call, PassDice, Roll, Sit, TakeDown
from croupier.craps.events import ShooterChanged
from croupier.craps.table import CrapsTable
from croupier.errors import Malformed, Refusal
from croupier.events import Settled
from croupier.games import GAMES, game
from croupier.rules import load_profile


def table(name: str = "craps", rules: str = "nj-13-69f", options: dict[str, Any] | None = None,
          players: dict[str, D] | None = None) -> CrapsTable:
    opened = game(name).open(load_profile(rules), options or {},
                             {"ann": D(1000), "bo": D(1000)} if players is None else players)
    assert isinstance(opened, CrapsTable)
    return opened


def settled(events: list[Any]) -> dict[str, tuple[str, D]]:
    return {e.wager: (e.result, e.paid) for e in events if isinstance(e, Settled)}


def snapshot(t: CrapsTable) -> Any:
    return (
        {p: (s.bankroll, s.seated, s.dont_pass_blocked, s.dont_come_blocked)
         for p, s in t.players.items()},
        {k: (w.stake, w.state, w.called_on, w.commission_paid, w.reduced)
         for k, w in t.wagers.items()},
        t.point, t.shooter, t.hand_rolls, t.house, t.order,
    )


# --- line bets and odds -------------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1")
def test_pass_wins_on_seven_and_loses_on_craps_at_the_come_out() -> None:
    t = table()
    t.act(Bet("ann", "pass", None, D(10)))
    assert settled(t.act(Roll(3, 4)))["pass"] == ("win", D(10))
    t.act(Bet("ann", "pass", None, D(10)))
    assert settled(t.act(Roll(1, 1)))["pass"] == ("lose", D(0))
    assert t.chips("ann") == D(1000)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2")
def test_dont_pass_is_barred_on_twelve_and_wins_on_seven_out() -> None:
    t = table()
    t.act(Bet("ann", "dont_pass", None, D(10)))
    assert "dont_pass" not in settled(t.act(Roll(6, 6)))  # barred: stands undecided
    t.act(Roll(2, 2))
    assert t.point == 4
    assert settled(t.act(Roll(3, 4)))["dont_pass"] == ("win", D(10))


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_pass_odds_pay_true_odds_within_three_four_five() -> None:
    t = table(options={"odds": "3-4-5"})
    t.act(Bet("ann", "pass", None, D(10)))
    t.act(Roll(4, 2))
    with pytest.raises(Refusal, match="more than 5 times"):
        t.check(Bet("ann", "pass_odds", None, D(60)))
    t.act(Bet("ann", "pass_odds", None, D(50)))
    result = settled(t.act(Roll(5, 1)))
    assert result["pass_odds"] == ("win", D(60)) and result["pass"] == ("win", D(10))


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3")
def test_come_bet_travels_to_its_number_and_wins_there() -> None:
    t = table()
    t.act(Bet("ann", "pass", None, D(10)))
    t.act(Roll(2, 2))
    t.act(Bet("ann", "come", None, D(10)))
    t.act(Roll(5, 4))
    assert ("ann", "come:9") in t.wagers
    assert settled(t.act(Roll(6, 3)))["come:9"] == ("win", D(10))


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_pass_bet_may_not_come_down_once_its_point_is_established() -> None:
    t = table()
    t.act(Bet("ann", "pass", None, D(10)))
    t.act(Roll(5, 5))
    with pytest.raises(Refusal) as refused:
        t.check(TakeDown("ann", "pass", None))
    assert refused.value.clause == "N.J.A.C. 13:69F-1.3(c)"


# --- place, buy and lay: commission ---------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_place_bets_are_off_on_the_come_out_unless_called_on() -> None:
    t = table()
    t.act(Bet("ann", "place_win", 6, D(12)))
    assert "place_win:6" not in settled(t.act(Roll(3, 3)))  # 6 on the come-out: off
    assert settled(t.act(Roll(4, 2)))["place_win:6"] == ("win", D(14))  # point on: working
    assert t.point is None
    t.act(Call("ann", "place_win", 6, True))
    assert settled(t.act(Roll(5, 1)))["place_win:6"] == ("win", D(14))  # called on


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_at_placement_is_five_percent_rounded_down() -> None:
    t = table()
    made = t.act(Bet("ann", "buy", 4, D(40)))
    assert made[0].commission == D(2)
    assert t.chips("ann") == D(1000) - 42


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_on_the_win_comes_out_of_the_winnings() -> None:
    t = table(options={"vig_collected": "win"})
    t.act(Bet("ann", "buy", 10, D(20)))
    t.act(Roll(2, 2))
    win = next(e for e in t.act(Roll(5, 5)) if isinstance(e, Settled))
    assert (win.paid, win.commission) == (D(40), D(1))


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_lay_commission_base_is_read_from_the_profile() -> None:
    # 13:69F-1.5(b): of the amount wagered; 13:47-20.25(k): of what the bet could win.
    assert table().act(Bet("ann", "lay", 4, D(40)))[0].commission == D(2)
    night = table(rules="nj-casino-night")
    assert night.act(Bet("ann", "lay", 4, D(40)))[0].commission == D(1)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)")
def test_commission_on_the_win_is_malformed_where_the_profile_says_at_placement() -> None:
    with pytest.raises(Malformed, match=r"options\.vig_collected"):
        table(rules="nj-casino-night", options={"vig_collected": "win"})


# --- one-roll, multi-part and hop wagers ---------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)11")
def test_field_pays_double_on_two() -> None:
    t = table()
    t.act(Bet("ann", "field", None, D(5)))
    assert settled(t.act(Roll(1, 1)))["field"] == ("win", D(10))


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)19")
def test_horn_is_settled_as_four_separate_wagers() -> None:
    t = table()
    t.act(Bet("ann", "horn", None, D(4)))
    events = [e for e in t.act(Roll(6, 5)) if isinstance(e, Settled)]
    assert {(e.wager, e.result) for e in events} == {
        ("craps_2", "lose"), ("craps_3", "lose"), ("yo_11", "win"), ("craps_12", "lose")}
    assert all(e.part_of == "horn" for e in events)
    assert t.chips("ann") == D(1000) - 4 + 1 + 15


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)22-38")
def test_hop_pays_fifteen_to_one_on_either_order_of_the_dice() -> None:
    t = table()
    t.act(Bet("ann", "hop", (1, 3), D(2)))
    assert settled(t.act(Roll(3, 1)))["hop:1-3"] == ("win", D(30))


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)39")
def test_six_seven_eight_is_an_optional_wager_the_table_may_decline() -> None:
    t = table(options={"six_seven_eight": False})
    with pytest.raises(Refusal, match="election of the casino licensee"):
        t.check(Bet("ann", "six_seven_eight", None, D(5)))
    with pytest.raises(Malformed, match=r"options\.six_seven_eight"):
        table(rules="nj-19-47", options={"six_seven_eight": True})


# --- the fire bet ----------------------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_bet_pays_for_four_different_points_at_the_seven_out() -> None:
    t = table()
    t.act(Bet("ann", "fire", None, D(1)))
    t.act(Bet("ann", "pass", None, D(5)))
    for point in ((2, 2), (2, 3), (3, 3), (4, 4)):
        t.act(Roll(*point))
        t.act(Roll(*point))
    t.act(Roll(5, 5))
    events = t.act(Roll(3, 4))  # seven-out
    assert settled(events)["fire"] == ("win", D(24))
    assert any(isinstance(e, ShooterChanged) and e.shooter == "bo" for e in events)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_fire_bet_only_before_a_new_shooters_first_roll() -> None:
    t = table()
    t.act(Roll(1, 1))
    with pytest.raises(Refusal, match="new shooter"):
        t.check(Bet("ann", "fire", None, D(1)))


# --- mini-craps seating --------------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_craps_takes_wagers_only_from_seated_players() -> None:
    t = table("mini-craps")
    with pytest.raises(Refusal) as refused:
        t.check(Bet("ann", "pass", None, D(5)))
    assert refused.value.clause == "N.J.A.C. 13:69F-1.3(f)"
    t.act(Sit("ann", True))
    t.act(Bet("ann", "pass", None, D(5)))
    with pytest.raises(Refusal, match="must remain seated"):
        t.check(Sit("ann", False))
    assert t.seated() == ["ann"]


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_no_fire_bet_at_mini_craps() -> None:
    t = table("mini-craps")
    t.act(Sit("ann", True))
    with pytest.raises(Refusal, match="only at the game of craps"):
        t.check(Bet("ann", "fire", None, D(1)))
    assert "fire:4" not in t.config.pays


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_seating_is_refused_at_craps() -> None:
    with pytest.raises(Refusal, match="seating applies at mini-craps only"):
        table().check(Sit("ann", True))


# --- automated craps -------------------------------------------------------------------------

def test_automated_craps_is_played_only_under_13_69f() -> None:
    assert load_profile("nj-13-69f").covers("automated-craps")
    for rules in ("nj-casino-night", "nj-19-47"):
        with pytest.raises(Malformed, match="game"):
            table("automated-craps", rules=rules)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_automated_craps_has_no_shooter_and_no_fire_bet() -> None:
    t = table("automated-craps")
    assert t.state_json() == {"point": None, "shooter": None}
    with pytest.raises(Refusal, match="no shooter"):
        t.check(PassDice("bo"))
    with pytest.raises(Refusal, match="only at the game of craps"):
        t.check(Bet("ann", "fire", None, D(1)))
    assert "fire" not in t.offer()["wagers"] and t.offer()["shooter"] is False
    # everything else is craps under 13:69F: a seven-out passes no dice
    t.act(Bet("ann", "pass", None, D(10)))
    t.act(Roll(4, 4))
    events = t.act(Roll(3, 4))
    assert settled(events)["pass"] == ("lose", D(0))
    assert not any(isinstance(e, ShooterChanged) for e in events)
    assert t.shooter == ""


def test_the_registry_says_what_the_server_needs_of_each_game() -> None:
    auto = GAMES["automated-craps"]
    assert (auto.has_shooter, auto.uses_dice, auto.dealer_enters_results) == (False, False, False)
    assert GAMES["craps"].dealer_enters_results and GAMES["roulette"].dealer_enters_results
    with pytest.raises(Malformed, match='did you mean "mini-craps"'):
        game("mini_craps")


# --- the table as a whole --------------------------------------------------------------------

def test_check_changes_nothing_whether_it_accepts_or_refuses() -> None:
    t = table(options={"odds": "3-4-5"})
    t.act(Bet("ann", "pass", None, D(10)))
    t.act(Roll(4, 2))
    before = snapshot(t)
    accepted = t.check(Bet("ann", "pass_odds", None, D(50)))
    assert accepted and snapshot(t) == before
    with pytest.raises(Refusal):
        t.check(Bet("ann", "pass_odds", None, D(500)))
    t.check(Roll(3, 4))
    assert snapshot(t) == before


def test_the_events_rebuild_the_table() -> None:
    t = table(options={"odds": "3-4-5"})
    for action in (Bet("ann", "pass", None, D(10)), Bet("bo", "dont_pass", None, D(10)),
                   Roll(2, 3), Bet("ann", "pass_odds", None, D(40)),
                   Bet("bo", "lay", 10, D(40)), Bet("ann", "come", None, D(5)), Roll(4, 4),
                   Bet("ann", "hard", 8, D(5)), TakeDown("bo", "lay", 10, D(20)), Roll(6, 3)):
        t.act(action)
    rebuilt = CrapsTable.from_events(t.config, copy.deepcopy(t.events))
    assert snapshot(rebuilt) == snapshot(t)
    assert rebuilt.total_chips() == D(2000)


def test_shared_events_move_chips_and_seats_through_the_engine() -> None:
    from croupier.events import Adjusted, ChipsIn, ChipsOut, Left

    t = table(players={})
    for event in (ChipsIn("cy", D(50)), ChipsIn("di", D(20)), Adjusted("cy", D(5), "x", "s"),
                  ChipsOut("di", D(20)), Left("di")):
        t.apply(event)
    assert t.seats() == ["cy"] and t.chips("cy") == D(55) and t.house == D(-5)
