"""The regulation texts the package ships: every clause number of the sources survives, and
the cleaned 13:69F transcription differs from its source only in whitespace and the repairs
its header lists."""

from __future__ import annotations

import re
from pathlib import Path

from croupier.analysis.regtext import default_regulations, load_clauses

DATA = Path(__file__).parent / "data"
LOST = "[text lost in the transcription]"

# The repairs the cleaned text's header lists, as (source, cleaned) with whitespace removed:
# item numbers the transcription lost, and two sentence halves printed out of order.
REPAIRS = [
    ("10isThePassBetshalllose", "10isii.ThePassBetshalllose"),  # 13:69F-1.2(a)1ii
    ("isthrown;yappears", "isthrown;(2)yappears"),  # 13:69F-1.2(a)1ii(2)
    ("Makingandremovalofowever", "Makingandremovalof(a)owever"),  # 13:69F-1.3(a)
    ("suchbet;datanytime", "suchbet;2.datanytime"),  # 13:69F-1.3(c)2
    ("collectwinningbets.thepercentageoftheamountwageredonlyonAcasino",
     "collectthepercentageoftheamountwageredonlyonwinningbets.Acasino"),  # 13:69F-1.5(a)
    ("4toWin2to1(b)5toWin", "4toWin2to15toWin"),  # 13:69F-1.5(b): its number moved...
    ("10toWin2to1Laybets:", "10toWin2to1(b)Laybets:"),  # ... to where lay bets begin
]


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_every_clause_number_of_the_sources_survives() -> None:
    expected = [line for line in (DATA / "source-clauses.txt").read_text("utf-8").splitlines()
                if line and not line.startswith("#")]
    assert len(expected) == 238
    parsed = [c.id for c in load_clauses(default_regulations())]
    assert sorted(parsed) == sorted(expected)
    assert "13:69F-1.3(c)2" in parsed and "13:69F-1.2(b)" in parsed


def test_cleaned_13_69f_changes_only_whitespace_and_the_listed_repairs() -> None:
    source = (DATA / "njac-13-69f-2011-proposal-transcription.txt").read_text("utf-8")
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if "CHAPTER 69F" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("card joker poker"))
    body = "".join(re.sub(r"^- \d+ -?", "", line) for line in lines[start:end])
    want = _squeeze(body)
    for before, after in REPAIRS:
        assert want.count(before) == 1, before
        want = want.replace(before, after)
    cleaned = next(p for p in default_regulations().glob("*13-69f*.txt")).read_text("utf-8")
    got = _squeeze(cleaned[cleaned.index("CHAPTER 69F"):].replace(LOST, ""))
    assert got == want


def test_cleaned_13_69f_has_one_item_a_line() -> None:
    """No subsection or paragraph marker is left inside another clause's line."""
    text = next(p for p in default_regulations().glob("*13-69f*.txt")).read_text("utf-8")
    body = text[text.index("CHAPTER 69F"):]
    assert not re.search(r"[a-z.;][ \t]*\([b-f]\) [A-Z]", body)
    assert not re.search(r"[a-z]{3}[A-Z][a-z]", body), "words still run together"
    for clause in load_clauses(default_regulations()):
        if clause.id.startswith("13:69F"):
            assert not re.search(r"[;.:]\s*\d{1,2}\. [\"“A-Z]", clause.text), clause.id
