"""The analyst's commands as a person runs them, from the shell with the output read as they
read it: ``edge`` defaults and notes, the options file, ``check``'s table and its
malformed-value report."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cli import main

ROOT = Path(__file__).resolve().parents[2]
HOUSE = str(ROOT / "examples" / "house-table.toml")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(("game", "profile"), [("roulette", "nj-casino-night"),
                                               ("craps", "nj-13-69f"),
                                               ("mini-craps", "nj-13-69f")])
def test_edge_picks_a_profile_that_covers_the_game(
        game: str, profile: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["edge", "--game", game], capsys)
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"{game} under {profile}:")


def test_fire_figures_are_decimals_in_the_table_and_exact_in_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["edge"], capsys)
    fire = [line for line in out.splitlines() if line.startswith("fire")]
    assert code == 0 and len(fire) == 3  # fire:A, fire:B and the points line
    assert all("/" not in line and "see --json" not in line for line in fire)
    assert fire[0].split()[1].startswith("0.2076")
    code, out, _ = run(["edge", "--json"], capsys)
    row = next(r for r in json.loads(out) if r["wager"] == "fire:A")
    exact = Fraction(row["house_edge_exact"])
    assert exact.denominator > 10**30 and abs(float(exact) - row["house_edge"]) < 1e-15
    points = {k: Fraction(v) for k, v in row["fire_points"].items()}
    assert f"4 points {float(points['4']):.8f}" in fire[2]


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_the_lay_commission_on_the_stake_is_noted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["edge"], capsys)
    note = " ".join(out.split("note:")[1].split())
    assert code == 0 and "N.J.A.C. 13:69F-1.5(b)" in note
    assert "lay 4/10: 4.762% against 2.439%" in note
    code, out, _ = run(["edge", "--json"], capsys)
    rows = {r["wager"]: r for r in json.loads(out)}
    assert "13:69F-1.5(b)" in rows["lay:4:placement"]["note"] and "note" not in rows["buy:4:win"]
    assert rows["lay:4:placement"]["house_edge_exact"] == "1/21"


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_no_note_where_the_lay_commission_is_on_the_win(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["edge", "--rules", "nj-casino-night"], capsys)
    assert code == 0 and "note:" not in out
    assert any(line.split()[:2] == ["lay:4:placement", "1/41"] for line in out.splitlines())


def test_edge_reads_the_file_check_reads(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["edge", "--options-file", HOUSE], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("main-pit-1: craps under nj-13-69f:")
    field = next(line for line in lines if line.startswith("field "))
    assert field.split()[1] == "1/36"  # the file's "field:12" = "3 to 1" is in force
    assert any(line.split()[0] == "buy:4:win" and "not this table" not in line for line in lines)


def test_edge_refuses_an_options_file_for_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["edge", "--options-file", HOUSE, "--game", "roulette"], capsys)
    assert code == 2 and out == ""
    assert "is for game 'craps'" in err


def test_check_shows_headed_columns_and_only_the_proposed_entries(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", HOUSE], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[1].split() == ["entry", "minimum", "proposed", "house", "edge",
                                              "exact", "verdict"]
    entries = [line.split()[0] for line in lines[2:] if line.startswith("  ") and
               not line.startswith("  (")]
    assert entries == ["hard:6", "field:12", "hop:1-3"]
    code, out, _ = run(["check", "--all", HOUSE], capsys)
    assert code == 0 and len(out.splitlines()) > 50 and "  pass " in out


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_check_refusals_read_as_a_verdict_with_reason_and_clause(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "low.toml"
    path.write_text('rules = "nj-13-69f"\n[pays]\n"field:12" = "3 to 2"\n')
    code, out, _ = run(["check", str(path)], capsys)
    line = next(line for line in out.splitlines() if line.startswith("  field:12"))
    assert code == 1
    assert line.endswith("refused: 3 to 2 is below the minimum payout 2 to 1 "
                         "(N.J.A.C. 13:69F-1.4(b))")


def test_check_reports_every_malformed_value_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('rules = "nj-13-69f"\ncolour = 1\n[options]\nvig = "abc"\nunit = "x"\n'
                   '[pays]\n"field:12" = "x"\n')
    worse = tmp_path / "worse.json"
    worse.write_text('{"rules": "nj-nowhere", "wagers": "pass"}')
    code, out, err = run(["check", str(bad), HOUSE, str(worse)], capsys)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert all(line.startswith("croupier check: ") for line in lines)
    places = [line.split(": ")[1:3] for line in lines]
    assert places == [["bad.toml", "colour"], ["bad.toml", "pays.field:12"],
                      ["bad.toml", "options.vig"], ["bad.toml", "options.unit"],
                      ["worse.json", "rules"], ["worse.json", "wagers"]]


def test_wager_reference_doc_matches_a_fresh_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["wagers", "--markdown"], capsys)
    assert code == 0
    assert (ROOT / "docs" / "wagers.md").read_text(encoding="utf-8") == out, \
        "docs/wagers.md is stale: regenerate it with croupier wagers --markdown > docs/wagers.md"


def test_wager_reference_covers_every_definition(capsys: pytest.CaptureFixture[str]) -> None:
    from croupier.craps.wagers import WAGERS as CRAPS
    from croupier.roulette.wagers import WAGERS as ROULETTE

    code, out, _ = run(["wagers", "--json"], capsys)
    ref = json.loads(out)
    assert code == 0
    assert [w["id"] for w in ref["craps"]] == list(CRAPS)
    assert [w["id"] for w in ref["roulette"]] == list(ROULETTE)
    fire = next(w for w in ref["craps"] if w["id"] == "fire")
    assert fire["pay_keys"] == ["fire:4", "fire:5", "fire:6"]
    assert set(fire["profiles"]) == {"nj-13-69f"} and "craps only" in fire["profiles"]["nj-13-69f"]


_FLAWS: dict[str, tuple[str, object]] = {
    # place reported -> (where the flaw goes, the bad value)
    "colour": ("top", 1),
    "options.vig": ("options", "abc"),
    "options.unit": ("options", "x"),
    "options.odds": ("options", "lots"),
    "pays.field:12": ("pays", "x"),
    "pays.hard:6": ("pays", 9),
}


@settings(max_examples=40, deadline=None)
@given(st.sets(st.sampled_from(sorted(_FLAWS))))
def test_check_names_exactly_the_flaws_a_proposal_has(flaws: set[str]) -> None:
    from croupier.analysis.compliance import Problems, check_documents

    doc: dict[str, Any] = {"rules": "nj-13-69f", "options": {"vig": "0.04"},
                           "pays": {"field:2": "3 to 1"}}
    for place in flaws:
        where, value = _FLAWS[place]
        key = place.split(".", 1)[-1]
        target = doc if where == "top" else doc[where]
        target[key] = value
    try:
        check_documents([("t.toml", doc)])
    except Problems as exc:
        reported = {p.where.removeprefix("t.toml: ") for p in exc.problems}
    else:
        reported = set()
    assert reported == flaws
