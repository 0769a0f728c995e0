"""Limits on the money that enters the ledger from outside a game: deposits, adjustments and
match play coupons.

Every amount is bounded, so every sum the ledger keeps fits easily in a 64-bit integer of cents
(sums are taken in Python's exact integers anyway). The defaults suit a casino-night table; a
house sets its own with ``CROUPIER_MAX_DEPOSIT``, ``CROUPIER_MAX_WALLET``,
``CROUPIER_MAX_ADJUSTMENT``, ``CROUPIER_MAX_COUPON_ALONE`` and ``CROUPIER_MAX_COUPONS_DAILY``
(decimal dollars), or the ``croupier serve`` options of those names (``--max-deposit``, ...).

>>> lim = Limits(max_deposit=100_00, max_wallet=500_00, max_adjustment=50_00)
>>> lim.check_deposit(100_00, 0)
>>> lim.check_deposit(100_01, 0)
Traceback (most recent call last):
...
croupier.service.errors.ApiError: a deposit is at most 100.00 (the cage's limit per operation)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from croupier.service.audit.canonical import money

DEFAULTS = {"max_deposit": 100_000_00, "max_wallet": 1_000_000_00, "max_adjustment": 10_000_00,
            "max_coupon_alone": 100_00, "max_coupons_daily": 1_000_00}
ENV = {"max_deposit": "CROUPIER_MAX_DEPOSIT", "max_wallet": "CROUPIER_MAX_WALLET",
       "max_adjustment": "CROUPIER_MAX_ADJUSTMENT",
       "max_coupon_alone": "CROUPIER_MAX_COUPON_ALONE",
       "max_coupons_daily": "CROUPIER_MAX_COUPONS_DAILY"}
HELP = {"max_deposit": "the cage's limit on one deposit",
        "max_wallet": "the most a wallet holds",
        "max_adjustment": "the limit on one adjustment, either way",
        "max_coupon_alone": "the largest match play coupon one person issues alone; above "
                            "it a second person approves",
        "max_coupons_daily": "the most one person issues in match play coupons in 24 hours, "
                             "approved or not"}
# No limit may be set above this: 10^13 cents keeps any sum of a billion of them in 64 bits.
CEILING = 10**13
# No single wager above this, whatever the wallet limit: at the largest odds a pay table can
# state (999999 to 1) its payout still fits a 64-bit integer of cents with room to spare (a
# larger win overflowed the seats' column, so every roll that settled it failed).
WAGER_CEILING = 10**12


def parse_limit(text: str, name: str) -> int:
    """A limit in whole cents from decimal dollars; ValueError naming ``name`` if not one."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{name}: not a decimal amount: {text!r}") from None
    if not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.01")):
        raise ValueError(f"{name}: a positive amount in whole cents, not {text!r}")
    cents = int(value * 100)
    if cents > CEILING:
        raise ValueError(f"{name}: at most {money(CEILING)}")
    return cents


@dataclass(frozen=True)
class Limits:
    """The cage's limits, in cents."""

    max_deposit: int = DEFAULTS["max_deposit"]
    max_wallet: int = DEFAULTS["max_wallet"]
    max_adjustment: int = DEFAULTS["max_adjustment"]
    max_coupon_alone: int = DEFAULTS["max_coupon_alone"]
    max_coupons_daily: int = DEFAULTS["max_coupons_daily"]

    @classmethod
    def from_env(cls) -> Limits:
        values = {k: parse_limit(os.environ[v], v) if os.environ.get(v) else DEFAULTS[k]
                  for k, v in ENV.items()}
        return cls(**values)

    def check_deposit(self, amount: int, balance: int) -> None:
        """Refuse (422) a deposit above the limit per operation or one that would take the
        wallet above its limit."""
        from croupier.service.errors import ApiError

        if amount <= 0:
            raise ApiError(422, "malformed", "a deposit moves a positive amount")
        if amount > self.max_deposit:
            raise ApiError(422, "limit", f"a deposit is at most {money(self.max_deposit)} "
                           "(the cage's limit per operation)")
        if balance + amount > self.max_wallet:
            raise ApiError(422, "limit", f"a wallet holds at most {money(self.max_wallet)}: "
                           f"this one holds {money(balance)}")

    @property
    def most_wager(self) -> int:
        """The largest wager in cents (:meth:`check_wager` refuses only what is above it)."""
        return min(self.max_wallet, WAGER_CEILING)

    def check_wager(self, amount: Decimal) -> None:
        """Refuse (422) a wager of ``amount`` dollars above what a wallet may hold (and never
        above ``WAGER_CEILING`` cents): no wager can win more than the ledger's integers hold."""
        from croupier.service.errors import ApiError

        most = self.most_wager
        if amount * 100 > most:
            raise ApiError(422, "limit", f"a wager is at most {money(most)} (the house's "
                           "limit on a wallet)")

    def check_coupon(self, face: int) -> None:
        """Refuse (422) a match play coupon worth more than a deposit may be: a coupon is the
        house's money handed to a player outside any game, as a deposit is money handed in at
        the cage, so one coupon moves no more than the cage may in one operation."""
        from croupier.service.errors import ApiError

        if face > self.max_deposit:
            raise ApiError(422, "limit", f"a coupon's face value is at most "
                           f"{money(self.max_deposit)} (the cage's limit per operation)")

    def check_adjustment(self, amount: int, clause: str = "") -> None:
        """Refuse an adjustment larger (either way) than the limit per operation, citing
        ``clause`` (the table's clause for adjustments)."""
        from croupier.errors import Refusal

        if abs(amount) > self.max_adjustment:
            raise Refusal(f"an adjustment is at most {money(self.max_adjustment)} either way "
                          "(the house's limit per operation)", clause)
