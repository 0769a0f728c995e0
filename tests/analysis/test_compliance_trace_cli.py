"""``croupier check`` and ``croupier trace``, and the ``edge`` command line."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from croupier.analysis.commands import register
from croupier.analysis.compliance import check_documents
from croupier.analysis.trace import (
    build_trace,
    clause_ids,
    default_regulations,
    marker_refs,
    parse_lines,
    render_markdown,
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="croupier")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = int(args.func(args))
    return code, capsys.readouterr().out


def entry(report: Any, key: str) -> Any:
    return next(e for t in report.tables for e in t.entries if e.key == key)


# --- check -----------------------------------------------------------------------------------


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_check_accepts_a_payout_above_the_minimum_with_its_edge() -> None:
    report = check_documents([("t", {"rules": "nj-13-69f", "pays": {"field:12": "3 to 1"}})])
    assert report.compliant
    assert entry(report, "field:12").edge == Fraction(1, 36)
    assert entry(report, "place_win:6").edge == Fraction(1, 66)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 19:47-1.4(b)")
def test_check_refuses_a_payout_below_the_minimum() -> None:
    report = check_documents([("t", {"rules": "nj-19-47", "pays": {"place_win:6": "6 to 6"}})])
    e = entry(report, "place_win:6")
    assert not report.compliant and e.verdict == "refused" and e.clause == "N.J.A.C. 19:47-1.4(b)"
    assert e.edge == Fraction(1, 11) * 1  # 6 to 6 on 5/11: 6/11 - 5/11 = 1/11


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:47-20.25(j)")
def test_check_refuses_commission_over_five_percent_and_win_collection_at_casino_night() -> None:
    report = check_documents([("t", {"rules": "nj-13-69f", "options": {"vig": "0.06"}})])
    assert entry(report, "vig").verdict == "refused"
    report = check_documents([("t", {"rules": "nj-casino-night",
                                     "options": {"vig_collected": "win"}})])
    assert entry(report, "vig_collected").verdict == "refused"


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(a)", "N.J.A.C. 13:47-20.25(i)1")
def test_check_refuses_odds_stated_with_for() -> None:
    report = check_documents([("t", {"rules": "nj-casino-night",
                                     "pays": {"field:12": "4 for 1"}})])
    e = entry(report, "field:12")
    assert e.verdict == "refused" and e.clause == "N.J.A.C. 13:47-20.25(i)1"


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)", "N.J.A.C. 19:47-1.2(b)")
def test_check_refuses_a_wager_the_profile_does_not_permit() -> None:
    report = check_documents([("t", {"rules": "nj-casino-night", "wagers": ["fire"],
                                     "pays": {"hop:2-2": "30 to 1"}})])
    assert entry(report, "fire").verdict == "refused"
    assert entry(report, "hop:2-2").verdict == "refused"


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_check_flags_payouts_not_uniform_across_tables() -> None:
    a = ("a.json", {"rules": "nj-13-69f", "pays": {"field:12": "3 to 1"}})
    b = ("b.json", {"rules": "nj-13-69f"})
    report = check_documents([a, b])
    assert [e.key for e in report.uniformity] == ["field:12"]
    assert not report.compliant
    assert check_documents([a, a]).compliant


def test_check_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text('rules = "nj-13-69f"\n[pays]\n"field:12" = "3 to 1"\n')
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rules": "nj-13-69f", "pays": {"field:12": "1 to 1"}}))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert run(["check", str(good)], capsys)[0] == 0
    assert run(["check", str(bad)], capsys)[0] == 1
    assert run(["check", str(good), str(tmp_path / "good.toml")], capsys)[0] == 0
    assert run(["check", str(broken)], capsys)[0] == 2
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"rules": "nj-99"}))
    assert run(["check", str(unknown)], capsys)[0] == 2


# --- edge CLI --------------------------------------------------------------------------------


def test_edge_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["edge", "--game", "craps", "--rules", "nj-13-69f", "--option",
                     "vig_collected=win", "--json"], capsys)
    rows = {r["wager"]: r for r in json.loads(out)}
    assert code == 0
    assert rows["pass"]["house_edge_exact"] == "7/495"
    assert rows["dont_pass"]["house_edge_exact"] == "3/220"
    assert rows["dont_pass"]["house_edge_resolved_exact"] == "27/1925"
    assert rows["buy:4:placement"]["house_edge_exact"] == "1/21"
    assert rows["buy:4:win"]["as_configured"] is True
    assert isinstance(rows["place_win:6"]["house_edge"], float)
    assert set(rows["fire:A"]["fire_points"]) == {"4", "5", "6"}


def test_edge_pay_option_changes_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run(["edge", "--pay", "field:12=3 to 1", "--json"], capsys)
    assert {r["wager"]: r for r in json.loads(out)}["field"]["house_edge_exact"] == "1/36"


def test_edge_roulette_and_malformed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["edge", "--game", "roulette", "--rules", "nj-casino-night", "--wheel",
                     "double-zero", "--zero-rule", "half"], capsys)
    assert code == 0 and "straight" in out and "1/19" in out
    assert run(["edge", "--option", "vig=0.06"], capsys)[0] == 2
    assert run(["edge", "--game", "roulette", "--rules", "nj-13-69f"], capsys)[0] == 2


# --- trace -----------------------------------------------------------------------------------


def test_clause_ids_expand_ranges() -> None:
    assert clause_ids("N.J.A.C. 19:47-1.2(a)22-24") == [
        "19:47-1.2(a)22", "19:47-1.2(a)23", "19:47-1.2(a)24"]
    assert clause_ids("13:47-20.32(e)1i-iii") == [
        "13:47-20.32(e)1i", "13:47-20.32(e)1ii", "13:47-20.32(e)1iii"]


def test_parse_lines_levels() -> None:
    text = "Section 13:47-20.32 - Roulette\n(a) Words.\n(b) Equipment:\n1. A wheel;\ni. round\n"
    ids = [c.id for c in parse_lines(text, "x")]
    assert ids == ["13:47-20.32", "13:47-20.32(a)", "13:47-20.32(b)", "13:47-20.32(b)1",
                   "13:47-20.32(b)1i"]


def test_trace_reads_markers_without_running(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text(
        "import pytest\npytestmark = pytest.mark.clause('N.J.A.C. 13:69F-1.2(a)1')\n"
        "@pytest.mark.clause('13:69F-1.4(b)')\ndef test_a():\n    raise SystemExit\n")
    refs = marker_refs(tmp_path)
    assert ("13:69F-1.2(a)1", f"{tmp_path.name}/test_x.py::test_a") in refs
    assert ("13:69F-1.4(b)", f"{tmp_path.name}/test_x.py::test_a") in refs


def test_regulation_texts_ship_with_the_package() -> None:
    """The four texts ``croupier trace`` reads are in the package."""
    names = sorted(p.name for p in default_regulations().glob("*.txt"))
    assert len(names) == 4, names


def test_trace_lists_every_clause_with_its_evidence() -> None:
    trace = build_trace()
    rows = {r.clause.id: r for r in trace.rows}
    for clause in ("13:69F-1.2(a)1", "13:69F-1.2(a)40", "13:69F-1.3(a)", "13:69F-1.5(b)",
                   "13:47-20.25(h)1xx", "13:47-20.32(m)3", "19:47-1.4(e)", "13:47-20.25(b)2ix"):
        assert clause in rows, clause
    assert "rules/nj-13-69f.toml craps.wagers.pass" in rows["13:69F-1.2(a)1"].code
    assert any("test_pass_edge_is_7_495" in t for t in rows["13:69F-1.2(a)1"].tests)
    assert rows["13:69F-1.2(a)1"].status == "tested"
    assert "| **tested** |" in render_markdown(trace)
