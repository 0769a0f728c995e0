"""Every button that moves money moves it once, however often it is pressed: one
Idempotency-Key per intent (made when the form is filled, reused by a double click and by a
retry after a lost answer), checked in Chromium against a real server's wallets."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from .conftest import Server

CRAPS = "craps-1"


def _entries(server: Server, player: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in server.get("admin", f"/wallets/{player}")["entries"] if e["kind"] == kind]


def _balance(server: Server, player: str) -> Decimal:
    return Decimal(server.get("admin", f"/wallets/{player}")["balance"])


def _settled(page: Any, selector: str) -> None:
    """Wait until the button's request has had its answer (api.js: once)."""
    page.wait_for_function(f"() => !document.querySelector('{selector}').dataset.busy")


def test_a_double_click_at_the_cage_moves_the_money_once(server: Server, login: Any) -> None:
    admin = login("admin", CRAPS)
    admin.wait_for_selector("#deposit-player option[value='bob']", state="attached")
    admin.select_option("#deposit-player", "bob")
    before = _balance(server, "bob")
    admin.fill("#deposit-amount", "37.25")
    admin.dblclick("#deposit-btn")
    admin.wait_for_selector("#cage-msg.ok >> text=37.25 deposited")
    _settled(admin, "#deposit-btn")
    admin.click("#deposit-btn")  # a third press of the same filled form: the same intent
    _settled(admin, "#deposit-btn")
    assert [e["amount"] for e in _entries(server, "bob", "deposit")].count("37.25") == 1
    assert _balance(server, "bob") == before + Decimal("37.25")
    # The cage's other way: cash out of the wallet, asked (double-clicked: asked once), and
    # paid (double-clicked: paid once) by a second person: the admin pays bob's own request,
    # never the one the admin asked.
    admin.fill("#cage-out-amount", "12.50")
    admin.dblclick("#cage-out-btn")
    admin.wait_for_selector("#cage-msg.ok >> text=of 12.50 asked for bob")
    _settled(admin, "#cage-out-btn")
    waiting = server.get("admin", "/cage/cash-outs")
    assert [(c["amount"], c["requested_by"]) for c in waiting] == [("12.50", "admin")]
    own = server.post("bob", "/wallets/bob/cash-outs", {"amount": "12.50"})["cash_out"]
    admin.reload()
    admin.wait_for_selector("#deposit-player option[value='bob']", state="attached")
    admin.select_option("#deposit-player", "bob")
    admin.click(f"#cage-queue-table tr[data-cash-out='{waiting[0]['cash_out']}'] .pay-btn")
    admin.wait_for_selector("#cage-msg.error >> text=second person")
    row = f"#cage-queue-table tr[data-cash-out='{own}'] .pay-btn"
    admin.dblclick(row)
    admin.wait_for_selector("#cage-msg.ok >> text=12.50 paid out in cash to bob")
    assert len(_entries(server, "bob", "cage_cash_out")) == 1
    assert _balance(server, "bob") == before + Decimal("37.25") - Decimal("12.50")
    # A new amount typed is a new intent: it moves again.
    admin.fill("#deposit-amount", "37.25")
    admin.click("#deposit-btn")
    admin.wait_for_selector("#wallet-view >> text=holds")
    _settled(admin, "#deposit-btn")
    assert [e["amount"] for e in _entries(server, "bob", "deposit")].count("37.25") == 2


def test_a_retry_after_a_lost_answer_deposits_once(server: Server, login: Any) -> None:
    admin = login("admin", CRAPS)
    admin.wait_for_selector("#deposit-player option[value='alice']", state="attached")
    admin.select_option("#deposit-player", "alice")
    before = _balance(server, "alice")
    lost = {"n": 0}

    def lose_first_answer(route: Any) -> None:
        if lost["n"] == 0:  # the server does it; its answer never reaches the page
            lost["n"] += 1
            route.fetch()
            route.abort()
        else:
            route.continue_()

    admin.route("**/wallets/alice/deposits", lose_first_answer)
    admin.fill("#deposit-amount", "41.10")
    admin.click("#deposit-btn")
    admin.wait_for_selector("#cage-msg.error >> text=cannot be reached")
    admin.click("#deposit-btn")  # the organiser tries again
    admin.wait_for_selector("#cage-msg.ok >> text=41.10 deposited")
    assert _balance(server, "alice") == before + Decimal("41.10")


def test_a_double_click_at_the_table_buys_and_cashes_out_once(server: Server, login: Any) -> None:
    bob = login("bob", CRAPS)
    before = _balance(server, "bob")
    bob.fill("#buyin-amount", "55")
    bob.dblclick("#buyin-btn")
    bob.wait_for_function("() => document.querySelector('#bankroll-chips').textContent.includes('55.00')")
    _settled(bob, "#buyin-btn")
    assert len([e for e in _entries(server, "bob", "buy_in") if e["amount"] == "-55.00"]) == 1
    assert _balance(server, "bob") == before - Decimal("55.00")
    bob.dblclick("#cashout-btn")
    bob.wait_for_function("() => document.querySelector('#bankroll-chips').textContent.includes('0.00')")
    _settled(bob, "#cashout-btn")
    assert len(_entries(server, "bob", "cash_out")) == 1
    assert _balance(server, "bob") == before
