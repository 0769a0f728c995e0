"""A table's round counter answers to the hash chain, not to the ``rounds`` projection.

A table rebuilt (after a failed write, a void, at start-up or on a cluster node) takes its
round under way from its chained events (``tables.next_round``): a ``rounds`` row deleted
through SQL cannot make the next round reuse a decided round's number. In process, one demo
app for the module, a table of its own for each test."""

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


@pytest.mark.clause(CLAUSE)
def test_a_deleted_rounds_row_does_not_make_a_reloaded_table_reuse_its_number(app: App) -> None:
    """Round 1 is decided (an entered 5), its ``rounds`` row deleted through SQL and the table
    rebuilt from the ledger. The round under way is still 2, and alice's next wager is
    recorded in round 2, not in the decided round 1. A copy of the table from before the spin
    caught up with the ledger (a cluster node taking the table over) is in round 2 too."""
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
