"""A supervisor's adjustment: chips between the house and a player, with a reason, to correct
a dealer's error (13:47-20.25(d): the boxperson answers the disputes). One over the limit, or
past what the supervisor may move for the player alone in the period, is asked (an
``adjustment_asked`` event) and waits for a second, independent supervisor
(:mod:`croupier.service.controls`), unless the one who asked withdraws it or another declines
it; all go through the runner, so an Idempotency-Key sent twice makes one request, pending or
not."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import controls, people, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.cashier import require_player_at
from croupier.service.errors import ApiError
from croupier.service.ledger import Ledger
from croupier.service.limits import Limits
from croupier.service.live import LiveTable
from croupier.service.plans import Plan

PlanFn = Callable[[Connection], Plan]


def clause_at(live: LiveTable) -> str:
    """The clause an adjustment's refusal cites at ``live``: who answers the disputes about
    the conduct of its game under its profile (or the reading applied where no one is named);
    never the clause of what a wager is made with."""
    return live.procedures.adjustment_clause()


def _can_take(live: LiveTable, player: str, amount: Decimal) -> None:
    if live.chips(player) + amount < 0:
        raise Refusal(f"{player} has {fmt(live.chips(player))} in chips: cannot take back "
                      f"{fmt(-amount)}", clause_at(live))


def _not_their_own(conn: Connection, supervisor: str, player: str, live: LiveTable) -> None:
    """Refuse an adjustment asked or approved by a supervisor who is one person with the
    player (an account of their own line, docs/two-person-rules.md): the house's chips are
    never moved to or from a player by the player's own hand."""
    why = people.own_account(conn, supervisor, player)
    if why is not None:
        raise Refusal(f"{player}'s chips are not adjusted by {supervisor}, one person with "
                      f"them: {why}", clause_at(live))


def adjust(ledger: Ledger, user: User, live: LiveTable, player: str, amount: Decimal,
           reason: str) -> PlanFn:
    """An adjustment made alone, or asked of a second supervisor (202) when it needs one."""
    def plan(conn: Connection) -> Plan:
        # Over the limit per operation it is refused, not left pending for a second person;
        # checked here, once the key's reply is looked up, so an adjustment made under a
        # higher limit and asked again after the house lowered it gets its reply.
        ledger.limits.check_adjustment(store.cents(amount), clause_at(live))
        require_player_at(live, player, clause_at(live))
        if amount == 0:
            raise ApiError(422, "malformed", "an adjustment moves a non-zero amount")
        moved = controls.moved_alone(conn, ledger.staged(conn), user.username, player,
                                     store.now())
        _not_their_own(conn, user.username, player, live)  # after the player's lock, as there
        if controls.needs_second_person(amount, moved):
            asked = controls.request(conn, live.id, player, amount, reason, user.username)
            return Plan([asked], status=202, extra=controls.asked_reply(asked, live.id, moved))
        _can_take(live, player, amount)
        return Plan([sv.Adjusted(player, amount, reason, user.username)])
    return plan


def approve(user: User, live: LiveTable, pending_id: int, limits: Limits | None = None,
            ) -> PlanFn:
    """A second supervisor's approval of pending adjustment ``pending_id``: the approval and
    the adjustment it allows, recorded together (within ``limits``' limit per operation)."""
    def plan(conn: Connection) -> Plan:
        asked = live.adjustments_asked.get(pending_id)
        if asked is not None:
            if limits is not None:
                limits.check_adjustment(store.cents(asked.amount), clause_at(live))
            require_player_at(live, asked.player, clause_at(live))
            _can_take(live, asked.player, asked.amount)
            _not_their_own(conn, user.username, asked.player, live)  # before anything written
        asked = controls.approve(conn, live.adjustments_asked, live.id, pending_id,
                                 user.username, clause_at(live))
        reason = f"{asked.reason} (asked by {asked.by}, approved by {user.username})"
        return Plan([sv.AdjustmentApproved(pending_id, asked.player, asked.amount,
                                           user.username),
                     sv.Adjusted(asked.player, asked.amount, reason, user.username)],
                    extra={"approved_adjustment": pending_id})
    return plan


def close(user: User, live: LiveTable, pending_id: int, reason: str | None) -> PlanFn:
    """Pending adjustment ``pending_id`` closed unapproved: withdrawn by the supervisor who
    asked it (``reason`` None), or declined with ``reason`` by another; never by one person
    with the player. No chips move, and the chips it held are free again."""
    def plan(conn: Connection) -> Plan:
        withdrawn, by = reason is None, user.username
        asked = live.adjustments_asked.get(pending_id)
        if asked is None:
            raise ApiError(404, "not_found", f"there is no adjustment {pending_id} pending at "
                           f"table {live.id!r}")
        if withdrawn and asked.by != by:
            raise Refusal(f"adjustment {pending_id} was asked by {asked.by}: only they "
                          "withdraw it (another supervisor declines or approves it)",
                          clause_at(live))
        if not withdrawn and asked.by == by:
            raise Refusal(f"{by} asked adjustment {pending_id}: they withdraw it; a second "
                          "supervisor declines it", clause_at(live))
        # Closed unapproved, an adjustment taking chips back leaves them with the player: not
        # by the player's own hand under another name, any more than one is approved so.
        _not_their_own(conn, by, asked.player, live)
        status = "withdrawn" if withdrawn else "declined"
        controls.close(conn, live.id, pending_id, by, status, clause_at(live))
        kind = sv.AdjustmentWithdrawn if withdrawn else sv.AdjustmentDeclined
        event = kind(pending_id, asked.player, asked.amount, by, reason or f"withdrawn by {by}")
        return Plan([event], extra={f"{status}_adjustment": pending_id})
    return plan
