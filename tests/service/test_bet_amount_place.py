"""A bet's amount is named by one place whether or not a match play coupon comes with it: the
route's body field, ``body.amount``, as the game's reader names it for a bet without a coupon."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(Path(tmp_path_factory.mktemp("amount-place"))) as made:
        made.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
        yield made


@pytest.mark.parametrize("coupon", [None, "MP-0123456789AB"])
def test_a_zero_amount_is_named_body_amount_with_or_without_a_coupon(app: App,
                                                                     coupon: str | None) -> None:
    body = {"wager": "pass", "amount": "0"} | ({"coupon": coupon} if coupon else {})
    answer = app.post("alice", "/tables/craps-1/bets", body)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["reason"] == 'body.amount: must be more than zero: "0"'
