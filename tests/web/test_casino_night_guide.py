"""The journey docs/casino-night.md describes, step by step, in Chromium over a real server:
each step's screenshot in docs/screenshots/night-*.png is taken here, so the guide's pictures
are what the steps show. A physical-dice table and a physical wheel, from the console to the
reconciled report."""

from __future__ import annotations

from typing import Any

from .conftest import SCREENSHOTS, Server


def _shot(el: Any, name: str) -> None:
    el.screenshot(path=str(SCREENSHOTS / f"night-{name}.png"))


def test_the_guide_step_by_step(server: Server, login: Any) -> None:
    # Step 2: staff. The organiser registers a dealer in the console.
    admin = login("admin", "craps-1", width=1366, height=900)
    admin.fill("#new-user", "dana")
    admin.fill("#new-pass", "dana-long-password")
    admin.select_option("#new-role", "dealer")
    admin.click("#user-btn")
    admin.wait_for_selector("#users-msg.ok")
    _shot(admin.locator("#admin-users"), "1-staff")
    # Step 3: tables, physical dice and a physical wheel.
    for table, game in (("dice-night", "craps"), ("wheel-night", "roulette")):
        admin.fill("#table-id", table)
        admin.select_option("#table-game", game)
        admin.select_option("#table-entry", "physical")
        admin.fill("#table-min", "5")
        admin.fill("#table-max", "500")
        admin.click("#table-btn")
        admin.wait_for_selector(f"#tables-msg.ok >> text=Table {table} is open")
    _shot(admin.locator("#admin-tables"), "2-tables")
    # Step 4: the dice's records: a die registered to the dice table.
    admin.fill("#die-serial", "NIGHT-01")
    admin.fill("#die-set", "night set")
    admin.fill("#die-table", "dice-night")
    admin.click("#die-btn")
    admin.wait_for_selector("#dice-msg.ok")
    _shot(admin.locator("#admin-dice"), "3-dice")
    # Step 5: the cage: a deposit.
    admin.select_option("#deposit-player", "bob")
    admin.fill("#deposit-amount", "150")
    admin.click("#deposit-btn")
    admin.wait_for_selector("#cage-msg.ok >> text=deposited")
    _shot(admin.locator("#admin-cage"), "4-deposit")
    # Step 6: the night: the player buys chips and bets; the dealer enters where the ball rests.
    bob = login("bob", "wheel-night", width=1366, height=900)
    bob.fill("#buyin-amount", "100")
    bob.click("#buyin-btn")
    bob.wait_for_function("() => document.querySelector('#bankroll-chips').textContent.includes('100.00')")
    server.post("bob", "/tables/wheel-night/bets", {"wager": "red", "amount": "10"})
    dealer = login("dealer", "wheel-night", width=1366, height=900)
    dealer.select_option("#spin-number", "32")
    dealer.click("#spin-physical")
    dealer.wait_for_selector("#dealer-msg >> text=the ball rests in 32")
    _shot(dealer.locator("#dealer-console"), "5-dealer-enters")
    # Step 7: alerts: the panel the dealer, supervisor and organiser share.
    _shot(dealer.locator("#dealer-alerts"), "6-alerts")
    # Step 8: closing: the player cashes out at the table, asks for cash at the cage, and the
    # organiser (a second person) pays it.
    bob.reload()
    bob.wait_for_selector("#cashout-btn")
    bob.click("#cashout-btn")
    bob.wait_for_function("() => document.querySelector('#bankroll-chips').textContent.trim() === '0.00'")
    bob.fill("#cage-ask-amount", "250")
    bob.click("#cage-ask-btn")
    bob.wait_for_selector("#player-msg.ok >> text=held in your wallet until the cage pays it")
    admin.reload()
    admin.wait_for_selector("#deposit-player option[value='bob']", state="attached")
    admin.select_option("#deposit-player", "bob")
    admin.click("#cage-queue-table .pay-btn")
    admin.wait_for_selector("#cage-msg.ok >> text=paid out in cash to bob")
    admin.wait_for_selector("#cage-queue-empty")
    _shot(admin.locator("#admin-cage"), "7-cash-out")
    # Step 9: the report, reconciled to the cent.
    admin.click("#report-show-btn")
    admin.wait_for_selector("#report-view #reconciled")
    assert admin.inner_text("#report-view #reconciled") == "Adds up: yes, to the cent."
    _shot(admin.locator("#report-view #reconciliation"), "8-reconciled")
