"""An Idempotency-Key that two nodes of one PostgreSQL ledger receive at once, for bets at
two tables (two requests: each node serves its own table). The second transaction read no reply
under the key when it began, and its row for the key fails on the first one's when it is
written. It is then decided again on its own, and answered like any request sent under a key
kept for another: 422, nothing placed (it was a 500)."""

from __future__ import annotations

import threading
from decimal import Decimal
from pathlib import Path

from croupier.service import cashier, store, wagers
from croupier.service.errors import ApiError
from croupier.service.plans import Job, Plan, Reply
from croupier.service.runner import Runner
from serverkit import fresh_schema, postgres_url

from .ledgerkit import Kit


def test_a_key_another_node_kept_meanwhile_is_answered_as_kept_for_another_request(
        tmp_path: Path) -> None:
    url = fresh_schema(postgres_url(": two nodes share one PostgreSQL ledger"))
    kit = Kit(tmp_path, url)
    alice = kit.users["alice"]
    for table in ("craps-1", "roulette-1"):
        kit.act("alice", table, cashier.buy_in(kit.ledger, alice, kit.tables.all[table],
                                               Decimal(50)))
    other = Runner.over(store.make_engine(url))  # a second node: roulette-1 is its table
    wheel = other.tables.all["roulette-1"]
    bet = wagers.bet(alice, wheel, {"wager": "red", "amount": "1"}, other.ledger.limits)
    inside, go = threading.Event(), threading.Event()

    def held_open(conn: object) -> Plan:
        inside.set()  # its first reads found nothing under the key
        assert go.wait(10)
        return bet(conn)  # type: ignore[arg-type]

    answers: list[Reply | Exception] = []
    node = threading.Thread(target=lambda: answers.extend(
        other.run_batch([Job(alice, wheel, "K", "fp-roulette", held_open)])))
    node.start()
    assert inside.wait(10)
    craps = kit.tables.all["craps-1"]
    first = kit.runner.run_batch([Job(alice, craps, "K", "fp-craps", wagers.bet(
        alice, craps, {"wager": "field", "amount": "1"}, kit.ledger.limits))])[0]
    go.set()
    node.join(10)
    assert isinstance(first, Reply) and first.status == 200, first
    assert len(answers) == 1 and isinstance(answers[0], ApiError), answers
    assert answers[0].code == "idempotency_key_reused"
    assert wheel.table.chips("alice") == Decimal(50)
