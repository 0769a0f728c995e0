"""A table is opened in the transaction that records its entry mode in the house's chain
(``table_entry``); a ``tables`` row no such record names was added to the database, and the
audit names it. Its own chain starts from its row, so it linked, and no checkpoint had signed
a table that did not exist yet: before, a table written into the database, with whatever pays
and limits its row gave, passed ``audit verify`` and was served after the next start. Now the
audit names it and no node serves it, at start or when asked for it by name.
In-process, on a demo ledger (docs/ledger.md, "Every table and the chain behind it")."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.audit import verify
from croupier.service.audit.keys import key_path, load_key
from croupier.service.audit.verify import verify_ledger
from croupier.service.runner import Runner

from .ledgerkit import Kit


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("opening") / "data")
    path = key_path(made.data_dir)
    verify.configure(load_key(path), path.with_name("ledger.key.pin"))
    try:
        yield made
    finally:
        verify.configure(None, None)
        made.engine.dispose()


def test_a_table_row_no_one_opened_is_named_by_the_audit(kit: Kit) -> None:
    report = verify_ledger(Runner.over(kit.engine).tables)
    assert report["ok"], report["problems"]  # every demo table was opened with its record
    with kit.engine.begin() as conn:
        model = conn.execute(sa.select(store.tables).where(store.tables.c.id == "craps-1")
                             ).first()
        assert model is not None
        options = json.loads(model.options)
        conn.execute(store.tables.insert().values(
            id="craps-9", game=model.game, profile=model.profile,
            options=json.dumps(options), capacity=model.capacity + 4, house_cents=0,
            created_at=store.now()))
    restarted = Runner.over(kit.engine).tables
    report = verify_ledger(restarted)
    assert not report["ok"]
    named = [f for f in report["findings"] if f["where"] == "table craps-9"]
    assert len(named) == 1 and "no record of the house's chain opened it" in named[0]["what"]
    assert not [f for f in report["findings"] if f["where"] != "table craps-9"], report


def test_a_table_row_no_one_opened_is_not_served(kit: Kit) -> None:
    """A node starting over the ledger leaves the row out, and a node asked for it by name
    (a cluster's node loading a table another opened) finds no such table; the tables a record
    opened are served as before."""
    with kit.engine.begin() as conn:
        model = conn.execute(sa.select(store.tables).where(store.tables.c.id == "craps-1")
                             ).one()
        conn.execute(store.tables.insert().values(
            id="craps-8", game=model.game, profile=model.profile, options=model.options,
            capacity=model.capacity, house_cents=0, created_at=store.now()))
    tables = Runner.over(kit.engine).tables
    assert "craps-8" not in tables.all and "craps-1" in tables.all
    assert tables.known("craps-8") is None
    assert tables.known("craps-1") is tables.all["craps-1"]
