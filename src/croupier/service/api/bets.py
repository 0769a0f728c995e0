"""``/tables/{id}/bets``: a player's wagers: make, take down or reduce, call on or off."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.money import parse_amount
from croupier.service import actions
from croupier.service.api.act import act
from croupier.service.api.deps import IdemKey, Key, Player, Svc, TableId
from croupier.service.api.models import BetBody, CallBody, TakeDownBody

router = APIRouter(prefix="/tables/{table_id}/bets", tags=["players"])


@router.post("")
async def place_bet(request: Request, table_id: TableId, body: BetBody, user: Player, key: Key,
                    svc: Svc) -> Response:
    """A wager by the player making it. While the dice are in the air a craps wager waits
    (202) for the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
    amount = parse_amount(body.amount, "amount")
    return await act(request, svc, body, user, table_id, key,
                     lambda live: actions.bet(user, live, body.spec(), amount, body.coupon))


@router.post("/take-down")
async def take_down(request: Request, table_id: TableId, body: TakeDownBody, user: Player,
                    key: Key, svc: Svc) -> Response:
    """Remove a wager, or reduce it by ``amount`` (craps), where the rules allow."""
    amount = parse_amount(body.amount, "amount") if body.amount is not None else None
    return await act(request, svc, body, user, table_id, key,
                     lambda live: actions.take_down(user, live, body.spec(), amount))


@router.post("/call")
async def call_bet(request: Request, table_id: TableId, body: CallBody, user: Player, svc: Svc,
                   key: IdemKey = None) -> Response:
    """Call a wager "on" or "off" for come-out rolls (craps)."""
    return await act(request, svc, body, user, table_id, key,
                     lambda live: actions.call(user, live, body.spec(), body.on))
