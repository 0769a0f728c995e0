"""``/tables/{id}/bets``: a player's wagers: make, take down or reduce, and the calls a player
makes on a wager (on or off for come-out rolls, down on the win, off for the point)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.money import parse_amount
from croupier.service import wagers
from croupier.service.acting import Asked
from croupier.service.api.act import act, fingerprint_path
from croupier.service.api.deps import IdemKey, Key, Player, Services, Svc, TableId
from croupier.service.api.errors import reply
from croupier.service.api.models import BetBody, CallBody, TakeDownBody, Wager
from croupier.service.api.replies import ACCEPTED, TableReply

router = APIRouter(prefix="/tables/{table_id}/bets", tags=["players"])


def _fields(body: Wager) -> dict[str, Any]:
    return body.model_dump(exclude_none=True)


@router.post("", response_model=TableReply, responses=ACCEPTED)
async def place_bet(request: Request, table_id: TableId, body: BetBody, user: Player, key: Key,
                    svc: Svc) -> Response:
    """A wager by the player making it. While the dice are in the air a craps wager waits
    (202) for the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
    return await place(svc, Asked(user, table_id, key,
                                  (request.method, fingerprint_path(request)),
                                  body.model_dump(mode="json")))


async def place(svc: Services, asked: Asked) -> Response:
    """The bet itself, once its caller is known to be a player and its body read: shared by
    the route and the express lane (:mod:`croupier.service.api.express`); one call into the
    service (:func:`croupier.service.wagers.place`), its reply sent as the ledger kept it."""
    return reply(await wagers.place(svc, asked))


@router.post("/take-down", response_model=TableReply)
async def take_down(request: Request, table_id: TableId, body: TakeDownBody, user: Player,
                    key: Key, svc: Svc) -> Response:
    """Remove a wager, or reduce it by ``amount`` (craps), where the rules allow."""
    amount = parse_amount(body.amount, "amount") if body.amount is not None else None
    return await act(request, body, user, table_id, key,
                     lambda live: wagers.take_down(user, live, _fields(body), amount))


@router.post("/call", response_model=TableReply)
async def call_bet(request: Request, table_id: TableId, body: CallBody, user: Player, svc: Svc,
                   key: IdemKey = None) -> Response:
    """Call a wager "on" or "off" for come-out rolls (craps)."""
    verb = "on" if body.on else "off"
    return await act(request, body, user, table_id, key,
                     lambda live: wagers.call(user, live, _fields(body), verb))


@router.post("/down-on-win", response_model=TableReply)
async def down_on_win(request: Request, table_id: TableId, body: Wager, user: Player, svc: Svc,
                      key: IdemKey = None) -> Response:
    """Call a place, buy or lay wager "down on the win": its next win takes it down, paying
    no new commission (a table with the option ``down_on_win``)."""
    return await act(request, body, user, table_id, key,
                     lambda live: wagers.call(user, live, _fields(body), "down_on_win"))


@router.post("/off-during-point", response_model=TableReply)
async def off_during_point(request: Request, table_id: TableId, body: Wager, user: Player,
                           svc: Svc, key: IdemKey = None) -> Response:
    """Call a wager "off" while a point stands: it does not work until it is called on again
    or the point is decided (a table with the option ``off_during_point``)."""
    return await act(request, body, user, table_id, key,
                     lambda live: wagers.call(user, live, _fields(body), "off_during_point"))
