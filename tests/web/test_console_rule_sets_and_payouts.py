"""The organiser's console and the dealer's page as a new user meets them, in Chromium at
1366x768 and at phone size (390x844): each rule set is named by the regulation it follows, a
blank maximum says it is no maximum, a pay-table change is made in a form of one field per
entry, and the dealer's payout list is in view without scrolling after a decision."""

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


def test_the_dealer_payout_list_is_in_view_after_a_decision(server: Server, login: Any) -> None:
    for player in ("alice", "bob"):
        server.post(player, "/tables/craps-1/buy-in", {"amount": "50"})
        server.post(player, "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    dealer = login("dealer", "craps-1", **DESKTOP)
    dealer.click("#offer-dice")
    dealer.click("#select-dice")
    dealer.wait_for_selector("text=In play:")
    server.post("dealer", "/tables/craps-1/roll", {})
    payouts = dealer.locator("#payouts")
    payouts.wait_for()
    assert "alice:" in payouts.inner_text() and "bob:" in payouts.inner_text()
    assert dealer.evaluate("window.scrollY") == 0
    box = payouts.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
    # At phone size the list is on the page too, after the felt.
    phone = login("dealer", "craps-1", **PHONE)
    assert "alice:" in phone.locator("#payouts").inner_text()


def _dice_in_play(server: Server, dealer: Any) -> None:
    if not server.get("dealer", "/tables/craps-1").get("dice_in_play"):
        dealer.click("#offer-dice")
        dealer.click("#select-dice")
        dealer.wait_for_selector("text=In play:")


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)1")
def test_a_late_bet_on_a_phone_is_drawn_and_says_where_it_stands(server: Server,
                                                                 login: Any) -> None:
    """A wager made with the dice in the air waits for the dealer and the boxperson
    (13:69F-1.3(a)1): the phone shows it pending on its spot, says so where the player looks,
    and says it is on the layout once both have confirmed it."""
    for player in ("alice", "bob"):  # the first to buy in is offered the dice
        server.post(player, "/tables/craps-1/buy-in", {"amount": "20"})
    _dice_in_play(server, login("dealer", "craps-1", **DESKTOP))
    server.post("dealer", "/tables/craps-1/no-more-bets")
    server.post("bob", "/tables/craps-1/bets", {"wager": "any_seven", "amount": "5"})
    alice = login("alice", "craps-1", **PHONE)
    alice.locator('[data-spot="field"]').tap()
    note = alice.locator("#late-note")
    note.wait_for()
    assert "waits for two confirmations" in note.inner_text()
    box = note.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]  # in view
    # The note comes with the bet's answer; the chip with the table's state, drawn after it.
    alice.locator(".chip-pending").first.wait_for()
    assert alice.locator(".chip-pending").count() == 1  # hers; bob's is not hers to see
    assert [b["player"] for b in server.get("alice", "/tables/craps-1")["late_bets"]] == ["alice"]
    late = next(b["id"] for b in server.get("dealer", "/tables/craps-1")["late_bets"]
                if b["player"] == "alice")
    server.post("dealer", f"/tables/craps-1/late-bets/{late}/confirm")
    alice.wait_for_selector("#late-note >> text=confirmed by the dealer so far")
    server.post("supervisor", f"/tables/craps-1/late-bets/{late}/confirm")
    alice.wait_for_selector("#late-note >> text=confirmed by the dealer and the boxperson")
    assert "waits" not in note.inner_text() and "on the layout" in note.inner_text()
    # The table's state, read again after the confirmation, has it on the layout: the pending
    # chip goes.
    alice.wait_for_selector(".chip-pending", state="detached")
    server.post("dealer", "/tables/craps-1/roll", {})  # the table is open for bets again
