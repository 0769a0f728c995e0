"""A player recalls every round they had a part in, the round under way included: one in
which only a supervisor's adjustment of their chips happened was refused (403) until the
round was decided, because the list of a round's players is written with its decision."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .appkit import App, demo_app

T = "/tables/craps-1"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("recall-own")) as made:
        yield made


def test_a_round_with_only_an_adjustment_is_recalled_by_its_player(app: App) -> None:
    app.ok("alice", f"{T}/buy-in", {"amount": "100"})
    adjusted = app.ok("supervisor", f"{T}/adjustments",
                      {"player": "alice", "amount": "5", "reason": "a miscounted payout"})
    round_no = adjusted["round"]
    assert [e["type"] for e in adjusted["events"]] == ["adjust"]
    r = app.get("alice", f"{T}/rounds/{round_no}")
    assert r.status_code == 200, r.text
    record = r.json()
    assert record["decided"] is False
    assert [(e["type"], e["amount"]) for e in record["events"] if e["type"] == "adjust"] == [
        ("adjust", "5.00")]
    # Another player, who had no part in it, is still refused.
    assert app.get("bob", f"{T}/rounds/{round_no}").status_code == 403


def test_another_players_part_stays_hidden_in_the_round_under_way(app: App) -> None:
    for player, amount in (("bob", "40"), ("alice", "50")):
        app.ok(player, f"{T}/buy-in", {"amount": amount})
    app.ok("supervisor", f"{T}/adjustments",
           {"player": "bob", "amount": "3", "reason": "a short payout"})
    adjusted = app.ok("supervisor", f"{T}/adjustments",
                      {"player": "alice", "amount": "-2", "reason": "a chip paid twice"})
    r = app.get("bob", f"{T}/rounds/{adjusted['round']}")
    assert r.status_code == 200, r.text
    events = r.json()["events"]
    assert all(e.get("player") in (None, "bob") for e in events)
    assert [e["amount"] for e in events if e["type"] == "adjust"] == ["3.00"]
