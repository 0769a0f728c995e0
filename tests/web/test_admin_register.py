"""The organiser's console shows the equipment register and the pay tables: the demo's
approved layout, a change proposed from the console and approved by a
second person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from .conftest import Server


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii")
def test_the_console_shows_the_register_and_the_pay_tables(server: Server, login: Any) -> None:
    admin = login("admin", "craps-1")
    row = admin.wait_for_selector("#admin-register tr[data-item='layout-1']")
    text = row.inner_text()
    assert "five_adjacent" in text and "in service" in text and "roulette-1" in text
    # A layout shows the wagers taken only on a layout approved for them (20.32(e)1ii, 15i):
    # the boxes to tick come from the profiles' offers, once the item is a layout.
    assert admin.locator("#item-form input[name=wager]").count() == 0
    admin.select_option("#item-type", "layout")
    admin.wait_for_selector("#item-form input[name=wager]")
    ticks = admin.eval_on_selector_all("#item-form input[name=wager]", "bs => bs.map(b => b.value)")
    assert sorted(ticks) == ["five_adjacent", "seven_numbers"]
    assert admin.get_attribute("#pt-pays", "placeholder") != '{"entry": "3 to 1"}'  # a real one
    # A change proposed here, a day ahead, waits for a second person.
    admin.select_option("#pt-game", "mini-craps nj-19-47")
    admin.click("#pt-advanced summary")  # the raw JSON, offered beside the form's fields
    admin.fill("#pt-pays", '{"field:12": "3 to 1"}')
    when = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    admin.fill("#pt-when", when)
    admin.fill("#pt-reason", "uniform upgrade for the weekend")
    admin.click("#pt-btn")
    admin.wait_for_selector("#paytable-msg.ok >> text=a second person approves it")
    change = admin.wait_for_selector("#admin-paytables tr[data-change] >> text=proposed")
    assert change is not None
    # The proposer cannot approve it: the console says why.
    admin.click("#admin-paytables tr[data-change] button")
    admin.wait_for_selector("#paytable-msg.error >> text=second person")
    listed = server.get("auditor", "/paytables/changes")
    assert listed[0]["status"] == "proposed" and listed[0]["reason"].startswith("uniform")
