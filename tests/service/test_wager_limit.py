"""A single wager is bounded so that its win at the largest odds a pay table may state
(999999 to 1, six digits) fits the ledger's 64-bit integers of cents: a larger one made every
roll that would settle it fail with an overflow, so the table could never pay it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.service.errors import ApiError
from croupier.service.limits import WAGER_CEILING, Limits

INT64 = 2**63 - 1


def test_a_wager_is_at_most_what_a_wallet_holds() -> None:
    lim = Limits(max_wallet=500_00)
    lim.check_wager(Decimal("500.00"))
    with pytest.raises(ApiError) as refused:
        lim.check_wager(Decimal("500.01"))
    assert "a wager is at most 500.00" in str(refused.value)


def test_the_largest_wager_wins_within_the_ledger_integers() -> None:
    lim = Limits(max_wallet=10**13)  # the highest wallet limit a house may set
    lim.check_wager(Decimal(WAGER_CEILING) / 100)
    with pytest.raises(ApiError):
        lim.check_wager(Decimal(WAGER_CEILING + 1) / 100)
    # Its stake back plus 999999 to 1, on top of as much again already in chips.
    assert WAGER_CEILING * (999_999 + 1) * 2 < INT64
