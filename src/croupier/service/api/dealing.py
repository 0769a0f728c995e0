"""The game's running at ``/tables/{id}``: "no more bets", late-bet confirmation, the roll or
spin (dealer); a decision voided, a halt resolved or chips adjusted (supervisor)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.money import parse_amount
from croupier.service import adjustments, controls, halts, outcomes, voids
from croupier.service.api.act import act
from croupier.service.api.deps import (
    Dealer,
    IdemKey,
    Key,
    LateConfirmer,
    LateId,
    Supervisor,
    Svc,
    TableId,
)
from croupier.service.api.models import AdjustBody, RollBody, SpinBody, VoidBody
from croupier.service.api.replies import ACCEPTED, TableReply
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable
from croupier.service.reading import outcome_action

router = APIRouter(prefix="/tables/{table_id}")


def signed_amount(text: str) -> Decimal:
    """A signed decimal amount ("-5.00" takes chips from the player)."""
    negative = text.startswith("-")
    amount = parse_amount(text.lstrip("-"), "amount")
    return -amount if negative else amount


@router.post("/no-more-bets", tags=["dealer"], response_model=TableReply)
async def no_more_bets(request: Request, table_id: TableId, user: Dealer, svc: Svc,
                       key: IdemKey = None) -> Response:
    """Roulette: "No more bets" (20.32(j)2). Craps: the dice are in the air; later wagers
    need the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
    return await act(request, None, user, table_id, key,
                     lambda live: outcomes.no_more_bets(user, live))


@router.post("/late-bets/{late_id}/confirm", tags=["dealer"], response_model=TableReply)
async def confirm_late(request: Request, table_id: TableId, late_id: LateId,
                       who: LateConfirmer, key: Key, svc: Svc) -> Response:
    """The dealer's or the boxperson's (supervisor's) confirmation of a late wager."""
    def make(live: LiveTable) -> Any:
        def plan(conn: Any) -> Any:
            # Read under the table's lock, when the plan runs: the table as it stands then.
            late = live.procedures.late
            if late is None:
                raise ApiError(404, "not_found", f"there is no late bet {late_id} waiting")
            return late.confirm(who.user, late_id, as_dealer=who.as_dealer)(conn)
        return plan

    return await act(request, None, who.user, table_id, key, make)


async def _outcome(request: Request, svc: Any, body: RollBody | SpinBody, user: Any,
                   table_id: str, key: str) -> Response:
    """A roll or a spin: the outcome recorded on its own, then settled."""
    decisions = "rolls" if request.url.path.endswith("/roll") else "spins"
    entered, declared = body.entered(), body.declared()

    def make(live: LiveTable) -> Any:
        if live.game.decisions != decisions:
            raise ApiError(422, "malformed", f"not an action at {live.game.name}: its wagers "
                           f"are decided by {live.game.decisions}")
        action = outcome_action(live, entered) if entered is not None else None
        made = outcomes.record(user, live, svc.rng, action, declared)
        return made if entered is None else controls.entering(made, table_id)

    return await act(request, body, user, table_id, key, make,
                     settle=lambda live: outcomes.settle(user, live), phase="outcome")


@router.post("/roll", tags=["dealer"], response_model=TableReply, responses=ACCEPTED)
async def roll(request: Request, table_id: TableId, body: RollBody, user: Dealer, key: Key,
               svc: Svc) -> Response:
    """Roll: the RNG's dice (raw draw recorded) or the physical dice entered, recorded before
    anything is settled; then every wager settled. An RNG table takes no entered dice; at a
    physical table the RNG stands in when no dice are given (recorded as the RNG's draw)."""
    return await _outcome(request, svc, body, user, table_id, key)


@router.post("/spin", tags=["dealer"], response_model=TableReply, responses=ACCEPTED)
async def spin(request: Request, table_id: TableId, body: SpinBody, user: Dealer, key: Key,
               svc: Svc) -> Response:
    """Spin (after "No more bets"): the RNG's pocket or the number entered, recorded before
    anything is settled; an irregular spin (20.32(m)) is "no spin" and every wager stays. An
    RNG table takes no entered number; at a physical table the RNG stands in when no number
    is given. No irregularity of a ball is declared of the RNG's spin (20.32(j)1, (m)3)."""
    return await _outcome(request, svc, body, user, table_id, key)


@router.post("/void", tags=["supervisor"], response_model=TableReply, responses=ACCEPTED)
async def void(request: Request, table_id: TableId, body: VoidBody, user: Supervisor, key: Key,
               svc: Svc) -> Response:
    """Void the last decision with a reason, history kept. A result the dealer entered is
    corrected at once (the dealer then enters what showed); the RNG's outcome stands and its
    stakes are returned once a second supervisor approves (202 until then)."""
    return await act(request, body, user, table_id, key,
                     lambda live: voids.void(user, live, body.reason), changes=False)


@router.post("/void/approve", tags=["supervisor"], response_model=TableReply)
async def approve_void(request: Request, table_id: TableId, user: Supervisor, key: Key,
                       svc: Svc) -> Response:
    """A second supervisor approves the void asked of the RNG's last outcome: every stake it
    decided or moved goes back to its player; nothing is drawn again."""
    return await act(request, None, user, table_id, key,
                     lambda live: voids.approve(user, live), phase="void", changes=False)


@router.post("/void/withdraw", tags=["supervisor"], response_model=TableReply)
async def withdraw_void(request: Request, table_id: TableId, user: Supervisor, key: Key,
                        svc: Svc) -> Response:
    """Withdraw the void asked of the RNG's last outcome (one supervisor: nothing moves); the
    outcome and its settlement stand and play goes on. While a void waits, the table takes
    nothing but its approval or its withdrawal."""
    return await act(request, None, user, table_id, key,
                     lambda live: voids.withdraw(user, live), phase="void", changes=False)


@router.post("/halt/resolve", tags=["supervisor"], response_model=TableReply, responses=ACCEPTED)
async def resolve_halt(request: Request, table_id: TableId, body: VoidBody, user: Supervisor,
                       key: Key, svc: Svc) -> Response:
    """Resolve a halted table by the recorded procedure: the wager that could not be
    settled goes back to its player, then the outcome that stands is settled."""
    return await act(request, body, user, table_id, key,
                     lambda live: halts.resolve(user, live, body.reason),
                     settle=lambda live: outcomes.settle(user, live), phase="resolve",
                     changes=False)


@router.post("/adjustments", tags=["supervisor"], response_model=TableReply, responses=ACCEPTED)
async def adjustment(request: Request, table_id: TableId, body: AdjustBody, user: Supervisor,
                     key: Key, svc: Svc) -> Response:
    """Correct a dealer's error: chips between the house and a player, with a reason. Over
    the limit (100.00 either way), or past 100.00 moved for the player by this supervisor
    alone in 24 hours, it is asked (202) and waits for a second, independent supervisor."""
    amount = signed_amount(body.amount)
    return await act(request, body, user, table_id, key,
                     lambda live: adjustments.adjust(svc.ledger, user, live, body.player,
                                                     amount, body.reason))


@router.post("/adjustments/{pending_id}/withdraw", tags=["supervisor"],
             response_model=TableReply)
async def withdraw_adjustment(request: Request, table_id: TableId, pending_id: LateId,
                              user: Supervisor, key: Key, svc: Svc) -> Response:
    """The supervisor who asked a pending adjustment withdraws it: no chips move."""
    return await act(request, None, user, table_id, key,
                     lambda live: adjustments.close(user, live, pending_id, None))


@router.post("/adjustments/{pending_id}/decline", tags=["supervisor"],
             response_model=TableReply)
async def decline_adjustment(request: Request, table_id: TableId, pending_id: LateId,
                             body: VoidBody, user: Supervisor, key: Key) -> Response:
    """A supervisor other than the one who asked declines a pending adjustment, with a
    reason: no chips move."""
    return await act(request, body, user, table_id, key,
                     lambda live: adjustments.close(user, live, pending_id, body.reason))


@router.post("/adjustments/{pending_id}/approve", tags=["supervisor"],
             response_model=TableReply)
async def approve_adjustment(request: Request, table_id: TableId, pending_id: LateId,
                             user: Supervisor, key: Key, svc: Svc) -> Response:
    """A second supervisor approves a pending adjustment: only then are the chips moved."""
    return await act(request, None, user, table_id, key,
                     lambda live: adjustments.approve(user, live, pending_id,
                                                      svc.ledger.limits))
