"""The organiser's casino night in Chromium over a real server: tables opened from the console
for real dice or a real wheel, whose results the dealer then enters."""

from __future__ import annotations

from typing import Any

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
    server.post("admin", "/wallets/alice/cash-outs", {"amount": "5.02"})
    server.post("alice", "/tables/craps-1/buy-in", {"amount": "20"})
    admin = login("admin", "craps-1")
    admin.click("#report-show-btn")
    admin.wait_for_selector("#report-view #reconciled")
    assert admin.inner_text("#report-view #reconciled") == "Adds up: yes, to the cent."
    text = admin.inner_text("#report-view")
    assert "Cage cash-outs" in text and "Wallets still held" in text and "Made 20" in text
    assert "chips bought at the tables" in text  # the casino term with its plain meaning
