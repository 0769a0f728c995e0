"""``/wallets``: a player's balance and entries, and deposits at the cage."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field

from croupier.money import fmt, parse_amount
from croupier.service import store
from croupier.service.api import queries
from croupier.service.api.deps import Admin, Key, PlayerOrStaff, Svc, UserName
from croupier.service.api.errors import reply
from croupier.service.api.models import Amount
from croupier.service.api.replies import Documented, WalletMove
from croupier.service.plans import fingerprint

router = APIRouter(prefix="/wallets", tags=["cashier"])


class Entry(Documented):
    """One move of a wallet's money; ``table`` and ``seq`` name the table event it came with
    (a buy-in, a cash-out), None at the cage."""

    amount: str = Field(examples=["-100.00"])
    kind: str = Field(examples=["buy_in"])
    table: str | None
    seq: int | None
    balance_after: str
    at: float


class Wallet(Documented):
    player: str
    balance: str = Field(examples=["900.00"])
    entries: list[Entry] = Field(description="the last 50, newest first")


@router.get("/{player}", response_model=None, responses={200: {"model": Wallet}})
def wallet(player: UserName, user: PlayerOrStaff, svc: Svc) -> dict[str, Any]:
    """A wallet's balance and its last 50 entries (the player, or staff)."""
    with svc.engine.connect() as conn:
        balance = svc.ledger.wallet_balance(conn, player)
        entries = queries.wallet_entries(conn, player)
    return {"player": player, "balance": fmt(store.dollars(balance)),
            "entries": [{"amount": fmt(store.dollars(e.amount_cents)), "kind": e.kind,
                         "table": e.table_id, "seq": e.seq,
                         "balance_after": fmt(store.dollars(e.balance_after_cents)),
                         "at": e.at} for e in entries]}


@router.post("/{player}/deposits", response_model=WalletMove)
def deposit(request: Request, player: UserName, body: Amount, user: Admin, key: Key,
            svc: Svc) -> Response:
    """Money into a player's wallet at the cage (admin)."""
    fp = fingerprint("POST", request.url.path, body.model_dump())
    return reply(svc.ledger.deposit(user, key, fp, player, parse_amount(body.amount, "amount")))
