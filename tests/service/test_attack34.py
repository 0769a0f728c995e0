"""Found by an attack on the live server (in process: the app over a demo ledger).

* What one supervisor moves for a player alone in 24 hours is counted as a person's, not an
  account's: two supervisor accounts one admin made (one person by the users' chain) each
  moved 100.00 for the same player alone, 200.00 with no second person."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from croupier.service import controls
from serverkit import PASSWORD

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack34")) as made:
        yield made


@pytest.mark.clause("N.J.A.C. 13:47-20.25(d)")
def test_adjustments_alone_add_up_across_the_accounts_of_one_person(app: App) -> None:
    """box-a and box-b were both made through the API by admin: one person. box-a moves 100.00
    for bob alone; box-b's 100.00 for bob would take that person past 100.00 alone in the
    period, so it waits for a second person (before: moved at once). floor, a person of their
    own, approves it."""
    for name in ("box-a", "box-b"):
        app.ok("admin", "/users", {"username": name, "password": PASSWORD,
                                   "role": "supervisor"}, key=None)
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "50"})
    body = {"player": "bob", "amount": "100.00", "reason": "dealer short paid"}
    assert app.post("box-a", "/tables/craps-1/adjustments", body).status_code == 200
    second = app.post("box-b", "/tables/craps-1/adjustments", body)
    assert second.status_code == 202, second.text
    asked = second.json()
    assert asked["status"] == "pending" and "box-b" in asked["reason_pending"], asked
    assert app.get("auditor", "/tables/craps-1").json()["players"]["bob"]["chips"] == "150.00"
    app.ok("floor", f"/tables/craps-1/adjustments/{asked['pending_adjustment']}/approve")
    assert app.get("auditor", "/tables/craps-1").json()["players"]["bob"]["chips"] == "250.00"
    assert controls.ADJUSTMENT_LIMIT == 100
    assert app.audit()["ok"]

