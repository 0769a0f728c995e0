"""End to end in Chromium: the Rules panel of a table shows the notices its clauses require;
the organiser's night: a table opened, players registered, their money taken at the cage,
play, and the end-of-night report printed from the console.

These share the seeded server of the other browser tests and use tables of their own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import PASSWORD, SCREENSHOTS, Server

NOTICE = "#rules-notices li[data-clause='N.J.A.C. 13:47-20.32(i)1']"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)1")
def test_rules_panel_shows_the_single_zero_notice(server: Server, login: Any) -> None:
    server.post("admin", "/tables", {"id": "wheel-single", "game": "roulette",
                                     "profile": "nj-casino-night",
                                     "options": {"wheel": "double-zero-as-single"}})
    alice = login("alice", "wheel-single")
    alice.wait_for_selector(NOTICE)
    assert "used as a single-zero wheel" in alice.inner_text(NOTICE)
    assert "(N.J.A.C. 13:47-20.32(i)1)" in alice.inner_text(NOTICE)
    # The rest is folded away until asked for; the pay table reads "x to 1".
    assert not alice.is_visible("#rules-more li[data-wager='straight']")
    alice.click("#rules-more summary")
    assert "35 to 1" in alice.inner_text("#rules-more li[data-wager='straight']")
    # Another table's panel: the demo double-zero wheel notices its zero rule ((g)), not (i)1.
    alice.click("#tables button[data-table='roulette-1']")
    alice.wait_for_selector("#rules-notices li[data-clause='N.J.A.C. 13:47-20.32(g)']")
    assert alice.locator(NOTICE).count() == 0


def test_the_organisers_night_from_opening_the_table_to_the_printed_report(
        server: Server, login: Any) -> None:
    """The organiser's journey in the console: open a table, register two players, take their
    money at the cage; they buy chips at the table and play, the dealer spins; the organiser
    prints the table's end-of-night report and its figures are the night's."""
    admin = login("admin", "craps-1")
    admin.wait_for_selector("#report-table option[value='craps-1']", state="attached")
    admin.fill("#table-id", "roulette-night")
    admin.select_option("#table-game", "roulette")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=Table roulette-night is open")
    for player, cash in (("dave", "300"), ("erin", "200")):
        admin.fill("#new-user", player)
        admin.fill("#new-pass", PASSWORD)
        admin.select_option("#new-role", "player")
        admin.click("#user-btn")
        admin.wait_for_selector(f"#users-msg.ok >> text=User {player} is registered as player.")
        admin.select_option("#deposit-player", player)
        admin.fill("#deposit-amount", cash)
        admin.click("#deposit-btn")
        admin.wait_for_selector(f"#wallet-view >> text={player}'s wallet holds {cash}.00.")
    # The players buy chips at the new table and bet; the dealer spins the wheel.
    dave = login("dave", "roulette-night")
    dave.fill("#buyin-amount", "100")
    dave.click("#buyin-btn")
    dave.wait_for_selector("#bankroll-chips:text-is('100.00')")
    dave.locator('.chip-pick span:has-text("5")').first.click()
    dave.locator('[data-spot="red"]').click()
    dave.wait_for_selector("#bankroll-chips:text-is('95.00')")
    server.post("erin", "/tables/roulette-night/buy-in", {"amount": "50"})
    server.post("erin", "/tables/roulette-night/bets", {"wager": "black", "amount": "10"})
    dealer = login("dealer", "roulette-night")
    dealer.click("#spin-rng")
    dave.wait_for_selector("#decision >> text=Red")
    # The organiser opens the table's report and prints it.
    admin.reload()
    admin.wait_for_selector("#report-table option[value='roulette-night']", state="attached")
    admin.select_option("#report-table", "roulette-night")
    admin.evaluate("window.print = () => { document.body.dataset.printed = 'yes'; }")
    admin.click("#report-print-btn")
    admin.wait_for_selector("body[data-printed='yes']", state="attached")
    admin.wait_for_selector("#report-msg.ok")
    admin.wait_for_selector("#report-view tbody tr")
    cells = admin.locator("#report-view tbody tr").first.locator("td").all_inner_texts()
    assert cells[:2] == ["roulette-night", "150.00"]  # the drop: both buy-ins
    figures = server.get("auditor", "/reports/tables/roulette-night")["tables"][0]
    # One of red and black wins even money, the other loses (a zero would take both).
    assert cells[2] == figures["win"] and Decimal(cells[2]) in (Decimal(5), Decimal(-5),
                                                                 Decimal(15))
    assert cells[4] == "15.00"  # the handle: 5.00 on red and 10.00 on black
    assert admin.locator("#report-view h2").all_inner_texts() == [
        "Big wins", "Voids", "Halts", "Adjustments", "Fairness alerts", "Words used"]
    admin.emulate_media(media="print")
    assert not admin.is_visible("#admin-users") and admin.is_visible("#report-view")
    admin.locator("#admin-report").screenshot(path=str(SCREENSHOTS / "report.png"))
