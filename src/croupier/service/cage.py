"""The cage's other way: a player's wallet paid out in cash (money leaving the house).

A deposit (``Ledger.deposit``) brings money in; a cash-out at the cage takes it back out of
the wallet, under the same limit per operation as a deposit and never more than the wallet
holds. Like every move of money it is kept under its Idempotency-Key: the same request sent
twice pays once.
"""

from __future__ import annotations

from decimal import Decimal

from croupier.money import fmt
from croupier.service import moves, store
from croupier.service.auth import User
from croupier.service.errors import ApiError
from croupier.service.ledger import CageMove, Ledger
from croupier.service.limits import Limits
from croupier.service.plans import Reply

KIND = moves.CASH_OUT  # the wallet entry's kind: cash handed to the player at the cage


def check_cash_out(limits: Limits, amount: int, balance: int) -> None:
    """Refuse (422) a cash-out that is not positive, above the cage's limit per operation, or
    above what the wallet holds.

    >>> check_cash_out(Limits(max_deposit=100_00), 50_00, 80_00)
    >>> check_cash_out(Limits(max_deposit=100_00), 90_00, 80_00)
    Traceback (most recent call last):
    ...
    croupier.service.errors.ApiError: the wallet holds 80.00: no more can be paid out
    """
    if amount <= 0:
        raise ApiError(422, "malformed", "a cash-out pays a positive amount")
    if amount > limits.max_deposit:
        raise ApiError(422, "limit", f"a cash-out is at most {fmt(store.dollars(limits.max_deposit))} "
                       "(the cage's limit per operation)")
    if amount > balance:
        raise ApiError(422, "refused", f"the wallet holds {fmt(store.dollars(balance))}: "
                       "no more can be paid out")


def cash_out(ledger: Ledger, user: User, key: str | None, fp: str, player: str,
             amount: Decimal) -> Reply:
    """Pay ``amount`` out of ``player``'s wallet at the cage (an admin's act), as a deposit
    is made (:meth:`Ledger.at_the_cage`)."""
    cents = store.cents(amount)
    check_cash_out(ledger.limits, cents, cents)  # early: before any lock or query
    return ledger.at_the_cage(user, key, fp, CageMove(
        player, -cents, KIND, lambda before: check_cash_out(ledger.limits, cents, before)))
