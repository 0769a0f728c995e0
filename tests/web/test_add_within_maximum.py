"""The popover's Add never offers more than the table's maximum lets a wager hold (the
maximum is in the table's offer), and says why; at the maximum it offers nothing to add.

Each test opens a table of its own on the module's seeded server.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import Server


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


@pytest.mark.clause("N.J.A.C. 13:47-20.32(d)1")
def test_add_stops_at_the_table_maximum_and_says_so(server: Server, login: Any) -> None:
    table = "roulette-max"
    server.post("admin", "/tables", {"id": table, "game": "roulette", "profile": "nj-casino-night",
                                     "options": {"max_bet": "20"}})
    server.post("alice", f"/tables/{table}/buy-in", {"amount": "100"})
    server.post("alice", f"/tables/{table}/bets", {"wager": "red", "amount": "15"})
    alice = login("alice", table)
    alice.fill("#amount", "25")
    red = alice.locator('[data-spot="red"]')
    red.click()
    alice.wait_for_selector("#popover:not([hidden])")
    # 15.00 on red and a maximum of 20.00 a wager: 5.00 more is all the table takes.
    assert [b.inner_text() for b in alice.locator("#popover .pop-bet").all()] == ["Add 5.00"]
    assert "table maximum of 20.00" in alice.inner_text("#popover")
    alice.click("#popover .pop-bet")
    alice.wait_for_selector("#bankroll-chips:text-is('80.00')")
    red.click()
    alice.wait_for_selector("#popover:not([hidden])")
    # At the maximum: nothing to add, and the reason; taking it down is still offered.
    assert alice.locator("#popover .pop-bet").count() == 0
    assert "at the table maximum of 20.00" in alice.inner_text("#popover")
    assert alice.locator("#popover .pop-remove").count() == 1
    assert alice.locator("#refusal").is_hidden() and _chips(alice) == Decimal("80.00")


@pytest.mark.clause("replay contract: Limits")
def test_add_at_craps_says_the_maximum_stops_it(server: Server, login: Any) -> None:
    table = "craps-max"
    server.post("admin", "/tables", {"id": table, "game": "craps", "profile": "nj-13-69f",
                                     "options": {"max_bet": "20"}})
    server.post("bob", f"/tables/{table}/buy-in", {"amount": "100"})
    server.post("bob", f"/tables/{table}/bets", {"wager": "field", "amount": "15"})
    bob = login("bob", table)
    bob.fill("#amount", "25")
    field = bob.locator('[data-spot="field"]')
    field.click()
    bob.wait_for_selector("#popover:not([hidden])")
    assert [b.inner_text() for b in bob.locator("#popover .pop-bet").all()] == ["Add 5.00"]
    assert "table maximum of 20.00" in bob.inner_text("#popover")
    bob.click("#popover .pop-bet")
    bob.wait_for_selector("#bankroll-chips:text-is('80.00')")
    field.click()
    bob.wait_for_selector("#popover:not([hidden])")
    assert bob.locator("#popover .pop-bet").count() == 0
    assert "at the table maximum of 20.00" in bob.inner_text("#popover")
