"""``/wallets/{player}/cash-outs``: money paid out of a player's wallet at the cage (the other
way of a deposit), asked by the player or an admin and paid by a second person
(``service/cage.py``); ``/cage/cash-outs``: the requests waiting at the cage."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field

from croupier.money import parse_amount
from croupier.service import cage
from croupier.service.api.deps import (
    ADMIN,
    AUDITOR,
    Admin,
    Key,
    LateId,
    Svc,
    UserName,
    require,
    self_or,
)
from croupier.service.api.errors import reply
from croupier.service.api.models import Amount, Body, Reason
from croupier.service.api.replies import Documented, WalletMove, answers
from croupier.service.auth import User
from croupier.service.plans import fingerprint

router = APIRouter(tags=["cashier"])

PlayerOrAdmin = Annotated[User, Depends(self_or(ADMIN))]
"""The player on their own wallet, or an admin: who asks (or withdraws) a cash-out."""
PlayerOrCage = Annotated[User, Depends(self_or(ADMIN, AUDITOR))]
CageReader = Annotated[User, Depends(require(ADMIN, AUDITOR))]


class CageCashOut(Documented):
    """A cash-out asked at the cage, and where it stands."""

    cash_out: int = Field(description="its number (the house record that asked it)")
    player: str
    amount: str = Field(examples=["250.00"])
    requested_by: str
    status: str = Field(examples=["pending"], description="pending, paid, withdrawn or "
                        "declined")
    decided_by: str | None = None
    reason: str | None = Field(default=None, description="why it was declined")
    reason_pending: str | None = Field(default=None, description="202: who may pay it")


class CashOutDecided(Documented):
    """A cash-out withdrawn or declined: nothing was paid."""

    cash_out: int
    player: str
    amount: str
    status: str = Field(examples=["declined"])
    decided_by: str
    reason: str | None = None


class DeclineBody(Body):
    reason: Reason


def _fp(request: Request, body: Any = None) -> str:
    return fingerprint("POST", request.url.path, body)


@router.post("/wallets/{player}/cash-outs", response_model=None,
             responses=answers(CageCashOut, 202))
def ask(request: Request, player: UserName, body: Amount, user: PlayerOrAdmin, key: Key,
        svc: Svc) -> Response:
    """A cash-out asked (the player on their own wallet, or an admin): 202, pending; the
    amount is held (neither bought in chips nor asked again) until a second person pays it
    (``.../pay``), or it is withdrawn or declined. At most the wallet's balance, less what its
    other pending cash-outs hold, and the cage's limit per operation."""
    return reply(cage.ask(svc.ledger, cage.Call(user, key, _fp(request, body.model_dump())),
                          player, parse_amount(body.amount, "amount")))


@router.post("/wallets/{player}/cash-outs/{number}/pay", response_model=WalletMove)
def pay(request: Request, player: UserName, number: LateId, user: Admin, key: Key,
        svc: Svc) -> Response:
    """A pending cash-out paid in cash (admin): by a second person, independent of the one
    who asked it and not one person with the player (409 citing the cage's control
    otherwise; nothing moves)."""
    return reply(cage.pay(svc.ledger, cage.Call(user, key, _fp(request)), player, number))


@router.post("/wallets/{player}/cash-outs/{number}/withdraw", response_model=None,
             responses=answers(CashOutDecided))
def withdraw(request: Request, player: UserName, number: LateId, user: PlayerOrAdmin,
             key: Key, svc: Svc) -> Response:
    """A pending cash-out withdrawn by the one who asked it: nothing is paid."""
    return reply(cage.withdraw(svc.ledger, cage.Call(user, key, _fp(request)), player,
                               number))


@router.post("/wallets/{player}/cash-outs/{number}/decline", response_model=None,
             responses=answers(CashOutDecided))
def decline(player: UserName, number: LateId, body: DeclineBody, user: Admin, key: Key,
            svc: Svc) -> Response:
    """A pending cash-out declined, with a reason, by an admin other than the one who asked:
    nothing is paid."""
    # Known by the path it was sent to, as every request is (``_fp``), spelt out here.
    fp = fingerprint("POST", f"/wallets/{player}/cash-outs/{number}/decline",
                     body.model_dump())
    return reply(cage.decline(svc.ledger, cage.Call(user, key, fp), player, number,
                              body.reason))


@router.get("/wallets/{player}/cash-outs", response_model=list[CageCashOut])
def listing(player: UserName, user: PlayerOrCage, svc: Svc) -> list[dict[str, Any]]:
    """A player's cash-outs at the cage, newest first (the player, an admin or an auditor)."""
    with svc.engine.connect() as conn:
        return cage.listing(conn, player)


@router.get("/cage/cash-outs", response_model=list[CageCashOut])
def waiting(user: CageReader, svc: Svc) -> list[dict[str, Any]]:
    """Every cash-out still pending, oldest first: the cage's queue (admin, auditor)."""
    with svc.engine.connect() as conn:
        return cage.pending_all(conn)
