"""Found by an attack on backups, the audit and the bundle (in process: a demo ledger built by
``ledgerkit``, the restore and the audit called as the command line calls them).

* ``croupier restore`` compared the copy only with the pin, which is as new as the last signed
  checkpoint: a copy taken before a deposit that was acknowledged but not yet signed (the
  seconds before a crash, or a ledger whose checkpoints stopped) was installed over the ledger
  holding it, without a word, and the deposit was gone. Now every chain's head of the ledger
  a restore replaces must be in the copy, or the loss is named and refused unless a recovery
  is declared (then recorded with the rest of the gap);
* a backup's signed head covers the chains' rows, not the schema around them: a copy with a
  trigger added (one taking a cent from alice's wallet row at each of her entries) verified
  and was installed, and the trigger then acted on every write with no record in any chain.
  The audit (so the start-up audit too, on SQLite and PostgreSQL) now names any trigger, view
  or rule, croupier's migrations making none, and a restore refuses a copy holding one;
* two ``croupier serve`` on one SQLite ledger both started and served: each keeps the tables
  and their chains' heads in memory, so every action at a table through one made the other's
  next action there fail with a 500; and ``croupier restore`` ran under a live server,
  renaming the file its open connections went on writing (and acknowledging) into. A server
  now holds its SQLite ledger alone (a lock beside the file) and a restore takes the same
  lock: the second server, and a restore under a server, are refused;
* the audit compared each round recall shows with the replay, but skipped a row marked voided
  and never compared the mark with the chain: a void mark written into a round that stands
  made recall show it voided (by anyone, for any reason), and hid that round's outcome and
  balances, rewritten too, from the audit. Each row's mark is now rebuilt from the chain's
  void event and compared (a mark removed from a voided round is named as well);
* a bundle's equipment section (the dice and their inspections, as a regulator reads them) was
  exported from the ``dice`` and ``inspections`` rows, projections the export does not check,
  and ``verify-bundle`` did not compare it with the house's chain the bundle carries: a failed
  inspection taken out of the rows before an export was signed into the bundle, which
  verified. It is now compared;
* a restore verified the copy's chains, checkpoints and replay but not what the audit reads
  beside them: a copy whose stored reply was edited (a deposit's reply showing another
  balance) was installed as verified, over the ledger, and the server then refused to start on
  it. The stored replies and the house chain's projections are checked before installing;
* a declared recovery's reason, kept in the house's chain, took any text (a right-to-left
  override, an escape sequence, nothing at all), where every reason the server records is 3
  to 500 characters of plain text."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service import backup, install, preflight, register, store, voids, wagers
from croupier.service.audit import bundle, keys, verify
from croupier.service.audit.keys import Signer
from serverkit import own_schema, postgres_url

from .conftest import Server, free_port
from .ledgerkit import Kit

SKIM = ("CREATE TRIGGER skim AFTER INSERT ON wallet_entries WHEN NEW.player = 'alice' BEGIN "
        "UPDATE wallets SET balance_cents = balance_cents - 1 WHERE player = 'alice'; END")


@dataclass
class Ledger:
    """A demo ledger with a backup taken, then a deposit the backup does not hold."""

    kit: Kit
    signer: Signer
    pin: Path
    copy: Path


def _balance(engine: sa.Engine, player: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.select(store.wallets.c.balance_cents).where(
            store.wallets.c.player == player)).scalar_one())


def _backed_up(tmp_path: Path, *, bob: str | None = None) -> tuple[Kit, Path, keys.Signer, Path, Path]:
    """A demo ledger in ``tmp_path/data`` (bob's deposit of ``bob`` made first) and its backup
    copy: the kit, the data directory, the signer, the pin and the copy's path."""
    data = tmp_path / "data"
    kit = Kit(data)
    path = keys.key_path(data, None)
    signer, pin = keys.load_key(path), install.pin_path(path)
    if bob is not None:
        kit.deposit("bob", bob)
    copy = tmp_path / "copy.db"
    backup.backup(kit.engine, signer, pin, copy)
    return kit, data, signer, pin, copy


@pytest.fixture
def newer(tmp_path: Path) -> Iterator[Ledger]:
    """The ledger after the copy: alice's deposit of 77.00 acknowledged, no checkpoint since
    (the engine stays open, as a killed server leaves its write-ahead log)."""
    kit, _, signer, pin, copy = _backed_up(tmp_path)
    before = _balance(kit.engine, "alice")
    kit.deposit("alice", "77")
    assert _balance(kit.engine, "alice") == before + 7700
    try:
        yield Ledger(kit, signer, pin, copy)
    finally:
        kit.engine.dispose()


def test_a_copy_is_not_restored_over_a_ledger_holding_more(newer: Ledger) -> None:
    """The copy holds the pinned checkpoint (nothing was signed after the backup), so the pin
    alone let it in; alice's acknowledged deposit would have gone. Refused, the wallet named,
    and the ledger left as it was."""
    data = newer.kit.data_dir
    before = (data / "croupier.db").read_bytes()
    done = backup.restore(newer.copy, data, newer.signer, newer.pin, None)
    assert not done.installed
    assert len(done.problems) == 1 and "would lose wallet alice" in done.problems[0], done
    assert "--declare-recovery" in done.problems[0]
    assert (data / "croupier.db").read_bytes() == before
    assert not list(data.glob("croupier.db.before-restore-*"))
    assert _balance(newer.kit.engine, "alice") == 107700


def test_a_declared_recovery_records_what_the_replaced_ledger_held(newer: Ledger) -> None:
    """Declared, the copy is installed and the house's chain records the loss against the
    ledger replaced, beside the anchor's."""
    data = newer.kit.data_dir
    newer.kit.engine.dispose()
    done = backup.restore(newer.copy, data, newer.signer, newer.pin, "test: the deposit is lost")
    assert done.installed, done.problems
    engine = store.make_engine(f"sqlite:///{data / 'croupier.db'}")
    try:
        with engine.connect() as conn:
            records = register.rows(conn, kinds=["recovery_declared"])
        assert _balance(engine, "alice") == 100000
    finally:
        engine.dispose()
    assert len(records) == 1
    lost = records[0]["payload"]["gap"]["current"]
    assert set(lost) == {"wallet alice"} and lost["wallet alice"]["copy"] != \
        lost["wallet alice"]["current"]


def test_a_copy_over_a_ledger_that_cannot_be_read_is_a_recovery(newer: Ledger) -> None:
    """What a damaged ledger held after the pin cannot be compared: refused until declared
    (before, a ledger that could not be read was not compared at all)."""
    data = newer.kit.data_dir
    newer.kit.engine.dispose()
    for extra in ("-wal", "-shm"):
        Path(f"{data / 'croupier.db'}{extra}").unlink(missing_ok=True)
    (data / "croupier.db").write_bytes(b"not a database, not any more" * 100)
    done = backup.restore(newer.copy, data, newer.signer, newer.pin, None)
    assert not done.installed
    assert len(done.problems) == 1 and "cannot be read" in done.problems[0], done.problems
    done = backup.restore(newer.copy, data, newer.signer, newer.pin, "the disk failed")
    assert done.installed, done.problems
    assert done.gap["current"].startswith("unreadable: ")


def test_a_copy_of_the_ledger_as_it_stands_is_restored(tmp_path: Path) -> None:
    """The check costs an honest restore nothing: a copy of the ledger as it stands (its
    chains' heads all in the copy) is installed without a declaration."""
    kit, data, signer, pin, copy = _backed_up(tmp_path, bob="5")
    kit.engine.dispose()
    done = backup.restore(copy, data, signer, pin, None)
    assert done.installed and not done.problems and not done.gap, done


def test_a_copy_with_a_trigger_added_is_never_restored(tmp_path: Path) -> None:
    """The trigger changes no row the head signs, so the copy verified and was installed."""
    kit, data, signer, pin, copy = _backed_up(tmp_path)
    kit.engine.dispose()
    with sqlite3.connect(copy) as conn:
        conn.execute(SKIM)
    conn.close()
    before = (data / "croupier.db").read_bytes()
    done = backup.restore(copy, data, signer, pin, None)
    assert not done.installed
    assert any("the copy: database: trigger 'skim' on 'wallet_entries'" in p
               for p in done.problems), done.problems
    assert (data / "croupier.db").read_bytes() == before


def _audited(kit: Kit, trigger: str) -> list[str]:
    """The audit's problems with ``trigger`` written into the ledger's database."""
    with kit.engine.begin() as conn:
        conn.exec_driver_sql(trigger)
    verify.configure(None, None)
    report = verify.verify_ledger(kit.tables, checkpoint=False)
    return [p for p in report["problems"] if p.startswith("database: ")]


def test_the_audit_names_a_trigger_in_the_ledger(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    try:
        verify.configure(None, None)
        assert verify.verify_ledger(kit.tables, checkpoint=False)["ok"]
        found = _audited(kit, SKIM)
    finally:
        kit.engine.dispose()
    assert len(found) == 1 and "trigger 'skim' on 'wallet_entries'" in found[0], found


def test_the_audit_names_a_trigger_in_a_postgres_ledger(tmp_path: Path) -> None:
    base = postgres_url(" (a trigger in a PostgreSQL ledger)")
    with own_schema(base, "attack37_trigger") as url:
        kit = Kit(tmp_path / "data", url)
        try:
            verify.configure(None, None)
            assert verify.verify_ledger(kit.tables, checkpoint=False)["ok"]
            with kit.engine.begin() as conn:
                conn.exec_driver_sql(
                    "CREATE FUNCTION skim() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    "UPDATE wallets SET balance_cents = balance_cents - 1 "
                    "WHERE player = NEW.player; RETURN NEW; END $$")
            found = _audited(kit, "CREATE TRIGGER skim AFTER INSERT ON wallet_entries "
                                  "FOR EACH ROW EXECUTE FUNCTION skim()")
            with kit.engine.begin() as conn:
                conn.exec_driver_sql("CREATE VIEW ledger_view AS SELECT * FROM wallets")
            found_view = [p for p in verify.verify_ledger(kit.tables, checkpoint=False)[
                "problems"] if p.startswith("database: view")]
            with kit.engine.begin() as conn:  # alice's entries hidden from every read
                conn.exec_driver_sql("ALTER TABLE wallet_entries FORCE ROW LEVEL SECURITY")
                conn.exec_driver_sql("CREATE POLICY hide ON wallet_entries USING "
                                     "(player <> 'alice')")
            found_rls = [p for p in verify.verify_ledger(kit.tables, checkpoint=False)[
                "problems"] if p.startswith(("database: policy", "database: row security"))]
        finally:
            kit.engine.dispose()
    assert len(found) == 1 and "trigger 'skim' on 'wallet_entries'" in found[0], found
    assert len(found_view) == 1 and "view 'ledger_view'" in found_view[0], found_view
    assert found_rls == [
        "database: policy 'hide' on 'wallet_entries': " + found_rls[0].split(": ", 2)[2],
        "database: row security 'wallet_entries' on 'wallet_entries': "
        + found_rls[1].split(": ", 2)[2]], found_rls


def test_a_restore_is_refused_while_the_ledger_is_held(tmp_path: Path) -> None:
    """In process: the lock a server holds for as long as it serves."""
    kit, data, signer, pin, copy = _backed_up(tmp_path)
    kit.engine.dispose()
    before = (data / "croupier.db").read_bytes()
    with preflight.held(data / "croupier.db"), pytest.raises(backup.BackupError) as refused:
        backup.restore(copy, data, signer, pin, None)
    assert "another process holds the ledger" in str(refused.value)
    assert "stop the server first" in str(refused.value)
    assert (data / "croupier.db").read_bytes() == before
    assert not list(data.glob("croupier.db.before-restore-*"))
    done = backup.restore(copy, data, signer, pin, None)  # released: restored
    assert done.installed, done.problems


def test_one_server_per_sqlite_ledger_and_no_restore_under_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    first = Server(data, None)
    first.start()
    copy = tmp_path / "copy.db"
    try:
        first.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        run = [sys.executable, "-m", "croupier"]
        made = subprocess.run([*run, "backup", str(copy), "--data-dir", str(data)],
                              capture_output=True, text=True, timeout=300)
        assert made.returncode == 0, made.stderr
        second = subprocess.run([*run, "serve", "--data-dir", str(data), "--port",
                                 str(free_port())], capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "another process holds the ledger" in second.stderr
        restored = subprocess.run([*run, "restore", str(copy), "--data-dir", str(data)],
                                  capture_output=True, text=True, timeout=300)
        assert restored.returncode == 2 and "stop the server first" in restored.stderr, \
            restored.stdout + restored.stderr
        assert not list(data.glob("croupier.db.before-restore-*"))
        first.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})  # the first serves on
    finally:
        first.stop()
    assert first.proc is not None and first.proc.returncode == 0


def _round_audit(kit: Kit, sql: str) -> list[str]:
    """The audit's findings about rounds once ``sql`` has changed the ledger's rows."""
    with kit.engine.begin() as conn:
        conn.exec_driver_sql(sql)
    verify.configure(None, None)
    report = verify.verify_ledger(kit.tables, checkpoint=False)
    return [p for p in report["problems"] if ": round " in p]


@pytest.fixture
def decided(tmp_path: Path) -> Iterator[Kit]:
    """Rounds decided at craps-1 (alice betting), the last one's dice entered (7: it stands)."""
    kit = Kit(tmp_path / "data")
    kit.play(3, 0)
    craps = kit.tables.all["craps-1"]
    kit.act("alice", "craps-1", wagers.bet(kit.users["alice"], craps,
                                           {"wager": "field", "amount": "1"}, kit.ledger.limits))
    kit.roll("craps-1", (3, 4))
    verify.configure(None, None)
    assert verify.verify_ledger(kit.tables, checkpoint=False)["ok"]
    try:
        yield kit
    finally:
        kit.engine.dispose()


def test_a_void_mark_written_into_a_standing_round_is_named(decided: Kit) -> None:
    """Before: marked voided, its outcome rewritten too (a 7 shown as 2), the audit passed."""
    last = decided.tables.all["craps-1"].round - 1
    found = _round_audit(decided, (
        "UPDATE rounds SET voided = '{\"reason\": \"misread\", \"by\": \"supervisor\"}', "
        "outcome = replace(replace(outcome, '[3, 4]', '[1, 1]'), '\"total\": 7', "
        f"'\"total\": 2') WHERE table_id = 'craps-1' AND round = {last}"))
    assert found == [f"table craps-1: round {last}: recall shows it voided {{'reason': "
                     "'misread', 'by': 'supervisor'}, but no event voids it"], found


def test_a_real_void_passes_and_its_mark_removed_is_named(decided: Kit) -> None:
    live = decided.tables.all["craps-1"]
    last = live.round - 1
    decided.act("supervisor", "craps-1", voids.void(decided.users["supervisor"], live,
                                                    "the dice were misread"))
    assert _round_audit(decided, "SELECT 1") == []
    found = _round_audit(decided, f"UPDATE rounds SET voided = NULL WHERE table_id = "
                                  f"'craps-1' AND round = {last}")
    assert len(found) == 1 and f"round {last}: its events void it" in found[0], found
    assert "recall does not show it voided" in found[0]


def test_a_bundle_whose_equipment_differs_from_the_house_chain_fails(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    path = keys.key_path(kit.data_dir, None)
    signer, pin = keys.load_key(path), install.pin_path(path)
    honest = tmp_path / "honest.json"
    bundle.export(kit.engine, signer, pin, honest)
    report, _ = bundle.verify_bundle(honest)
    assert not report.findings, report.findings
    with kit.engine.begin() as conn:  # the latest inspection of NJ-0001 taken out of the rows
        conn.exec_driver_sql("DELETE FROM inspections WHERE id = (SELECT max(id) FROM "
                             "inspections WHERE serial = 'NJ-0001')")
    edited = tmp_path / "edited.json"
    bundle.export(kit.engine, signer, pin, edited)
    kit.engine.dispose()
    report, _ = bundle.verify_bundle(edited)
    found = [str(f) for f in report.findings]
    assert len(found) == 1 and found[0].startswith("die NJ-0001: the bundle's equipment: the "
                                                   "inspections table holds"), found


def test_a_copy_with_a_stored_reply_edited_is_never_restored(tmp_path: Path) -> None:
    kit, data, signer, pin, copy = _backed_up(tmp_path, bob="5")
    kit.engine.dispose()
    with sqlite3.connect(copy) as conn:
        edited = conn.execute("UPDATE idempotency SET body = replace(body, '\"balance\":', "
                              "'\"balance\":\"9\",\"was\":') WHERE body LIKE "
                              "'%\"player\":\"bob\"%'").rowcount
    conn.close()
    assert edited == 1
    before = (data / "croupier.db").read_bytes()
    done = backup.restore(copy, data, signer, pin, None)
    assert not done.installed
    assert any(p.startswith("the copy: stored reply of user") for p in done.problems), done
    assert (data / "croupier.db").read_bytes() == before


@pytest.mark.parametrize("reason", ["", "no", "disk lost \u202e7 days", "lost\x1b[2J"])
def test_a_declared_recoverys_reason_is_plain_text(newer: Ledger, reason: str) -> None:
    with pytest.raises(backup.BackupError, match="--declare-recovery"):
        backup.restore(newer.copy, newer.kit.data_dir, newer.signer, newer.pin, reason)
    assert _balance(newer.kit.engine, "alice") == 107700
