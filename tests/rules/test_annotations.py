"""Each clause's annotation lives in one file: the readings croupier chose in
``rules/readings.toml``, the live server's records in ``rules/records.toml``, never both; the
trace reads them together and still finds every record."""

from __future__ import annotations

import pytest

from croupier.analysis.trace import build_trace
from croupier.rules import citations
from croupier.rules.citations import load_annotations, load_readings, load_records


def test_no_clause_is_annotated_in_both_files() -> None:
    readings = set(load_readings()["clauses"])
    records = set(load_records()["clauses"])
    assert readings & records == set()
    assert set(load_annotations()) == readings | records


def test_a_clause_annotated_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    twice = {"clauses": {"replay contract: Removal": {"status": "physical", "record": "x"}}}
    monkeypatch.setattr(citations, "load_records", lambda: twice)
    with pytest.raises(ValueError, match=r"replay contract: Removal"):
        load_annotations()


@pytest.mark.clause("N.J.A.C. 13:47-20.25(b)1", "N.J.A.C. 13:47-20.25(e)2",
                    "N.J.A.C. 13:47-20.25(e)5")
@pytest.mark.parametrize(("clause", "names"), [
    ("13:47-20.25(b)1", "the equipment register"),
    ("13:47-20.25(e)2", "chain of custody"),
    ("13:47-20.25(e)5", "recorded returned"),
])
def test_the_trace_names_the_record_serving_each_physical_clause(clause: str, names: str) -> None:
    row = build_trace().row(clause)
    assert row.status == "physical"
    assert row.note.startswith("record: ") and names in row.note


@pytest.mark.parametrize("clause", ["13:47-20.25(i)2", "13:69F-1.4(b)", "19:47-1.4(b)"])
def test_the_trace_names_the_pay_table_schedule(clause: str) -> None:
    note = build_trace().row(clause).note
    assert "a second person's approval" in note and "service/paytable_changes.py" in note
    # The reading it replaced ("not built yet") is gone with its file's copy.
    assert "not built yet" not in note
