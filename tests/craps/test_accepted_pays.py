"""A wager keeps the pay it was accepted at: a change of the pay table applies to wagers made
after it. The expected payouts are worked from the pay tables of N.J.A.C. 13:69F-1.4(b)
(place 6 "7 to 6", lay 4 "1 to 2") and the house's change (paying more than the minimum)."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from croupier.craps.actions import Bet, Roll, TakeDown
from croupier.craps.events import PayTableApplied
from croupier.craps.table import CrapsTable
from croupier.errors import Refusal, Unsettleable
from croupier.events import BetMade, Settled
from croupier.games import game
from croupier.rules import load_profile
from croupier.service import codec


def table() -> CrapsTable:
    opened = game("craps").open(load_profile("nj-13-69f"), {}, {"ann": D(1000), "bo": D(1000)})
    assert isinstance(opened, CrapsTable)
    return opened


def change(t: CrapsTable, **pays: str) -> None:
    t.apply(PayTableApplied(1, tuple(sorted(pays.items())), "N.J.A.C. 13:69F-1.4(b)"))


def paid(events: list[object], wager: str) -> D:
    found = [e for e in events if isinstance(e, Settled) and e.wager == wager]
    assert len(found) == 1, events
    return found[0].paid


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_a_place_bet_made_before_a_change_is_paid_at_the_odds_it_was_accepted_at() -> None:
    t = table()
    t.act(Roll(2, 2))  # a point, so place bets work
    t.act(Bet("ann", "place_win", 6, D(12)))
    change(t, **{"place_win:6": "10 to 7"})
    assert str(t.config.pays["place_win:6"]) == "10 to 7"
    # 7 to 6 on $12 is $14; 10 to 7 would be 120/7, no amount of money at all.
    assert paid(t.act(Roll(3, 3)), "place_win:6") == D(14)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_a_wager_made_after_the_change_is_paid_at_the_new_odds() -> None:
    t = table()
    t.act(Roll(2, 2))
    change(t, **{"place_win:6": "10 to 7"})
    with pytest.raises(Refusal, match="cannot be paid at 10 to 7"):
        t.check(Bet("ann", "place_win", 6, D(12)))
    t.act(Bet("ann", "place_win", 6, D(14)))
    assert paid(t.act(Roll(3, 3)), "place_win:6") == D(20)  # 14 x 10 / 7


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_adding_to_a_repriced_wager_is_refused_with_the_way_out() -> None:
    t = table()
    t.act(Roll(2, 2))
    t.act(Bet("ann", "place_win", 6, D(12)))
    change(t, **{"place_win:6": "10 to 7"})
    before = (t.players["ann"].bankroll, t.wagers[("ann", "place_win:6")].stake, t.house)
    with pytest.raises(Refusal) as refused:
        t.act(Bet("ann", "place_win", 6, D(14)))
    assert "accepted at place_win:6 7 to 6" in refused.value.reason
    assert "now pays place_win:6 10 to 7" in refused.value.reason
    assert "take it down and make it again" in refused.value.reason
    assert refused.value.clause == "N.J.A.C. 13:69F-1.4(b)"
    assert (t.players["ann"].bankroll, t.wagers[("ann", "place_win:6")].stake, t.house) == before
    # The way out: down, and up again at the new odds.
    t.act(TakeDown("ann", "place_win", 6, None))
    t.act(Bet("ann", "place_win", 6, D(28)))
    assert paid(t.act(Roll(4, 2)), "place_win:6") == D(40)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_reducing_a_repriced_wager_is_checked_at_its_own_odds() -> None:
    t = table()
    t.act(Roll(2, 2))
    t.act(Bet("ann", "place_win", 6, D(12)))
    change(t, **{"place_win:6": "10 to 7"})
    t.act(TakeDown("ann", "place_win", 6, D(6)))  # $6 is payable at its 7 to 6
    assert paid(t.act(Roll(3, 3)), "place_win:6") == D(7)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_a_lay_bet_keeps_its_odds_and_its_commission_base() -> None:
    t = table()
    t.act(Bet("ann", "lay", 4, D(40)))  # commission 5% of the stake, $2, at placement
    change(t, **{"lay:4": "7 to 13"})
    events = t.act(Roll(3, 4))
    win = next(e for e in events if isinstance(e, Settled) and e.wager == "lay:4")
    # 1 to 2 on $40 is $20; the bet stays up and pays its $2 commission again.
    assert (win.paid, win.commission, win.odds) == (D(20), D(2), "1 to 2")


def test_a_bet_recorded_without_its_pays_takes_the_pay_table_in_force_when_made() -> None:
    t = table()
    t.act(Roll(2, 2))
    # An earlier release recorded no pays with a bet: it takes the odds in force when folded.
    t.apply(BetMade("ann", "place_win:6", "place_win", D(12), qualifier=6, state=None,
                    commission=D(0)))
    change(t, **{"place_win:8": "8 to 6"})
    t.apply(BetMade("bo", "place_win:8", "place_win", D(12), qualifier=8, state=None,
                    commission=D(0)))
    assert t.wagers[("ann", "place_win:6")].accepted == (("place_win:6", "7 to 6"),)
    assert t.wagers[("bo", "place_win:8")].accepted == (("place_win:8", "8 to 6"),)
    assert paid(t.act(Roll(4, 4)), "place_win:8") == D(16)


def test_the_pays_go_to_the_ledger_but_not_into_the_replay_json() -> None:
    t = table()
    made = t.check(Bet("ann", "place_win", 6, D(12)))[0]
    assert isinstance(made, BetMade) and made.pays == (("place_win:6", "7 to 6"),)
    assert "pays" not in made.to_json()
    assert codec.decode("craps", codec.encode(made)) == made


def test_a_wager_its_own_pays_cannot_settle_raises_unsettleable_naming_it() -> None:
    t = table()
    t.act(Roll(2, 2))
    # Only a hand-made record holds such a wager: every bet is checked payable when made.
    t.apply(BetMade("ann", "place_win:6", "place_win", D(12), qualifier=6, state=None,
                    commission=D(0), pays=(("place_win:6", "10 to 7"),)))
    assert t.unpayable() == [
        ("ann", "place_win:6", "12.00 at 10 to 7 is not a whole number of table units of 1.00")]
    before = t.total_chips()
    with pytest.raises(Unsettleable) as failed:
        t.check(Roll(3, 3))
    assert (failed.value.player, failed.value.wager) == ("ann", "place_win:6")
    assert "120/7" in failed.value.reason
    assert t.total_chips() == before and t.point == 4


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_a_come_bet_is_refused_while_a_repriced_one_stands_where_it_would_join_it() -> None:
    t = table()
    t.act(Roll(2, 2))
    t.act(Bet("ann", "come", None, D(10)))
    t.act(Roll(3, 3))  # the come bet travels to 6
    change(t, come="2 to 1")
    with pytest.raises(Refusal, match="make it once that wager is decided"):
        t.check(Bet("ann", "come", None, D(10)))
    assert t.check(Bet("bo", "come", None, D(10)))  # another player's come bets are new
