"""``automated-craps`` through the replay contract: craps whose dice a device throws."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.errors import Malformed
from croupier.transcript import replay_text


def replay(doc: dict[str, Any]) -> dict[str, Any]:
    return replay_text(json.dumps(doc))


BASE: dict[str, Any] = {"game": "automated-craps", "rules": "nj-13-69f",
                        "players": {"ann": 100, "bo": 100}}


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_no_shooter_no_fire_bet_and_craps_otherwise() -> None:
    result = replay({**BASE, "options": {"odds": "3-4-5"}, "actions": [
        {"shooter": "bo"},
        {"player": "ann", "bet": "fire", "amount": 1},
        {"player": "ann", "bet": "pass", "amount": 10},
        {"roll": [3, 3]},
        {"player": "ann", "bet": "pass_odds", "amount": 50},
        {"roll": [2, 4]},
    ]})
    assert [r["index"] for r in result["rejected"]] == [0, 1]
    assert "no shooter" in result["rejected"][0]["reason"]
    assert result["rejected"][1]["clause"] == "N.J.A.C. 13:69F-1.2(a)"
    assert result["state"] == {"point": None, "shooter": None}
    assert result["players"]["ann"] == {"bankroll": "170.00", "on_table": "0.00"}
    assert result["events"][0] == {"action": None, "type": "open",
                                   "players": [["ann", "100.00"], ["bo", "100.00"]],
                                   "shooter": ""}


def test_a_seven_out_passes_no_dice() -> None:
    result = replay({**BASE, "actions": [
        {"player": "ann", "bet": "pass", "amount": 10}, {"roll": [2, 2]}, {"roll": [3, 4]}]})
    assert "shooter" not in [e["type"] for e in result["events"]]
    assert result["state"]["shooter"] is None


@pytest.mark.parametrize("rules", ["nj-casino-night", "nj-19-47"])
def test_only_under_13_69f(rules: str) -> None:
    with pytest.raises(Malformed) as malformed:
        replay({**BASE, "rules": rules, "actions": []})
    assert malformed.value.where == "game"
