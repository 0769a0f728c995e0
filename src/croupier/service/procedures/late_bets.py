"""Wagers made while the dice are in the air: asked, confirmed by two people, or lapsed.

13:69F-1.3(a) takes a wager made between the time the dice leave the shooter's hand and the
time they come to rest once it is confirmed by the dealer and a boxperson (craps) or the dealer
and floorperson (mini-craps). Who confirms, and whether a late bet is taken at all, is the
profile's and the game registry's answer (:meth:`croupier.games.Game.late_bet`): at automated
craps, and under the texts without the clause, it is refused. A late bet waits (202) with the
wager the table would take; the second confirmation places it, as the table then checks it;
one not confirmed before the dice come to rest lapses, and nothing moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from croupier.craps.actions import Bet
from croupier.errors import Refusal
from croupier.events import Event
from croupier.money import fmt
from croupier.rules import load_profile
from croupier.rules.profile import LateBetConfirmation
from croupier.service import events as sv
from croupier.service import people
from croupier.service.auth import User
from croupier.service.cashier import require_unheld_chips, within_hold
from croupier.service.errors import ApiError
from croupier.service.plans import Plan

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

PlanFn = Callable[[Connection], Plan]


@dataclass
class LateBet:
    """A wager offered while the dice were in the air, waiting for its confirmations."""

    late_id: int
    player: str
    wager: str
    qualifier: Any
    amount: Decimal
    confirmed: dict[str, str] = field(default_factory=dict)  # role -> who

    def json(self) -> dict[str, Any]:
        q = self.qualifier
        return {"id": self.late_id, "player": self.player, "wager": self.wager,
                "qualifier": list(q) if isinstance(q, tuple) else q,
                "amount": fmt(self.amount), "confirmed_by": dict(self.confirmed)}


class LateBets:
    """The late bets waiting at one table."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.waiting: dict[int, LateBet] = {}
        self.next_id = 1

    def confirmation(self) -> LateBetConfirmation:
        """Who confirms a late bet at this table, or the refusal (no late bets here)."""
        return self.live.game.late_bet(load_profile(self.live.profile))

    def fold(self, event: Event) -> bool:
        """Fold a late-bet event; whether it was one."""
        if isinstance(event, sv.LateBetAsked):
            self.waiting[event.late_id] = LateBet(event.late_id, event.player, event.wager,
                                                  event.qualifier, event.amount)
            self.next_id = max(self.next_id, event.late_id + 1)
        elif isinstance(event, sv.LateBetConfirmed):
            bet = self.waiting.get(event.late_id)
            if bet is not None:
                bet.confirmed[event.role] = event.by
                if len(bet.confirmed) == 2:
                    del self.waiting[event.late_id]
        elif isinstance(event, sv.LateBetLapsed):
            self.waiting.pop(event.late_id, None)
        else:
            return False
        return True

    def decided(self) -> None:
        self.waiting.clear()

    def state(self) -> dict[str, Any]:
        return {"late_bets": [b.json() for b in self.waiting.values()]}

    def ask(self, action: Bet) -> Plan:
        """A wager made while the dice are in the air: it waits for two confirmations (the
        table checks it now, and again when it is confirmed)."""
        confirmation = self.confirmation()
        if self.live.replacing is not None:
            # The dice are at rest, showing the result that replaces a voided entry: a wager
            # made now is made knowing it, which no confirmation makes a late bet.
            raise Refusal(f"round {self.live.replacing.decision}'s entered result was voided "
                          "and the dice are at rest: no wager is taken until the dealer enters "
                          "what they showed", confirmation.clause)
        self.live.table.check(action)
        asked = sv.LateBetAsked(self.next_id, action.player, action.wager, action.qualifier,
                                action.amount, confirmation.clause)
        return Plan([asked], status=202, extra={"late_bet": self.next_id})

    def lapse(self) -> list[Event]:
        """The late bets not confirmed before the dice came to rest."""
        if not self.waiting:
            return []
        who = " and the ".join(self.confirmation().by)
        return [sv.LateBetLapsed(b.late_id, f"not confirmed by the {who} before the dice came "
                                 "to rest") for b in self.waiting.values()]

    def confirm(self, user: User, late_id: int, as_dealer: bool) -> PlanFn:
        """A confirmation by the dealer (``as_dealer``) or the supervisor, recorded under the
        role the clause names (boxperson, floorperson): by neither the player nor one person
        with them (docs/two-person-rules.md), nor by one person with the other confirmer."""
        def plan(conn: Connection) -> Plan:
            bet = self.waiting.get(late_id)
            if bet is None:
                raise ApiError(404, "not_found", f"there is no late bet {late_id} waiting")
            confirmation = self.confirmation()
            role = "dealer" if as_dealer else confirmation.supervisor
            if role in bet.confirmed:
                raise Refusal(f"the {role} has already confirmed late bet {late_id}; the "
                              "other confirmation is still needed", confirmation.clause)
            own = people.own_account(conn, user.username, bet.player)
            if own is not None:
                # A confirmation by the player's own hand under another name leaves one
                # person, not two, between the late wager and the house.
                raise Refusal(f"late bet {late_id} of {bet.player} is not confirmed by "
                              f"{user.username}, one person with them: {own}",
                              confirmation.clause)
            for other in bet.confirmed.values():
                why = people.not_independent(conn, other, user.username)
                if why is not None:
                    raise Refusal(f"late bet {late_id} is confirmed by two people: {why}",
                                  confirmation.clause)
            events: list[Event] = [sv.LateBetConfirmed(late_id, user.username, role)]
            if len(bet.confirmed) == 1:
                # Placed now, so held to the chips free now: an adjustment asked since the
                # wager was offered holds chips it may not put down.
                require_unheld_chips(self.live, bet.player, bet.amount)
                events.extend(within_hold(self.live, bet.player, self.live.table.check(
                    Bet(bet.player, bet.wager, bet.qualifier, bet.amount))))
            return Plan(events)
        return plan
