"""An action asked at a table, run: the table found, a change of its pay table that has come
due applied first, the action planned and committed with the others (group commit).

A route reads its request once into an :class:`Asked` (who, where, under which key, the body
as JSON) and says how the action runs (:class:`Steps`); :func:`run` is the one call into the
service it makes, and the :class:`~croupier.service.plans.Reply` it gets back is its answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from croupier.service import paytables
from croupier.service.auth import User
from croupier.service.plans import Job, PlanFn, Reply, fingerprint

if TYPE_CHECKING:
    import sqlalchemy as sa

    from croupier.service.commit import Committer
    from croupier.service.ledger import Ledger
    from croupier.service.live import LiveTable
    from croupier.service.tables import Tables


class Desk(Protocol):
    """What running an action needs of the server's parts."""

    @property
    def engine(self) -> sa.Engine: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def tables(self) -> Tables: ...
    @property
    def committer(self) -> Committer: ...


@dataclass(frozen=True)
class Asked:
    """A request for an action at a table, read once: who asks, at which table, under which
    Idempotency-Key, the method and path it came by, and its body as JSON (None: none)."""

    user: User
    table_id: str
    key: str | None
    where: tuple[str, str]
    body: dict[str, Any] | None = None


@dataclass(frozen=True)
class Steps:
    """How an action runs: ``make`` its plan at the table; ``settle``: it records an outcome,
    committed on its own, then settled by this plan in the next transaction
    (:meth:`~croupier.service.runner.Runner.run_outcome`); ``phase``: what it may do while
    an outcome waits (:class:`~croupier.service.plans.Job`); ``changes``: a change of the
    house's pay table that has come due applies before it (not before a supervisor's
    correction of the last decision, which it would leave behind)."""

    make: Callable[[LiveTable], PlanFn]
    settle: Callable[[LiveTable], PlanFn] | None = None
    phase: str = "act"
    changes: bool = True


async def run(desk: Desk, asked: Asked, steps: Steps) -> Reply:
    """Run the action with the others queued meanwhile, in one transaction (group commit): on
    SQLite in the event loop (one writer; its transactions take well under a millisecond), on
    PostgreSQL in a worker thread per table (tables run in parallel)."""
    live = desk.tables.find(asked.table_id)
    if steps.changes:
        await paytables.take_due_change(desk.engine, desk.committer, live)
    settle = steps.settle(live) if steps.settle is not None else None
    fp = fingerprint(*asked.where, asked.body)  # what the request is known by under its key
    job = Job(asked.user, live, asked.key, fp, steps.make(live), steps.phase, settle)
    try:
        return await desk.committer.run(job)
    except Exception:
        kept = recorded(desk, job)
        if kept is None:
            raise
        return kept


def recorded(desk: Desk, job: Job) -> Reply | None:
    """The reply kept under the key of an outcome whose settlement failed (``job.settle``): the
    outcome was committed on its own first, so the error is not the answer (a 500 or a 503
    would say nothing was done, and a roll asked again would not be the one recorded); the
    202 naming the outcome that waits is, as a retry is answered. None for anything else."""
    if job.settle is None or job.key is None:
        return None
    kept = desk.ledger.peek(job.user, job.key, job.fp)
    return None if kept is None else dataclasses.replace(kept, replayed=False)
