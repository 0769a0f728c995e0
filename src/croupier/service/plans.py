"""What an action at a table is, planned and answered: the plan of its events, the job that
waits for a group commit, the reply.

A request's route makes a :class:`Job` (who acts, at which table, under which idempotency
key, and the function that plans the action); the runner (:mod:`croupier.service.runner`)
plans it under the table's lock, folds its events into the table and has the ledger write
them; the :class:`Reply` is what the request is answered, kept under its key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.events import Event
from croupier.service.auth import User
from croupier.table import Answer

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

OUTCOME_CLAUSE = "replay contract: Outcomes"
"""The reading cited for what follows an outcome: recorded first, never drawn again, settled
before anything else; a settlement that cannot be made halts the table; voids."""


COMPACT = (",", ":")
"""The separators of a reply's JSON as it is kept and sent (:meth:`Reply.encoded`)."""


@dataclass
class Plan:
    """What an action does: its events, wallet moves (player, cents), and how to answer.

    ``rebuild``: the table is rebuilt from the ledger after these events (a void), and then
    ``after_rebuild(table)`` gives the events that follow them (the stakes a void returns)."""

    events: list[Event]
    wallet: list[tuple[str, int, str]] = field(default_factory=list)
    decision: bool = False
    rebuild: bool = False
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    after_rebuild: Callable[[LiveTable], list[Event]] | None = None
    answered: Answer | None = None
    """What the game's table answered, having folded the events in as it checked them
    (:meth:`croupier.games.Game.take`): the runner then folds them only into the server's
    own state (their places in the chain, the procedures), and answers this."""


PlanFn = Callable[[Connection], Plan]
"""A plan made in the action's transaction (its reads of the ledger, as a wallet's balance,
are in the same transaction as its writes)."""


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, Any]
    replayed: bool = False
    text: str | None = field(default=None, compare=False)
    """The body as stored for a replay (JSON), sent as it is rather than encoded again."""

    def encoded(self) -> Reply:
        """The reply with its body encoded as it is kept under a key and sent: compact JSON,
        encoded once, so the bytes sent and the bytes kept for a retry are the same.

        >>> Reply(200, {"table": "craps-1", "round": 3}).encoded().text
        '{"table":"craps-1","round":3}'
        """
        if self.text is not None:
            return self
        return replace(self, text=json.dumps(self.body, separators=COMPACT))


@dataclass(frozen=True)
class Job:
    """One action waiting for a group commit. ``phase`` says what it may do while an outcome
    waits to be settled: an ordinary action (``act``) nothing, the outcome's own request
    (``outcome``) settle it, a supervisor's resolution (``resolve``) end a halt."""

    user: User
    live: LiveTable
    key: str | None
    fp: str
    plan_fn: PlanFn
    phase: str = "act"
    settle: PlanFn | None = None
    """An outcome's settlement: ``plan_fn`` records the outcome and commits it, then this
    settles it in a transaction of its own (:meth:`Runner.run_outcome`)."""


def refusal_body(refusal: Refusal) -> dict[str, Any]:
    return {"error": {"code": "refused", "reason": refusal.reason, "clause": refusal.clause}}


def fingerprint(method: str, path: str, body: Any) -> str:
    """What a request with an idempotency key is known by: its method, path and body."""
    text = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()

