"""A supervisor's adjustment: chips between the house and a player, with a reason, to correct
a dealer's error (13:47-20.25(d): the boxperson answers the disputes). An adjustment over the
limit waits for a second supervisor (:mod:`croupier.service.controls`)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.cashier import require_player_at
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable
from croupier.service.plans import Plan

PlanFn = Callable[[Connection], Plan]


def adjust(user: User, live: LiveTable, player: str, amount: Decimal, reason: str) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        require_player_at(live, player)
        if amount == 0:
            raise ApiError(422, "malformed", "an adjustment moves a non-zero amount")
        if live.chips(player) + amount < 0:
            raise Refusal(f"{player} has {fmt(live.chips(player))} in chips: cannot take back "
                          f"{fmt(-amount)}")
        return Plan([sv.Adjusted(player, amount, reason, user.username)])
    return plan
