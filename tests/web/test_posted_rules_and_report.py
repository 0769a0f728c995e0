"""End to end in Chromium: the Rules panel of a table shows the notices its clauses require;
the organiser opens a table, a player buys in and plays, and the organiser prints the
end-of-night report from the console.

These share the seeded server of the other browser tests and use tables of their own.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import SCREENSHOTS, Server

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


def test_the_organiser_prints_the_end_of_night_report(server: Server, login: Any) -> None:
    admin = login("admin", "craps-1")
    admin.wait_for_selector("#report-table option[value='craps-1']", state="attached")
    admin.fill("#table-id", "roulette-night")
    admin.select_option("#table-game", "roulette")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=Table roulette-night is open")
    # A player buys in and plays; the dealer spins the wheel.
    alice = login("alice", "roulette-night")
    alice.fill("#buyin-amount", "100")
    alice.click("#buyin-btn")
    alice.wait_for_selector("#bankroll-chips:text-is('100.00')")
    alice.locator('.chip-pick span:has-text("5")').first.click()
    alice.locator('[data-spot="red"]').click()
    alice.wait_for_selector("#bankroll-chips:text-is('95.00')")
    dealer = login("dealer", "roulette-night")
    dealer.click("#spin-rng")
    alice.wait_for_selector("#decision >> text=Red")
    # The organiser opens the table's report and prints it.
    admin.reload()
    admin.wait_for_selector("#report-table option[value='roulette-night']",
                            state="attached")
    admin.select_option("#report-table", "roulette-night")
    admin.evaluate("window.print = () => { document.body.dataset.printed = 'yes'; }")
    admin.click("#report-print-btn")
    admin.wait_for_selector("body[data-printed='yes']", state="attached")
    admin.wait_for_selector("#report-msg.ok")
    admin.wait_for_selector("#report-view tbody tr")
    row = admin.locator("#report-view tbody tr").first
    cells = row.locator("td").all_inner_texts()
    assert cells[:2] == ["roulette-night", "100.00"]
    figures = server.get("auditor", "/reports/tables/roulette-night")["tables"][0]
    assert cells[2] == figures["win"] and Decimal(cells[2]).copy_abs() == Decimal("5.00")
    assert cells[4] == "5.00"  # the handle: one 5.00 wager on red
    assert admin.locator("#report-view h2").all_inner_texts() == ["Big wins", "Voids",
                                                                  "Adjustments"]
    admin.emulate_media(media="print")
    assert not admin.is_visible("#admin-users") and admin.is_visible("#report-view")
    admin.locator("#admin-report").screenshot(path=str(SCREENSHOTS / "report.png"))
