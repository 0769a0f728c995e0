"""What the cage answers for a move of money, worked out from the wallet entry it wrote.

The reply kept under a deposit's or a cash-out's Idempotency-Key is this projection of the
chained entry (which records the request's digest): the audit rebuilds it and compares
(``audit.requests``), so an edited reply is named, and a retry whose reply is gone finds the
entry and is not done again.

>>> reply_of({"player": "alice", "kind": CASH_OUT, "amount_cents": -2500,
...           "balance_after_cents": 7500})
{'player': 'alice', 'paid': '25.00', 'balance': '75.00'}
>>> reply_of({"player": "alice", "kind": "buy_in", "amount_cents": -100,
...           "balance_after_cents": 0}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.money import fmt
from croupier.service import store

DEPOSIT = "deposit"
"""The wallet entry's kind: chips bought at the cage (money in)."""
CASH_OUT = "cage_cash_out"
"""The wallet entry's kind: cash handed to the player at the cage (money out)."""


def reply_of(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The cage's reply for the move ``entry`` (a row of ``wallet_entries``) records; None
    for an entry that is no move at the cage."""
    player = entry["player"]
    balance = fmt(store.dollars(int(entry["balance_after_cents"])))
    if entry["kind"] == DEPOSIT:
        return {"player": player, "balance": balance}
    if entry["kind"] == CASH_OUT:
        return {"player": player, "paid": fmt(store.dollars(-int(entry["amount_cents"]))),
                "balance": balance}
    return None
