"""One node of a cluster: the leases it holds, kept alive, and the fencing check of its writes.

A node serves a table only while it holds the table's lease. It takes a lease when a request
for a table nobody holds (or whose lease expired) reaches it, then rebuilds the table from the
ledger before serving anything, so it starts from every action the previous owner committed.
A thread renews every held lease each ``ttl / 3`` seconds in one statement. A lease counts as
held locally only until ``ttl`` minus a margin after the start of its last renewal (on the
monotonic clock, which keeps running while the process is stopped), so a node that wakes up
from a stall stops serving from memory before it even learns that another node took over; its
writes are refused by the database in any case (:func:`~.leases.fence`).

Before it takes its first lease, a node takes its liveness lock (a random key, on a connection
of its own kept open for the process's life: :func:`~.leases.hold_liveness`) and names it in
every lease it takes; another node that finds a lease's owner gone that way (the process was
killed, so its connections closed) takes the table at once instead of at the lease's expiry. If
that connection fails, the node drops its leases at its next renewal (before a taker's write
could be served from its memory any longer than a renewal period) and takes a new lock.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.engine import Connection, Engine

from croupier.service.cluster import leases
from croupier.service.live import LiveTable
from croupier.service.tables import Tables

log = logging.getLogger("croupier.cluster")

MARGIN = 0.5
"""Seconds before the database's expiry at which a node stops counting a lease as its own."""

HOLDER_CACHE = 1.0

FORWARD_MAX = 5.0
"""Seconds a forwarded request waits for the holder's answer at most."""

FORWARD_MIN = 1.0
"""... and at least (a holder renewing on time has ``ttl`` seconds of lease left at best)."""

FORWARD_SLACK = 0.5
"""Seconds past the end of the holder's lease a forwarded request still waits for its answer."""
"""Seconds a node trusts what it read about another node's lease before reading it again."""


@dataclass
class Held:
    epoch: int
    deadline: float  # time.monotonic() after which the lease no longer counts as held


class Node:
    """The leases of this node (``node_id``, reachable by other nodes at ``url``)."""

    def __init__(self, engine: Engine, tables: Tables, node_id: str, url: str,
                 ttl: float = 3.0, secret: bytes | None = None) -> None:
        self.engine = engine
        self.secret = secret
        """Vouches for the nodes' addresses (:func:`~.leases.address_mac`); derived from the
        ledger's key, which every node holds. None only where nothing is forwarded (the
        leases' own tests)."""
        self.url_mac = None if secret is None else leases.address_mac(secret, node_id, url)
        self.tables = tables
        self.node_id = node_id
        self.url = url
        self.ttl = ttl
        self._held: dict[str, Held] = {}
        # Another node's lease as last read: (holder, cached until, the lease's end), both on
        # this process's monotonic clock.
        self._holders: dict[str, tuple[leases.Holder, float, float]] = {}
        self._claims: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._live: Connection | None = None  # holds the liveness lock (autocommit)
        self._live_key: int | None = None
        self._live_pid = 0  # the lock's server process: another after a silent reconnect
        self._live_lock = threading.Lock()
        self._renewer = threading.Thread(target=self._renew_loop, name="lease-renewer",
                                         daemon=True)

    # --- what this node holds -----------------------------------------------------------

    def holds(self, table_id: str) -> bool:
        held = self._held.get(table_id)
        return held is not None and time.monotonic() < held.deadline

    def held(self) -> dict[str, int]:
        """The tables this node holds and their epochs."""
        with self._lock:
            return {t: h.epoch for t, h in self._held.items() if time.monotonic() < h.deadline}

    def lose(self, table_id: str) -> None:
        with self._lock:
            if self._held.pop(table_id, None) is not None:
                log.warning("node %s lost the lease of %s", self.node_id, table_id)

    # --- claiming a table ---------------------------------------------------------------

    def claim(self, table_id: str) -> leases.Holder | None:
        """Make sure this node serves ``table_id`` if it can: None when it holds the lease
        (taken now if free or expired, the table rebuilt), else the lease's live holder."""
        if self.holds(table_id):
            return None
        with self._lock:
            claim_lock = self._claims.setdefault(table_id, threading.Lock())
        with claim_lock:
            if self.holds(table_id):
                return None
            cached = self._holders.get(table_id)
            if cached is not None and time.monotonic() < cached[1]:
                return cached[0]
            started = time.monotonic()
            live_key = self._liveness()
            with self.engine.begin() as conn:
                holder = leases.lookup(conn, table_id)
                # Free, expired, or its owner's process gone (this one's own lock reads as
                # held): take it. Without a liveness lock of its own, a node takes nothing.
                free = holder is None or holder.expired or leases.owner_gone(conn, holder)
                taker = leases.Taker(live_key, self.url_mac)
                epoch = leases.acquire(conn, table_id, self.node_id, self.url, self.ttl,
                                       taker) if free and live_key is not None else None
            if epoch is not None:
                self._take(table_id, epoch, started)
                return None
            with self.engine.connect() as conn:
                holder = leases.lookup(conn, table_id)
            if holder is None or holder.expired:
                # Taken and lost again meanwhile, or an owner writing through its expiry: the
                # caller answers "retry".
                return holder
            now = time.monotonic()
            self._holders[table_id] = (holder, now + min(HOLDER_CACHE, holder.seconds_left),
                                       now + holder.seconds_left)
            return holder

    def forward_within(self, table_id: str) -> float:
        """How long a request forwarded to ``table_id``'s holder may wait for its answer: a
        little past the end of the holder's lease as last read (between :data:`FORWARD_MIN`
        and :data:`FORWARD_MAX` seconds). A holder that stalled stops renewing, so its lease
        ends; the client, told to retry then, reaches a node that takes the table over, where
        a fixed wait longer than the lease kept it waiting past the lease's end."""
        cached = self._holders.get(table_id)
        left = FORWARD_MAX if cached is None else cached[2] - time.monotonic() + FORWARD_SLACK
        return min(FORWARD_MAX, max(FORWARD_MIN, left))

    def vouched(self, holder: leases.Holder) -> bool:
        """Whether requests may be forwarded to ``holder``'s address: its owner vouched for
        it with the key (never, on a node that holds no key)."""
        return self.secret is not None and leases.vouched(self.secret, holder)

    def forget_holder(self, table_id: str) -> None:
        """Another node did not answer: read its lease again next time."""
        self._holders.pop(table_id, None)

    def _take(self, table_id: str, epoch: int, started: float) -> None:
        """The lease is ours (committed): rebuild the table from the ledger, then serve it."""
        live = self.tables.all.get(table_id)
        if live is not None:
            with live.lock:
                # The previous owner's last commit is in the ledger: the take-over waited for
                # it (its write held the lease row FOR KEY SHARE). Only the events since this
                # node last saw the table are folded (a full rebuild took seconds on a busy
                # table, most of a fail-over's time).
                self.tables.catch_up(live)
        with self._lock:
            self._held[table_id] = Held(epoch, started + self.ttl - MARGIN)
            self._holders.pop(table_id, None)
        log.info("node %s holds %s at epoch %d", self.node_id, table_id, epoch)

    # --- fencing (called by the ledger inside every writing transaction) ------------------

    def fence(self, conn: Connection, lives: Iterable[LiveTable]) -> None:
        for live in lives:
            held = self._held.get(live.id)
            if held is None:
                raise leases.Fenced(live.id, None, None)
            try:
                leases.fence(conn, live.id, self.node_id, held.epoch)
            except leases.Fenced:
                self.lose(live.id)
                raise

    # --- renewal ------------------------------------------------------------------------

    def start(self) -> None:
        self._renewer.start()

    def close(self) -> None:
        """Stop renewing and give every lease up, so another node takes the tables at once."""
        self._stop.set()
        with self._lock:
            held, self._held = dict(self._held), {}
        try:
            with self.engine.begin() as conn:
                for table_id, h in held.items():
                    leases.release(conn, table_id, self.node_id, h.epoch)
        except Exception:  # the database is gone: the leases expire by themselves
            log.exception("could not release the leases")
        with self._live_lock:
            if self._live is not None:
                try:
                    self._live.close()  # the liveness lock goes with it
                except Exception:
                    log.exception("could not close the liveness connection")
                self._live = self._live_key = None

    # --- liveness -----------------------------------------------------------------------

    def _liveness(self) -> int | None:
        """This node's liveness lock, taken on a connection of its own if not yet (None: it
        could not be)."""
        with self._live_lock:
            if self._live is None:
                key = secrets.randbits(63)
                conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
                try:
                    if not leases.hold_liveness(conn, key):  # 2**-63: another process's key
                        conn.close()
                        return None
                except Exception:
                    conn.close()
                    raise
                self._live, self._live_key = conn, key
                self._live_pid = int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())
            return self._live_key

    def _liveness_lost(self) -> bool:
        """Whether the liveness lock's connection has failed; if so every lease is dropped
        (a taker may already have found it free) and the next claim takes a new lock."""
        with self._live_lock:
            if self._live is None:
                return False
            try:
                # The same server process, or the lock is gone with the one that held it.
                pid = self._live.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
                if int(pid) == self._live_pid:
                    return False
                raise ConnectionError("the liveness connection was replaced")
            except Exception:
                log.warning("node %s: the liveness lock's connection failed", self.node_id)
                try:
                    self._live.invalidate()
                    self._live.close()
                except Exception:  # already gone
                    pass
                self._live = self._live_key = None
        with self._lock:
            self._held.clear()
        return True

    def renew_once(self) -> None:
        if self._liveness_lost():
            return
        with self._lock:
            mine = {t: h.epoch for t, h in self._held.items()}
        if not mine:
            return
        started = time.monotonic()
        with self.engine.begin() as conn:
            still = leases.renew(conn, self.node_id, sorted(mine), self.ttl)
        with self._lock:
            for table_id, epoch in mine.items():
                held = self._held.get(table_id)
                if held is None or held.epoch != epoch:
                    continue
                if still.get(table_id) == epoch:
                    held.deadline = started + self.ttl - MARGIN
                else:
                    del self._held[table_id]
                    log.warning("node %s lost the lease of %s", self.node_id, table_id)

    def _renew_loop(self) -> None:
        while not self._stop.wait(self.ttl / 3):
            try:
                self.renew_once()
            except Exception as exc:  # keep trying; the leases lapse locally meanwhile
                log.warning("node %s: lease renewal failed: %s", self.node_id,
                            str(exc).splitlines()[0])
