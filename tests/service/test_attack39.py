"""Found by an attack on the live server (attack39; in process: the app over a demo ledger).

* A late bet offered while bob's chips were free was placed, at its second confirmation, over
  chips a pending adjustment asked meanwhile held: bob put them on the layout, lost them, and
  the adjustment taking them back could no longer be approved (a held chip dodged it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .appkit import App, demo_app

ADJUSTMENT_CLAUSE = "N.J.A.C. 13:69F-1.1"  # craps-1 (nj-13-69f): the boxperson answers disputes


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack39")) as made:
        yield made


def _chips(app: App, table: str = "craps-1") -> dict[str, Any]:
    return dict(app.get("auditor", f"/tables/{table}").json()["players"])


@pytest.mark.clause(ADJUSTMENT_CLAUSE)
def test_a_late_bet_confirmed_does_not_put_down_held_chips(app: App) -> None:
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "150"})
    app.ready_dice()
    app.ok("dealer", "/tables/craps-1/no-more-bets")
    late = app.post("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "150"})
    assert late.status_code == 202, late.text
    path = f"/tables/craps-1/late-bets/{late.json()['late_bet']}/confirm"
    asked = app.ok("supervisor", "/tables/craps-1/adjustments",
                   {"player": "bob", "amount": "-150.00", "reason": "overpaid a place bet"})
    number = asked["pending_adjustment"]
    app.ok("dealer", path)
    events = len(app.events())
    held = app.refused("floor", path)
    assert held["clause"] == ADJUSTMENT_CLAUSE and "held" in held["reason"], held
    assert _chips(app)["bob"] == {"chips": "150.00", "on_table": "0.00"}
    assert len(app.events()) == events
    app.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})  # the late bet lapses
    app.ok("floor", f"/tables/craps-1/adjustments/{number}/approve")
    assert _chips(app)["bob"]["chips"] == "0.00"
    report = app.audit()
    assert report["ok"], report["findings"]
