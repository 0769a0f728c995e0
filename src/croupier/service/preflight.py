"""What ``croupier serve`` (and every command that opens a ledger) checks before it starts.

A ledger is never created where one was expected: an absent, empty (0 bytes), unreadable or
corrupt SQLite file, a data folder the server cannot write, or a database that ``croupier
init`` never initialised stops the command with what to run instead. SQLite files are checked
with ``PRAGMA integrity_check``. A ledger initialised by an older release is upgraded by its
migrations (never created).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import store

DB_NAME = "croupier.db"


class NotReady(Exception):
    """The ledger cannot be served; the message says why and what to run."""


def private_files() -> None:
    """Files this process creates are its user's alone (the database, its WAL and SHM, the
    key, the pin, the demo logins)."""
    os.umask(0o077)


def sqlite_file(data_dir: Path) -> Path:
    """The SQLite ledger in ``data_dir``, checked: present, not empty, readable, writable."""
    try:
        return _sqlite_file(data_dir)
    except PermissionError as exc:
        raise NotReady(f"the ledger in {data_dir} cannot be read: {exc.strerror} "
                       f"({exc.filename})") from None


def _sqlite_file(data_dir: Path) -> Path:
    path = data_dir / DB_NAME
    init = f"croupier init --data-dir {data_dir}"
    if not data_dir.is_dir():
        raise NotReady(f"there is no ledger in {data_dir} (no such folder): run `{init}`")
    if not path.exists():
        raise NotReady(f"there is no ledger in {data_dir} ({DB_NAME} is missing): run `{init}`"
                       " for a new one, or restore the file from a backup")
    try:
        with path.open("rb") as handle:
            header = handle.read(16)
    except OSError as exc:
        raise NotReady(f"the ledger {path} cannot be read: {exc.strerror}") from None
    if path.stat().st_size == 0:
        raise NotReady(f"the ledger {path} is empty (0 bytes): it was truncated; restore it "
                       "from a backup (croupier never replaces a ledger with a new one)")
    if header != b"SQLite format 3\x00":
        raise NotReady(f"{path} is not an SQLite database: restore the ledger from a backup")
    _writable(data_dir, path)
    _integrity(path)
    return path


def _writable(data_dir: Path, path: Path) -> None:
    """The folder and the file can be written (the WAL and SHM files live beside it)."""
    probe = data_dir / f".write-probe-{uuid.uuid4().hex}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
        with path.open("r+b"):
            pass
    except OSError as exc:
        with contextlib.suppress(OSError):
            probe.unlink()
        raise NotReady(f"the data folder {data_dir} is not writable ({exc.strerror}): every "
                       "action would fail; make it writable by the server's user") from None


def _integrity(path: Path) -> None:
    """``PRAGMA integrity_check`` on the file (read-only connection)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise NotReady(f"the ledger {path} is damaged ({exc}): restore it from a backup") from None
    if [r[0] for r in rows] != ["ok"]:
        detail = "; ".join(str(r[0]) for r in rows[:3])
        raise NotReady(f"the ledger {path} fails its integrity check ({detail}): restore it "
                       "from a backup")


def initialised(engine: Engine) -> bool:
    """Whether ``croupier init`` ran on this database (its migrations and its users)."""
    names = set(sa.inspect(engine).get_table_names())
    if not {"alembic_version", "users"} <= names:
        return False
    with engine.connect() as conn:
        return bool(conn.execute(sa.select(sa.func.count()).select_from(store.users)).scalar())


def open_ledger(data_dir: Path, database: str | None) -> Engine:
    """The engine of an initialised ledger, upgraded to the newest migration; NotReady if
    there is none where one was expected."""
    if database is None:
        path = sqlite_file(data_dir)
        url = f"sqlite:///{path.resolve()}"
        private_files()
        with contextlib.suppress(OSError):  # not ours to change: the user's own arrangement
            for name in (path, path.with_name(path.name + "-wal"),
                         path.with_name(path.name + "-shm")):
                if name.exists():
                    name.chmod(0o600)
            data_dir.chmod(0o700)
    else:
        url = database
    engine = store.make_engine(url)
    try:
        ready = initialised(engine)
    except sa.exc.OperationalError as exc:
        raise NotReady(f"the database cannot be reached: {exc.orig}") from None
    if not ready:
        where = f"--database {engine.url.render_as_string(hide_password=True)}" if database \
            else f"--data-dir {data_dir}"
        raise NotReady(f"the database is not initialised: run `croupier init {where}`")
    store.upgrade(engine)
    return engine


@contextlib.contextmanager
def held(database: Path) -> Iterator[None]:
    """Hold the SQLite ledger ``database`` for this process alone: ``croupier serve`` for as
    long as it serves, ``croupier restore`` while it replaces the file. NotReady if another
    process holds it.

    Two servers over one SQLite file each keep the tables and their chains' heads in memory:
    every action one took made the other's next action at that table fail (500), and a restore
    that renamed the file under a running server left its open connections writing, and
    acknowledging, into the file set aside. The lock is an exclusive ``flock`` on a file
    beside the ledger, released by the kernel when the process ends, however it ends."""
    lock = database.with_name(database.name + ".serving")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise NotReady(f"another process holds the ledger {database} (croupier serve, or "
                       "croupier restore): one process serves a SQLite ledger, and a restore "
                       "waits for the server to stop") from None
    try:
        yield
    finally:
        os.close(fd)  # closing the file releases its lock


def served_file(engine: Engine) -> Path | None:
    """The SQLite file ``engine`` serves (None on PostgreSQL, whose nodes lease tables)."""
    if not store.is_sqlite(engine) or not engine.url.database:
        return None
    return Path(engine.url.database)
