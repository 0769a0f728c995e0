"""A halted table: an outcome recorded that the table could not settle, and its resolution.

An outcome (a roll or a spin, drawn or entered) is committed before it is settled; if a wager
it decides cannot be settled exactly (its winnings at the odds it holds are no exact amount of
money), the settlement is not written: the table halts with a ``table_halted`` event naming the
wager and why, and takes no action until a supervisor resolves it. The outcome stays recorded
and is never drawn again.

The procedure (the reading cited, ``replay contract: Outcomes``): the supervisor, giving a
reason, returns the named wager's stake to its player (a ``settle`` event with the result
``returned``; a match play coupon on it goes back to the house), records ``halt_resolved``, and
the outcome is then settled for every other wager. A halt that names no wager (the settlement
failed otherwise) is resolved by settling the outcome again; if it fails again, the table halts
again.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection

from croupier.errors import Refusal, Unsettleable
from croupier.events import Event
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.plans import OUTCOME_CLAUSE, Plan
from croupier.service.voids import returned

PlanFn = Callable[[Connection], Plan]


def halt(live: LiveTable, exc: Unsettleable) -> Plan:
    """The halt of ``live``, whose waiting outcome decides a wager it cannot settle."""
    assert live.pending is not None
    event = sv.TableHalted(live.pending.seq, exc.player, exc.wager,
                           f"{exc.reason}; the outcome {list(live.pending.outcome)} stands and "
                           "is settled once a supervisor resolves this", OUTCOME_CLAUSE)
    return Plan([event], extra={"halted": event.to_json()})


def resolve(user: User, live: LiveTable, reason: str) -> PlanFn:
    """The supervisor's resolution of the table's halt (its settlement follows it)."""
    def plan(conn: Connection) -> Plan:
        halted = live.halted
        if halted is None:
            raise Refusal(f"table {live.id} is not halted", OUTCOME_CLAUSE)
        events: list[Event] = []
        if halted.wager:
            events = returned(live, {(halted.player, halted.wager)})
        events.append(sv.HaltResolved(halted.outcome_seq, user.username, reason,
                                      OUTCOME_CLAUSE))
        return Plan(events)
    return plan
