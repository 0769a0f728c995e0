"""Small fixes a new user tripped on, each checked in Chromium over a real server: the password
hint says what the server wants, a first bet with no chips leads to the Buy chips control on the
same page, a failed dice inspection is not shown as good news, and offering dice says what
comes next."""

from __future__ import annotations

from typing import Any

from .conftest import Server

CRAPS = "craps-1"


def test_the_password_field_asks_for_twelve(server: Server, login: Any) -> None:
    admin = login("admin", CRAPS)
    assert "12 or more" in admin.inner_text("#user-form")
    assert admin.get_attribute("#new-pass", "minlength") == "12"


def test_a_bet_without_chips_leads_to_buy_chips(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS, width=390, height=844)
    alice.locator('[data-spot="field"]').click()
    alice.wait_for_selector("#refusal:not([hidden]) .refusal-buy")
    alice.click("#refusal .refusal-buy")
    assert alice.evaluate("document.activeElement.id") == "buyin-amount"
    assert alice.is_hidden("#refusal")


def test_a_failed_inspection_is_shown_as_a_failure(server: Server, login: Any) -> None:
    sup = login("supervisor", CRAPS)
    sup.wait_for_selector("#inspect-form")
    sup.uncheck("#inspect-form input[name='edges_square']")
    sup.click("#inspect-btn")
    sup.wait_for_selector("#sup-msg >> text=failed")
    assert "error" in (sup.get_attribute("#sup-msg", "class") or "")
    assert "ok" not in (sup.get_attribute("#sup-msg", "class") or "").split()


def test_offering_dice_says_what_comes_next(server: Server, login: Any) -> None:
    server.post("bob", f"/tables/{CRAPS}/buy-in", {"amount": "20"})
    dealer = login("dealer", CRAPS)
    dealer.wait_for_selector("#offer-dice")
    dealer.click("#offer-dice")
    dealer.wait_for_selector("#dealer-msg.ok >> text=the shooter selects two")
