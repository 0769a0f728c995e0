"""``croupier replay`` through the real command line: the contract's exit statuses and streams."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

BASE: dict[str, Any] = {"game": "craps", "rules": "nj-13-69f", "players": {"alice": "100"},
                       "actions": []}


def run(doc: Any) -> subprocess.CompletedProcess[str]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    return subprocess.run([sys.executable, "-m", "croupier", "replay", "-"], input=text,
                          capture_output=True, text=True, check=False)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1", "replay contract: Table options (odds)")
def test_contract_example_pays_pass_and_odds() -> None:
    """transcript.md example; 13:69F-1.4(b) pass 1 to 1 and 6 to 5 odds on 6: 500 + 10 + 30."""
    doc = {**BASE, "options": {"unit": "1", "odds": "3-4-5"},
           "players": {"alice": "500", "bob": 200},
           "actions": [{"player": "alice", "bet": "pass", "amount": 10}, {"roll": [3, 3]},
                       {"player": "alice", "bet": "pass_odds", "amount": 25}, {"roll": [4, 2]}]}
    proc = run(doc)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["players"]["alice"] == {"bankroll": "540.00", "on_table": "0.00"}
    assert result["players"]["bob"] == {"bankroll": "200.00", "on_table": "0.00"}
    assert result["rejected"] == []
    assert result["state"] == {"point": None, "shooter": "alice"}
    settles = [e for e in result["events"] if e["type"] == "settle"]
    assert {(e["wager"], e["result"], e["paid"]) for e in settles} == {
        ("pass", "win", "10.00"), ("pass_odds", "win", "30.00")}


@pytest.mark.parametrize(("doc", "place"), [
    ("{not json", "transcript"),
    ({**BASE, "game": "poker"}, "game"),
    ({**BASE, "rules": "nj-99"}, "rules"),
    ({**BASE, "game": "roulette", "rules": "nj-19-47"}, "game"),
    ({**BASE, "actions": [{"roll": [7, 1]}]}, "actions[0].roll[0]"),
    ({**BASE, "actions": [{"player": "alice", "bet": "parlay", "amount": 5}]}, "actions[0].bet"),
    ({**BASE, "actions": [{"player": "alice", "bet": "pass", "amount": "ten"}]},
     "actions[0].amount"),
    ({**BASE, "actions": [{"player": "alice", "bet": "pass", "amount": 0}]}, "actions[0].amount"),
    ({**BASE, "actions": [{"player": "zed", "bet": "pass", "amount": 5}]}, "actions[0].player"),
    ({**BASE, "actions": [{"player": "alice", "bet": "place_win", "number": 7, "amount": 5}]},
     "actions[0].number"),
    ({**BASE, "actions": [{"player": "alice", "bet": "hard", "number": 5, "amount": 5}]},
     "actions[0].number"),
    ({**BASE, "actions": [{"player": "alice", "bet": "horn_high", "number": 4, "amount": 5}]},
     "actions[0].number"),
    ({**BASE, "actions": [{"player": "alice", "bet": "hop", "dice": [1, 2], "amount": 5}]},
     "actions[0].dice"),
    ({**BASE, "options": {"vig": "0.06"}}, "options.vig"),
    ({**BASE, "options": {"pays": {"field:12": "1 to 1"}}}, "options.pays.field:12"),
    ({**BASE, "options": {"pays": {"field:12": "4 for 1"}}}, "options.pays.field:12"),
    ({**BASE, "options": {"colour": "green"}}, "options.colour"),
    ({**BASE, "rules": "nj-casino-night", "options": {"pays": {"hop:2-2": "31 to 1"}}},
     "options.pays.hop:2-2"),
    ({**BASE, "rules": "nj-casino-night", "options": {"vig_collected": "win"}},
     "options.vig_collected"),
    ({**BASE, "players": {"alice": "-5"}}, "players.alice"),
    ({**BASE, "options": {"pays": {"field:12": "9" * 5000 + " to 1"}}}, "options.pays.field:12"),
    ({**BASE, "actions": [{"player": "alice", "bet": "pass", "amount": "\u0661\u0660"}]},
     "actions[0].amount"),
])
def test_malformed_transcripts_exit_2_naming_the_place(doc: Any, place: str) -> None:
    """transcript.md "Exit status and errors": exit 2, nothing on stdout, one line naming the place."""
    proc = run(doc)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(place + ":"), lines[0]
    assert "Traceback" not in proc.stderr


@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)")
def test_refused_action_is_listed_with_reason_naming_profile_and_changes_nothing() -> None:
    """19:47-1.2(b): only the wagers of (a) are permitted; a fire bet is not among them."""
    doc = {**BASE, "rules": "nj-19-47",
           "actions": [{"player": "alice", "bet": "fire", "amount": 5}, {"roll": [3, 4]}]}
    proc = run(doc)
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert [r["index"] for r in result["rejected"]] == [0]
    assert "nj-19-47" in result["rejected"][0]["reason"]
    assert result["players"]["alice"] == {"bankroll": "100.00", "on_table": "0.00"}
