"""Who deals a table and who shoots next, on record: the dealer on duty at each table
(13:47-20.25(c), 13:47-20.32(c)2) and the dice offered to the next player in order, passing
over a player only on that player's refusal (13:47-20.25(g)6, (g)7). In process, through the
service's own actions and runner."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import cashier, outcomes, paytables, store
from croupier.service.auth import Auth, User
from croupier.service.plans import Job
from croupier.service.procedures.dice import DiceDesk

from .ledgerkit import PASSWORD, Kit


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("duties") / "data")
    with made.engine.begin() as conn:
        Auth(made.engine).create_user(conn, "dealer2", PASSWORD, "dealer")
    with made.engine.connect() as conn:
        made.users.update({r.username: User(r.id, r.username, r.role)
                           for r in conn.execute(sa.select(store.users))})
    made.play(craps_rounds=0, roulette_rounds=0)  # buy-ins, the dice offered and selected
    try:
        yield made
    finally:
        made.engine.dispose()


def run(kit: Kit, who: str, table: str, plan: Any) -> Any:
    return kit.runner.run(Job(kit.users[who], kit.tables.all[table], uuid.uuid4().hex,
                              uuid.uuid4().hex, plan))


def duty(events: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["by"], e["clause"]) for e in events
            if e["type"] == "procedure" and e["name"] == "dealer_on_duty"]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(c)", "N.J.A.C. 13:47-20.32(c)2")
def test_the_dealer_on_duty_is_recorded_when_a_dealer_takes_the_table(kit: Kit) -> None:
    first = kit.roll("craps-1", (2, 3))
    assert duty(first["events"]) == [("dealer", "replay contract: Table procedures")]
    assert duty(kit.roll("craps-1", (2, 3))["events"]) == []  # the same dealer deals on
    other = kit.outcome("dealer2", "craps-1", outcomes.record(
        kit.users["dealer2"], kit.tables.all["craps-1"], kit.rng, None),
        outcomes.settle(kit.users["dealer2"], kit.tables.all["craps-1"]))
    assert duty(other["events"]) == [("dealer2", "replay contract: Table procedures")]
    assert kit.tables.all["craps-1"].state()["dealer"] == "dealer2"
    # Roulette under 13:47-20.32: "no more bets" is the dealer's first act there.
    called = run(kit, "dealer", "roulette-1", outcomes.no_more_bets(
        kit.users["dealer"], kit.tables.all["roulette-1"]))
    assert duty(called.body["events"]) == [("dealer", "N.J.A.C. 13:47-20.32(c)2")]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(g)6", "N.J.A.C. 13:47-20.25(g)7")
def test_the_dice_pass_over_a_player_only_on_that_players_refusal(kit: Kit) -> None:
    table_id = "night-craps"
    opening = paytables.Opening(table_id, "craps", "nj-casino-night", {}, "admin")
    live = paytables.open_table(kit.tables, opening)
    kit.tables.add(live)
    for player in ("alice", "bob"):
        run(kit, player, table_id, cashier.buy_in(kit.ledger, kit.users[player], live,
                                                   Decimal(50)))
    desk = live.procedures.dice
    assert isinstance(desk, DiceDesk) and desk.shooter() == "alice"
    # The dealer cannot skip alice, who has not thrown and has not refused the dice.
    skipped = run(kit, "dealer", table_id, desk.pass_on(kit.users["dealer"], by_shooter=False))
    assert skipped.status == 409
    assert skipped.body["error"]["clause"] == "N.J.A.C. 13:47-20.25(g)7"
    assert "only when that player refuses them" in skipped.body["error"]["reason"]
    assert desk.shooter() == "alice"
    # Alice passing them in her turn refuses them: recorded, and bob shoots.
    passed = run(kit, "alice", table_id, desk.pass_on(kit.users["alice"], by_shooter=True))
    kinds = [(e["type"], e.get("player") or e.get("shooter")) for e in passed.body["events"]]
    assert kinds == [("shoot_refused", "alice"), ("shooter", "bob")]
    assert desk.shooter() == "bob"
