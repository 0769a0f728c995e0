"""Lanes: work that takes long (the audit and the night's reports, which replay the whole
ledger; password checks) runs on threads of its own, a few at a time, never in the threadpool
every sync route shares.

As sync routes each held a thread of that pool for as long as it read: 45 audits asked at
once by one auditor (6 s each over a ledger of some thousand rounds) held all 40 of its
threads and a buy-in waited 53 s behind them. A lane runs at most ``threads`` at once; the
requests waiting for it hold no thread, and past ``waiting`` of them a request is answered 503
with ``Retry-After`` at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import Request

from croupier.service.errors import ApiError

T = TypeVar("T")


@dataclass(frozen=True)
class Lane:
    """A kind of heavy read: its name, how many run at once and how many may wait."""

    name: str
    threads: int
    waiting: int
    retry_after: int = 5
    """The seconds a request turned away is told to wait (about as long as one takes)."""

    def of(self, request: Request) -> Running:
        """This lane at the request's server (made at its first use there)."""
        state = request.app.state
        lanes: dict[Lane, Running] | None = getattr(state, "lanes", None)
        if lanes is None:
            lanes = state.lanes = {}
        if self not in lanes:
            lanes[self] = Running(self)
        return lanes[self]


class Running:
    """A lane at one server: its threads and the requests it holds."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.limiter = anyio.CapacityLimiter(lane.threads)
        self.asked = 0
        """Requests in the lane, running or waiting (counted on the event loop, so a burst is
        counted whole before any of it waits)."""

    @contextlib.contextmanager
    def turn(self) -> Iterator[Running]:
        """A place in the lane, or 503 with Retry-After when it is full."""
        if self.asked >= self.lane.threads + self.lane.waiting:
            raise ApiError(503, "busy", f"{self.asked} {self.lane.name} are running or "
                           "waiting: try again when one is done",
                           headers={"Retry-After": str(self.lane.retry_after)})
        self.asked += 1
        try:
            yield self
        finally:
            self.asked -= 1

    async def run(self, read: Callable[..., T], *args: Any) -> T:
        """``read(*args)`` on one of the lane's threads."""
        return await anyio.to_thread.run_sync(read, *args, limiter=self.limiter)


AUDITS = Lane("audits", 1, 4)
"""``GET /audit/verify``: the whole ledger replayed; one at a time."""
REPORTS = Lane("reports", 2, 8)
"""The end-of-night reports: every settlement of a table, or of the event, read."""
PASSWORD_CHECKS = Lane("password checks", 2, 256, retry_after=1)
"""A log-in, or a change of one's own password: some seconds of argon2 each when many wait
(argon2 runs one at a time anyway, ``auth._VERIFIER``). As a sync route a log-in waited in
the shared threadpool, so a flood of log-ins under unknown names (each a dummy check) held all
of its threads and stalled every bet as long as the queue lasted (300 log-ins: a buy-in took
21 s). Asked before the throttle counts a guess, so a refusal for the crowd costs the account
nothing."""
