"""A node taking a table over folds only the events written since it last saw the table
(``Ledger.catch_up``): the result is the table a full rebuild from the ledger gives, in every
respect a later write depends on. In-process, on SQLite: two ledger objects over one database
stand for two nodes (no cluster, no PostgreSQL needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from croupier.service import voids, wagers
from croupier.service.live import LiveTable
from croupier.service.runner import Runner
from service.ledgerkit import Kit


def snapshot(live: LiveTable) -> dict[str, Any]:
    """What a later write depends on: the table as the API shows it and its round's place."""
    return {"state": live.state(), "round": live.round, "first": live.round_first_seq,
            "participants": sorted(live.participants), "monitors": live.monitors.summary()}


def rebuilt(kit: Kit, table: str) -> tuple[dict[str, Any], str]:
    fresh = Runner.over(kit.engine)
    return snapshot(fresh.tables.all[table]), fresh.ledger.heads[table]


def test_catch_up_equals_a_full_rebuild(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    other = Runner.over(kit.engine).tables  # a second node: saw the tables at its start
    kit.play(craps_rounds=6, roulette_rounds=3)
    # A bet left on the layout: the current round has a participant and no decision yet.
    craps = kit.tables.all["craps-1"]
    kit.act("alice", "craps-1", wagers.bet(kit.users["alice"], craps, {"wager": "field", "amount": "2"},
                                            kit.ledger.limits))
    for table in ("craps-1", "roulette-1"):
        live = other.all[table]
        assert live.seq < kit.tables.all[table].seq
        other.catch_up(live)
        expected, head = rebuilt(kit, table)
        assert snapshot(live) == expected
        assert other.ledger.heads[table] == head == kit.ledger.heads[table]


def test_catch_up_over_a_void_rebuilds_without_the_voided_events(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    kit.play(craps_rounds=2, roulette_rounds=0)
    other = Runner.over(kit.engine).tables
    craps = kit.tables.all["craps-1"]
    kit.act("alice", "craps-1", wagers.bet(kit.users["alice"], craps, {"wager": "field", "amount": "1"},
                                            kit.ledger.limits))
    kit.roll("craps-1", (1, 1))
    kit.act("supervisor", "craps-1", voids.void(kit.users["supervisor"], craps, "dice left"))
    live = other.all["craps-1"]
    other.catch_up(live)
    expected, head = rebuilt(kit, "craps-1")
    assert snapshot(live) == expected and other.ledger.heads["craps-1"] == head
