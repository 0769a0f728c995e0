"""End to end in Chromium: the bet popover offers only legal moves; craps and roulette on a
phone (390 x 844) and a desktop page; the dealer's shortcuts, one-step spin and payout list;
the organiser's console (users, locks, deposits, a new table with limits, dice records).

These run after test_browser_table.py on the same seeded server; physical dice entered by the
dealer put the table in the state each check needs.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import httpx
import pytest

from .conftest import PASSWORD, SCREENSHOTS, Server

CRAPS = "craps-1"
ROULETTE = "roulette-1"
PHONE = {"width": 390, "height": 844}


def _spot(page: Any, key: str) -> Any:
    return page.locator(f'[data-spot="{key}"]')


def _roll(server: Server, dice: tuple[int, int]) -> dict[str, Any]:
    """The dealer enters a physical roll (dice selected first if none are in play)."""
    table = server.get("dealer", f"/tables/{CRAPS}")
    if not table["dice_in_play"]:
        if not table["dice_offered"]:
            serials = [d["serial"] for d in server.get("dealer", "/equipment/dice")
                       if d["table_id"] == CRAPS and d["in_spec"] and not d["retired"]][:5]
            server.post("dealer", f"/tables/{CRAPS}/dice/offer", {"serials": serials})
            table = server.get("dealer", f"/tables/{CRAPS}")
        server.post("dealer", f"/tables/{CRAPS}/dice/select", {"serials": table["dice_offered"][:2]})
    return dict(server.post("dealer", f"/tables/{CRAPS}/roll", {"dice": list(dice)}))


def _come_out(server: Server) -> None:
    if server.get("dealer", f"/tables/{CRAPS}")["point"] is not None:
        _roll(server, (3, 4))  # seven out: the next roll is a come-out


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


def _popover(page: Any, key: str) -> str:
    _spot(page, key).click()
    page.wait_for_selector("#popover:not([hidden])")
    return str(page.inner_text("#popover"))


def _font_px(page: Any, svg: str) -> float:
    """The smallest label in ``svg`` as drawn on the screen, in CSS pixels."""
    return float(page.evaluate("""(sel) => {
      const svg = document.querySelector(sel);
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return Math.min(...[...svg.querySelectorAll('.spots text')].filter((t) => t.textContent.trim())
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
    }""", svg))


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_popover_offers_only_legal_moves(server: Server, login: Any) -> None:
    _come_out(server)
    server.post("bob", f"/tables/{CRAPS}/buy-in", {"amount": "300"})
    for bet in ({"wager": "pass", "amount": "10"}, {"wager": "hard", "number": 8, "amount": "5"}):
        server.post("bob", f"/tables/{CRAPS}/bets", bet)
    _roll(server, (2, 2))  # the point is 4; the hard 8 stands
    bob = login("bob", CRAPS)
    bob.fill("#amount", "5")
    text = _popover(bob, "pass")
    # A pass bet on its point may not be added to, reduced or removed (13:69F-1.3(c)).
    assert bob.locator("#popover .pop-bet, #popover .pop-reduce, #popover .pop-remove").count() == 0
    assert "stands on the point 4" in text
    assert "Odds 5.00" in text  # odds behind it, 2 to 1 on 4: any whole amount up to 3x
    bob.keyboard.press("Escape")
    bob.fill("#amount", "6")
    text = _popover(bob, "hard:8")
    assert "Reduce by" not in text  # 6 off a 5.00 hard 8 leaves nothing the table takes
    assert bob.locator("#popover .pop-remove").count() == 1
    assert bob.locator("#popover .pop-on").count() + bob.locator("#popover .pop-off").count() == 1
    assert "working" in bob.inner_text("#popover .pop-state").lower()
    # A decision closes a popover opened before it: its moves may no longer apply.
    _roll(server, (1, 2))
    bob.wait_for_selector("#popover", state="hidden")
    bob.fill("#amount", "5")
    text = _popover(bob, "place_win:6")
    assert "Bet 6.00" in text and "multiples of 6.00" in text
    before = _chips(bob)
    bob.click("#popover .pop-bet")
    bob.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before - 6:.2f}'")
    # Called on, the place bet says so, on this page and on one opened later.
    _popover(bob, "place_win:6")
    bob.click("#popover .pop-on")
    bob.wait_for_selector("#popover", state="hidden")
    for page in (bob, login("bob", CRAPS)):
        _popover(page, "place_win:6")
        assert page.inner_text("#popover .pop-state").startswith("Called on")
        assert page.locator("#popover .pop-on").count() == 0
        page.keyboard.press("Escape")


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_bet_is_added_to_only_before_the_shooters_first_roll(server: Server,
                                                                  login: Any) -> None:
    _come_out(server)
    for player in ("alice", "bob"):  # someone to pass the dice to, whatever ran before
        server.post(player, f"/tables/{CRAPS}/buy-in", {"amount": "50"})
    # A new shooter: the fire bet opens. The dealer passes the dice only from a shooter who
    # has thrown (13:47-20.25(g)6); one who has not is a new shooter already.
    if server.get("dealer", f"/tables/{CRAPS}")["hand_rolls"]:
        server.post("dealer", f"/tables/{CRAPS}/dice/pass")
    assert server.get("dealer", f"/tables/{CRAPS}")["hand_rolls"] == 0
    server.post("bob", f"/tables/{CRAPS}/bets", {"wager": "fire", "amount": "5"})
    bob = login("bob", CRAPS)
    bob.fill("#amount", "5")
    text = _popover(bob, "fire")
    assert "Add 5.00" in text and bob.locator("#popover .pop-remove").count() == 0
    bob.keyboard.press("Escape")
    _roll(server, (3, 3))  # the hand has begun: no more fire bets, and none comes down
    bob.wait_for_selector(".puck-on")
    text = _popover(bob, "fire")
    assert bob.locator("#popover .pop-bet, #popover .pop-remove, #popover .pop-reduce").count() == 0
    assert "only before the shooter's first roll" in text
    bob.keyboard.press("Escape")
    # The point made, a come-out roll of the same hand: still no more fire bet, and a page
    # opened later knows it too, from the stream's replay of the hand's rolls.
    _roll(server, (2, 4))
    bob.wait_for_selector(".puck-off")
    for page in (bob, login("bob", CRAPS)):
        text = _popover(page, "fire")
        assert page.locator("#popover .pop-bet").count() == 0
        assert "only before the shooter's first roll" in text
        page.keyboard.press("Escape")


def test_labels_and_chips_are_readable_on_the_desktop(server: Server, login: Any) -> None:
    alice = login("alice", CRAPS)
    assert _font_px(alice, ".craps-props") >= 11
    assert alice.locator('.chip-pick span:has-text("100")').evaluate(
        "s => s.scrollWidth <= s.clientWidth")
    for fits in alice.eval_on_selector_all(".felt .chip", """cs => cs.map((c) => {
        const r = +c.querySelector('.chip-body').getAttribute('r');
        return c.querySelector('.chip-text').getBBox().width <= 2 * (r - 2); })"""):
        assert fits


def test_craps_on_a_phone(server: Server, login: Any) -> None:
    _come_out(server)
    bob = login("bob", CRAPS, **PHONE)
    felt = bob.locator(".craps-felt").bounding_box()
    assert felt is not None and felt["width"] >= 360  # the felt takes the phone's width
    sizes = bob.eval_on_selector_all(".craps-felt [data-spot], .craps-props [data-spot]",
                                     """ss => ss.map((s) => { const r = s.getBoundingClientRect();
                                       return [s.dataset.spot, r.width, r.height]; })""")
    small = [(k, round(w), round(h)) for k, w, h in sizes if w < 44 or h < 44]
    assert sizes and small == [], small  # every spot a thumb can hit
    assert _font_px(bob, ".craps-props") >= 11
    tray = bob.locator("#tray").bounding_box()
    assert tray is not None and PHONE["height"] - 140 <= tray["y"] <= PHONE["height"] - tray["height"]
    for chip in bob.locator(".chip-pick span").all():
        box = chip.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Play: the pass line from the tray's chip, the dealer rolls, the decision reaches the phone.
    bob.locator('.chip-pick span:has-text("10")').first.click()
    before = _chips(bob)
    _spot(bob, "pass").click()
    bob.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before - 10:.2f}'")
    rolled = _roll(server, (5, 6))  # eleven on the come-out: the pass line wins 1 to 1
    bob.wait_for_selector(f"#decision >> text=Roll {rolled['events'][-1]['round']}: 5 + 6 = 11")
    bob.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before + 10:.2f}'")
    bob.wait_for_timeout(600)  # the settlement badges finish popping up
    bob.screenshot(path=str(SCREENSHOTS / "craps-phone.png"))


def test_roulette_on_a_phone_with_the_dealers_shortcut(server: Server, login: Any) -> None:
    bob = login("bob", ROULETTE, **PHONE)
    server.post("bob", f"/tables/{ROULETTE}/buy-in", {"amount": "50"})
    bob.wait_for_function("document.querySelector('#bankroll-chips').textContent !== '0.00'")
    before = _chips(bob)
    bob.locator('.chip-pick span:has-text("5")').first.click()
    _spot(bob, "red").click()
    bob.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before - 5:.2f}'")
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The numbers and the outside wagers take a thumb (the lines between numbers, where splits
    # and corners go, and the racetrack's pockets stay as small as the felt draws them).
    sizes = bob.eval_on_selector_all(
        ".roulette-felt [data-spot^='straight:'], .roulette-felt [data-spot^='dozen:'], "
        ".roulette-felt [data-spot^='column:'], .roulette-felt .spot-red, .roulette-felt .spot-black, "
        ".roulette-felt .spot-odd, .roulette-felt .spot-even, .roulette-felt .spot-low, "
        ".roulette-felt .spot-high", """ss => ss.map((s) => { const r = s.getBoundingClientRect();
          return [s.dataset.spot, r.width, r.height]; })""")
    assert len(sizes) >= 38 + 3 + 3 + 6
    assert [k for k, w, h in sizes if w < 44 or h < 44] == []
    bob.wait_for_timeout(600)
    bob.screenshot(path=str(SCREENSHOTS / "roulette-phone.png"))
    dealer = login("dealer", ROULETTE)
    dealer.keyboard.press("?")
    help_text = dealer.inner_text("#help")
    assert "keyboard shortcuts" in help_text.lower() and "No more bets" in help_text
    dealer.keyboard.press("Escape")
    assert dealer.locator("#help").is_hidden()
    dealer.keyboard.press("r")  # "No more bets" and the spin, in one step
    dealer.wait_for_selector("#dealer-msg.ok >> text=the ball rests in")
    payouts = dealer.locator("#payouts")
    payouts.wait_for()
    assert "bob:" in payouts.inner_text()
    bob.wait_for_selector("#decision >> text=Red")


def test_roulette_supervisor_console_reads_as_sentences(server: Server, login: Any) -> None:
    supervisor = login("supervisor", ROULETTE)
    supervisor.fill("#void-reason", "the ball left the wheel")
    supervisor.click("#void-btn")
    supervisor.wait_for_selector("#sup-msg.ok >> text=asked")
    floor = login("floor", ROULETTE)
    floor.click("#approve-void")
    floor.wait_for_selector("#sup-msg.ok >> text=voided")
    console = floor.inner_text("#supervisor-console")
    assert "null" not in console and "Spin" in console
    floor.wait_for_selector(".rounds li.voided")
    floor.locator(".rounds li.voided .recall-btn").first.click()
    floor.wait_for_selector("#recall >> text=Voided by supervisor")
    recalled = floor.inner_text("#recall")
    assert "Red" in recalled and "{" not in recalled and "null" not in recalled


def test_the_organiser_opens_a_table_registers_a_player_and_takes_a_deposit(
        server: Server, login: Any) -> None:
    admin = login("admin", CRAPS)
    admin.wait_for_selector("#admin-users tr[data-user='alice']")
    # Users and roles: a new player, and a lock that keeps a user out until unlocked.
    admin.fill("#new-user", "carol")
    admin.fill("#new-pass", PASSWORD)
    admin.select_option("#new-role", "player")
    admin.click("#user-btn")
    admin.wait_for_selector("#users-msg.ok >> text=User carol is registered as player.")
    admin.click("#admin-users tr[data-user='bob'] .lock-btn")
    admin.wait_for_selector("#admin-users tr[data-user='bob'] .unlock-btn")
    refused = httpx.post(f"{server.url}/auth/login", json={"username": "bob", "password": PASSWORD})
    assert refused.status_code in (401, 423)
    admin.click("#admin-users tr[data-user='bob'] .unlock-btn")
    admin.wait_for_selector("#admin-users tr[data-user='bob'] .lock-btn")
    assert httpx.post(f"{server.url}/auth/login",
                      json={"username": "bob", "password": PASSWORD}).status_code == 200
    # The cage: a deposit to the new player's wallet.
    admin.select_option("#deposit-player", "carol")
    admin.fill("#deposit-amount", "300")
    admin.click("#deposit-btn")
    admin.wait_for_selector("#wallet-view >> text=carol's wallet holds 300.00.")
    # Tables: a malformed name is refused in words, then a roulette table opens with limits.
    admin.fill("#table-id", "Roulette Two")
    admin.select_option("#table-game", "roulette")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.error")
    assert "must start with a lower-case letter" in admin.inner_text("#tables-msg")
    admin.fill("#table-id", "roulette-2")
    admin.fill("#table-min", "5")
    admin.fill("#table-max", "100")
    admin.fill("#table-capacity", "6")
    admin.click("#table-btn")
    admin.wait_for_selector("#tables-msg.ok >> text=Table roulette-2 is open")
    admin.wait_for_selector("#tables button[data-table='roulette-2']")
    # Equipment: a die registered in a table's cup.
    admin.fill("#die-serial", "NJ-T100")
    admin.fill("#die-set", "spare set")
    admin.fill("#die-table", CRAPS)
    admin.click("#die-btn")
    admin.wait_for_selector("#dice-msg.ok >> text=Die NJ-T100 is registered")
    admin.locator("#admin").screenshot(path=str(SCREENSHOTS / "organiser.png"))
    # The night: carol buys chips at the new table, the minimum holds, the dealer spins.
    carol = login("carol", "roulette-2")
    carol.fill("#buyin-amount", "100")
    carol.click("#buyin-btn")
    carol.wait_for_function("document.querySelector('#bankroll-chips').textContent === '100.00'")
    carol.locator('.chip-pick span:has-text("1")').first.click()
    _spot(carol, "red").click()
    carol.wait_for_selector("#refusal >> text=below the table minimum of 5.00")
    carol.locator('.chip-pick span:has-text("5")').first.click()
    _spot(carol, "red").click()
    carol.wait_for_function("document.querySelector('#bankroll-chips').textContent === '95.00'")
    dealer = login("dealer", "roulette-2")
    dealer.click("#spin-rng")
    carol.wait_for_selector("#decision >> text=Red")


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_stake_steps_the_page_derives_from_the_pay_table(server: Server, login: Any) -> None:
    """The amounts the popover offers: multiples on which each wager's win is paid in whole
    table units (13:69F-1.4(f)), split wagers in their units, odds as the point pays them."""
    alice = login("alice", CRAPS)
    steps = alice.evaluate("""async () => {
      const legal = await import('/static/legal.js');
      const offer = await (await fetch('/web/offer?game=craps&profile=nj-13-69f')).json();
      const at = (label, point = null) => legal.stakeStep(offer, label, point) / 100;
      return {place6: at('place_win:6'), place5: at('place_win:5'), place4: at('place_win:4'),
        lay4: at('lay:4'), lose6: at('place_lose:6'), buy4: at('buy:4'), hard8: at('hard:8'),
        field: at('field'), horn: at('horn'), horn_high: at('horn_high:12'), whirl: at('whirl'),
        c_and_e: at('c_and_e'), pass_odds6: at('pass_odds', 6), pass_odds5: at('pass_odds', 5),
        dont_odds4: at('dont_pass_odds', 4), come_odds9: at('come_odds:9'),
        up: legal.payableUp(offer, 'place_win:8', 1100, null) / 100,
        topUp: legal.payableUp(offer, 'place_win:8', 500, null, 1200) / 100};
    }""")
    assert steps == {"place6": 6, "place5": 5, "place4": 5, "lay4": 2, "lose6": 5, "buy4": 1,
                     "hard8": 1, "field": 1, "horn": 4, "horn_high": 5, "whirl": 5,
                     "c_and_e": 2, "pass_odds6": 5, "pass_odds5": 2, "dont_odds4": 2,
                     "come_odds9": 2, "up": 12, "topUp": 6}
