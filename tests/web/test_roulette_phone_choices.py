"""Roulette on a phone (390 x 844): the splits, corners, streets and six-number lines between
the numbers are too narrow for a thumb, so a tap on a number lists every inside wager covering
it as buttons of at least 44 x 44 px, measured here; the dealer spins and rolls from a phone;
and the real server logs each request with the id its answer carries.

These share the seeded server of the other browser tests and use a table of their own.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal
from typing import Any

import httpx
import pytest

from .conftest import SCREENSHOTS, Server

TABLE = "roulette-phone"
PHONE = {"width": 390, "height": 844}
COVERING_17 = ["straight:17", "split:14-17", "split:16-17", "split:17-18", "split:17-20",
               "three_numbers:16-17-18", "four_numbers:13-14-16-17", "four_numbers:14-15-17-18",
               "four_numbers:16-17-19-20", "four_numbers:17-18-20-21",
               "six_numbers:13-14-15-16-17-18", "six_numbers:16-17-18-19-20-21"]


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


def _choices(page: Any, number: str) -> list[tuple[str, float, float]]:
    page.locator(f'[data-spot="straight:{number}"]').click()
    page.wait_for_selector("#popover:not([hidden]) .pop-choice")
    return [(str(b.get_attribute("data-choice")), *_size(b))
            for b in page.locator("#popover .pop-choice").all()]


def _size(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["width"], box["height"]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
def test_inside_bets_on_a_phone_are_chosen_by_number(server: Server, login: Any) -> None:
    server.post("admin", "/tables", {"id": TABLE, "game": "roulette",
                                     "profile": "nj-casino-night"})
    server.post("alice", f"/tables/{TABLE}/buy-in", {"amount": "100"})
    alice = login("alice", TABLE, **PHONE)
    # On the felt itself a split line is far under a thumb's 44 px: hence the list.
    line_w, line_h = _size(alice.locator('[data-spot="split:17-20"]'))
    assert min(line_w, line_h) < 44
    alice.locator('.chip-pick span:has-text("5")').first.click()
    choices = _choices(alice, "17")
    assert [c[0] for c in choices] == COVERING_17
    assert [c for c in choices if c[1] < 44 or c[2] < 44] == []
    assert "Bets on 17" in alice.inner_text("#popover h3")
    alice.locator('#popover [data-choice="split:17-20"]').click()
    alice.wait_for_selector("#bankroll-chips:text-is('95.00')")
    # The number again: the split says it is the player's, and a corner is one tap away.
    _choices(alice, "17")
    assert "(yours: 5.00)" in alice.inner_text('#popover [data-choice="split:17-20"]')
    alice.wait_for_timeout(300)  # the chip lands on the line before the picture
    alice.screenshot(path=str(SCREENSHOTS / "roulette-phone-choices.png"))
    alice.locator('#popover [data-choice="four_numbers:17-18-20-21"]').click()
    alice.wait_for_selector("#bankroll-chips:text-is('90.00')")
    layout = server.get("alice", f"/tables/{TABLE}")["layout"]
    assert sorted((w["wager"], w["stake"]) for w in layout if w["player"] == "alice") == [
        ("four_numbers:17-18-20-21", "5.00"), ("split:17-20", "5.00")]
    # Zero on the double-zero wheel: its splits, the three-number bets and the first five.
    zero = _choices(alice, "0")
    assert {"straight:0", "split:0-00", "split:0-1", "split:0-2", "three_numbers:0-1-2",
            "first_five"} <= {c[0] for c in zero}
    assert [c for c in zero if c[1] < 44 or c[2] < 44] == []
    alice.keyboard.press("Escape")
    assert alice.locator("#popover").is_hidden() and _chips(alice) == Decimal("90.00")
    # The dealer spins from a phone too; the player's phone shows the decision and pays.
    dealer = login("dealer", TABLE, **PHONE)
    assert min(_size(dealer.locator("#spin-rng"))) >= 44
    dealer.click("#spin-rng")
    dealer.wait_for_selector("#dealer-msg.ok >> text=the ball rests in")
    events = server.get("dealer", f"/tables/{TABLE}/events?limit=1000")
    number = [e for e in events if e["type"] == "crown"][-1]["number"]
    # Split 17 to 1, corner 8 to 1 (N.J.A.C. 13:47-20.32(f)): stake and winnings come back.
    expected = Decimal("90.00") + (90 if number in (17, 20) else 0) + (
        45 if number in (17, 18, 20, 21) else 0)
    alice.wait_for_selector(f"#bankroll-chips:text-is('{expected:.2f}')")
    alice.wait_for_selector(f"#decision >> text=ball rests in {number}")
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _last_roll(server: Server) -> dict[str, Any] | None:
    rolls = [e for e in server.get("dealer", "/tables/craps-1/events?limit=1000")
             if e["type"] == "roll"]
    return max(rolls, key=lambda e: int(e["seq"])) if rolls else None


def test_the_dealer_rolls_craps_from_a_phone(server: Server, login: Any) -> None:
    server.tokens.pop("bob", None)  # the organiser's lock earlier ended bob's old session
    server.post("bob", "/tables/craps-1/buy-in", {"amount": "20"})  # a player, a shooter
    server.post("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    table = server.get("dealer", "/tables/craps-1")
    dealer = login("dealer", "craps-1", **PHONE)
    if not table["dice_in_play"]:
        dealer.click("#offer-dice")
        dealer.click("#select-dice")
        dealer.wait_for_selector("text=In play:")
    assert min(_size(dealer.locator("#roll-rng"))) >= 44
    before = _last_roll(server)
    dealer.click("#roll-rng")
    dealer.wait_for_selector("#dealer-msg.ok")
    roll = _last_roll(server)
    assert roll is not None and (before is None or roll["seq"] > before["seq"])
    d1, d2 = roll["dice"]
    dealer.wait_for_selector(f"#decision >> text=Roll {roll['round']}: {d1} + {d2} = {d1 + d2}")
    assert dealer.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_server_logs_each_request_with_the_id_errors_carry(server: Server,
                                                               login: Any) -> None:
    assert server.log is not None
    answer = httpx.get(f"{server.url}/tables/nowhere?token=not-for-the-log",
                       headers={"Authorization": f"Bearer {server.token('auditor')}"})
    assert answer.status_code == 404
    rid = answer.headers["x-request-id"]
    assert answer.json()["error"]["request_id"] == rid
    line = re.compile(rf"^\S+Z {rid} GET /tables/nowhere\?token=\*\*\* 404 \d+\.\dms$", re.M)
    # The line is written once the answer is sent: give the server a moment to write it.
    for _ in range(50):
        text = server.log.read_text()
        if line.search(text):
            break
        time.sleep(0.1)
    assert line.search(text), text[-2000:]
    assert "not-for-the-log" not in text
    # The page names the request of an internal error, for the staff to find in the log.
    page = login("auditor", "craps-1")
    worded = page.evaluate("""async () => (await import('/static/messages.js')).explain(
        {code: 'internal', clause: '', request_id: '5f0c2a9e4b1d4e7a',
         reason: 'internal error; nothing was changed by this request'})""")
    assert worded == ("Internal error; nothing was changed by this request (request "
                      "5f0c2a9e4b1d4e7a: quote it to the staff).")
