"""Attacks on the audit's reading of the ledger's rows (attack55; in process: the app over a
demo ledger, the rows edited in its database as a database writer would) and on the server's
connections (a real server process).

* The audit stopped with an internal error, naming nothing, when a row it decodes as JSON did
  not hold JSON: a checkpoint's heads, a key's introduction record, a users' chain record's
  payload, a round's void mark (recall's projection) or an inspection's failures. ``croupier
  audit verify`` printed ``internal error: JSONDecodeError`` and ``GET /audit/verify``
  answered 500, so one text cell written into the database hid every other finding; the
  start-up audit failed the same way (so did a word in a number's column, which SQLite
  keeps). Each is now a finding naming the part of the ledger it is in.
* One client opening connections faster than the header deadline closes them (a real
  ``croupier serve``, three clients on one address) held every file descriptor the process
  could open: 8 of 30 health checks from elsewhere failed to connect. One address now holds
  at most an eighth of them, and one more is closed at once."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service import listen, store
from croupier.service.audit import second_persons
from croupier.service.audit.snapshot import Snapshot
from serverkit import room_for_connections

from .appkit import App, demo_app
from .conftest import Server, limit_files, make_server, running
from .ledgerkit import event_row, record_row


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
    ("rounds", "round", "round", "max", "ledger"),
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
        with engine.begin() as conn:  # the row found by what it now holds
            conn.execute(t.update().where(t.c[column] == sa.literal("not json {"))
                         .values({column: before}))
    assert app.audit()["ok"]


# --- many connections from one client ----------------------------------------------------

def _limit_of(pid: int) -> int:
    """The open-files limit a process runs under (its soft limit, /proc/PID/limits)."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise AssertionError("no open-files limit")


def _health(source: str, port: int) -> bytes:
    """The first bytes of the answer to ``GET /health`` over a connection from ``source``."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return conn.recv(64)


FILES = 1024
"""The server's open-files limit in the test: its share per address is then 128."""


@pytest.fixture
def small_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server process whose open-files limit is :data:`FILES` (soft and hard), whatever
    this machine's: the test holds its share, not thousands."""
    limit_files(monkeypatch, FILES)
    with running(make_server("sqlite", tmp_path)) as srv:
        yield srv


def test_one_address_holds_a_share_of_the_connections_not_all(small_server: Server) -> None:
    """One client opening connections faster than the header deadline (10 s) closes them held
    every file descriptor the server may open: a new connection from anyone was refused now
    and then (8 of 30 health checks failed under three such clients on one address, with a
    limit of 20,000). An address now holds at most its share (128 of 1,024 here): one more is
    closed at once, and a client from another address is answered meanwhile."""
    assert small_server.proc is not None
    assert _limit_of(small_server.proc.pid) == FILES
    cap = listen.per_address(FILES)
    room_for_connections(cap + 1)
    port = small_server.port
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(cap)]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as extra:
            extra.settimeout(5)
            assert extra.recv(1) == b"", "a connection past the address's share was kept"
        assert _health("127.0.0.2", port).startswith(b"HTTP/1.1 200"), "another address"
    finally:
        for conn in held:
            conn.close()
    deadline = time.monotonic() + 10
    while not _health("127.0.0.1", port).startswith(b"HTTP/1.1 200"):
        assert time.monotonic() < deadline, "the address's connections were never given back"
        time.sleep(0.1)


# --- the audit's second reading of the two-person decisions -------------------------------


def test_the_result_replacing_a_voided_entry_is_read_against_the_users_chain() -> None:
    """(docs/two-person-rules.md) One supervisor voids an entered result alone, and the dealer
    who enters what replaces it is a person independent of them: the server refuses one of
    the supervisor's line, and the audit reads every other two-person decision again against
    the users' chain as it then stood, so that one made while the chain was edited and put
    back is named. This one it did not read: box and dice, both made by admin through the
    API, struck a result and put another in its place, and the audit passed."""
    users = [
        record_row(1, "genesis", "", "croupier", 1.0, users=[
            {"username": "admin", "role": "admin", "locked": False, "deleted": False,
             "made_by": None, "password": "a"}]),
        record_row(2, "created", "box", "admin", 2.0, role="supervisor", made_by="admin",
              password="b"),
        record_row(3, "created", "dice", "admin", 3.0, role="dealer", made_by="admin",
              password="c"),
        record_row(4, "created", "d", "command line", 4.0, role="dealer", made_by=None,
              password="d")]
    snap = Snapshot()
    snap.events = {"craps-1": [
        event_row(1, "entered", 10.0, by="d", outcome=[1, 2]),
        event_row(2, "void", 11.0, decision=1, seqs=[1], reason="misread", by="box"),
        event_row(3, "entered", 12.0, by="dice", outcome=[2, 2]),   # box's own line
        event_row(4, "void", 13.0, decision=2, seqs=[3], reason="misread", by="box"),
        event_row(5, "entered", 14.0, by="d", outcome=[3, 3]),      # independent: no finding
        event_row(6, "entered", 15.0, by="dice", outcome=[1, 1]),   # replaces nothing
        event_row(7, "void", 16.0, decision=4, seqs=[], reason="r", by="box", approved_by="d"),
        event_row(8, "entered", 17.0, by="dice", outcome=[1, 1])]}  # an RNG void's: nothing
    found = second_persons.check(users, snap)
    assert [(f.where, f.seq) for f in found] == [("table craps-1", 3)], found
    assert "both came from admin" in found[0].what and "dice" in found[0].what
