"""Exact money and payout odds.

Money is :class:`decimal.Decimal` dollars, never binary floating point; odds are written the
regulation's way, "7 to 5" (never "for": 13:69F-1.4(a), 19:47-1.4(a), 13:47-20.25(i)1).

>>> odds = Odds.parse("7 to 6")
>>> odds.winnings(Decimal("12"))
Fraction(14, 1)
>>> is_payable(odds.winnings(Decimal("10")), Decimal("1"))
False
>>> fmt(Decimal("7.5"))
'7.50'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from croupier.errors import Malformed

CENT = Decimal("0.01")
ZERO = Decimal("0")

_DECIMAL_TEXT = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")


def parse_amount(value: Any, where: str = "", *, allow_zero: bool = False) -> Decimal:
    """A dollar amount from JSON (a number already parsed as Decimal, an int, or a decimal string).

    Amounts must be positive (or zero where allowed) and a whole number of cents.
    """
    if isinstance(value, float) and not isinstance(value, bool):
        # Only an in-process caller that parsed JSON without Decimal gets here: its float's
        # shortest repr is the JSON text it came from ("7.5"), which is then read exactly.
        value = repr(value)
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal)):
        raise Malformed(where, f"not a decimal amount: {_show(value)}")
    if isinstance(value, str):
        text = value.strip()
        if not _DECIMAL_TEXT.match(text):
            raise Malformed(where, f"not a decimal amount: {_show(value)}")
        try:
            amount = Decimal(text)
        except InvalidOperation:
            raise Malformed(where, f"not a decimal amount: {_show(value)}") from None
    else:
        amount = Decimal(value)
    if not amount.is_finite():
        raise Malformed(where, f"not a decimal amount: {_show(value)}")
    if amount < 0 or (amount == 0 and not allow_zero):
        raise Malformed(where, f"must be more than zero: {_show(value)}")
    if amount.adjusted() > 15:
        raise Malformed(where, f"amount too large: {_show(value)}")
    if amount != amount.quantize(CENT):
        raise Malformed(where, f"not a whole number of cents: {_show(value)}")
    return amount


def _show(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value + '"'
    if isinstance(value, Decimal):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if not isinstance(value, (list, dict)) else type(value).__name__


def show_json(value: Any) -> str:
    """A short rendering of a JSON value for an error message."""
    return _show(value)


def fmt(amount: Decimal | Fraction | int) -> str:
    """Two decimals, as the replay contract prints money."""
    dec = to_decimal(amount) if isinstance(amount, Fraction) else Decimal(amount)
    text = f"{dec:.2f}" if dec == dec.quantize(CENT) else format(dec.normalize(), "f")
    return "0.00" if text in ("-0.00",) else text


def describe(amount: Fraction | Decimal) -> str:
    """An amount for a message, exact even when it is not a whole number of cents (5/3)."""
    value = Fraction(amount)
    if (value * 100).denominator == 1:
        return fmt(value)
    return f"{value.numerator}/{value.denominator}"


def to_decimal(value: Fraction) -> Decimal:
    """An exact Decimal for a fraction that is a finite decimal (every payable amount is)."""
    result = Decimal(value.numerator) / Decimal(value.denominator)
    if Fraction(result) != value:
        raise ArithmeticError(f"{value} is not an exact decimal amount")
    return result


def is_multiple(amount: Decimal | Fraction, unit: Decimal) -> bool:
    """Whether ``amount`` is a whole number of table units."""
    if isinstance(amount, Decimal):
        return amount % unit == 0  # exact: Decimal remainder of two finite decimals
    return (amount / Fraction(unit)).denominator == 1


def is_payable(amount: Fraction | Decimal, unit: Decimal) -> bool:
    """N.J.A.C. 13:69F-1.4(f), 19:47-1.4(e): an amount the table can pay in its unit."""
    return is_multiple(amount, unit)


def floor_to_unit(amount: Fraction | Decimal, unit: Decimal) -> Decimal:
    """Round down to the table unit (commission is never rounded up)."""
    units = Fraction(amount) / Fraction(unit)
    return Decimal(units.numerator // units.denominator) * unit


# Far above any pay table (the fire bet's 999 to 1), and small enough that exact Decimal
# arithmetic on stakes times odds never runs out of precision.
MAX_ODDS_TERM = 1_000_000

_ODDS = re.compile(r"^\s*([0-9]{1,12})\s+(to|for)\s+([0-9]{1,12})\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=False)
class Odds:
    """Payout odds ``win`` to ``stake``: a winning wager of ``stake`` is paid ``win`` besides."""

    win: int
    stake: int

    @classmethod
    def parse(cls, text: Any, where: str = "", wording_clause: str = "") -> Odds:
        """``text`` as odds; ``wording_clause`` is the clause of the table's profile that says
        odds are stated with "to" (cited when ``text`` says "for")."""
        if not isinstance(text, str):
            raise Malformed(where, f'odds must be written as "N to M": {_show(text)}')
        match = _ODDS.match(text)
        if not match:
            raise Malformed(where, f'odds must be written as "N to M": {_show(text)}')
        if match.group(2).lower() == "for":
            cited = f" ({wording_clause})" if wording_clause else ""
            raise Malformed(where, f'odds are stated with "to", never "for"{cited}: {_show(text)}')
        win, stake = int(match.group(1)), int(match.group(3))
        if win <= 0 or stake <= 0:
            raise Malformed(where, f"odds must be positive: {_show(text)}")
        if max(win, stake) > MAX_ODDS_TERM:
            raise Malformed(where, f"odds terms above {MAX_ODDS_TERM:,} are not a pay table: "
                            f"{_show(text)}")
        return cls(win, stake)

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.win, self.stake)

    def winnings(self, stake: Decimal | Fraction) -> Fraction:
        """What a winning wager of ``stake`` is paid, over and above its stake."""
        return Fraction(stake) * self.ratio

    def pays(self, stake: Decimal) -> Decimal:
        """The winnings on ``stake`` as exact money; ArithmeticError if not a whole cent amount.

        >>> Odds(7, 6).pays(Decimal(12))
        Decimal('14')
        >>> Odds(10, 7).pays(Decimal(12))
        Traceback (most recent call last):
        ...
        ArithmeticError: 12 at 10 to 7 is 120/7, not an exact amount of money
        """
        gross = stake * self.win
        paid = gross / self.stake
        # Decimal division rounds to its context's precision, and so may its check by
        # multiplication: the check is made on exact fractions.
        if Fraction(paid) * self.stake != Fraction(gross) or paid != paid.quantize(CENT):
            raise ArithmeticError(f"{stake} at {self} is {describe(self.winnings(stake))}, not "
                                  "an exact amount of money")
        return paid

    def pays_exactly_in(self, stake: Decimal, unit: Decimal) -> bool:
        """Whether the winnings on ``stake`` are a whole number of ``unit``."""
        return (stake * self.win) % (unit * self.stake) == 0

    def __str__(self) -> str:
        return f"{self.win} to {self.stake}"
