"""The organiser's console as a new user meets it, in Chromium at 1366x768 and at phone size
(390x844): each rule set is named by the regulation it follows, a blank maximum says it is no
maximum, and a pay-table change is made in a form of one field per entry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from .conftest import Server

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844, "touch": True}


def _admin(login: Any, size: dict[str, Any]) -> Any:
    page = login("admin", "craps-1", **size)
    page.wait_for_selector("#table-profile option", state="attached")
    return page


def test_the_rule_sets_come_from_the_server_with_their_titles(server: Server,
                                                              login: Any) -> None:
    listed = httpx.get(f"{server.url}/profiles").json()  # public: the regulations' own data
    # The profiles' titles are the texts they read (19:47-1.2 permissible wagers, 1.4 odds).
    assert {"profile": "nj-19-47", "title": "N.J.A.C. 19:47-1.2, 1.4", "game": "mini-craps",
            "citation": "N.J.A.C. 19:47-1.2(b)", "pays_citation": "N.J.A.C. 19:47-1.4(b)",
            "house_pay_table": True} in listed
    schema = httpx.get(f"{server.url}/openapi.json").json()
    answer = schema["paths"]["/profiles"]["get"]["responses"]["200"]["content"]
    assert answer["application/json"]["schema"]["items"]["$ref"].endswith("/RuleSet")
    for size in (DESKTOP, PHONE):
        admin = _admin(login, size)
        admin.select_option("#table-game", "mini-craps")
        admin.select_option("#table-profile", "nj-19-47")
        chosen = admin.eval_on_selector("#table-profile", "s => s.selectedOptions[0].text")
        assert chosen == "nj-19-47: N.J.A.C. 19:47-1.2, 1.4"
        assert "N.J.A.C. 19:47-1.2(b)" in admin.inner_text("#table-profile-note")
        # Roulette is played under the casino-night rules only (13:47-20.32).
        admin.select_option("#table-game", "roulette")
        texts = admin.eval_on_selector_all("#table-profile option", "os => os.map(o => o.text)")
        assert texts == ["nj-casino-night: N.J.A.C. 13:47-20.25 and 13:47-20.32"]
        box = admin.locator("#table-profile").bounding_box()
        assert box is not None and box["x"] + box["width"] <= size["width"]


def test_a_blank_maximum_says_there_is_none(server: Server, login: Any) -> None:
    admin = _admin(login, DESKTOP)
    assert admin.get_attribute("#table-max", "placeholder") == "blank = no maximum"
    assert "blank maximum means no maximum" in admin.inner_text("#table-limits-hint")
    admin.fill("#table-id", "craps-open-top")
    admin.fill("#table-min", "5")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=no maximum")
    assert "bets from 5.00 to no maximum" in admin.inner_text("#tables-msg")
    assert "max_bet" not in server.get("admin", "/tables/craps-open-top")["options"]


@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_a_pay_table_change_is_made_in_a_form_of_its_entries(server: Server,
                                                              login: Any) -> None:
    admin = _admin(login, PHONE)
    admin.select_option("#pt-game", "mini-craps nj-19-47")
    # One field per entry of the profile's pay table, its minimum filled in: the field pays
    # 2 to 1 on 12 at the least under 19:47-1.4(b).
    entries = "#pt-entries[data-for='mini-craps nj-19-47']"
    twelve = admin.locator(f"{entries} fieldset[data-wager='field'] input[data-entry='field:12']")
    twelve.wait_for()
    assert twelve.input_value() == "2 to 1"
    assert admin.locator(f"{entries} input[data-entry='place_win:6']").input_value() == "7 to 6"
    twelve.fill("3 to 1")
    admin.fill("#pt-when", (datetime.now(UTC) + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"))
    admin.fill("#pt-reason", "the field pays triple on twelve this weekend")
    admin.click("#pt-btn")
    admin.wait_for_selector("#paytable-msg.ok >> text=a second person approves it")
    change = next(c for c in server.get("auditor", "/paytables/changes")
                  if c["reason"].startswith("the field pays triple"))
    # The same request as the raw JSON made: only the entry that differs from the profile's.
    assert change["pays"] == {"field:12": "3 to 1"}
    assert (change["game"], change["profile"]) == ("mini-craps", "nj-19-47")
