"""The two calls a table's options add, made on the felt in Chromium: "down on the win" and
"off" for the rest of a point. The page offers each only where the table's offer lists the
wager for that call, takes it to the server's route, and shows what the table recorded.

The table is N.J.A.C. 13:69F-1 craps with the options ``down_on_win`` and ``off_during_point``
on; place 6 and place 8 pay "7 to 6" there (13:69F-1.4(b)), so $12 wins $14.
"""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import pytest

from croupier.service.equipment import passing_record

from .conftest import Server

TABLE = "calls-1"


def _open_table(server: Server) -> None:
    server.post("admin", "/tables", {"id": TABLE, "game": "craps", "profile": "nj-13-69f",
                                     "entry": "physical",
                                     "options": {"down_on_win": True, "off_during_point": True}})
    serials = [f"CALLS-{i}" for i in range(1, 6)]
    for serial in serials:
        server.post("admin", "/equipment/dice",
                    {"serial": serial, "set_name": "calls set", "table_id": TABLE})
        server.post("admin", f"/equipment/dice/{serial}/inspections", passing_record())
    server.post("alice", f"/tables/{TABLE}/buy-in", {"amount": "100"})
    server.post("dealer", f"/tables/{TABLE}/dice/offer", {"serials": serials})
    server.post("dealer", f"/tables/{TABLE}/dice/select", {"serials": serials[:2]})


def _roll(server: Server, d1: int, d2: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = server.post("dealer", f"/tables/{TABLE}/roll",
                                               {"dice": [d1, d2]})["events"]
    return events


def _popover(page: Any, key: str) -> None:
    page.locator(f'[data-spot="{key}"]').click()
    page.wait_for_selector("#popover:not([hidden])")


def _until_state(page: Any, key: str, text: str) -> None:
    """Opens the wager's popover until its state says ``text`` (the call's event reaches the
    page over the table's stream), failing after ten seconds."""
    deadline = time.monotonic() + 10
    while True:
        _popover(page, key)
        if text in page.inner_text("#popover .pop-state"):
            return
        page.keyboard.press("Escape")
        assert time.monotonic() < deadline, f"{key} never showed {text!r}"
        page.wait_for_timeout(100)


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: What stays up")
def test_down_on_the_win_and_off_for_the_point_are_called_on_the_felt(server: Server,
                                                                      login: Any) -> None:
    _open_table(server)
    _roll(server, 2, 2)  # the point is 4
    for number in (6, 8):
        server.post("alice", f"/tables/{TABLE}/bets",
                    {"wager": "place_win", "number": number, "amount": "12"})
    alice = login("alice", TABLE)
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '76.00'")

    # Place 6: "down on the win", offered once; made, the page says so and offers it no more.
    _popover(alice, "place_win:6")
    assert alice.locator("#popover .pop-down-on-win").count() == 1
    assert alice.locator("#popover .pop-off-point").count() == 1
    alice.click("#popover .pop-down-on-win")
    _until_state(alice, "place_win:6", "down on the win")
    assert alice.locator("#popover .pop-down-on-win").count() == 0
    alice.keyboard.press("Escape")

    # Place 8: "off" for the point, then back on.
    _popover(alice, "place_win:8")
    alice.click("#popover .pop-off-point")
    _until_state(alice, "place_win:8", "Off until it is called on")
    assert alice.locator("#popover .pop-off-point").count() == 0
    alice.keyboard.press("Escape")
    rolled = _roll(server, 4, 4)  # an 8: the place 8 is off, so it is not decided
    assert not [e for e in rolled if e["type"] == "settle" and e["wager"] == "place_win:8"]
    _popover(alice, "place_win:8")
    alice.click("#popover .pop-on-point")
    _until_state(alice, "place_win:8", "Working")
    assert alice.locator("#popover .pop-off-point").count() == 1
    alice.keyboard.press("Escape")

    # A 6: the place 6 wins 7 to 6 and comes down with its win, $14 paid and $12 returned.
    won = [(e["wager"], e["paid"], e["returned"], e["stays_up"])
           for e in _roll(server, 3, 3) if e["type"] == "settle"]
    assert won == [("place_win:6", "14.00", "12.00", False)]
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '102.00'")
    assert _chips(alice) == Decimal(100) - 24 + 14 + 12
    layout = server.get("alice", f"/tables/{TABLE}")["layout"]
    assert [w["wager"] for w in layout] == ["place_win:8"]
