"""A wager the code has never heard of reaches the felt: end to end in Chromium.

The server this file starts registers, before it serves, a craps wager that exists nowhere
in croupier ("Aces or Boxcars": one roll, wins on 2 or 12, with its own decision function)
and a rule profile permitting it at 15 to 1 (``felt-test``: N.J.A.C. 13:69F-1 with that
wager added). It does so from a ``sitecustomize`` module on the server process's
``PYTHONPATH`` only; nothing in ``src/`` names the wager, the JavaScript least of all. The
page draws it from the table's offer among the "more bets", a player bets it there, the
dealer rolls, and the page shows it settled at the profile's odds.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from croupier.service.equipment import passing_record

from .conftest import Server, serving

WAGER = "aces_or_boxcars"
TABLE = "felt-1"

HOOK = textwrap.dedent('''
    # Loaded by the server process the test starts (PYTHONPATH), before it serves: a craps
    # wager no profile has, defined as every wager is, and a profile permitting it.
    import tomllib
    from importlib import resources

    import croupier.rules as rules
    from croupier.craps import wagers
    from croupier.rules import citations, profile


    def _aces_or_boxcars(_qualifier, _state, d1, d2):
        """One roll: a 2 or a 12 wins; any other total loses."""
        return wagers.Win("aces_or_boxcars") if d1 + d2 in (2, 12) else wagers.LOSE


    wagers.WAGERS["aces_or_boxcars"] = wagers.WagerDef(
        "aces_or_boxcars", "Aces or Boxcars", _aces_or_boxcars,
        lambda _qualifier, _state: ("aces_or_boxcars",), one_roll=True)

    text = resources.files("croupier.rules").joinpath("nj-13-69f.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    raw["id"], raw["title"] = "felt-test", "N.J.A.C. 13:69F-1 and Aces or Boxcars (a test)"
    raw["craps"]["wagers"]["aces_or_boxcars"] = "felt-test: Aces or Boxcars"
    raw["craps"]["pays"]["aces_or_boxcars"] = "15 to 1"
    TEST = profile.parse_profile(raw)
    readings = citations.load_readings()["citations"]
    readings[TEST.id] = readings["nj-13-69f"]
    _load = profile.load_profile


    def load_profile(profile_id):
        return TEST if profile_id == TEST.id else _load(profile_id)


    profile.load_profile = rules.load_profile = load_profile
    profile.PROFILE_IDS = rules.PROFILE_IDS = (*profile.PROFILE_IDS, TEST.id)
''')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browser tests' server, with the new wager and its profile registered."""
    hook = tmp_path_factory.mktemp("hook")
    (hook / "sitecustomize.py").write_text(HOOK)
    old = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), *([old] if old else [])])}
    with serving(tmp_path_factory.mktemp("web-ledger"), env) as running:
        yield running


def _chips(page: Any) -> Decimal:
    return Decimal(str(page.inner_text("#bankroll-chips")).strip())


def _dice_at_the_table(server: Server) -> None:
    """Five dice registered to the new table's cup, each passing its inspection, offered to
    the shooter, two of them selected."""
    serials = [f"FELT-{i}" for i in range(1, 6)]
    for serial in serials:
        server.post("admin", "/equipment/dice",
                    {"serial": serial, "set_name": "felt set", "table_id": TABLE})
        server.post("admin", f"/equipment/dice/{serial}/inspections", passing_record())
    server.post("dealer", f"/tables/{TABLE}/dice/offer", {"serials": serials})
    server.post("dealer", f"/tables/{TABLE}/dice/select", {"serials": serials[:2]})


def expected_chips(before_bet: Decimal, stake: Decimal, dice: tuple[int, int]) -> Decimal:
    """Chips in hand after ``stake`` on Aces or Boxcars and one roll of ``dice``: the test
    profile pays it "15 to 1", 15 won for every 1 wagered with the wager returned besides
    (the odds wording of N.J.A.C. 13:69F-1.4(a)); any total but 2 or 12 loses the stake."""
    if sum(dice) in (2, 12):
        return before_bet + stake * 15
    return before_bet - stake


def test_a_wager_the_page_has_never_seen_is_drawn_bet_and_settled(server: Server,
                                                                  login: Any) -> None:
    server.post("admin", "/tables", {"id": TABLE, "game": "craps", "profile": "felt-test",
                                     "entry": "physical"})
    offer = server.get("alice", "/web/offer?game=craps&profile=felt-test")
    assert offer["defs"][WAGER]["felt"]["area"] == "more"  # no place of its own: "more bets"
    server.post("alice", f"/tables/{TABLE}/buy-in", {"amount": "100"})
    _dice_at_the_table(server)  # to the shooter, alice

    alice = login("alice", TABLE)
    spot = alice.locator(f'.craps-props [data-spot="{WAGER}"]')
    assert spot.count() == 1
    assert spot.get_attribute("aria-label") == "Aces or Boxcars, pays 15 to 1"
    assert "MORE BETS" in (alice.locator(".craps-props").text_content() or "")
    alice.wait_for_function("document.querySelector('#bankroll-chips').textContent !== '0.00'")
    before = _chips(alice)
    alice.locator('.chip-pick span:has-text("5")').first.click()
    spot.click()
    alice.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{before - 5:.2f}'")
    layout = server.get("alice", f"/tables/{TABLE}")["layout"]
    assert [(w["player"], w["wager"], w["stake"]) for w in layout] == [("alice", WAGER, "5.00")]
    alice.wait_for_selector(".craps-props .chips .chip")  # its chips sit on its spot

    # Its legal moves come from its definition too: a one-roll wager may be added to or
    # taken down before the roll; it works on the come-out.
    spot.click()
    alice.wait_for_selector("#popover:not([hidden])")
    assert alice.locator("#popover .pop-bet").inner_text() == "Add 5.00"
    assert alice.locator("#popover .pop-remove").count() == 1
    assert alice.inner_text("#popover .pop-state") == "Working."
    alice.keyboard.press("Escape")

    dice = (6, 6)
    rolled = server.post("dealer", f"/tables/{TABLE}/roll", {"dice": list(dice)})
    settled = [e for e in rolled["events"] if e["type"] == "settle" and e["wager"] == WAGER]
    assert [(e["result"], e["paid"], e["odds"]) for e in settled] == [("win", "75.00", "15 to 1")]
    expected = expected_chips(before, Decimal(5), dice)
    alice.wait_for_function(
        f"document.querySelector('#bankroll-chips').textContent === '{expected:.2f}'")
    decision = alice.inner_text("#decision")
    assert "alice's Aces or Boxcars wins: pay 75.00 and return the stake of 5.00." in decision
    assert WAGER not in decision
    alice.wait_for_selector(".craps-props .badges .badge-win >> text=WIN +75.00")
