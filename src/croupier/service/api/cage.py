"""``/cage``: money paid out of a player's wallet at the cage (the other way of a deposit)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.money import parse_amount
from croupier.service import cage
from croupier.service.api.deps import Admin, Key, Svc, UserName
from croupier.service.api.errors import reply
from croupier.service.api.models import Amount
from croupier.service.api.replies import WalletMove
from croupier.service.plans import fingerprint

router = APIRouter(prefix="/wallets", tags=["cashier"])


@router.post("/{player}/cash-outs", response_model=WalletMove)
def cash_out(request: Request, player: UserName, body: Amount, user: Admin, key: Key,
             svc: Svc) -> Response:
    """Money out of a player's wallet, paid in cash at the cage (admin): at most the wallet's
    balance and the cage's limit per operation."""
    fp = fingerprint("POST", request.url.path, body.model_dump())
    return reply(cage.cash_out(svc.ledger, user, key, fp, player,
                               parse_amount(body.amount, "amount")))
