"""Group commit: the actions queued while the ledger was busy share one transaction.

Each request handler queues its action on a lane and waits; the lane's drainer takes every
action queued so far (up to :data:`MAX_BATCH`) and runs them in one transaction
(:meth:`~croupier.service.runner.Runner.run_batch`). Every request is answered only after the
transaction holding its action has committed, so an acknowledged action is durable; a batch
that fails is run again action by action, so one bad action never costs the others theirs.

SQLite has one writer: one lane for all tables, drained in the event loop (its transactions are
short and never wait on a lock held elsewhere). PostgreSQL gets a lane per table, drained in
worker threads of the committer's own (a plain executor: lighter per batch than the framework's
shared thread pool, and never short of a thread while other work fills that one), so tables
still commit in parallel.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from croupier.service.plans import Job, Reply
from croupier.service.runner import Runner

MAX_BATCH = 128
THREADS = 16
"""Worker threads of a PostgreSQL committer: tables committing at the same time, at most."""


class Lane:
    """Actions waiting for one writer, committed in batches."""

    def __init__(self, run_batch: Callable[[list[Job]], list[Reply | Exception]],
                 threads: ThreadPoolExecutor | None) -> None:
        self._run_batch = run_batch
        self._threads = threads  # None: drained in the event loop
        self._pending: list[tuple[Job, asyncio.Future[Reply]]] = []
        self._draining = False

    async def submit(self, job: Job) -> Reply:
        """Queue ``job``; its reply once committed (or the error it raised)."""
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending.append((job, future))
        if not self._draining:
            self._draining = True
            asyncio.get_running_loop().create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._pending:
                # Let the requests already received reach the queue before this batch closes.
                await asyncio.sleep(0)
                batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
                jobs = [job for job, _ in batch]
                try:
                    if self._threads is None:
                        results = self._run_batch(jobs)
                    else:
                        results = await asyncio.get_running_loop().run_in_executor(
                            self._threads, self._run_batch, jobs)
                except Exception as exc:  # run_batch answers each job; this is a last resort
                    results = [exc] * len(batch)
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():  # the client went away
                        continue
                    if isinstance(result, Exception):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._draining = False


class Committer:
    """The lanes of a ledger: one for SQLite, one per table for PostgreSQL."""

    def __init__(self, runner: Runner, single_writer: bool) -> None:
        self._runner = runner
        self._single = single_writer
        self._lanes: dict[str, Lane] = {}
        self._threads = None if single_writer else ThreadPoolExecutor(
            THREADS, thread_name_prefix="croupier-commit")

    async def run(self, job: Job) -> Reply:
        name = "" if self._single else job.live.id
        lane = self._lanes.get(name)
        if lane is None:
            lane = self._lanes[name] = Lane(self._runner.run_batch, self._threads)
        return await lane.submit(job)
