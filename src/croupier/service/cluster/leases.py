"""Table leases in PostgreSQL: which node owns a table, until when, under which fencing epoch.

A lease is one row of ``table_leases`` (table id, owner node, the owner's address for forwarded
requests, epoch, expiry). Expiry is kept on the database's clock (``clock_timestamp()``), so the
nodes' clocks never have to agree. The epoch grows by one every time the lease is acquired (a
new owner, or the same node again after losing it): it is the fencing token. Every transaction
that writes a table's events first reads the lease row ``FOR KEY SHARE`` and compares owner
and epoch with the writer's (:func:`fence`), so

* a node that stalled past its lease and woke up is refused in the very transaction it tries to
  write in, before anything reaches the ledger;
* a take-over locks the row ``FOR UPDATE`` (the one mode that conflicts with ``FOR KEY SHARE``)
  and so waits for the old owner's in-flight write to commit or roll back: the new owner
  rebuilds the table from a ledger that holds every committed action.

A lease also names the owner's *liveness lock* (``live_key``): a session-level advisory lock
the owning process holds on a connection of its own for as long as it lives. PostgreSQL drops a
session's locks the moment its connection closes, and a process killed outright closes all of
them; so a taker that finds that lock free knows the owner is gone and takes the table at once,
without waiting out the expiry (which was most of a fail-over). The take still locks the row
``FOR UPDATE`` and bumps the epoch, so fencing is exactly as before: a gone owner's in-flight
write has been rolled back with its connection, and a live owner whose lock connection alone
died (it drops its leases when it notices, at its next renewal) is refused on its next write.
A stalled owner (SIGSTOP) keeps its connections, so its lock, and is taken over at expiry.

The owner's renewal only moves ``expires_at`` (an UPDATE that changes no key takes a lock that
does not conflict with ``FOR KEY SHARE``), so renewing never waits for the owner's own writes;
a busy table would otherwise starve its renewal, as share locks keep arriving.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import store
from croupier.service.errors import ApiError

CHANNEL = "croupier_table_events"
"""The LISTEN/NOTIFY channel a node announces its tables' new events on (payload: table id)."""

DDL = """
CREATE TABLE IF NOT EXISTS table_leases (
    table_id   varchar(64) PRIMARY KEY,
    owner      varchar(64) NOT NULL,
    owner_url  text        NOT NULL,
    epoch      bigint      NOT NULL,
    expires_at timestamptz NOT NULL
)"""

# Where the table predates the liveness lock (NULL: an owner without one, taken at expiry only).
_LIVE_KEY = "ALTER TABLE table_leases ADD COLUMN IF NOT EXISTS live_key bigint"

# The owner's address vouched for with the ledger's key (:func:`address_mac`; NULL: an owner of
# an earlier release, which no node forwards to).
_URL_MAC = "ALTER TABLE table_leases ADD COLUMN IF NOT EXISTS url_mac text"

ADDRESS = "croupier-cluster-node-address"
"""The purpose the secret that vouches for a node's address is derived for (``Signer.derive``)."""

_CREATE = sa.text("""
INSERT INTO table_leases (table_id, owner, owner_url, epoch, expires_at)
VALUES (:t, '', '', 0, '-infinity') ON CONFLICT (table_id) DO NOTHING""")

# FOR UPDATE: the one lock mode that conflicts with the writers' FOR KEY SHARE (an UPDATE that
# changes no key, even INSERT ... ON CONFLICT DO UPDATE, does not wait for them).
_LOCK = sa.text("""
SELECT expires_at < clock_timestamp() AS expired, live_key FROM table_leases
 WHERE table_id = :t FOR UPDATE""")

# Free only if no session holds it: the owner's process (and so its connections) is gone. Held
# to the end of this transaction, so the same key probed by another taker reads as held.
_GONE = sa.text("SELECT pg_try_advisory_xact_lock(:k)")

_TAKE = sa.text("""
UPDATE table_leases SET owner = :node, owner_url = :url, epoch = epoch + 1,
       expires_at = clock_timestamp() + make_interval(secs => :ttl), live_key = :live_key,
       url_mac = :url_mac
 WHERE table_id = :t
RETURNING epoch""")

_RENEW = sa.text("""
UPDATE table_leases SET expires_at = clock_timestamp() + make_interval(secs => :ttl)
 WHERE owner = :node AND table_id = ANY(:tables)
RETURNING table_id, epoch""")

_RELEASE = sa.text("""
UPDATE table_leases SET expires_at = clock_timestamp() - interval '1 second'
 WHERE owner = :node AND table_id = :t AND epoch = :epoch""")

_LOOKUP = sa.text("""
SELECT owner, owner_url, epoch, expires_at < clock_timestamp() AS expired,
       EXTRACT(EPOCH FROM expires_at - clock_timestamp()) AS left_s, live_key, url_mac
  FROM table_leases WHERE table_id = :t""")

STALL_TIMEOUT_MS = 2000
"""A writer that stops mid-transaction (SIGSTOP, a long pause) has that transaction aborted by
PostgreSQL after this long idle, so the lease row it holds FOR KEY SHARE (and the wallet rows it
locked) never keep another node from taking the table over."""

# Read the lease under a key-share lock and bound how long this transaction may sit idle. (The
# table is announced for streams after the commit, not here: a transaction that NOTIFYs holds a
# database-wide lock through its commit, which serialised every table's commits.)
_FENCE = sa.text(f"""
SELECT owner, epoch,
       set_config('idle_in_transaction_session_timeout', '{STALL_TIMEOUT_MS}', true)
  FROM table_leases WHERE table_id = :t FOR KEY SHARE""")


class Fenced(ApiError):
    """A write by a node whose lease of the table is gone (stale epoch, or another owner):
    nothing was written; the client retries with the same Idempotency-Key (503)."""

    def __init__(self, table_id: str, holder: str | None, epoch: int | None) -> None:
        super().__init__(503, "not_owner",
                         f"this node no longer holds table {table_id} (lease now at epoch "
                         f"{epoch}); nothing was changed: retry with the same Idempotency-Key")
        self.table_id = table_id
        self.holder = holder


@dataclass(frozen=True)
class Holder:
    """The lease row as another node sees it."""

    owner: str
    url: str
    epoch: int
    expired: bool
    seconds_left: float
    live_key: int | None = None
    url_mac: str | None = None
    """The owner's vouching for ``url`` (:func:`address_mac`)."""


def create(conn: Connection) -> None:
    """The lease table (cluster mode only; one node never needs it). Several nodes may start at
    once: the caller holds the start-up advisory lock."""
    conn.exec_driver_sql(DDL)
    # Only what is missing: ALTER TABLE takes the table's strongest lock even when the column
    # is there, queued behind every transaction that has read the table (a stopped node's
    # included) and ahead of every one that comes after: every node's writes waited behind a
    # node's start.
    have = {str(name) for name in conn.execute(sa.text(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
        "current_schema() AND table_name = 'table_leases'")).scalars()}
    for column, alter in (("live_key", _LIVE_KEY), ("url_mac", _URL_MAC)):
        if column not in have:
            conn.exec_driver_sql(alter)


def address_mac(secret: bytes, node: str, url: str) -> str:
    """A node's vouching for its own address, under a secret derived from the ledger's key.

    A node forwards a request for another node's table, bearer token and all, to the address
    the lease row names; a row is something whoever writes the database can change. With the
    address alone, a row pointed at a listener of theirs handed them every forwarded token,
    an admin's included (a session as the admin, which nothing written into the database can
    otherwise make). The row now carries this MAC of the owner and its address, which only a
    holder of the key can compute; a forwarder sends nothing to an address it does not
    vouch for. A row moved to another node's (owner, address, MAC) only sends requests to a
    node of the cluster that does not hold the table, which refuses them."""
    message = json.dumps([node, url], separators=(",", ":")).encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def vouched(secret: bytes, holder: Holder) -> bool:
    """Whether ``holder``'s address is its owner's, vouched for with the key."""
    return holder.url_mac is not None and hmac.compare_digest(
        holder.url_mac, address_mac(secret, holder.owner, holder.url))


def hold_liveness(conn: Connection, key: int) -> bool:
    """Take the session-level liveness lock ``key`` on ``conn`` (a connection kept open for
    the process's life, in autocommit); False if some session holds it already."""
    return bool(conn.execute(sa.text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar())


def owner_gone(conn: Connection, holder: Holder) -> bool:
    """Whether ``holder``'s process is gone: its lease names a liveness lock and no session
    holds it (probed within ``conn``'s transaction)."""
    return holder.live_key is not None and bool(conn.execute(_GONE, {"k": holder.live_key})
                                                .scalar())


@dataclass(frozen=True)
class Taker:
    """What a taking node names in the lease besides itself: its liveness lock's key and its
    vouching for its address (:func:`address_mac`)."""

    live_key: int | None = None
    url_mac: str | None = None


def acquire(conn: Connection, table_id: str, node: str, url: str, ttl: float,
            taker: Taker | None = None) -> int | None:
    """Take the lease if nobody holds it or it has expired; the new epoch, or None. A taker
    with a liveness lock of its own (``live_key``, named in the lease it takes) also takes a
    lease whose owner is gone (its liveness lock free: :func:`owner_gone`).

    Waits at most a second for an in-flight write of the old owner (which holds the row
    ``FOR KEY SHARE``); a longer wait means the table is busy with a live owner: try again
    later."""
    taker = taker or Taker()
    live_key = taker.live_key
    # Bounded from the first statement: the row's insert waits too, on a renewal or take-over
    # in flight (a stopped node's, for as long as PostgreSQL leaves its transaction open).
    conn.exec_driver_sql("SET LOCAL lock_timeout = '1s'")
    try:
        with conn.begin_nested():
            conn.execute(_CREATE, {"t": table_id})
            row = conn.execute(_LOCK, {"t": table_id}).one()
    except sa.exc.OperationalError as exc:
        if store.sqlstate(exc) != store.LOCK_NOT_AVAILABLE:
            raise
        return None  # the owner is writing, or renewing
    if not row.expired and not (live_key is not None and row.live_key is not None and bool(
            conn.execute(_GONE, {"k": row.live_key}).scalar())):
        return None
    return int(conn.execute(_TAKE, {"t": table_id, "node": node, "url": url, "ttl": ttl,
                                    "live_key": live_key, "url_mac": taker.url_mac}).scalar_one())


def renew(conn: Connection, node: str, tables: list[str], ttl: float) -> dict[str, int]:
    """Extend this node's leases of ``tables``; the epoch of each one still held."""
    if not tables:
        return {}
    conn.exec_driver_sql("SET LOCAL lock_timeout = '1s'")
    rows = conn.execute(_RENEW, {"node": node, "tables": tables, "ttl": ttl}).all()
    return {str(r.table_id): int(r.epoch) for r in rows}


def release(conn: Connection, table_id: str, node: str, epoch: int) -> None:
    """Give a lease up (on shutdown): another node may take it at once."""
    conn.execute(_RELEASE, {"t": table_id, "node": node, "epoch": epoch})


def lookup(conn: Connection, table_id: str) -> Holder | None:
    row = conn.execute(_LOOKUP, {"t": table_id}).first()
    if row is None:
        return None
    return Holder(str(row.owner), str(row.owner_url), int(row.epoch), bool(row.expired),
                  float(row.left_s), None if row.live_key is None else int(row.live_key),
                  None if row.url_mac is None else str(row.url_mac))


def fence(conn: Connection, table_id: str, node: str, epoch: int) -> None:
    """Refuse (:class:`Fenced`) unless ``node`` holds the table's lease at ``epoch``; run in the
    writing transaction, before its first write."""
    row = conn.execute(_FENCE, {"t": table_id}).first()
    if row is None or row.owner != node or int(row.epoch) != epoch:
        raise Fenced(table_id, None if row is None else str(row.owner),
                     None if row is None else int(row.epoch))
