"""What a player says at a live table, and late bets only where a shooter throws, through the
server's own actions (in process). The payouts are the pay table of N.J.A.C. 13:69F-1.4(b):
place 6 and place 8 "7 to 6", so $12 wins $14."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from croupier.service import cashier, equipment, equipment_register, outcomes, paytables, wagers
from croupier.service.live import LiveTable
from croupier.service.plans import Job

from .ledgerkit import Kit


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("calls") / "data")
    try:
        yield made
    finally:
        made.engine.dispose()


def run(kit: Kit, who: str, live: LiveTable, plan: Any) -> Any:
    return kit.runner.run(Job(kit.users[who], live, uuid.uuid4().hex, uuid.uuid4().hex, plan))


def table_with_dice(kit: Kit, table_id: str, options: dict[str, Any]) -> LiveTable:
    """A craps table (nj-13-69f) with ``options``, inspected dice in its cup, alice at it with
    two dice in play."""
    live = paytables.open_table(kit.tables,
                                paytables.Opening(table_id, "craps", "nj-13-69f", options, "admin"))
    kit.tables.add(live)
    serials = [f"{table_id}-{i}" for i in range(1, 6)]
    with kit.engine.begin() as conn:
        for serial in serials:
            equipment_register.register_die(conn, "admin", serial, "set", table_id)
            record = equipment.passing_record()
            equipment_register.inspect_die(conn, "admin", serial, record,
                                           equipment.inspect(record))
    run(kit, "alice", live, cashier.buy_in(kit.ledger, kit.users["alice"], live, Decimal(200)))
    desk = live.procedures.dice
    assert desk is not None
    run(kit, "dealer", live, desk.offer(serials))
    run(kit, "dealer", live, desk.select(kit.users["dealer"], serials[:2], by_shooter=False))
    return live


def roll(kit: Kit, live: LiveTable, d1: int, d2: int) -> list[dict[str, Any]]:
    dealer = kit.users["dealer"]
    action = live.game.read_action({"roll": [d1, d2]}, "body", live.present(), live.table)
    reply = kit.runner.run_outcome(Job(dealer, live, uuid.uuid4().hex, uuid.uuid4().hex,
                                       outcomes.record(dealer, live, kit.rng, action),
                                       "outcome", outcomes.settle(dealer, live)))
    assert reply.status == 200, reply.body
    events: list[dict[str, Any]] = reply.body["events"]
    return events


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: What stays up")
def test_a_place_bet_called_down_on_the_win_comes_down_with_it(kit: Kit) -> None:
    live = table_with_dice(kit, "calls-down", {"down_on_win": True})
    alice = kit.users["alice"]
    roll(kit, live, 2, 2)  # the point is 4
    run(kit, "alice", live, wagers.bet(alice, live, {"wager": "place_win", "number": 6, "amount": "12"},
                                       kit.ledger.limits))
    called = run(kit, "alice", live, wagers.call(alice, live, {"wager": "place_win",
                                                               "number": 6}, "down_on_win"))
    assert [e["type"] for e in called.body["events"]] == ["down_on_win"]
    won = [e for e in roll(kit, live, 3, 3) if e["type"] == "settle"]
    assert [(e["wager"], e["paid"], e["returned"], e["stays_up"]) for e in won] == [
        ("place_win:6", "14.00", "12.00", False)]
    assert live.chips("alice") == Decimal(214) and live.on_table("alice") == 0


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_a_place_bet_called_off_during_the_point_does_not_work(kit: Kit) -> None:
    live = table_with_dice(kit, "calls-off", {"off_during_point": True})
    alice = kit.users["alice"]
    roll(kit, live, 2, 2)  # the point is 4
    run(kit, "alice", live, wagers.bet(alice, live, {"wager": "place_win", "number": 8, "amount": "12"},
                                       kit.ledger.limits))
    run(kit, "alice", live, wagers.call(alice, live, {"wager": "place_win", "number": 8},
                                        "off_during_point"))
    assert not [e for e in roll(kit, live, 4, 4) if e["type"] == "settle"]  # off: no win
    assert live.on_table("alice") == Decimal(12)


def test_a_call_the_table_does_not_take_is_refused_citing_the_reading(kit: Kit) -> None:
    live = table_with_dice(kit, "calls-none", {})
    alice = kit.users["alice"]
    roll(kit, live, 2, 2)
    run(kit, "alice", live, wagers.bet(alice, live, {"wager": "place_win", "number": 6, "amount": "12"},
                                       kit.ledger.limits))
    refused = run(kit, "alice", live, wagers.call(alice, live, {"wager": "place_win",
                                                                "number": 6}, "down_on_win"))
    assert refused.status == 409
    assert refused.body["error"]["clause"] == "replay contract: What stays up"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_no_late_bet_at_automated_craps(kit: Kit) -> None:
    live = paytables.open_table(kit.tables, paytables.Opening("auto-late", "automated-craps",
                                                              "nj-13-69f", {}, "admin"))
    kit.tables.add(live)
    alice = kit.users["alice"]
    run(kit, "alice", live, cashier.buy_in(kit.ledger, alice, live, Decimal(50)))
    run(kit, "dealer", live, outcomes.no_more_bets(kit.users["dealer"], live))
    before = (live.chips("alice"), live.seq)
    field = {"wager": "field", "amount": "5"}
    refused = run(kit, "alice", live, wagers.bet(alice, live, field, kit.ledger.limits))
    assert refused.status == 409, refused.body
    error = refused.body["error"]
    assert error["clause"] == "N.J.A.C. 13:69F-1.3(a)"
    assert "a device throws the dice" in error["reason"]
    assert (live.chips("alice"), live.seq) == before and not live.procedures.state()[
        "late_bets"]
