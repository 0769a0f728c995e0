"""``croupier replay --summary``: the result for a person, through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def replay(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", "replay", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def test_craps_summary_names_each_decision_and_the_bankrolls() -> None:
    done = replay("--summary", str(ROOT / "examples" / "craps-pass-odds.json"))
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines() == [
        "craps under nj-13-69f: 6 actions, 2 decisions, 0 rejected",
        "decisions:",
        "  [1] roll 3-3 (6), come-out, point 6 set",
        "  [5] roll 4-2 (6), point 6 made: bob horn lost 4.00; alice pass won 10.00; "
        "alice pass_odds won 30.00",
        "players:",
        "  alice   bankroll 540.00  on the table 0.00",
        "  bob     bankroll 184.00  on the table 12.00",
    ]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
def test_a_refused_action_is_shown_with_its_reason_and_clause() -> None:
    doc = {"game": "roulette", "rules": "nj-casino-night", "players": {"ann": 20},
           "actions": [{"player": "ann", "bet": "split", "numbers": [17, 19], "amount": 5},
                       {"spin": 17}]}
    done = replay("--summary", "-", stdin=json.dumps(doc))
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].endswith("1 decision, 1 rejected")
    assert "  [1] spin 17 (black)" in lines
    refused = lines[lines.index("rejected:") + 1]
    assert refused.startswith("  [0] ann bet split [17, 19] 5: ")
    assert refused.endswith("(N.J.A.C. 13:47-20.32(e)2)")
    assert lines[-1] == "  ann     bankroll 20.00  on the table 0.00"


def test_a_malformed_transcript_still_exits_2_with_one_line() -> None:
    done = replay("--summary", "-", stdin='{"game": "craps"}')
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
