"""End to end: the browser table driven in Debian's Chromium against a real, seeded server.

The tests run in file order and share one server (and its seeded RNG): a player bets the pass
line and place 6 and the dealer rolls; a roulette split and a spin; a refused bet and its
reason beside the spot; the supervisor voiding a roll from the console; a phone's width.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from .conftest import SCREENSHOTS, Server

CRAPS = "craps-1"
ROULETTE = "roulette-1"


def _last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [e for e in events if e["type"] == kind][-1]


def expected_craps_chips(dice: tuple[int, int], chips_before_roll: Decimal) -> Decimal:
    """Chips in hand after a come-out roll of ``dice`` with Pass 10.00 and Place 6 to win 12.00
    (called "on") down, by the minimum payouts of N.J.A.C. 13:69F-1.4(b):

    * Pass Bet, 13:69F-1.2(a)1, pays 1 to 1: a 7 or 11 on the come-out wins (stake 10 and
      winnings 10 come back), a 2, 3 or 12 loses, any other total establishes the point and
      the wager stays on the layout;
    * Place Bet to Win on 6, 13:69F-1.2(a)5, pays 7 to 6: a 6 wins 12 x 7/6 = 14.00 (the wager
      stays up, 13:69F-1.3), a 7 loses it; it works on this come-out roll only because it was
      called "on" (13:69F-1.3(e)).
    """
    total = sum(dice)
    chips = chips_before_roll
    if total in (7, 11):
        chips += Decimal("20.00")
    if total == 6:
        chips += Decimal("12.00") * 7 / 6
    return chips


def expected_roulette_chips(number: int | str, chips_before_spin: Decimal) -> Decimal:
    """A split of 5.00 on 17-20 pays 17 to 1 (N.J.A.C. 13:47-20.32(e)2, (f)): stake and 85.00
    come back if the ball rests in 17 or 20; otherwise the stake is lost."""
    if number in (17, 20):
        return chips_before_spin + Decimal("5.00") + Decimal("85.00")
    return chips_before_spin


def _badges_clear_of_numbers(page: Any) -> list[str]:
    """The printed numbers (layout boxes and racetrack pockets) a settlement badge covers."""
    return list(page.evaluate("""() => {
      const rects = (sel) => [...document.querySelectorAll(sel)].map((e) => [e, e.getBoundingClientRect()]);
      const hit = [];
      for (const [, b] of rects('.roulette-felt .badges .badge rect'))
        for (const [n, r] of rects('.roulette-felt .cell-number, .roulette-felt .pocket-number'))
          if (b.left < r.right && r.left < b.right && b.top < r.bottom && r.top < b.bottom)
            hit.push(n.textContent);
      return hit;
    }"""))


def _chips(page: Any) -> str:
    return str(page.inner_text("#bankroll-chips")).strip()


def _spot(page: Any, key: str) -> Any:
    return page.locator(f'[data-spot="{key}"]')


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_craps_pass_and_place_six_settled_on_the_page(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS)
    alice.wait_for_selector('[data-spot="hop:1-3"]')  # the profile's proposition area is drawn
    for key in ("pass", "dont_pass", "come", "dont_come", "field", "place_win:6", "buy:4", "lay:10",
                "hard:8", "any_seven", "any_craps", "c_and_e", "horn", "horn_high:12", "whirl",
                "six_seven_eight", "fire", "hop:2-2"):
        assert _spot(alice, key).count() == 1, key
    alice.fill("#buyin-amount", "200")
    alice.click("#buyin-btn")
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '200.00'")

    alice.check('input[name="chip"][value="10"]', force=True)
    _spot(alice, "pass").click()  # the middle of the pass line is the pass line, not the come box
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '190.00'")
    # Place 6 from the keyboard: focus the spot, type the amount, Enter bets.
    alice.fill("#amount", "12")
    _spot(alice, "place_win:6").focus()
    alice.keyboard.press("Enter")
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '178.00'")
    # The same spot now opens its popover: call the place bet "on" for the come-out roll.
    _spot(alice, "place_win:6").click()
    assert alice.inner_text("#popover .pop-state") == "Off on this come-out roll."
    assert alice.locator("#popover .pop-off").count() == 0  # only the call that applies
    assert alice.locator(".lammer-off").count() == 1  # the felt marks the place bet off
    alice.click("#popover .pop-on")
    alice.wait_for_selector("#popover", state="hidden")
    # The call is answered and drawn (the OFF marker gone) before the spot is opened again: a
    # popover shows the moves as they were when it opened.
    alice.wait_for_function("document.querySelectorAll('.lammer-off').length === 0")
    _spot(alice, "place_win:6").click()
    alice.wait_for_selector("#popover .pop-off")
    assert alice.locator("#popover .pop-on").count() == 0
    assert alice.inner_text("#popover .pop-state").startswith("Called on")
    alice.keyboard.press("Escape")
    assert alice.locator(".puck-off").count() == 1  # no point yet: the puck is OFF

    dealer = login("dealer", CRAPS)
    dealer.click("#offer-dice")
    dealer.click("#select-dice")
    dealer.wait_for_selector("text=In play:")
    dealer.click("#roll-rng")
    dealer.wait_for_selector("#dealer-msg.ok")

    events = server.get("dealer", f"/tables/{CRAPS}/events?limit=1000")
    roll = _last(events, "roll")
    dice = (roll["dice"][0], roll["dice"][1])
    expected = expected_craps_chips(dice, Decimal("178.00"))
    alice.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{expected:.2f}'")
    assert _chips(alice) == f"{expected:.2f}"
    decision = alice.inner_text("#decision")
    assert f"Roll {roll['round']}: {dice[0]} + {dice[1]} = {sum(dice)}" in decision
    assert "Round" not in decision and "null" not in decision
    alice.wait_for_function(  # the dice tumble, then come to rest showing the roll
        "document.querySelector('.dice-tray .roll-total').textContent === "
        f"'{dice[0]} + {dice[1]} = {sum(dice)}'")
    shown = alice.eval_on_selector_all(".dice-tray .die", "ds => ds.map(d => +d.dataset.value)")
    assert tuple(shown) == dice
    settled = [e for e in events if e["type"] == "settle" and e["seq"] > roll["seq"]]
    words = {"win": "wins", "lose": "loses", "push": "push"}
    for e in settled:
        assert words[e["result"]] in decision
    assert "place_win" not in decision and "_" not in decision  # wagers by name, not by id
    assert alice.locator(".badges .badge").count() == len(settled)
    if roll["point_after"]:
        alice.wait_for_selector(f'.puck-on[aria-label="Point is {roll["point_after"]}"]')

    # More chips on the felt for the picture: field, a hardway, a hop, the fire bet.
    alice.check('input[name="chip"][value="5"]', force=True)
    for key in ("field", "hard:8", "hop:1-3", "any_seven"):
        _spot(alice, key).click()
    alice.wait_for_function("document.querySelectorAll('.craps-props .chips .chip').length >= 3")
    alice.wait_for_timeout(600)  # the settlement badges finish popping up
    alice.locator("#felt-wrap").screenshot(path=str(SCREENSHOTS / "craps.png"))


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
def test_roulette_split_and_spin(server: Server, login: Any) -> None:
    alice = login("alice", ROULETTE)
    alice.wait_for_selector('[data-spot="seven_numbers"]')
    assert _spot(alice, "five_adjacent:17").count() == 1  # the wheel replica (racetrack)
    alice.fill("#buyin-amount", "100")
    alice.click("#buyin-btn")
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '100.00'")
    alice.check('input[name="chip"][value="5"]', force=True)
    _spot(alice, "split:17-20").click()
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent === '95.00'")
    assert alice.locator(".chips .chip").count() == 1

    dealer = login("dealer", ROULETTE)
    assert "No more bets" in dealer.inner_text("#spin-rng")  # the button says what comes first
    dealer.click("#spin-rng")  # one click: "No more bets", then the spin
    dealer.wait_for_selector("#dealer-msg.ok >> text=the ball rests in")

    events = server.get("dealer", f"/tables/{ROULETTE}/events?limit=1000")
    number = _last(events, "crown")["number"]
    expected = expected_roulette_chips(number, Decimal("95.00"))
    alice.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{expected:.2f}'")
    alice.wait_for_selector(f'.dolly[data-number="{number}"]')
    alice.wait_for_function(
        f"document.querySelector('.wheel-result').textContent === '{number}'")
    assert re.search(rf"ball rests in {number}\b", alice.inner_text("#decision"))
    assert "Split 17-20" in alice.inner_text("#decision")
    alice.wait_for_selector(".roulette-felt .badges .badge")
    assert _badges_clear_of_numbers(alice) == []

    # Chips for the picture: a corner, a street, red, a dozen, five adjacent, seven numbers.
    for key in ("four_numbers:8-9-11-12", "three_numbers:25-26-27", "red", "dozen:3",
                "five_adjacent:17", "seven_numbers", "split:0-00"):
        _spot(alice, key).click()
    alice.wait_for_function("document.querySelectorAll('.roulette-felt .chips .chip').length >= 7")
    alice.wait_for_timeout(600)  # the settlement badges finish popping up
    alice.locator("#felt-wrap").screenshot(path=str(SCREENSHOTS / "roulette.png"))


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_an_amount_the_table_cannot_pay_is_offered_as_one_it_can(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS)
    before = Decimal(_chips(alice))
    alice.fill("#amount", "11")
    _spot(alice, "place_win:8").click()
    pop = alice.locator("#popover")
    pop.wait_for(state="visible")
    assert "multiples of 6.00" in pop.inner_text()  # 7 to 6 pays whole units on multiples of 6
    alice.click("#popover .pop-bet >> text=Bet 12.00")
    alice.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before - 12:.2f}'")


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3")
def test_refused_bet_shows_the_reason_beside_the_spot(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS)
    before = _chips(alice)
    alice.fill("#amount", "5")
    point = server.get("alice", f"/tables/{CRAPS}")["point"]
    # A come bet before a point, or a pass bet after one, is made at the wrong time.
    key, reason, clause = (("come", "only after the come out roll", "N.J.A.C. 13:69F-1.2(a)3")
                           if point is None else
                           ("dont_pass", "only immediately prior to a come out roll",
                            "N.J.A.C. 13:69F-1.2(a)2"))
    _spot(alice, key).click()
    refusal = alice.locator("#refusal")
    refusal.wait_for(state="visible")
    text = refusal.inner_text()
    assert reason in text and clause in text
    assert "null" not in text and text.rstrip("×\n ").endswith(")")
    assert refusal.get_attribute("data-for") == key
    spot_box = _spot(alice, key).bounding_box()
    box = refusal.bounding_box()
    assert spot_box is not None and box is not None
    assert 0 <= box["y"] - (spot_box["y"] + spot_box["height"]) <= 20  # just under the spot
    assert _chips(alice) == before


def test_messages_are_sentences(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS)
    alice.fill("#amount", "ten")
    _spot(alice, "field").click()
    text = alice.locator("#refusal").inner_text()
    assert "dollars and cents" in text and "pattern" not in text and "null" not in text
    alice.fill("#buyin-amount", "12,50")
    alice.click("#buyin-btn")
    msg = alice.inner_text("#player-msg")
    assert "dollars and cents" in msg and msg.endswith(".")
    # The server's own validation message, as the page words it.
    worded = alice.evaluate("""async () => (await import('/static/messages.js')).explain(
        {code: 'malformed', clause: '',
         reason: "body.amount: String should match pattern '^[0-9]{1,13}(\\\\.[0-9]{1,2})?$'"})""")
    assert worded == "The amount must be dollars and cents, such as 25 or 12.50."
    refused = alice.evaluate("""async () => (await import('/static/messages.js')).explain(
        {code: 'refused', reason: 'buy in through the cashier first', clause: ''})""")
    assert refused == "Buy in through the cashier first."


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_supervisor_voids_a_roll_from_the_console(server: Server, login: Any) -> None:
    before = server.get("alice", f"/tables/{CRAPS}")["players"]["alice"]
    roll = server.post("dealer", f"/tables/{CRAPS}/roll", {})
    rolled = _last(roll["events"], "roll")
    supervisor = login("supervisor", CRAPS)
    supervisor.fill("#void-reason", "a die left the table")
    supervisor.click("#void-btn")
    supervisor.wait_for_selector("#sup-msg.ok")
    # The RNG's roll stands: its void waits for a second supervisor.
    assert f"Void of roll {rolled['round']} asked" in supervisor.inner_text("#sup-msg")
    supervisor.wait_for_selector("#sup-waiting >> text=A second supervisor approves it.")
    assert supervisor.locator("#approve-void").count() == 0
    floor = login("floor", CRAPS)
    floor.click("#approve-void")
    floor.wait_for_selector("#sup-msg.ok")
    assert f"Roll {rolled['round']} voided" in floor.inner_text("#sup-msg")
    floor.wait_for_selector(f"#decision >> text=Roll {rolled['round']} was voided by supervisor")
    floor.wait_for_selector(".rounds li.voided")
    # The stakes the roll decided are back; nothing it decided was paid or taken.
    after = server.get("alice", f"/tables/{CRAPS}")["players"]["alice"]
    assert (Decimal(after["chips"]) + Decimal(after["on_table"])
            == Decimal(before["chips"]) + Decimal(before["on_table"]))
    rounds = server.get("supervisor", f"/tables/{CRAPS}/rounds")
    assert rounds[0]["voided"] == {"reason": "a die left the table", "by": "supervisor",
                                   "approved_by": "floor"}
    console = floor.inner_text("#supervisor-console")
    assert "null" not in console and f"Roll {rolled['round']} voided" in console
    floor.click(f'button[aria-label="Recall roll {rolled["round"]}"]')
    floor.wait_for_selector("#recall >> text=Voided by supervisor")
    recalled = floor.inner_text("#recall")
    assert f"Roll {rolled['round']} at {CRAPS}: {rolled['dice'][0]} + {rolled['dice'][1]}" in recalled
    assert "Drawn by a seeded test generator" in recalled  # the RNG's raw draw, in words
    for raw in ("{", "[", "null", "place_win", "dont_pass", "Round"):
        assert raw not in recalled, raw


def test_fits_a_phone(server: Server, login: Any) -> None:
    for table in (ROULETTE, CRAPS):
        page = login("bob", table, width=390, height=844)
        page.wait_for_selector('[data-spot="field"], [data-spot="red"]')
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{table}: the page is {width}px wide on a 390px phone"
        if table == ROULETTE:
            assert page.locator(".roulette-felt.vertical").count() == 1
