"""The ledger's tables (SQLAlchemy Core) and the database connection.

SQLite is embedded by default (one file in the data folder, WAL journal: a committed
transaction survives the process being killed); PostgreSQL is used when a URL is given. Money
is stored as whole cents in integers, never as floating point. The schema is created and
upgraded by the Alembic migrations in ``croupier/service/migrations`` (:func:`upgrade`).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from psycopg.pq import TransactionStatus
from sqlalchemy.engine import Connection, Engine

from croupier.money import CENT

log = logging.getLogger("croupier.service")

metadata = sa.MetaData()

users = sa.Table(
    "users", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("username", sa.String(64), nullable=False, unique=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("failed_logins", sa.Integer, nullable=False, default=0),
    sa.Column("locked", sa.Boolean, nullable=False, default=False),
    sa.Column("created_at", sa.Float, nullable=False),
    # Who made the account or gave it its role through the API (None: the command line);
    # a projection of the users' chain (``service/people.py``, migration 0006).
    sa.Column("made_by", sa.String(64)),
)

tokens = sa.Table(
    "tokens", metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

wallets = sa.Table(
    "wallets", metadata,
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("balance_cents", sa.BigInteger, nullable=False),
    sa.Column("chain_head", sa.String(64)),  # the hash of its last entry (None: none yet)
)

wallet_entries = sa.Table(
    "wallet_entries", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player", sa.String(64), nullable=False, index=True),
    sa.Column("amount_cents", sa.BigInteger, nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("table_id", sa.String(64)),
    sa.Column("seq", sa.Integer),
    sa.Column("balance_after_cents", sa.BigInteger, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("hash", sa.String(64)),
    # The digest of the request that made a move at the cage (``codec.request_digest``),
    # chained with the entry (migration 0008); None for a move that came with a table's event.
    sa.Column("request", sa.String(64)),
    sa.Index("ix_wallet_entries_request", "request",
             sqlite_where=sa.text("request IS NOT NULL"),
             postgresql_where=sa.text("request IS NOT NULL")),
)

tables = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("profile", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("capacity", sa.Integer, nullable=False),
    sa.Column("house_cents", sa.BigInteger, nullable=False, default=0),
    sa.Column("created_at", sa.Float, nullable=False),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("chips_cents", sa.BigInteger, nullable=False),
    sa.Column("on_table_cents", sa.BigInteger, nullable=False),
)

events = sa.Table(
    "events", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("player", sa.String(64)),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("hash", sa.String(64)),
    # The digest of the request that produced the event (migration 0007): a copy of what its
    # payload records (``codec.request_digest``), indexed so a retry whose stored reply is
    # missing is still known; the audit compares the two.
    sa.Column("request", sa.String(64)),
    sa.Index("ix_events_round", "table_id", "round"),
    sa.Index("ix_events_request", "request", sqlite_where=sa.text("request IS NOT NULL"),
             postgresql_where=sa.text("request IS NOT NULL")),
    # Adjustments only (migration 0006): a supervisor's recent solo adjustments for a player.
    sa.Index("ix_events_adjustments", "player", "at",
             sqlite_where=sa.text("kind IN ('adjust', 'adjustment_approved')"),
             postgresql_where=sa.text("kind IN ('adjust', 'adjustment_approved')")),
)

rounds = sa.Table(
    "rounds", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("first_seq", sa.Integer, nullable=False),
    sa.Column("last_seq", sa.Integer, nullable=False),
    sa.Column("outcome", sa.Text, nullable=False),
    sa.Column("draw", sa.Text, nullable=False),
    sa.Column("layout", sa.Text, nullable=False),
    sa.Column("before", sa.Text, nullable=False),
    sa.Column("after", sa.Text, nullable=False),
    sa.Column("decided_at", sa.Float, nullable=False),
    sa.Column("voided", sa.Text),
)

round_players = sa.Table(
    "round_players", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(64), primary_key=True),
    sa.Column("decided_at", sa.Float, nullable=False),
    sa.Index("ix_round_players_player", "player", "decided_at"),
)

idempotency = sa.Table(
    "idempotency", metadata,
    sa.Column("user_id", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(128), primary_key=True),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("status", sa.Integer, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

dice = sa.Table(
    "dice", metadata,
    sa.Column("serial", sa.String(32), primary_key=True),
    sa.Column("set_name", sa.String(64), nullable=False),
    sa.Column("table_id", sa.String(64)),
    sa.Column("retired", sa.Boolean, nullable=False, default=False),
    sa.Column("registered_at", sa.Float, nullable=False),
)

inspections = sa.Table(
    "inspections", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("serial", sa.String(32), nullable=False, index=True),
    sa.Column("inspector", sa.String(64), nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("passed", sa.Boolean, nullable=False),
    sa.Column("failures", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

# The signed checkpoints of the hash chains and the public keys that sign them (migration 0002).
checkpoints = sa.Table(
    "checkpoints", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("heads", sa.Text, nullable=False),
    sa.Column("prev", sa.String(64), nullable=False),
    sa.Column("key_id", sa.String(32), nullable=False),
    sa.Column("signature", sa.Text, nullable=False),
    sa.Column("reason", sa.String(32), nullable=False),
)

ledger_keys = sa.Table(
    "ledger_keys", metadata,
    sa.Column("key_id", sa.String(32), primary_key=True),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("record", sa.Text, nullable=False),  # canonical JSON of the key's introduction
    sa.Column("signatures", sa.Text, nullable=False),  # {"old": ..., "new": ...}
)

# The house's own chain (migration 0004): equipment, dice custody, pay table changes
# (``service/register.py``).
house_records = sa.Table(
    "house_records", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("subject", sa.String(96), nullable=False, index=True),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    # A copy, for look-up, of the request digest a record's chained payload holds (a coupon
    # issued under an Idempotency-Key; migration 0008); compared by the audit.
    sa.Column("request", sa.String(64)),
    sa.Index("ix_house_records_request", "request",
             sqlite_where=sa.text("request IS NOT NULL"),
             postgresql_where=sa.text("request IS NOT NULL")),
)

# The users' chain (migration 0006): accounts, roles and who made whom (``service/people.py``).
user_records = sa.Table(
    "user_records", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("subject", sa.String(64), nullable=False, index=True),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)


def cents(amount: Decimal) -> int:
    """Whole cents of an amount; every amount the tables move is a whole number of cents."""
    quantized = amount.quantize(CENT)
    if quantized != amount:
        raise ArithmeticError(f"{amount} is not a whole number of cents")
    return int(quantized * 100)


def dollars(value: int) -> Decimal:
    """An amount from whole cents."""
    return (Decimal(value) / 100).quantize(CENT)


def now() -> float:
    return time.time()


def database_url(data_dir: Path, url: str | None) -> str:
    """The URL given, or the embedded SQLite file in ``data_dir``."""
    if url:
        return url
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'croupier.db').resolve()}"


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


READ_ONLY = "croupier_read_only"
"""The execution option of a connection that only reads (``conn.execution_options(**{READ_ONLY:
True})``): on SQLite its transaction is a plain ``BEGIN``, so a long read (an audit) never holds
the write lock with every bet waiting behind it."""


def reading(engine: Engine) -> Connection:
    """A connection for a read (recall, reports): on SQLite its transaction takes no write lock,
    so however long it reads, no bet waits behind it."""
    return engine.connect().execution_options(**{READ_ONLY: True})


WROTE = "croupier.wrote"
"""How many statements other than a ``SELECT`` a connection has sent through SQLAlchemy (in
``Connection.info``): the runner compares it before and after an action's plan, so a plan
that writes and then refuses is known (:class:`croupier.service.runner.RefusedAfterWriting`)."""


def _count_writes(conn: Connection, _cursor: Any, statement: str, *_: Any) -> None:
    if statement.lstrip()[:6].upper() != "SELECT":
        conn.info[WROTE] = conn.info.get(WROTE, 0) + 1


def make_engine(url: str) -> Engine:
    """An engine (:func:`_engine`) whose connections count the statements that may write."""
    engine = _engine(url)
    sa.event.listen(engine, "before_cursor_execute", _count_writes)
    return engine


def _engine(url: str) -> Engine:
    """An engine; SQLite gets WAL, a busy timeout and ``BEGIN IMMEDIATE`` transactions so that
    writers serialise at the start of a transaction rather than deadlock at its first write."""
    if url.startswith("sqlite"):
        if sa.engine.make_url(url).database in (None, "", ":memory:"):
            raise ValueError(f"{url}: a ledger is a SQLite file (sqlite:///PATH) or a PostgreSQL "
                             "database; one held in memory would vanish with the process")
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                                  pool_size=8, max_overflow=32)

        @sa.event.listens_for(engine, "connect")
        def _on_connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            # NORMAL: a commit in WAL mode survives the process being killed (SIGKILL); only
            # a power loss could lose the last commits. FULL when CROUPIER_SQLITE_SYNC=FULL.
            import os
            sync = "FULL" if os.environ.get("CROUPIER_SQLITE_SYNC", "").upper() == "FULL" else "NORMAL"
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            # A long read (READ_ONLY) takes no write lock: WAL gives it its snapshot anyway.
            read_only = conn.get_execution_options().get(READ_ONLY, False)
            conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

        return engine
    engine = sa.create_engine(url, pool_size=10, max_overflow=30, pool_pre_ping=True)
    sa.event.listen(engine, "connect", _bound_session)
    sa.event.listen(engine, "begin", _unbounded_yet)
    sa.event.listen(engine, "rollback_savepoint", _unbounded_again)
    sa.event.listen(engine, "before_cursor_execute", _bound_holder)
    return engine


# --- how long anything waits on PostgreSQL -------------------------------------------------
#
# Nodes of a cluster share one PostgreSQL. A node stopped (SIGSTOP, a long pause) keeps every
# lock its open transactions hold: a wallet's row, the house chain's lock, an account's
# sessions, a lease's row. Unbounded, another node's request waited on it for as long as the
# stop lasted, holding whatever it held itself (its table's lock, a thread, a password-check
# slot), so the requests behind it piled up. Two bounds, on every connection the server opens:
#
# * a transaction that holds a lock may sit idle (its client silent between two statements)
#   for at most HOLDING_IDLE_MS: PostgreSQL then ends the session and frees its locks. A
#   stopped node is exactly that: idle, inside a transaction. Any other transaction (a read)
#   may sit idle for at most IDLE_MS: it holds no lock another request waits on (only
#   schema changes wait on a read), and a slow read still has the time it needs;
# * a statement waits for a lock for at most LOCK_WAIT_MS, then fails (55P03), answered 503
#   "busy": nothing was changed, and a retry with the same Idempotency-Key is safe. The wait
#   outlasts HOLDING_IDLE_MS, so a waiter behind a stopped node gets the lock once PostgreSQL
#   has ended the stopped node's transaction, and only a live holder keeping a lock longer
#   than that makes it give up.

HOLDING_IDLE_MS = 3000
"""How long a transaction that holds a lock may sit idle before PostgreSQL ends it."""
IDLE_MS = 60_000
"""How long any other transaction may sit idle before PostgreSQL ends it."""
LONG_READ_IDLE_MS = 600_000
"""... and a long read that asks for it (:func:`long_read`: the audit's snapshot, start-up)."""
LOCK_WAIT_MS = 5000
"""How long a statement waits for a lock another transaction holds."""

_BOUNDED = "croupier.bounded"
"""Set in ``Connection.info`` once its transaction's idle bound is set for what it holds."""
_IDLE_SETTING = "idle_in_transaction_session_timeout"
# What a statement that takes a lock starts with (rows written or locked, schema changed);
# a SELECT takes one when it locks rows (FOR UPDATE/SHARE ...) or takes an advisory lock.
_WRITING = ("INSERT", "UPDATE", "DELETE", "MERGE", "WITH", "ALTER", "CREATE", "DROP",
            "TRUNCATE", "LOCK", "GRANT", "REVOKE", "COMMENT")
_LOCKING = (" FOR UPDATE", " FOR NO KEY UPDATE", " FOR SHARE", " FOR KEY SHARE", "ADVISORY")


def takes_lock(statement: str) -> bool:
    """Whether ``statement`` takes a lock other transactions may wait on (PostgreSQL).

    >>> takes_lock("SELECT balance FROM wallets WHERE player = %(p)s FOR UPDATE")
    True
    >>> takes_lock("select pg_advisory_xact_lock(%(k)s)"), takes_lock("SELECT 1")
    (True, False)
    >>> takes_lock("  INSERT INTO events VALUES (1)"), takes_lock("SET LOCAL lock_timeout = '1s'")
    (True, False)
    """
    text = statement.lstrip().upper()
    if text.startswith("SELECT"):
        return any(marker in text for marker in _LOCKING)
    return text.startswith(_WRITING)


PLAN_EACH_TIME = "SET plan_cache_mode = force_custom_plan"
"""The driver prepares a statement run often, and PostgreSQL then keeps one plan for it
(a generic plan) if that plan looked no dearer than those made so far. On a new ledger those
were made while the events and the stored replies were a few rows, where reading the whole
table is cheapest: the plan kept read the whole table on every bet, for good, as it grew
(the look-ups of a group's Idempotency-Keys and of the events their requests produced; no
new plan is made until the table is next analysed). A plan made at each run costs some
microseconds and follows the table's size."""


def _bound_session(dbapi_conn: Any, _record: Any) -> None:
    """Every new PostgreSQL session: lock waits bounded, idle transactions bounded, and each
    prepared statement planned for the table as it is when it runs (:data:`PLAN_EACH_TIME`)."""
    autocommit = dbapi_conn.autocommit
    dbapi_conn.autocommit = True
    cur = dbapi_conn.cursor()
    try:
        # One round trip for the three (statements without parameters may go together).
        cur.execute(f"SET lock_timeout = {LOCK_WAIT_MS}; SET {_IDLE_SETTING} = {IDLE_MS}; "
                    f"{PLAN_EACH_TIME}")
    finally:
        cur.close()
        dbapi_conn.autocommit = autocommit


def _unbounded_yet(conn: Connection) -> None:
    conn.info[_BOUNDED] = False


def _unbounded_again(conn: Connection, *_: Any) -> None:
    # A savepoint rolled back undoes a bound set inside it (``set_config(..., true)``).
    conn.info[_BOUNDED] = False


def _bound_holder(conn: Connection, cursor: Any, statement: str, *_: Any) -> None:
    """Before a transaction's first statement that takes a lock, bound how long it may sit
    idle to :data:`HOLDING_IDLE_MS` for the rest of the transaction (unless a bound was set
    for it already: the table writers' fence sets its own, a long read or a migration theirs).
    A statement on a connection outside any transaction (autocommit: the liveness lock's) ends
    with its statement and needs none."""
    if conn.info.get(_BOUNDED):
        return
    if _sets_idle_bound(statement):
        conn.info[_BOUNDED] = True
        return
    if not takes_lock(statement):
        return
    dbapi = cursor.connection
    if dbapi.autocommit and dbapi.info.transaction_status == TransactionStatus.IDLE:
        return
    conn.info[_BOUNDED] = True
    cursor.execute(f"SELECT set_config('{_IDLE_SETTING}', '{HOLDING_IDLE_MS}', true)")


def _sets_idle_bound(statement: str) -> bool:
    """Whether ``statement`` sets its transaction's idle bound itself (the fence, a long read).

    >>> _sets_idle_bound("SELECT set_config('idle_in_transaction_session_timeout', '2000', true)")
    True
    >>> _sets_idle_bound("SHOW idle_in_transaction_session_timeout")
    False
    """
    text = statement.lower()
    return _IDLE_SETTING in text and ("set_config" in text or text.lstrip().startswith("set "))


def bound_idle(conn: Connection, milliseconds: int) -> None:
    """Let ``conn``'s transaction sit idle up to ``milliseconds`` between statements, whatever
    locks it takes (PostgreSQL; nothing on SQLite)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT set_config('{_IDLE_SETTING}', '{int(milliseconds)}', true)")


HELD_IDLE_MS = 10_000
"""How long after its process stops a lock held across transactions (:func:`held_lock`) is
freed by PostgreSQL."""


class LockBusy(Exception):
    """Another process has held the lock asked of :func:`held_lock` for the whole wait."""


class _Heartbeat:
    """Keeps a held lock's transaction from sitting idle while this process runs: a statement
    in it every quarter of :data:`HELD_IDLE_MS`, on a thread of its own."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._use = threading.Lock()
        self._stop = threading.Event()
        self._lost = False
        self._thread = threading.Thread(target=self._beat, name="held-lock", daemon=True)

    def _touch(self) -> bool:
        with self._use:
            if not self._lost:
                try:
                    self._conn.exec_driver_sql("SELECT 1")
                except Exception:
                    self._lost = True
            return not self._lost

    def _beat(self) -> None:
        while not self._stop.wait(HELD_IDLE_MS / 4000) and self._touch():
            pass

    def start(self) -> None:
        self._thread.start()

    def alive(self) -> bool:
        """Whether the lock is still held: its transaction answers."""
        return self._touch()

    def stop(self) -> bool:
        """Stop beating; whether the lock was held to the end."""
        self._stop.set()
        self._thread.join()
        return not self._lost


@contextlib.contextmanager
def held_lock(engine: Engine, key: int, wait_seconds: float) -> Iterator[Callable[[], bool]]:
    """Hold PostgreSQL's advisory lock ``key`` while the block runs, across the transactions it
    makes on other connections (a checkpoint numbered, committed and pinned; a node's start-up);
    :class:`LockBusy` if another process holds it for ``wait_seconds``. Yields ``still_held()``:
    False once the lock is no longer this process's.

    A session's lock (``pg_advisory_lock``) lasts as long as its connection, and a stopped
    process keeps its connections: every other process asking for it waited as long as the
    stop lasted. Here the lock is a transaction's, on a connection of its own whose transaction
    stays open for the block and may sit idle at most :data:`HELD_IDLE_MS`; a heartbeat thread
    runs a statement in it more often than that while the process runs. A stopped process
    sends nothing, and PostgreSQL ends the session and frees the lock. (If the stop outlasts
    that bound, ``still_held()`` says so when the process wakes: whatever the lock ordered may
    have been done by another process meanwhile.)"""
    conn = engine.connect()
    try:
        conn.begin()
        conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(wait_seconds * 1000)}")
        bound_idle(conn, HELD_IDLE_MS)
        try:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
        except sa.exc.OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                raise LockBusy(f"lock {key:#x} held elsewhere for over {wait_seconds} s") \
                    from None
            raise
        heart = _Heartbeat(conn)
        heart.start()
        try:
            yield heart.alive
        finally:
            held = heart.stop()
            try:
                conn.commit()  # frees the lock
            except Exception:
                held = False
            if not held:
                log.warning("lock %#x was lost while held: this process stopped for longer than "
                            "%d s, and PostgreSQL ended its transaction", key,
                            HELD_IDLE_MS // 1000)
    finally:
        with contextlib.suppress(Exception):
            conn.close()


def long_read(conn: Connection) -> Connection:
    """``conn`` with room for a long read (the audit's snapshot, the tables loaded at start):
    its transaction may sit idle up to :data:`LONG_READ_IDLE_MS` between two statements while
    the process works through what it read. It locks no row, so no request waits on it."""
    bound_idle(conn, LONG_READ_IDLE_MS)
    return conn


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        # A migration holds its tables' locks to its end, every request waiting on them: it may
        # sit idle as long as any read (IDLE_MS), not a short write's bound, and no longer.
        bound_idle(conn, IDLE_MS)
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


# SQLSTATEs of a transaction the database itself ended so that another could go on (a
# serialization failure, a deadlock, a lock not had within LOCK_WAIT_MS), or ended because it
# sat idle holding locks (HOLDING_IDLE_MS: this process was stopped): it did nothing, and can
# simply be asked again.
LOCK_NOT_AVAILABLE = "55P03"
IDLE_ENDED = "25P03"
_TRANSIENT_STATES = frozenset({"40001", "40P01", LOCK_NOT_AVAILABLE, IDLE_ENDED})


def sqlstate(exc: BaseException) -> str | None:
    """PostgreSQL's SQLSTATE of a database error, if it has one."""
    state = getattr(getattr(exc, "orig", None), "sqlstate", None)
    return None if state is None else str(state)


def transient(exc: sa.exc.DBAPIError) -> bool:
    """Whether the database refused ``exc``'s transaction only for a moment: PostgreSQL's
    deadlock or serialization failure, a lock another transaction held past
    :data:`LOCK_WAIT_MS`, this transaction ended after it sat idle holding locks, SQLite's lock
    held past the busy timeout. Its transaction was rolled back, so nothing it did stands."""
    if sqlstate(exc) in _TRANSIENT_STATES:
        return True
    return isinstance(exc, sa.exc.OperationalError) and "database is locked" in str(exc.orig)


def worth_again(exc: BaseException, tries_left: int) -> bool:
    """Whether a transaction that failed with ``exc`` is tried again at once: the database ended
    it for another's sake (:func:`transient`) and tries are left. Not after a lock was waited
    for in vain: that wait already outlasted any stopped holder (PostgreSQL ends its
    transaction sooner), so the holder is busy and another wait would only hold the caller
    longer; the client is answered 503 and retries with its key."""
    return (tries_left > 0 and isinstance(exc, sa.exc.DBAPIError) and transient(exc)
            and sqlstate(exc) != LOCK_NOT_AVAILABLE)
