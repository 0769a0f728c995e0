"""The last decision on a page loaded mid-session: every role sees the table's last roll or spin
and what it decided as soon as the page is up, not "No decision yet." until the next one; a
player sees their own settlements and nobody else's, the dealer the whole payout list.

Each test opens a table of its own on the module's seeded server.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import Server

FAST = 5000  # ms: the decision is drawn from what the page loads, not after a wait


def _decision(page: Any, *texts: str) -> str:
    """The page's last decision once it shows each of ``texts``."""
    for text in texts:
        page.wait_for_selector(f"#decision >> text={text}", timeout=FAST)
    return str(page.inner_text("#decision"))


def _spin(server: Server, table: str) -> dict[str, Any]:
    server.post("dealer", f"/tables/{table}/no-more-bets")
    events = server.post("dealer", f"/tables/{table}/spin", {})["events"]
    return next(e for e in events if e["type"] == "crown")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
def test_a_spin_is_shown_on_load_to_each_role_as_they_may_see_it(server: Server,
                                                                  login: Any) -> None:
    table = "roulette-load"
    server.post("admin", "/tables", {"id": table, "game": "roulette", "profile": "nj-casino-night"})
    server.post("alice", f"/tables/{table}/buy-in", {"amount": "100"})
    server.post("bob", f"/tables/{table}/buy-in", {"amount": "100"})
    server.post("alice", f"/tables/{table}/bets", {"wager": "straight", "numbers": [17],
                                                   "amount": "5"})
    server.post("bob", f"/tables/{table}/bets", {"wager": "black", "amount": "10"})
    crown = _spin(server, table)
    number = crown["number"]
    # Play goes on after the spin: the spin is no longer the table's last event.
    server.post("alice", f"/tables/{table}/bets", {"wager": "red", "amount": "5"})
    title = f"Spin {crown['round']}: the ball rests in {number}"
    # A straight pays 35 to 1, an even-money bet 1 to 1 (13:47-20.32(f)); the stake comes back.
    alice_line = ("alice's Straight 17 wins: pay 175.00 and return the stake of 5.00" if number == 17
                  else "alice's Straight 17 loses: take 5.00")
    bob_wins = crown["colour"] == "black"
    bob_line = ("bob's Black wins: pay 10.00 and return the stake of 10.00" if bob_wins
                else "bob's Black loses: take 10.00")

    alice = _decision(login("alice", table), title, alice_line)
    assert "bob" not in alice  # another player's wagers and amounts are not hers to see
    assert "alice" not in _decision(login("bob", table), title, bob_line)
    dealer_page = login("dealer", table)
    _decision(dealer_page, title, alice_line, bob_line)
    payouts = str(dealer_page.inner_text("#payouts"))
    assert ("bob: Pay 10.00, return 10.00 in stakes." if bob_wins else "bob: Take 10.00.") in payouts
    _decision(login("supervisor", table), title, alice_line, bob_line)


def test_a_roll_is_shown_on_load_and_a_void_after_it(server: Server, login: Any) -> None:
    table = "craps-1"
    server.post("bob", f"/tables/{table}/buy-in", {"amount": "50"})
    server.post("bob", f"/tables/{table}/bets", {"wager": "field", "amount": "5"})
    dealer = login("dealer", table)
    dealer.click("#offer-dice")
    dealer.click("#select-dice")
    dealer.wait_for_selector("text=In play:")
    roll = next(e for e in server.post("dealer", f"/tables/{table}/roll", {})["events"]
                if e["type"] == "roll")
    d1, d2 = roll["dice"]
    title = f"Roll {roll['round']}: {d1} + {d2} = {d1 + d2}"
    # The field (13:69F-1.4): 2 and 12 pay double at this profile's minimum, 3, 4, 9, 10, 11 even.
    total = d1 + d2
    field = "wins" if total in (2, 3, 4, 9, 10, 11, 12) else "loses"
    alice = _decision(login("alice", table), title)
    assert "bob" not in alice
    _decision(login("bob", table), title, f"bob's Field {field}")
    # The dealer on a fresh page sees the roll, and the dice on the felt show it.
    fresh = login("dealer", table)
    _decision(fresh, title, f"bob's Field {field}")
    assert fresh.text_content(".dice-tray .roll-total") == f"{d1} + {d2} = {total}"
    # A decision voided since (the RNG's roll: a second supervisor approves, 13:69F-1.3(a)):
    # the page says so on load, as it did live.
    server.post("supervisor", f"/tables/{table}/void", {"reason": "a die left the table"})
    server.post("floor", f"/tables/{table}/void/approve", {})
    voided = login("alice", table)
    voided.wait_for_selector(f"#decision >> text=Roll {roll['round']} was voided", timeout=FAST)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
def test_a_decision_further_back_than_the_replay_is_still_shown(server: Server,
                                                                 login: Any) -> None:
    """More than the stream's replay (1000 events) after the spin: the table's state names it,
    and the replay reaches back to it in parts, so what it settled is shown as well."""
    table = "roulette-busy"
    server.post("admin", "/tables", {"id": table, "game": "roulette", "profile": "nj-casino-night"})
    server.post("alice", f"/tables/{table}/buy-in", {"amount": "100"})
    server.post("alice", f"/tables/{table}/bets", {"wager": "straight", "numbers": [17],
                                                   "amount": "5"})
    crown = _spin(server, table)
    # A straight pays 35 to 1 (13:47-20.32(f)), the stake returned with it.
    won = crown["number"] == 17
    line = ("alice's Straight 17 wins: pay 175.00 and return the stake of 5.00" if won
            else "alice's Straight 17 loses: take 5.00")
    payout = "alice: Pay 175.00, return 5.00 in stakes." if won else "alice: Take 5.00."
    headers = {"Authorization": f"Bearer {server.token('alice')}"}
    with httpx.Client(base_url=server.url, headers=headers, timeout=10) as client:
        for i in range(520):  # a bet and its taking down: two events each
            for path, body in ((f"/tables/{table}/bets", {"wager": "red", "amount": "1"}),
                               (f"/tables/{table}/bets/take-down", {"wager": "red"})):
                r = client.post(path, json=body, headers={"Idempotency-Key": f"busy-{i}-{path}"})
                assert r.status_code == 200, r.text
    state = server.get("alice", f"/tables/{table}")
    assert state["seq"] - crown["seq"] > 1000
    title = f"Spin {crown['round']}: the ball rests in {crown['number']}"
    _decision(login("alice", table), title, line)
    dealer = login("dealer", table)
    _decision(dealer, title, line)
    assert payout in str(dealer.inner_text("#payouts"))
