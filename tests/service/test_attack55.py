"""Attacks on the audit's reading of the ledger's rows (attack55; in process: the app over a
demo ledger, the rows edited in its database as a database writer would).

* The audit stopped with an internal error, naming nothing, when a row it decodes as JSON did
  not hold JSON: a checkpoint's heads, a key's introduction record, a users' chain record's
  payload, a round's void mark (recall's projection) or an inspection's failures. ``croupier
  audit verify`` printed ``internal error: JSONDecodeError`` and ``GET /audit/verify``
  answered 500, so one text cell written into the database hid every other finding; the
  start-up audit failed the same way. Each is now a finding at the row it is in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from croupier.service import store

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack55")) as made:
        made.ok("admin", "/wallets/alice/deposits", {"amount": "50"})
        made.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
        made.ready_dice()
        made.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
        made.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 2]})  # a decided round
        assert made.audit()["ok"]
        yield made


def _engine(app: App) -> sa.Engine:
    engine: sa.Engine = app.client.app.state.services.engine  # type: ignore[attr-defined]
    return engine


# (table, column, the row's key column, which row: "min" or "max" of it, what it names)
CELLS = [
    ("checkpoints", "heads", "id", "max", "checkpoints"),
    ("ledger_keys", "record", "key_id", "min", "keys"),
    ("user_records", "payload", "seq", "min", "users"),
    ("rounds", "voided", "round", "max", "table"),
    ("inspections", "failures", "id", "max", "dice"),
    # SQLite keeps a word in a number's column as it is given.
    ("wallets", "balance_cents", "player", "max", "wallets"),
    ("wallet_entries", "at", "id", "max", "chains"),
]


@pytest.mark.parametrize(("table", "column", "key", "which", "named"), CELLS)
def test_a_cell_that_is_not_json_is_named_not_a_crash(app: App, table: str, column: str,
                                                      key: str, which: str, named: str) -> None:
    engine = _engine(app)
    t = store.metadata.tables[table]
    pick = sa.func.max if which == "max" else sa.func.min
    with engine.begin() as conn:
        at = conn.execute(sa.select(pick(t.c[key]))).scalar_one()
        before = conn.execute(sa.select(t.c[column]).where(t.c[key] == at)).scalar_one()
        # Through plain SQL: SQLAlchemy would refuse a word for a number, the database not.
        conn.execute(sa.text(f"UPDATE {table} SET {column} = :v WHERE {key} = :k"),
                     {"v": "not json {", "k": at})
    try:
        r = app.get("auditor", "/audit/verify")
        assert r.status_code == 200, r.text
        report = r.json()
        assert not report["ok"], report
        assert any(p.startswith(named) and "cannot be read" in p
                   for p in report["problems"]), report["problems"]
    finally:
        with engine.begin() as conn:
            conn.execute(t.update().where(t.c[key] == at).values({column: before}))
    assert app.audit()["ok"]
