"""``/tables/{id}/bets``: a player's wagers: make, take down or reduce, call on or off."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.errors import Malformed
from croupier.money import parse_amount
from croupier.service import actions, coupons, procedures, store
from croupier.service.api.act import act, act_at, fingerprint_path
from croupier.service.api.deps import IdemKey, Key, Player, Services, Svc, TableId
from croupier.service.api.models import BetBody, CallBody, TakeDownBody, Wager
from croupier.service.auth import User
from croupier.service.live import LiveTable

router = APIRouter(prefix="/tables/{table_id}/bets", tags=["players"])

CRAPS_FIELDS = ("number", "dice")
ROULETTE_FIELDS = ("numbers", "center", "column", "dozen")


def only_own_fields(live: LiveTable, body: Wager) -> None:
    """A wager carries only its own game's fields: a ``dozen`` on a craps bet is malformed,
    not ignored."""
    foreign = ROULETTE_FIELDS if live.is_craps else CRAPS_FIELDS
    for name in foreign:
        if getattr(body, name) is not None:
            raise Malformed(name, f"not a field of a {live.game} wager")


@router.post("")
async def place_bet(request: Request, table_id: TableId, body: BetBody, user: Player, key: Key,
                    svc: Svc) -> Response:
    """A wager by the player making it. While the dice are in the air a craps wager waits
    (202) for the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
    return await place(svc, (request.method, fingerprint_path(request)), table_id, body, user,
                       key)


async def place(svc: Services, where: tuple[str, str], table_id: str, body: BetBody,
                user: User, key: str) -> Response:
    """The bet itself, once its caller is known to be a player: shared by the route and the
    express lane (:mod:`croupier.service.api.express`), which reach it the same way."""
    amount = parse_amount(body.amount, "amount")
    svc.ledger.limits.check_wager(store.cents(amount))
    only_own_fields(svc.ledger.table(table_id), body)
    serial = body.coupon

    def make(live: Any) -> actions.PlanFn:
        if serial is None:
            return actions.bet(user, live, body.spec(), amount, False)
        redeem = coupons.redeeming(actions.bet(user, live, body.spec(), amount, True), serial,
                                   user.username, body.wager, amount, table_id, live.profile,
                                   lambda: live.round)
        return procedures.coupons_checked(redeem, live.profile, live.game)

    return await act_at(svc, where, body, user, table_id, key, make)


@router.post("/take-down")
async def take_down(request: Request, table_id: TableId, body: TakeDownBody, user: Player,
                    key: Key, svc: Svc) -> Response:
    """Remove a wager, or reduce it by ``amount`` (craps), where the rules allow."""
    amount = parse_amount(body.amount, "amount") if body.amount is not None else None
    only_own_fields(svc.ledger.table(table_id), body)
    return await act(request, svc, body, user, table_id, key,
                     lambda live: actions.take_down(user, live, body.spec(), amount))


@router.post("/call")
async def call_bet(request: Request, table_id: TableId, body: CallBody, user: Player, svc: Svc,
                   key: IdemKey = None) -> Response:
    """Call a wager "on" or "off" for come-out rolls (craps)."""
    only_own_fields(svc.ledger.table(table_id), body)
    return await act(request, svc, body, user, table_id, key,
                     lambda live: actions.call(user, live, body.spec(), body.on))
