"""The generated documents match a fresh run (CI runs this: a stale document fails it), and
the matrices hold what they promise."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from croupier.analysis import jurisdictions
from croupier.analysis.evidence import readings
from croupier.analysis.jurisdictions import cell, matrix
from croupier.analysis.regtext import clause_ids, default_regulations, load_clauses, profile_of
from croupier.analysis.trace import STATUSES, build_trace, render_markdown
from croupier.rules.citations import CONTRACT

DOCS = Path(__file__).resolve().parents[2] / "docs"
CLAUSES = {c.id for c in load_clauses(default_regulations())}
REGENERATE = "regenerate it: croupier {} > docs/{}"


def test_traceability_doc_is_a_fresh_run() -> None:
    fresh = render_markdown(build_trace())
    assert (DOCS / "traceability.md").read_text("utf-8") == fresh, REGENERATE.format(
        "trace --markdown", "traceability.md")


def test_jurisdictions_doc_is_a_fresh_run() -> None:
    fresh = jurisdictions.render_markdown(matrix())
    assert (DOCS / "jurisdictions.md").read_text("utf-8") == fresh, REGENERATE.format(
        "rules --compare --markdown", "jurisdictions.md")


def test_trace_json_rows_have_the_six_keys_and_a_known_status() -> None:
    rows = build_trace().to_json()
    assert len([r for r in rows if r["clause"].startswith("N.J.A.C.")]) == 238
    for row in rows:
        assert set(row) == {"clause", "text", "status", "code", "tests", "note"}
        assert row["status"] in STATUSES
        if row["status"] in ("interpretation", "physical", "partial", "missing"):
            assert row["note"], f"{row['clause']} is {row['status']} without a note"
        if row["status"] == "interpretation":
            assert "reading: " in row["note"] or "items: " in row["note"], row["clause"]
        if row["status"] == "physical":
            assert "record: " in row["note"] or "items: " in row["note"], row["clause"]
        if row["status"] == "tested":
            assert row["tests"] or row["note"].startswith("items: "), row["clause"]


def test_every_marker_and_reading_names_a_clause_of_the_texts() -> None:
    trace = build_trace()
    assert trace.unknown == {}, f"cited but not in the texts: {trace.unknown}"


def test_code_annotations_name_real_code() -> None:
    package = Path(__file__).resolve().parents[2] / "src" / "croupier"
    for clause, entry in readings().items():
        for where in entry.get("code", []):
            path, _, symbol = where.partition(" ")
            text = (package / path).read_text("utf-8")
            assert any(f"{kind}{symbol}" in text for kind in ("def ", "class ", "")), where
            assert f"def {symbol}" in text or f"class {symbol}" in text or (
                f"{symbol} =" in text or f"{symbol}: " in text), f"{clause}: {where}"


def test_headings_take_their_status_from_their_items() -> None:
    trace = build_trace()
    dice = trace.row("13:47-20.25(b)2")
    assert {trace.row(f"13:47-20.25(b)2{i}").status for i in ("ii", "ix")} == {"physical"}
    assert trace.row("13:47-20.25(b)2i").status == "tested"
    assert dice.status == "tested" and dice.note.startswith("items: ")  # tested or physical
    # (i)1's notice is posted (rules/posted.py), so (i) is tested; 1.5's (a), commission
    # timing bet by bet, is tested now, and so is the heading.
    assert trace.row("13:47-20.32(i)").status == "tested"
    assert trace.row("13:69F-1.5(a)").status == "tested"
    assert trace.row("13:69F-1.5").status == "tested"
    assert trace.row("13:69F-1.5").note.startswith("items: 2 tested")


def test_equivalent_clauses_of_other_profiles_are_linked() -> None:
    trace = build_trace()
    assert {"19:47-1.2(a)1", "13:69F-1.2(a)1"} <= set(trace.row("13:47-20.25(h)1i").same_as)
    assert "13:47-20.25(h)1vii" in trace.row("19:47-1.2(a)7").same_as
    assert "13:69F-1.4(c)" in trace.row("19:47-1.4(c)").same_as


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5", "N.J.A.C. 13:69F-1.3(e)",
                    "N.J.A.C. 13:47-20.32(e)1i", "N.J.A.C. 13:47-20.32(e)15")
def test_item_7_readings_are_listed_as_interpretations() -> None:
    trace = build_trace()
    for clause in ("13:47-20.25(h)1v", "19:47-1.2(a)5", "13:69F-1.3(e)", "13:47-20.32(e)1i",
                   "13:47-20.32(e)15"):
        row = trace.row(clause)
        assert row.status == "interpretation", clause
        assert "reading: " in row.full_note
    assert "place bets to lose" in trace.row("13:47-20.25(h)1v").full_note
    assert '"off"' in trace.row("13:69F-1.3(e)").full_note
    # each reading names the option taking the other one, or the contract that pins it
    for clause in ("13:47-20.25(h)1v", "19:47-1.2(a)5"):
        assert "place_lose_off_on_come_out" in trace.row(clause).full_note, clause
    for clause in ("13:47-20.32(e)1i", "13:47-20.32(e)15"):
        assert "approved_layout" in trace.row(clause).full_note, clause
    assert '("On and off")' in trace.row("13:69F-1.3(e)").full_note
    # the approved layout the readings point at is enforced and tested, no longer missing
    for clause in ("13:47-20.32(e)1ii", "13:47-20.32(e)15i"):
        assert trace.row(clause).status == "tested", clause


def test_every_matrix_cell_rests_on_its_own_profiles_text_or_a_listed_reading() -> None:
    cells = matrix()
    assert len(cells) > 300
    notes = readings()
    for c in cells:
        if c.basis == "-":
            continue
        assert c.basis in ("text", "contract", "interpretation"), c
        if c.basis == "contract":
            assert c.clause.startswith(CONTRACT) and c.clause in notes, c
            continue
        ids = clause_ids(c.clause)
        assert ids and all(i in CLAUSES and profile_of(i) == c.profile for i in ids), c
        if c.basis == "interpretation":
            entry = notes.get(ids[0], {})
            said = " ".join(str(entry.get(k, "")) for k in ("reading", "note"))
            # a table rule's reading is its note; a wager's is written under the clause
            assert entry.get("status") == "interpretation" or "reading" in said or (
                c.wager == "(table)" and c.note), c


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(b)",
                    "N.J.A.C. 13:69F-1.5(b)", "N.J.A.C. 13:47-20.25(k)")
def test_matrix_cells_agree_with_the_profiles() -> None:
    cells = matrix()
    assert cell(cells, "place_win", "nj-casino-night", "come-out").value == "off unless called on"
    assert cell(cells, "hard", "nj-13-69f", "come-out").value == "off unless called on"
    assert cell(cells, "hard", "nj-19-47", "come-out").value == "on"
    assert cell(cells, "buy", "nj-19-47", "permitted").value == "no"
    lay69, laycn = (cell(cells, "lay", p, "commission").value for p in ("nj-13-69f", "nj-casino-night"))
    assert "of the stake" in lay69 and "on winning bets only" in lay69
    assert "what the bet could win" in laycn and "win" not in laycn.split(",")[1]
    assert cell(cells, "pass", "nj-13-69f", "free odds").basis == "contract"
    assert "9 to 5 on 4, 10" in cell(cells, "place_win", "nj-19-47", "minimum pay").value


def test_rules_command_prints_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="croupier")
    jurisdictions.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["rules", "--compare", "--json"])
    assert args.func(args) == 0
    cells = json.loads(capsys.readouterr().out)
    assert {"wager", "profile", "attribute", "value", "basis", "clause", "note"} == set(cells[0])
    args = parser.parse_args(["rules"])
    assert args.func(args) == 0
    assert "nj-13-69f" in capsys.readouterr().out
