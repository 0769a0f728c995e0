"""A bet is read and checked in one call into the game (``Game.take``), with the server's own
checks passed in: they still run where they always did, so which reason refuses a bet that
several would refuse is unchanged. A player not at the table is refused before the body is
read; the house's limit on a wager and the chips an adjustment holds come after the reading
and before the table's own check; an amount both pass for certain is not put to them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from croupier.errors import Malformed, Refusal
from croupier.games import Vetting, game
from croupier.rules import load_profile
from croupier.service.errors import ApiError
from croupier.service.limits import Limits

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(Path(tmp_path_factory.mktemp("bet-vetting"))) as made:
        made.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
        yield made


def test_a_player_not_at_the_table_is_refused_before_the_body_is_read(app: App) -> None:
    refused = app.refused("bob", "/tables/craps-1/bets", {"wager": "no such", "amount": "5"})
    assert refused["reason"] == "bob has no chips at table craps-1: buy in through the cashier first"


def test_a_malformed_body_is_named_before_the_house_limit_is_held_to_it(app: App) -> None:
    answer = app.post("alice", "/tables/craps-1/bets", {"wager": "pas", "amount": "2000000"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["reason"].startswith("body.wager: ")


def test_the_house_limit_refuses_before_the_tables_own_check(app: App) -> None:
    # Above both the house's limit on a wager (a wallet's 1,000,000.00) and the table's.
    answer = app.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "1000000.01"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "limit"
    assert "a wager is at most" in answer.json()["error"]["reason"]
    # At the house's limit exactly, the table's own check answers (its limit, or the chips).
    at_limit = app.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "1000000"})
    assert at_limit.status_code == 409, at_limit.text
    assert app.get("auditor", "/tables/craps-1").json()["players"]["alice"]["chips"] == "50.00"


class _Calls:
    """A vetting that records what it was asked, refusing nothing."""

    def __init__(self, up_to: str, check: bool = True) -> None:
        self.asked: list[Any] = []
        self.vetting = Vetting(check, Decimal(up_to), lambda: self.asked.append("absent"),
                               self.asked.append)


def _table() -> Any:
    table = game("craps").open(load_profile("nj-13-69f"), {}, {"ann": Decimal(100)})
    return table


def test_take_vets_only_an_amount_above_what_passes_for_certain() -> None:
    table = _table()
    below = _Calls("5")
    taken = game("craps").take(table, "bet", {"wager": "pass", "amount": "5"}, "ann",
                               below.vetting)
    assert below.asked == [] and taken.events == table.check(taken.action)
    above = _Calls("4.99", check=False)
    taken = game("craps").take(table, "bet", {"wager": "pass", "amount": "5"}, "ann",
                               above.vetting)
    assert above.asked == [taken.action] and taken.events is None
    assert taken.action.amount == Decimal(5)


def test_take_confirms_the_wagers_it_is_told_to_after_the_tables_check() -> None:
    table = _table()
    calls = _Calls("100")
    confirmed: list[Any] = []
    vetting = replace(calls.vetting, confirmed=frozenset({"field"}), confirm=confirmed.append)
    game("craps").take(table, "bet", {"wager": "pass", "amount": "5"}, "ann", vetting)
    assert confirmed == []
    taken = game("craps").take(table, "bet", {"wager": "field", "amount": "5"}, "ann", vetting)
    assert confirmed == [taken.action] and calls.asked == []
    # The table's own refusal (past its limit) comes first: the caller is not asked.
    with pytest.raises(Refusal):
        game("craps").take(table, "bet", {"wager": "field", "amount": "500"}, "ann", vetting)
    assert confirmed == [taken.action]


def test_a_wager_refused_after_the_tables_check_is_not_folded() -> None:
    table = _table()

    def refuse(action: Any) -> None:
        raise Refusal("no approved layout", "test clause")

    vetting = replace(_Calls("100").vetting, confirmed=frozenset({"field"}), confirm=refuse,
                      at=(2, 1))
    with pytest.raises(Refusal):
        game("craps").take(table, "bet", {"wager": "field", "amount": "5"}, "ann", vetting)
    assert table.chips("ann") == Decimal(100) and table.layout() == []


def test_take_folds_and_answers_only_where_told_where_the_events_go() -> None:
    """Without a place for its events the table is unchanged; with one, the action is folded
    in and answered from that place, as the ledger will number the events."""
    table = _table()
    calls = _Calls("100")
    taken = game("craps").take(table, "bet", {"wager": "pass", "amount": "5"}, "ann",
                               calls.vetting)
    assert taken.answer is None and table.chips("ann") == Decimal(100)
    taken = game("craps").take(table, "bet", {"wager": "pass", "amount": "5"}, "ann",
                               replace(calls.vetting, at=(7, 3)))
    assert taken.answer is not None and table.chips("ann") == Decimal(95)
    assert [(e["seq"], e["round"]) for e in taken.answer.events] == [(7, 3)]
    assert taken.answer.you == {"chips": "95.00", "on_table": "5.00"}
    assert taken.answer.seats == {"ann": (Decimal(95), Decimal(5))}


def test_a_refused_wager_is_not_folded_even_where_told_where_it_goes() -> None:
    table = _table()
    calls = _Calls("1000")
    with pytest.raises(Refusal):
        game("craps").take(table, "bet", {"wager": "pass", "amount": "500"}, "ann",
                           replace(calls.vetting, at=(2, 1)))
    assert table.chips("ann") == Decimal(100) and table.layout() == []


def test_take_asks_about_a_player_not_at_the_table_before_reading() -> None:
    calls = _Calls("5")
    with pytest.raises(Malformed) as malformed:
        game("craps").take(_table(), "bet", {"wager": "pass", "amount": "5"}, "bob", calls.vetting)
    assert calls.asked == ["absent"] and malformed.value.where == "body.player"


@pytest.mark.parametrize("max_wallet", [500_00, 1_000_000_00, 10**13])
def test_what_passes_for_certain_is_the_house_limit_itself(max_wallet: int) -> None:
    """The figure a bet is compared with before the house's limit is asked: the limit passes
    every amount up to it and refuses the next cent (no amount it would refuse is let by)."""
    limits = Limits(max_wallet=max_wallet)
    up_to = Decimal(limits.most_wager).scaleb(-2)
    limits.check_wager(up_to)
    with pytest.raises(ApiError):
        limits.check_wager(up_to + Decimal("0.01"))
