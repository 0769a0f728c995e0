"""Found by an attack on the newest server code (in process: the app over a demo ledger).

* A player who leaves a craps table is told no chips of theirs there, as at roulette: the
  faster bet path (``Table.purses``) counted a craps player who had left as at the table (their
  state stays in the table's players) and answered the cash-out that made them leave with
  ``you: 0.00``, where the reply before (and roulette's) has no ``you``;
* a supervisor's void-rate alert is about everyone who took part in the voids it counts: the
  two supervisors who asked and approved the same voids each acknowledged the other's alert;
* the runner's own check of an adjustment's limit cites the table's clause for adjustments
  (it answered an empty clause)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest

from croupier.service import alert_acks

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack33")) as made:
        yield made


@pytest.mark.parametrize("table", ["craps-1", "roulette-1"])
def test_a_player_who_left_is_told_no_chips_at_the_table(app: App, table: str) -> None:
    joined = app.ok("bob", f"/tables/{table}/buy-in", {"amount": "50"})
    assert joined["you"] == {"chips": "50.00", "on_table": "0.00"}
    left = app.ok("bob", f"/tables/{table}/cash-out", {})
    assert left["left"] is True and "you" not in left, left
    assert "bob" not in app.get("auditor", f"/tables/{table}").json()["players"]
    assert app.audit()["ok"]


@pytest.mark.clause(alert_acks.CLAUSE)
def test_a_void_rate_alert_is_not_acknowledged_by_a_party_to_the_voids_it_counts(
        app: App) -> None:
    """supervisor asks two voids of RNG outcomes and floor approves both: each is named by an
    alert of their own, and each alert counts the same two voids. floor took part in every
    void supervisor's alert counts, so floor does not answer for it (nor supervisor for
    floor's); a third supervisor does. Before, each acknowledged the other's."""
    app.add_user("third", "supervisor")
    app.ok("admin", "/tables", {"id": "wheel-pair", "game": "roulette",
                                "profile": "nj-casino-night", "entry": "physical"}, key=None)
    base = "/tables/wheel-pair"
    app.rng_void(base, "supervisor", "floor")
    alerts = app.rng_void(base, "supervisor", "floor")
    named = {a["set_id"]: a["seq"] for a in alerts}
    assert set(named) == {"wheel-pair:floor", "wheel-pair:supervisor"}, alerts
    events = len(app.get("auditor", base + "/events").json())
    for alert, other in (("supervisor", "floor"), ("floor", "supervisor")):
        path = f"{base}/alert-records/{named['wheel-pair:' + alert]}/acknowledge"
        refused = app.refused(other, path, {"reason": "looked into, all in order"})
        assert f"about acts of {other}" in refused["reason"], refused
        assert refused["clause"] == alert_acks.CLAUSE
    assert len(app.get("auditor", base + "/events").json()) == events
    for alert in ("supervisor", "floor"):
        path = f"{base}/alert-records/{named['wheel-pair:' + alert]}/acknowledge"
        app.ok("third", path, {"reason": "both jams seen on camera"})


def test_the_runners_own_limit_on_an_adjustment_cites_the_tables_clause(app: App) -> None:
    """The runner's last check of an adjustment's limit (behind the route's and the
    approval's, which cite the table's clause for adjustments) answered an empty clause."""
    from croupier.errors import Refusal
    from croupier.events import Adjusted
    from croupier.service.plans import Plan

    svc: Any = app.client.app.state.services  # type: ignore[attr-defined]
    live = svc.tables.find("craps-1")
    over = Decimal(svc.ledger.limits.max_adjustment + 1) / 100
    plan = Plan([Adjusted("alice", over, "a dealer's error", "supervisor")])
    with pytest.raises(Refusal) as refused:
        svc.runner._within_limits(plan, live)
    assert refused.value.clause == live.procedures.adjustment_clause() != ""
    within = Plan([Adjusted("alice", over - 1, "a dealer's error", "supervisor")])
    assert svc.runner._within_limits(within, live) is within
