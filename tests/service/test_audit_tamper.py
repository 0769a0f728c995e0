"""The ledger is tamper-evident.

A ledger of a few hundred rounds (craps and roulette, RNG draws and entered dice) is built
in-process through the service's own actions. One byte of every stored event and of every
wallet entry is changed, one at a time, and the audit names that record (its table and seq, or
its wallet and entry). Each edit is checked with the audit's chain recomputation
(``chain.recompute``, the part of ``croupier audit verify`` that names an edited record) of the
edited chain, and a spread of them, with balances, with the complete audit on the database and
through the command itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.audit import chain, snapshot, verify
from croupier.service.audit.keys import key_path, load_key
from croupier.service.audit.verify import verify_ledger

from .ledgerkit import Kit

CRAPS_ROUNDS, ROULETTE_ROUNDS = 150, 60


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    k = Kit(tmp_path_factory.mktemp("tamper"))
    k.play(CRAPS_ROUNDS, ROULETTE_ROUNDS)
    signer = load_key(key_path(k.data_dir))
    verify.configure(signer, key_path(k.data_dir).with_name("ledger.key.pin"))
    try:
        yield k
    finally:
        verify.configure(None, None)
        k.engine.dispose()


def one_byte(text: str, at: int) -> str:
    """``text`` with the character at ``at`` (mod its length) replaced by another one."""
    i = at % len(text)
    c = text[i]
    other = ("7" if c != "7" else "3") if c.isdigit() else ("x" if c != "x" else "y")
    return text[:i] + other + text[i + 1:]


EVENT_COLUMNS = ("payload", "payload", "kind", "actor", "round", "at")


def edit_event(row: dict[str, Any], n: int) -> tuple[str, Any]:
    """One byte of one of the event's stored columns (which one varies with ``n``)."""
    column = EVENT_COLUMNS[n % len(EVENT_COLUMNS)]
    value = row[column]
    if column == "round":
        return column, int(one_byte(str(value), n))
    if column == "at":  # one digit of the time as stored (not the last two: a float's
        text = repr(value)  # 17th digit need not change its value)
        digits = [i for i, c in enumerate(text) if c.isdigit()][:-2]
        return column, float(one_byte(text, digits[n % len(digits)]))
    return column, one_byte(value, n * 7 + 5)


def test_clean_ledger_verifies_and_signs_a_checkpoint(kit: Kit) -> None:
    report = verify_ledger(kit.tables)
    assert report["ok"], report["problems"]
    assert report["events"] > 5 * (CRAPS_ROUNDS + ROULETTE_ROUNDS) // 2
    assert any("checkpoint" in n and "signed by key" in n for n in report["notes"])


def test_one_byte_of_every_event_and_entry_is_named(kit: Kit) -> None:
    with kit.engine.connect() as conn:
        snap = snapshot.read(conn)
    assert not chain.recompute(snap).findings
    edits = 0
    for t in snap.tables:
        table_id, rows = t["id"], snap.events[t["id"]]
        # The chains are independent: the edited table's chain is recomputed on its own.
        alone = snapshot.Snapshot(tables=[t], events={table_id: rows})
        for n, row in enumerate(rows):
            column, changed = edit_event(row, n)
            assert changed != row[column]
            original, row[column] = row[column], changed
            found = chain.recompute(alone).findings
            row[column] = original
            assert found and (found[0].where, found[0].seq) == (f"table {table_id}", row["seq"]), \
                (table_id, row["seq"], column, found[:1])
            edits += 1
    for w in snap.wallets:
        player, entries = w["player"], snap.entries.get(w["player"], [])
        alone = snapshot.Snapshot(wallets=[w], entries={player: entries})
        for n, entry in enumerate(entries):
            column = ("kind", "actor", "amount_cents", "balance_after_cents")[n % 4]
            value = entry[column]
            changed = int(one_byte(str(value), n)) if isinstance(value, int) \
                else one_byte(value, n)
            entry[column] = changed
            found = chain.recompute(alone).findings
            entry[column] = value
            assert found and (found[0].where, found[0].seq) == (f"wallet {player}", entry["id"])
            edits += 1
    assert edits == sum(map(len, snap.events.values())) + sum(map(len, snap.entries.values()))
    assert edits > 900


def _edit_db(kit: Kit, statement: str, **params: Any) -> None:
    with kit.engine.begin() as conn:
        conn.execute(sa.text(statement), params)


def test_full_audit_names_sampled_edits_and_balances(kit: Kit) -> None:
    """The whole audit on the database, as ``GET /audit/verify`` and start-up run it."""
    with kit.engine.connect() as conn:
        rows = conn.execute(sa.select(store.events).where(
            store.events.c.table_id == "craps-1").order_by(store.events.c.seq)).all()
    for row in rows[:: max(1, len(rows) // 8)]:
        _edit_db(kit, "UPDATE events SET payload = :p WHERE table_id = 'craps-1' AND seq = :s",
                 p=one_byte(row.payload, row.seq), s=row.seq)
        report = verify.verify_ledger(kit.tables, checkpoint=False)
        _edit_db(kit, "UPDATE events SET payload = :p WHERE table_id = 'craps-1' AND seq = :s",
                 p=row.payload, s=row.seq)
        assert report["first"] == {"where": "table craps-1", "seq": row.seq,
                                   "what": report["first"]["what"]}
    _edit_db(kit, "UPDATE seats SET chips_cents = chips_cents + 1 WHERE player = 'alice'")
    report = verify.verify_ledger(kit.tables, checkpoint=False)
    _edit_db(kit, "UPDATE seats SET chips_cents = chips_cents - 1 WHERE player = 'alice'")
    assert not report["ok"] and "seat alice" in report["problems"][0], report["problems"]
    _edit_db(kit, "UPDATE wallets SET balance_cents = balance_cents + 1 WHERE player = 'bob'")
    report = verify.verify_ledger(kit.tables, checkpoint=False)
    _edit_db(kit, "UPDATE wallets SET balance_cents = balance_cents - 1 WHERE player = 'bob'")
    assert not report["ok"] and any(p.startswith("wallet bob") for p in report["problems"])
    assert verify.verify_ledger(kit.tables, checkpoint=False)["ok"]


def test_the_command_names_an_edited_event(kit: Kit) -> None:
    with kit.engine.connect() as conn:
        row = conn.execute(sa.select(store.events).where(
            store.events.c.table_id == "roulette-1", store.events.c.kind == "settle")
            .order_by(store.events.c.seq).limit(1)).one()
    _edit_db(kit, "UPDATE events SET actor = 'mallory' WHERE table_id = 'roulette-1' "
             "AND seq = :s", s=row.seq)
    try:
        done = subprocess.run([sys.executable, "-m", "croupier", "audit", "verify", "--json",
                               "--data-dir", str(kit.data_dir)], capture_output=True, text=True,
                              timeout=300)
    finally:
        _edit_db(kit, "UPDATE events SET actor = :a WHERE table_id = 'roulette-1' "
                 "AND seq = :s", a=row.actor, s=row.seq)
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["first"]["where"] == "table roulette-1" and report["first"]["seq"] == row.seq
