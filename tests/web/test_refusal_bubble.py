"""A refusal on a phone does not block the felt under it: a tap on its words reaches the spot
beneath, its buttons still dismiss it, and it is read out as it appears (an alert)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import Server

PHONE = {"width": 390, "height": 844, "touch": True}


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3")
def test_a_refusal_on_a_phone_lets_taps_through_and_is_read_out(server: Server,
                                                                login: Any) -> None:
    server.post("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    alice = login("alice", "craps-1", **PHONE)
    # A come bet before the shooter's first roll is made at the wrong time (13:69F-1.2(a)3).
    alice.locator('[data-spot="come"]').tap()
    refusal = alice.locator("#refusal")
    refusal.wait_for(state="visible")
    assert "only after the come out roll" in refusal.inner_text()
    assert refusal.get_attribute("role") == "alert"  # read out as it appears
    # Under the bubble's words lies the felt: a tap there reaches the spot beneath.
    box = alice.locator("#refusal .refusal-reason").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    under = alice.evaluate(
        "([x, y]) => { const el = document.elementFromPoint(x, y);"
        " const spot = el && el.closest('[data-spot]'); return spot ? spot.dataset.spot : null; }",
        [x, y])
    assert under is not None and under != "come", under
    alice.touchscreen.tap(x, y)
    # The spot beneath took the tap: its bet, its popover or its own refusal, not the old one.
    alice.wait_for_function(
        "(key) => document.querySelector('#refusal').hidden"
        " || document.querySelector('#refusal').dataset.for === key", arg=under)
    # The bubble's own buttons still take a tap: it can be dismissed.
    alice.locator('[data-spot="come"]').tap()
    refusal.wait_for(state="visible")
    alice.locator("#refusal .close").tap()
    assert refusal.is_hidden()
