"""The organiser's casino night in Chromium over a real server: tables opened from the console
for real dice or a real wheel, whose results the dealer then enters; staff the organiser
registered choosing their own passwords."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import Server


@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)")
def test_the_console_opens_a_physical_wheel_the_dealer_enters(server: Server, login: Any) -> None:
    admin = login("admin", "craps-1")
    admin.wait_for_selector("#table-entry")
    admin.fill("#table-id", "wheel-2")
    admin.select_option("#table-game", "roulette")
    admin.select_option("#table-entry", "physical")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=the dealer enters each result")
    assert "physical" in admin.inner_text("#admin-tables tr[data-table='wheel-2']")
    assert server.get("admin", "/tables/wheel-2")["entry"] == "physical"
    # The dealer enters where the ball rests: taken, not refused as at an RNG table.
    dealer = login("dealer", "wheel-2")
    dealer.select_option("#spin-number", "17")
    dealer.click("#spin-physical")
    dealer.wait_for_selector("#dealer-msg >> text=the ball rests in 17")


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_the_console_opens_an_rng_table_by_choice(server: Server, login: Any) -> None:
    admin = login("admin", "craps-1")
    admin.fill("#table-id", "craps-rng")
    admin.select_option("#table-game", "craps")
    admin.select_option("#table-entry", "rng")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=results drawn by the server's RNG")
    assert server.get("admin", "/tables/craps-rng")["entry"] == "rng"


def test_the_console_report_reconciles_the_night(server: Server, login: Any) -> None:
    server.post("admin", "/wallets/alice/deposits", {"amount": "10.01"})
    asked = server.post("alice", "/wallets/alice/cash-outs", {"amount": "5.02"})
    server.post("admin", f"/wallets/alice/cash-outs/{asked['cash_out']}/pay")
    server.post("alice", "/tables/craps-1/buy-in", {"amount": "20"})
    admin = login("admin", "craps-1")
    admin.click("#report-show-btn")
    admin.wait_for_selector("#report-view #reconciled")
    assert admin.inner_text("#report-view #reconciled") == "Adds up: yes, to the cent."
    text = admin.inner_text("#report-view")
    assert "Cage cash-outs" in text and "Wallets still held" in text and "Made 20" in text
    assert "chips bought at the tables" in text  # the casino term with its plain meaning


def test_a_console_made_supervisor_chooses_their_own_password(server: Server,
                                                             browser: Any) -> None:
    """docs/casino-night.md section 2: a supervisor the organiser registered logs in and, on a
    phone-sized page under its Content-Security-Policy, changes the password the organiser
    typed (docs/two-person-rules.md: until then the account counts as the organiser's)."""
    typed, own = "typed-by-the-organiser", "floor-two-chose-this"
    server.post("admin", "/users", {"username": "floor2", "password": typed, "role": "supervisor"})
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        console: list[str] = []
        page.on("console", lambda m: console.append(m.text))
        sent: list[dict[str, str]] = []  # the password changes the page asked for
        page.on("request", lambda r: sent.append(r.headers)
                if r.url.endswith("/auth/me/password") else None)
        page.goto(f"{server.url}/#table=craps-1")
        page.fill("#login-user", "floor2")
        page.fill("#login-pass", typed)
        page.click("#login-btn")
        page.wait_for_selector("#whoami >> text=floor2 (supervisor)")
        # By keyboard: the header's control opens the dialog with the cursor in its first field.
        page.focus("#password-btn")
        page.keyboard.press("Enter")
        page.wait_for_selector("#password-dialog[open] #pw-current:focus")
        page.keyboard.type("not-what-the-organiser-typed")
        for value in (own, own):
            page.keyboard.press("Tab")
            page.keyboard.type(value)
        page.keyboard.press("Enter")
        # The server's refusal (403, body.current) in words; the dialog stays open.
        page.wait_for_selector("#password-msg >> text=Current password: not the account's password.")
        assert page.is_visible("#password-dialog") and len(sent) == 1
        # Two new ones that differ are caught here: nothing is sent.
        page.fill("#pw-current", typed)
        page.fill("#pw-repeat", own + "!")
        page.click("#pw-submit")
        page.wait_for_selector("#password-msg >> text=The two new passwords differ")
        assert len(sent) == 1
        page.fill("#pw-repeat", own)
        page.click("#pw-submit")
        page.wait_for_selector("#login-note >> text=Password changed: log in again.")
        assert not page.is_visible("#password-dialog") and len(sent) == 2
        assert page.input_value("#login-user") == "floor2"
        # The session the page held has ended on the server, not only in the page.
        old = httpx.get(f"{server.url}/auth/me", headers={"Authorization": sent[1]["authorization"]})
        assert old.status_code == 401
        page.fill("#login-pass", own)
        page.click("#login-btn")
        page.wait_for_selector("#whoami >> text=floor2 (supervisor)")
        assert page.is_hidden("#login-note")
        assert not [m for m in console if "Content Security Policy" in m], console
    finally:
        context.close()
