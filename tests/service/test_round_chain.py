"""A table's round counter and who may look up a round answer to the hash chain, not to the
``rounds`` and ``round_players`` projections.

A table rebuilt (after a failed write, a void, at start-up or on a cluster node) takes its
round under way from its chained events (``tables.next_round``): a ``rounds`` row deleted
through SQL cannot make the next round reuse a decided round's number. The audit rebuilds
both projections from the events and names a row added or taken away: a ``rounds`` row for
each round the chain decides, and ``round_players`` (which rounds a player may recall) with
the players each such round's events give. In process, one demo app for the module, a table
of its own for each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.live import LiveTable
from croupier.service.tables import rebuild_table

from .appkit import App, demo_app

CLAUSE = "replay contract: Outcomes"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("round-chain") / "data") as made:
        yield made


def _services(app: App) -> Any:
    return app.client.app.state.services  # type: ignore[attr-defined]


def _engine(app: App) -> sa.Engine:
    engine: sa.Engine = _services(app).engine
    return engine


def _live(app: App, table: str) -> LiveTable:
    live: LiveTable = _services(app).runner.tables.all[table]
    return live


def _wheel(app: App, table: str) -> str:
    """A physical wheel with alice's 5 on red and bob's 5 on black, "no more bets" called.
    Its base path."""
    app.ok("admin", "/tables", {"id": table, "game": "roulette", "profile": "nj-casino-night",
                                "entry": "physical"}, key=None)
    base = f"/tables/{table}"
    app.ok("alice", base + "/buy-in", {"amount": "20"})
    app.ok("bob", base + "/buy-in", {"amount": "20"})
    app.ok("alice", base + "/bets", {"wager": "red", "amount": "5"})
    app.ok("bob", base + "/bets", {"wager": "black", "amount": "5"})
    app.ok("dealer", base + "/no-more-bets")
    return base


def _event_rounds(app: App, table: str) -> list[tuple[str, int]]:
    with _engine(app).connect() as conn:
        return [(r.kind, int(r.round)) for r in conn.execute(
            sa.select(store.events.c.kind, store.events.c.round)
            .where(store.events.c.table_id == table).order_by(store.events.c.seq))]


def _sql(app: App, text: str, **params: Any) -> int:
    with _engine(app).begin() as conn:
        return int(conn.execute(sa.text(text), params).rowcount)


def _findings(app: App, table: str) -> list[str]:
    r = app.get("auditor", "/audit/verify")
    assert r.status_code == 200, r.text
    return [f["what"] for f in r.json()["findings"] if f["where"] == f"table {table}"]


@pytest.mark.clause(CLAUSE)
def test_a_deleted_rounds_row_does_not_make_a_reloaded_table_reuse_its_number(app: App) -> None:
    """Round 1 is decided (an entered 5), its ``rounds`` row deleted through SQL and the table
    rebuilt from the ledger. The round under way is still 2, and alice's next wager is
    recorded in round 2, not in the decided round 1. A copy of the table from before the spin
    caught up with the ledger (a cluster node taking the table over) is in round 2 too, and
    the audit names the missing row."""
    base = _wheel(app, "rc-reuse")
    app.ok("dealer", base + "/spin", {"number": 5})
    assert app.get("alice", base).json()["round"] == 2
    assert _sql(app, "DELETE FROM rounds WHERE table_id = 'rc-reuse' AND round = 1") == 1
    tables = _services(app).runner.tables
    live = _live(app, "rc-reuse")
    tables.reload(live)
    assert live.round == 2
    assert app.get("alice", base).json()["round"] == 2
    with _engine(app).connect() as conn:
        row = conn.execute(sa.select(store.tables).where(store.tables.c.id == "rc-reuse")).one()
        ev = store.events
        stored = [(r.seq, r.round, r.payload) for r in conn.execute(
            sa.select(ev.c.seq, ev.c.round, ev.c.payload).where(ev.c.table_id == "rc-reuse")
            .order_by(ev.c.seq))]
    spin = next(seq for seq, _, payload in stored if '"entered"' in payload)
    copy = rebuild_table(row, [s for s in stored if s[0] < spin])
    assert copy.round == 1
    tables.catch_up(copy)
    assert (copy.seq, copy.round) == (live.seq, 2)
    app.ok("alice", base + "/bets", {"wager": "red", "amount": "5"})
    assert _event_rounds(app, "rc-reuse")[-1] == ("bet", 2)
    assert _findings(app, "rc-reuse") == [
        "round 1: its events decide it, but recall has no row of it"]


@pytest.mark.clause(CLAUSE)
def test_a_voided_round_keeps_its_number_when_its_row_is_deleted(app: App) -> None:
    """Round 1's entered result is voided (its void recorded in round 2) and its row deleted.
    Rebuilt, the table waits for round 2's result: the voided round's number is not used
    again, and the table does not skip to 3."""
    base = _wheel(app, "rc-void")
    app.ok("dealer", base + "/spin", {"number": 5})
    app.ok("supervisor", base + "/void", {"reason": "the dealer read the wrong pocket"})
    assert ("void", 2) in _event_rounds(app, "rc-void")
    assert _sql(app, "DELETE FROM rounds WHERE table_id = 'rc-void'") == 1
    live = _live(app, "rc-void")
    _services(app).runner.tables.reload(live)
    assert live.round == 2
    app.ok("dealer", base + "/spin", {"number": 6})
    assert _event_rounds(app, "rc-void")[-1][1] == 2
    assert live.round == 3


def test_round_players_rows_added_or_deleted_are_named_by_the_audit(app: App) -> None:
    """alice and bob play round 1; carol never sits at the table. A ``round_players`` row
    added for carol (letting her recall the round) and bob's deleted are each named by the
    audit, with the players the round's events give."""
    base = _wheel(app, "rc-players")
    app.ok("dealer", base + "/spin", {"number": 5})
    assert _findings(app, "rc-players") == []
    assert _sql(app, "INSERT INTO round_players (table_id, round, player, decided_at) "
                "VALUES ('rc-players', 1, 'carol', 0)") == 1
    assert _findings(app, "rc-players") == [
        "round 1: round_players lets ['alice', 'bob', 'carol'] look it up, its events give "
        "['alice', 'bob']"]
    assert _sql(app, "DELETE FROM round_players WHERE table_id = 'rc-players' "
                "AND player IN ('carol', 'bob')") == 2
    assert _findings(app, "rc-players") == [
        "round 1: round_players lets ['alice'] look it up, its events give ['alice', 'bob']"]
    # A round the chain has not decided listed for carol.
    assert _sql(app, "INSERT INTO round_players (table_id, round, player, decided_at) "
                "VALUES ('rc-players', 7, 'carol', 0), ('rc-players', 1, 'bob', 0)") == 2
    assert _findings(app, "rc-players") == [
        "round 7: round_players lets ['carol'] look it up, its events give []"]


def test_a_standing_wager_s_player_is_expected_in_round_players(app: App) -> None:
    """alice's pass wager stands through a roll that decides nothing of hers (13:69F-1.3: on
    a point of 4, a 6 neither wins nor loses it), so no event of round 2 names her: the audit
    still expects her among round 2's players, as the decision listed her, and finds nothing
    wrong."""
    base = "/tables/craps-1"  # the demo's craps table, its dice in its cup
    app.ok("alice", base + "/buy-in", {"amount": "50"})
    app.ready_dice("craps-1")
    app.ok("alice", base + "/bets", {"wager": "pass", "amount": "5"})
    app.ok("dealer", base + "/roll", {"dice": [2, 2]})  # the point is 4
    app.ok("dealer", base + "/roll", {"dice": [3, 3]})  # nothing of alice's decided
    with _engine(app).connect() as conn:
        named = conn.execute(sa.select(store.events.c.player).where(
            store.events.c.table_id == "craps-1", store.events.c.round == 2,
            store.events.c.player.is_not(None))).all()
        listed = conn.execute(sa.select(store.round_players.c.player).where(
            store.round_players.c.table_id == "craps-1", store.round_players.c.round == 2)
        ).all()
    assert named == [] and [p for (p,) in listed] == ["alice"]
    assert _findings(app, "craps-1") == []


def test_an_honest_wheel_with_voids_and_a_no_spin_audits_clean(app: App) -> None:
    """Every kind of round the chain decides, as the service writes it: an entered result
    voided and entered again, a "no spin" (13:47-20.32(j)1: too few revolutions), an RNG
    spin voided by two supervisors, and one withdrawn. The rounds, who may look each up, and
    the round under way after a rebuild all agree with the chain: the audit finds nothing."""
    base = _wheel(app, "rc-honest")
    app.ok("dealer", base + "/spin", {"number": 5})
    app.ok("supervisor", base + "/void", {"reason": "the dealer read the wrong pocket"})
    app.ok("dealer", base + "/spin", {"number": 6})
    app.ok("alice", base + "/bets", {"wager": "red", "amount": "5"})
    app.ok("dealer", base + "/no-more-bets")
    nospin = app.ok("dealer", base + "/spin", {"number": 5, "revolutions": 3})
    assert "no_spin" in [e["type"] for e in nospin["events"]], nospin
    app.ok("bob", base + "/bets", {"wager": "black", "amount": "5"})
    app.ok("dealer", base + "/no-more-bets")
    app.ok("dealer", base + "/spin", {})
    assert app.post("supervisor", base + "/void", {"reason": "the ball left the wheel"}
                    ).status_code == 202
    app.ok("floor", base + "/void/approve")
    app.ok("dealer", base + "/no-more-bets")
    app.ok("dealer", base + "/spin", {})
    assert app.post("supervisor", base + "/void", {"reason": "on second thought"}
                    ).status_code == 202
    app.ok("supervisor", base + "/void/withdraw")
    live = _live(app, "rc-honest")
    kept = live.round
    assert kept == 6  # rounds 1 (voided), 2, 3 (no spin), 4 (voided), 5 decided
    _services(app).runner.tables.reload(live)
    assert live.round == kept
    with _engine(app).connect() as conn:
        rows = [r for (r,) in conn.execute(sa.select(store.rounds.c.round).where(
            store.rounds.c.table_id == "rc-honest").order_by(store.rounds.c.round))]
    assert rows == [1, 2, 3, 4, 5]
    assert _findings(app, "rc-honest") == []
