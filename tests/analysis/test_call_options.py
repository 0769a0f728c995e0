"""The calls the table options ``down_on_win`` and ``off_during_point`` take, outside the
replay: ``croupier edge`` plays them (the figures per decision stand, and say why), the posted
rules show each when it is on, and the trace lists the readings they take."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from croupier.analysis.exact import analyse
from croupier.analysis.trace import build_trace
from croupier.rules.posted import posted_rules

BOTH = {"down_on_win": True, "off_during_point": True}


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.4(b)",
                    "replay contract: What stays up")
def test_edge_figures_stand_with_the_calls() -> None:
    """Per decision, a buy called down on the win is the same bet: buy 4 wins with probability
    3/9 = 1/3 (three ways to 4, six to 7) and pays 2 to 1 (1.5(a)); 5% of the stake is paid at
    placement, once per decision: the expected result per unit is 1/3 * 2 - 2/3 - 1/20 =
    -1/20 on 21/20 at risk, an edge of 1/21. Place 6 wins 5/11 at 7 to 6 (1.4(b)):
    5/11 * 7/6 - 6/11 = -1/66."""
    plain = {r.wager: r for r in analyse("craps", "nj-13-69f", {})}
    called = {r.wager: r for r in analyse("craps", "nj-13-69f", BOTH)}
    assert called["buy:4:placement"].house_edge == Fraction(1, 21)
    assert called["place_win:6"].house_edge == Fraction(1, 66)
    assert {w: (r.ends, r.at_risk, r.expected_rolls) for w, r in called.items()} == {
        w: (r.ends, r.at_risk, r.expected_rolls) for w, r in plain.items()}


def _edge(*options: str) -> subprocess.CompletedProcess[str]:
    args = [a for o in options for a in ("--option", o)]
    return subprocess.run([sys.executable, "-m", "croupier", "edge", "--json", *args],
                          capture_output=True, text=True, timeout=300)


def test_edge_notes_each_call_on_the_wagers_it_applies_to() -> None:
    run = _edge("down_on_win=true", "off_during_point=true")
    assert run.returncode == 0, run.stderr
    notes = {row["wager"]: row.get("note", "") for row in json.loads(run.stdout)}
    for wager in ("place_win:6", "place_lose:4", "buy:4:placement", "lay:10:win"):
        assert "down_on_win (place_win, place_lose, buy, lay)" in notes[wager]
        assert "off_during_point" in notes[wager]
    assert "off_during_point" in notes["hard:6"] and "down_on_win" not in notes["hard:6"]
    assert "down_on_win" not in notes["pass"] and "off_during_point" not in notes["field"]
    bad = _edge("down_on_win=yes")
    assert bad.returncode == 2 and "options.down_on_win" in bad.stderr


@pytest.mark.clause("replay contract: What stays up", "N.J.A.C. 13:69F-1.3(e)",
                    "N.J.A.C. 13:47-20.25(h)1v")
def test_the_posted_rules_show_each_call_when_its_option_is_on() -> None:
    plain = posted_rules("craps", "nj-13-69f", {})
    assert all("down on the win" not in n.text for n in plain.notices)
    come_out = next(n for n in plain.notices if n.clause == "N.J.A.C. 13:69F-1.3(e)")
    assert "keeps working" in come_out.text
    doc = posted_rules("craps", "nj-13-69f", BOTH)
    down = next(n for n in doc.notices if n.clause == "replay contract: What stays up")
    assert '"down on the win"' in down.text and "Hardway" not in down.text
    assert "Buy Bet" in down.text and "no commission is collected again" in down.text
    off = [n for n in doc.notices if n.clause == "N.J.A.C. 13:69F-1.3(e)"]
    assert len(off) == 2 and "keeps working" not in off[0].text
    assert "Hardway Bet" in off[1].text and 'called "on" again or the point is decided' in off[1].text
    night = posted_rules("craps", "nj-casino-night", {"off_during_point": True})
    assert any(n.clause == "N.J.A.C. 13:47-20.25(h)1v" and "while a point is established: it "
               "does not work" in n.text for n in night.notices)


def test_the_trace_lists_the_readings_the_calls_take() -> None:
    trace = build_trace()
    stays = trace.row("replay contract: What stays up")
    assert stays.status == "interpretation" and "down_on_win" in stays.clause.text
    for pid in ("nj-13-69f", "nj-casino-night", "nj-19-47"):
        assert f"rules/readings.toml citations.{pid}.down_on_win" in stays.code
    for clause, pid in (("13:69F-1.3(e)", "nj-13-69f"), ("13:47-20.25(h)1v", "nj-casino-night"),
                        ("19:47-1.2(a)5", "nj-19-47")):
        row = trace.row(clause)
        assert f"rules/readings.toml citations.{pid}.off_during_point" in row.code
        assert "off_during_point (default false" in row.note
