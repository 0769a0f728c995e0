"""Two nights with real equipment, each from the organiser's console to the printed report, in
Chromium over a real server: a table of physical dice (registered, inspected by a supervisor,
offered to the shooter, the dealer entering each roll) and a physical wheel (the dealer entering
where the ball rests); the player's bets made on the felt and settled on the player's page.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any

import pytest

from .conftest import Server

WIDE = {"width": 1366, "height": 900}


def _open_physical(admin: Any, table: str, game: str) -> None:
    admin.fill("#table-id", table)
    admin.select_option("#table-game", game)
    admin.select_option("#table-entry", "physical")
    admin.fill("#table-min", "5")
    admin.fill("#table-max", "500")
    admin.click("#table-btn")
    admin.wait_for_selector(f"#tables-msg.ok >> text=Table {table} is open")


def _row(report: str, table: str) -> list[str]:
    """The report's figures for ``table``: drop, win, hold, handle, theoretical win, ..."""
    line = next(r for r in report.splitlines() if r.startswith(f"{table}\t"))
    return line.split("\t")[1:]


def _cents(amount: Fraction) -> str:
    return str((Decimal(amount.numerator) / Decimal(amount.denominator)).quantize(
        Decimal("0.01"), ROUND_HALF_EVEN))


def _chips_are(page: Any, amount: str) -> None:
    page.wait_for_selector(f"#bankroll-chips:text-is('{amount}')")


def _buy_in(page: Any, amount: str) -> None:
    page.fill("#buyin-amount", amount)
    page.click("#buyin-btn")
    _chips_are(page, f"{amount}.00")


def _printed_report(admin: Any, table: str) -> str:
    """The table's end-of-night report as the organiser prints it (the print dialog stubbed:
    headless Chromium has none), read under the print style sheet."""
    admin.reload()
    admin.wait_for_selector(f"#report-table option[value='{table}']", state="attached")
    admin.select_option("#report-table", table)
    admin.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    admin.click("#report-print-btn")
    admin.wait_for_function("() => window.printed === 1")
    admin.emulate_media(media="print")
    assert admin.locator("#report-view").is_visible()
    assert admin.locator("#admin-tables").is_hidden()  # only the report is printed
    text = str(admin.inner_text("#report-view"))
    admin.emulate_media(media="screen")
    return text


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1")
def test_a_physical_dice_night_from_the_console_to_the_printed_report(server: Server,
                                                                      login: Any) -> None:
    table = "dice-phys"
    admin = login("admin", "craps-1", **WIDE)
    _open_physical(admin, table, "craps")
    # The dice's records: five registered to the table's cup from the console.
    serials = [f"PHYS-{n}" for n in range(1, 6)]
    for serial in serials:
        admin.fill("#die-serial", serial)
        admin.fill("#die-set", "phys set")
        admin.fill("#die-table", table)
        admin.click("#die-btn")
        admin.wait_for_selector(f"#dice-msg.ok >> text=Die {serial} is registered")
    # A supervisor inspects each before it is put in play.
    supervisor = login("supervisor", table, **WIDE)
    for serial in serials:
        supervisor.select_option("#inspect-serial", serial)
        supervisor.click("#inspect-btn")
        supervisor.wait_for_selector(f"#sup-msg.ok >> text={serial} passed inspection")
        # The list is drawn again with the die in spec before the next is picked.
        supervisor.wait_for_selector(f"#inspection tr:has(td:text-is('{serial}')) td.ok")
    # The player buys chips at the table and makes a pass line bet on the felt.
    bob = login("bob", table, **WIDE)
    _buy_in(bob, "100")
    bob.fill("#amount", "10")
    bob.locator('[data-spot="pass"]').click()
    _chips_are(bob, "90.00")
    # The dealer offers the five inspected dice and selects the two the shooter picked.
    dealer = login("dealer", table, **WIDE)
    dealer.wait_for_selector("#offer-dice")
    assert sorted(dealer.locator("input[name='offer-die']:checked").evaluate_all(
        "els => els.map(e => e.value)")) == serials
    dealer.click("#offer-dice")
    dealer.wait_for_selector("#select-dice")
    dealer.click("#select-dice")
    dealer.wait_for_selector("#dealer-dice >> text=In play:")
    # The RNG does not roll at a table of physical dice: the dealer enters what they show.
    dealer.select_option("#die1", "3")
    dealer.select_option("#die2", "4")
    dealer.click("#roll-physical")
    dealer.wait_for_selector("#decision >> text=Roll 1: 3 + 4 = 7")
    # A seven on the come-out roll wins the pass line, paid even money (13:69F-1.2(a)1):
    # the 10.00 stake back and 10.00 won.
    _chips_are(bob, "110.00")
    bob.wait_for_selector("#decision >> text=bob's Pass line wins: pay 10.00")
    # A new pass line bet, then the point: 2 + 2 is 4, and the pass line stands on it.
    bob.locator('[data-spot="pass"]').click()
    _chips_are(bob, "100.00")
    dealer.select_option("#die1", "2")
    dealer.select_option("#die2", "2")
    dealer.click("#roll-physical")
    dealer.wait_for_selector("#decision >> text=Roll 2: 2 + 2 = 4, the point is 4")
    bob.wait_for_selector("#decision >> text=Roll 2: 2 + 2 = 4, the point is 4")
    # A seven before the point: the pass line loses (13:69F-1.2(a)1).
    dealer.select_option("#die1", "1")
    dealer.select_option("#die2", "6")
    dealer.click("#roll-physical")
    dealer.wait_for_selector("#decision >> text=Roll 3: 1 + 6 = 7, seven out")
    bob.wait_for_selector("#decision >> text=bob's Pass line loses: take 10.00")
    _chips_are(bob, "100.00")
    # The night's report, printed: the chips bought, the house's result.
    # The night's report, printed. Drop: the 100.00 bought; win: 10.00 lost to bob and 10.00
    # taken from him, 0.00; handle: the two 10.00 stakes settled; theoretical win: the pass
    # line's exact edge, 7/495, on 20.00.
    row = _row(_printed_report(admin, table), table)
    assert row[:4] == ["100.00", "0.00", "0.00%", "20.00"]
    assert row[4] == _cents(Fraction(7, 495) * 20)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
def test_a_physical_wheel_night_from_the_console_to_the_printed_report(server: Server,
                                                                       login: Any) -> None:
    table = "wheel-phys"
    admin = login("admin", "craps-1", **WIDE)
    _open_physical(admin, table, "roulette")
    alice = login("alice", table, **WIDE)
    _buy_in(alice, "100")
    alice.fill("#amount", "5")
    alice.locator('[data-spot="straight:17"]').click()
    _chips_are(alice, "95.00")
    alice.locator('[data-spot="red"]').click()
    _chips_are(alice, "90.00")
    alice.locator('[data-spot="black"]').click()
    _chips_are(alice, "85.00")
    dealer = login("dealer", table, **WIDE)
    dealer.select_option("#spin-number", "17")
    dealer.click("#spin-physical")
    dealer.wait_for_selector("#dealer-msg >> text=the ball rests in 17")
    # 17 is black: the straight pays 35 to 1 and black even money (13:47-20.32(f)); red loses.
    # 85.00 + (5.00 + 175.00) + (5.00 + 5.00) = 275.00.
    _chips_are(alice, "275.00")
    alice.wait_for_selector("#decision >> text=alice's Red loses: take 5.00")
    alice.wait_for_selector("#decision >> text=alice's Straight 17 wins: pay 175.00")
    # Printed: drop 100.00; win 5.00 (red) - 175.00 (straight) - 5.00 (black) = -175.00; the
    # three 5.00 stakes settled; theoretical win: the double-zero wheel's 2/38 on each.
    row = _row(_printed_report(admin, table), table)
    assert row[:4] == ["100.00", "-175.00", "-175.00%", "15.00"]
    assert row[4] == _cents(Fraction(2, 38) * 15)
