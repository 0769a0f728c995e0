"""The craps table options a house elects, in process: commission timing bet by bet
(13:69F-1.5(a), (b)), the minimum buy and lay, the other reading of "All place bets shall be
inactive on any come out roll", and "off" called while a point is established.

Every expected figure is worked from the regulation text: 5% of the amount wagered (13:69F-1.5)
or of what the lay could win (13:47-20.25(k)), rounded down to the table unit (the replay
contract, "Commission"); buy 4 and 10 pay 2 to 1, lay 4 and 10 pay 1 to 2."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from croupier.craps.actions import Bet, Call, Roll, TakeDown
from croupier.craps.events import BetMade, CalledOn
from croupier.craps.table import CrapsTable
from croupier.errors import Malformed, Refusal
from croupier.events import Settled
from croupier.games import game
from croupier.rules import load_profile


def table(rules: str = "nj-13-69f", options: dict[str, Any] | None = None) -> CrapsTable:
    opened = game("craps").open(load_profile(rules), options or {}, {"ann": D(1000)})
    assert isinstance(opened, CrapsTable)
    return opened


def made(events: list[Any]) -> BetMade:
    return next(e for e in events if isinstance(e, BetMade))


def settled(events: list[Any]) -> dict[str, Settled]:
    return {e.wager: e for e in events if isinstance(e, Settled)}


def refused(t: CrapsTable, action: Any) -> Refusal:
    before = (t.chips("ann"), dict(t.wagers), t.house)
    with pytest.raises(Refusal) as caught:
        t.act(action)
    assert (t.chips("ann"), dict(t.wagers), t.house) == before  # a refusal changes nothing
    return caught.value


# --- commission timing bet by bet ------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_commission_on_the_win_for_the_pre_specified_buy_bets_only() -> None:
    """1.5(a): a casino may, for pre-specified place bets at a designated table, collect the
    percentage only on winning bets. With buy 4 so specified: buy 4 $20 pays nothing when made,
    buy 10 $20 pays 5% of 20 = $1 when made. Buy 4 wins 2 to 1 = 40, less 5% of 20 = 1: 39."""
    t = table(options={"vig_on_win": ["buy:4"]})
    assert made(t.act(Bet("ann", "buy", 4, D(20)))).commission == D(0)
    assert made(t.act(Bet("ann", "buy", 10, D(20)))).commission == D(1)
    assert t.chips("ann") == D(1000 - 20 - 20 - 1)
    t.act(Roll(3, 3))  # point 6: the buy bets work
    won = settled(t.act(Roll(1, 3)))["buy:4"]
    assert (won.paid, won.commission, won.stays_up) == (D(40), D(1), True)
    assert t.chips("ann") == D(959 + 39)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_a_buy_collected_on_the_win_that_comes_down_unwon_pays_nothing() -> None:
    """1.5(a): "only on winning bets": buy 4 $20 taken down before it wins returns 20 and
    costs nothing; buy 10 $20, collected when made, keeps its $1 (contract, "Commission")."""
    t = table(options={"vig_on_win": ["buy:4"]})
    t.act(Bet("ann", "buy", 4, D(20)))
    t.act(Bet("ann", "buy", 10, D(20)))
    t.act(TakeDown("ann", "buy", 4, None))
    t.act(TakeDown("ann", "buy", 10, None))
    assert t.chips("ann") == D(999) and t.house == D(1)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_commission_on_the_win_for_one_lay_number() -> None:
    """1.5(b): lay 10 $40, commission 5% of the amount wagered = 2, collected only on the win:
    nothing when made; the seven wins 1 to 2 = 20, less 2: 18. Lay 4 $40 collects its 2 when
    made."""
    t = table(options={"vig_on_win": ["lay:10"]})
    assert made(t.act(Bet("ann", "lay", 10, D(40)))).commission == D(0)
    assert made(t.act(Bet("ann", "lay", 4, D(40)))).commission == D(2)
    t.act(Roll(3, 3))
    won = settled(t.act(Roll(3, 4)))
    assert (won["lay:10"].paid, won["lay:10"].commission) == (D(20), D(2))
    assert t.chips("ann") == D(1000 - 40 - 40 - 2 + 18 + 18)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)", "N.J.A.C. 13:47-20.25(k)")
def test_per_bet_timing_is_malformed_where_commission_is_paid_when_made() -> None:
    """13:47-20.25(j), (k): the percentage is paid "at the time of making the bet"."""
    with pytest.raises(Malformed, match=r"options.vig_on_win: .*13:47-20.25\(j\)"):
        table("nj-casino-night", {"vig_on_win": ["buy:4"]})


@pytest.mark.parametrize(("value", "where"), [
    (["buy:7"], "options.vig_on_win[0]"), (["buy:4", "buy:4"], "options.vig_on_win[1]"),
    ("buy:4", "options.vig_on_win"), (["place_win:4"], "options.vig_on_win[0]"),
])
def test_vig_on_win_names_buy_and_lay_bets_once(value: Any, where: str) -> None:
    with pytest.raises(Malformed) as caught:
        table(options={"vig_on_win": value})
    assert caught.value.where == where


def test_vig_on_win_is_the_exceptions_to_placement() -> None:
    with pytest.raises(Malformed, match="already"):
        table(options={"vig_collected": "win", "vig_on_win": ["buy:4"]})


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_the_default_timing_is_the_contracts() -> None:
    """No option: every commission when the bet is made (contract, vig_collected default)."""
    t = table()
    assert {t.config.commission_timing(w, n) for w in ("buy", "lay")
            for n in (4, 5, 6, 8, 9, 10)} == {"placement"}


# --- the minimum buy and lay -----------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_a_small_buy_pays_no_commission_without_a_minimum() -> None:
    """5% of 19 is 0.95, rounded down to the $1 unit: nothing. Buy 4 $19 wins 38, free."""
    t = table()
    assert made(t.act(Bet("ann", "buy", 4, D(19)))).commission == D(0)
    t.act(Roll(3, 3))
    won = settled(t.act(Roll(1, 3)))["buy:4"]
    assert (won.paid, won.commission) == (D(38), D(0))


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_a_buy_below_the_tables_minimum_is_refused_citing_1_5_a() -> None:
    t = table(options={"min_buy": 20})
    refusal = refused(t, Bet("ann", "buy", 4, D(19)))
    assert refusal.clause == "N.J.A.C. 13:69F-1.5(a)" and "minimum buy" in refusal.reason
    assert "round down to nothing" in refusal.reason  # 5% of 19 = 0.95
    high = refused(table(options={"min_buy": 100}), Bet("ann", "buy", 4, D(99)))
    assert "minimum buy" in high.reason and "nothing" not in high.reason  # 5% of 99 = 4.95
    assert made(t.act(Bet("ann", "buy", 4, D(20)))).commission == D(1)
    # what stays after a reduction is held to the minimum too
    assert refused(t, TakeDown("ann", "buy", 4, D(1))).clause == "N.J.A.C. 13:69F-1.5(a)"


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_a_lay_below_the_tables_minimum_is_refused_citing_k() -> None:
    """(k): 5% of what the lay could win. Lay 10 $30 could win 15: 0.75, rounded down to
    nothing; with a $40 minimum it is refused, and lay 10 $40 (could win 20) pays $1."""
    assert made(table("nj-casino-night").act(Bet("ann", "lay", 10, D(30)))).commission == D(0)
    t = table("nj-casino-night", {"min_lay": 40})
    refusal = refused(t, Bet("ann", "lay", 10, D(30)))
    assert refusal.clause == "N.J.A.C. 13:47-20.25(k)"
    assert made(t.act(Bet("ann", "lay", 10, D(40)))).commission == D(1)


@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)")
def test_a_minimum_buy_where_no_buy_bet_is_permitted_is_malformed() -> None:
    with pytest.raises(Malformed, match=r"options.min_buy: .*19:47-1.2\(b\)"):
        table("nj-19-47", {"min_buy": 20})


def test_a_minimum_lay_above_the_table_maximum_is_malformed() -> None:
    with pytest.raises(Malformed, match=r"options.min_lay: above the table maximum 100"):
        table("nj-13-69f", {"min_lay": 120, "max_bet": 100})
    assert table("nj-13-69f", {"min_lay": 100, "max_bet": 100}).config.min_lay == D(100)


# --- readings as options -----------------------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5")
@pytest.mark.parametrize("rules", ["nj-casino-night", "nj-19-47"])
def test_place_to_lose_works_on_the_come_out_by_default(rules: str) -> None:
    """The contract's reading: place bets to lose work on every roll. Place 4 to lose $11 on
    a come-out 7 wins 5 to 11 = 5 and stays up."""
    t = table(rules)
    t.act(Bet("ann", "place_lose", 4, D(11)))
    assert settled(t.act(Roll(3, 4)))["place_lose:4"].paid == D(5)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5")
@pytest.mark.parametrize("rules", ["nj-casino-night", "nj-19-47"])
def test_all_place_bets_off_on_the_come_out_is_the_other_reading(rules: str) -> None:
    """place_lose_off_on_come_out: "All place bets shall be inactive on any come out roll
    unless called 'on'" read of every place bet. Place 4 to lose is not decided by a come-out
    7; called on, it is (5 to 11 on $11: 5)."""
    t = table(rules, {"place_lose_off_on_come_out": True})
    t.act(Bet("ann", "place_lose", 4, D(11)))
    assert settled(t.act(Roll(3, 4))) == {}
    assert t.wager("ann", "place_lose:4") is not None
    t.act(Call("ann", "place_lose", 4, True))
    assert settled(t.act(Roll(3, 4)))["place_lose:4"].paid == D(5)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 13:47-20.25(k)")
def test_lay_bets_are_place_bets_to_lose_under_the_other_reading() -> None:
    """(k) makes a lay bet a place bet to lose at true odds, so the other reading turns it off
    on the come-out too: lay 4 $40 is not decided by a come-out 7 and may be called on; under
    the default reading it works, and calling it on is refused."""
    t = table("nj-casino-night", {"place_lose_off_on_come_out": True})
    t.act(Bet("ann", "lay", 4, D(40)))
    assert settled(t.act(Roll(3, 4))) == {}
    assert t.act(Call("ann", "lay", 4, True)) == [CalledOn("ann", "lay:4", True)]
    default = table("nj-casino-night")
    default.act(Bet("ann", "lay", 4, D(40)))
    assert refused(default, Call("ann", "lay", 4, True)).clause == "N.J.A.C. 13:47-20.25(h)1v"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_the_other_reading_is_malformed_where_the_text_pins_it() -> None:
    """13:69F-1.3(e): "All other wagers shall be considered On"."""
    with pytest.raises(Malformed, match=r"13:69F-1.3\(e\)"):
        table("nj-13-69f", {"place_lose_off_on_come_out": True})


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v")
def test_place_to_lose_cannot_be_called_on_or_off_under_the_default_reading() -> None:
    t = table("nj-casino-night")
    t.act(Bet("ann", "place_lose", 4, D(11)))
    assert refused(t, Call("ann", "place_lose", 4, False)).clause == "N.J.A.C. 13:47-20.25(h)1v"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_off_while_a_point_is_established_keeps_the_wager_working_until_the_point() -> None:
    """The contract ("On and off"): a wager called off while a point is established keeps
    working until the point is decided; 1.3(e) makes wagers inactive on come-out rolls only.
    Place 6 $12 called off at point 4 loses to the seven-out; place 8 $12 called off at point
    4 wins 7 to 6 = 14 on an 8, and is then off on the next come-out."""
    t = table()
    t.act(Roll(1, 3))  # point 4
    t.act(Bet("ann", "place_win", 6, D(12)))
    t.act(Bet("ann", "place_win", 8, D(12)))
    assert t.act(Call("ann", "place_win", 6, False)) == [CalledOn("ann", "place_win:6", False)]
    t.act(Call("ann", "place_win", 8, False))
    assert settled(t.act(Roll(2, 6)))["place_win:8"].paid == D(14)
    result = settled(t.act(Roll(3, 4)))  # seven-out
    assert result["place_win:6"].result == "lose" and "place_win:8" in result
    t.act(Bet("ann", "place_win", 6, D(12)))
    t.act(Roll(1, 3))  # point 4
    t.act(Call("ann", "place_win", 6, True))
    t.act(Roll(1, 3))  # point made: next roll is a come-out
    t.act(Call("ann", "place_win", 6, False))  # called off between decisions: off on it
    assert settled(t.act(Roll(3, 4))) == {}
