"""Signing soon: a checkpoint at most a few seconds after anything not yet signed, and one at
a clean shutdown.

Checkpoints every :data:`chain.EVERY` events leave the last events of a quiet table unsigned
for as long as it stays quiet; a copy of the database taken in that window, or the window cut
off, would pass. ``croupier serve`` therefore runs a :class:`Ticker`: every half of
``within`` seconds it reads every chain's head (one short query per table) and, when anything
moved since the latest checkpoint, signs a new one. An event is so signed at most ``within``
seconds after it was committed; a quiet ledger is never signed again. The checkpoints due
every :data:`chain.EVERY` events are signed on the same thread (woken at once), never by the
request whose commit made one due: a cluster node stalled while it wrote a checkpoint holds the
writers' lock, and a bet that waited on it held its table for as long. ``close`` (a clean
shutdown) stops the thread and signs what is left.

These are the ledger's signed checkpoints (``audit.chain``), nothing to do with SQLite's
write-ahead-log checkpoints (``service/checkpoints.py``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

import sqlalchemy as sa

from croupier.service import store
from croupier.service.audit.canonical import canonical
from croupier.service.audit.chain import BehindPin, Checkpointer, WriterBusy, heads

WITHIN = 5.0
"""Seconds after which an event is signed at the latest (``serve --checkpoint-within``)."""

log = logging.getLogger("croupier.checkpoints")


class Ticker:
    """Signs a checkpoint when the chains moved, every ``within / 2`` seconds, on its own
    thread; ``lock`` is the ledger's SQLite writer lock (so the checkpoint queues behind a bet
    in the process rather than in SQLite's busy handler)."""

    def __init__(self, writer: Checkpointer, within: float = WITHIN,
                 lock: Any = None) -> None:
        if within <= 0:
            raise ValueError("--checkpoint-within is a number of seconds above 0")
        self.writer = writer
        self.within = within
        self.lock = lock
        self._stop = threading.Event()
        self._due = threading.Event()
        self._thread: threading.Thread | None = None
        self.signed = 0

    def start(self) -> Ticker:
        self._thread = threading.Thread(target=self._run, name="signed-checkpoints",
                                        daemon=True)
        self._thread.start()
        self.writer.on_due = self._due.set  # checkpoints every so many events: signed here
        return self

    def unsigned(self) -> bool:
        """Whether any chain moved since the latest checkpoint."""
        with self.writer.engine.connect() as conn:
            now = canonical(heads(conn))
            last = conn.execute(sa.select(store.checkpoints.c.heads).order_by(
                store.checkpoints.c.id.desc()).limit(1)).scalar()
        return last != now

    def tick(self, reason: str = "timer") -> bool:
        """Sign a checkpoint if anything is unsigned; whether one was signed."""
        if not self.unsigned():  # a cheap look first; the writer looks again under its lock
            return False
        # Another process's turn is waited out before the SQLite writer lock is taken: waited
        # for under it, every deposit, cash-out and coupon waited as long (a croupier audit
        # verify stopped while it signed kept them waiting for as long as it was stopped).
        self.writer.turn_free()
        with self.lock if self.lock is not None else contextlib.nullcontext():
            if self.writer.write_if_moved(reason) is None:
                return False
        self.signed += 1
        return True

    def close(self) -> None:
        """Stop the thread and sign what is left (a clean shutdown)."""
        self.writer.on_due = None
        self._stop.set()
        self._due.set()
        if self._thread is not None:
            self._thread.join(self.within + 10)
        try:
            self.tick("shutdown")
        except Exception:  # the database went first: the next start-up signs it
            log.exception("the checkpoint at shutdown could not be written")

    def _run(self) -> None:
        refused = ""
        while True:
            due = self._due.wait(self.within / 2)
            if self._stop.is_set():
                return
            self._due.clear()
            try:
                self.tick("every" if due else "timer")
            except BehindPin as exc:  # said once while it lasts, not every tick
                if str(exc) != refused:
                    log.error("no checkpoint signed: %s", exc)
                refused = str(exc)
            except WriterBusy as exc:  # another process's turn: the next tick tries again
                log.warning("no timed checkpoint signed: %s", exc)
            except Exception:  # busy this time: the next tick tries again
                log.exception("a timed checkpoint could not be written")
            else:
                refused = ""
