"""The racetrack (the wheel replica of the five adjacent numbers bet) on a phone's touch screen
(390 x 844): its pockets are closer together than a thumb, so a tap never places chips at
once; it opens the chooser the other phone bets use, each choice at least 44 x 44 px, with the
pockets either side one tap away to put right a tap that landed one pocket off.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import Server

TABLE = "roulette-1"  # the demo table: its layout has the wheel replica ((e)1ii)
PHONE = {"width": 390, "height": 844, "touch": True}


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


def _size(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def _small(page: Any) -> list[str]:
    """The chooser's buttons narrower or lower than 44 px."""
    return [str(b.inner_text()) for b in page.locator("#popover button").all()
            if min(_size(b)) < 44]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii")
def test_a_tap_on_the_racetrack_asks_before_it_bets(server: Server, login: Any) -> None:
    server.post("alice", f"/tables/{TABLE}/buy-in", {"amount": "100"})
    alice = login("alice", TABLE, **PHONE)
    alice.locator('.chip-pick span:has-text("5")').first.tap()
    pocket = alice.locator('[data-spot="five_adjacent:32"]')
    assert min(_size(pocket)) < 44  # on the felt the pockets are under a thumb's width
    pocket.tap()
    alice.wait_for_selector("#popover:not([hidden]) .pop-choice")
    assert _chips(alice) == Decimal("100.00")  # nothing is placed by the tap itself
    assert "centred on 32" in alice.inner_text("#popover .pop-choice")
    assert _small(alice) == []
    # One pocket off: the next pocket round the wheel is a 44 px button away. On the
    # double-zero wheel 17 lies between 32 and 5, so its five numbers are 20, 32, 17, 5, 22.
    alice.locator("#popover .pop-step-after").tap()
    alice.wait_for_selector("#popover .pop-choice >> text=centred on 17")
    assert "(20-32-17-5-22)" in alice.inner_text("#popover .pop-choice")
    assert _small(alice) == []
    assert _chips(alice) == Decimal("100.00")
    alice.locator("#popover .pop-choice").tap()
    alice.wait_for_selector("#bankroll-chips:text-is('95.00')")
    layout = server.get("alice", f"/tables/{TABLE}")["layout"]
    assert [(w["wager"], w["stake"]) for w in layout] == [("five_adjacent:17", "5.00")]
    # Tapped again, the pocket says the bet is there; Close places nothing more.
    alice.locator('[data-spot="five_adjacent:17"]').tap()
    alice.wait_for_selector("#popover .pop-choice >> text=(yours: 5.00)")
    alice.locator("#popover .pop-close").tap()
    assert alice.locator("#popover").is_hidden() and _chips(alice) == Decimal("95.00")
