"""Regulation traceability: every numbered clause of the regulation texts with the evidence
that croupier does what it says.

Statuses (``STATUSES``):

* **tested**: a test marked ``@pytest.mark.clause(...)`` for the clause exercises it;
* **implemented**: the code that implements it is known (a rule profile's clause data, a
  wager's definition, or an explicit annotation in ``rules/readings.toml``), no test names it;
* **partial**: implemented in part; the note says what is not;
* **interpretation**: the text leaves a choice or is silent; the note gives the reading chosen;
* **physical**: equipment or a staff duty; the note names the record or procedure serving it;
* **missing**: nothing serves it; the note says why.

A clause with items (a heading) takes its status from its items (and from its own tests or
declared status, if it has any): one status if they agree, ``partial`` when any is missing or
partial, otherwise the weakest of implemented, tested. Equivalent clauses of the other
profiles (the same wager or the same profile setting) are named in the note. Readings of the
replay contract, cited where no clause says a thing, are listed after the clauses
(``replay contract: ...``).

>>> trace = build_trace()
>>> len([r for r in trace.rows if not r.clause.id.startswith("replay")])
238
>>> row = trace.row("13:69F-1.2(a)1")
>>> row.status, "rules/nj-13-69f.toml craps.wagers.pass" in row.code
('tested', True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from croupier.analysis.evidence import (
    citations_by_duty,
    marker_refs,
    profile_citations,
    readings,
)
from croupier.analysis.regtext import (
    Clause,
    ancestors,
    children,
    clause_ids,
    default_regulations,
    load_clauses,
    parse_lines,
)
from croupier.rules.citations import CONTRACT

__all__ = ["STATUSES", "Trace", "TraceRow", "build_trace", "clause_ids", "default_regulations",
           "marker_refs", "parse_lines", "render_markdown", "render_text"]

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[1]
STATUSES = ("tested", "implemented", "partial", "interpretation", "physical", "missing")
_DECLARED = ("partial", "interpretation", "physical", "missing")


@dataclass
class TraceRow:
    clause: Clause
    status: str = "missing"
    code: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    note: str = ""
    same_as: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        name = self.clause.id if self.clause.id.startswith(CONTRACT) else f"N.J.A.C. {self.clause.id}"
        return {"clause": name, "text": " ".join(self.clause.text.split()),
                "status": self.status, "code": self.code, "tests": self.tests,
                "note": self.full_note}

    @property
    def full_note(self) -> str:
        parts = [self.note] if self.note else []
        if self.same_as:
            parts.append("same rule as " + ", ".join(f"N.J.A.C. {c}" for c in self.same_as))
        return "; ".join(parts)


@dataclass
class Trace:
    rows: list[TraceRow]
    unknown: dict[str, list[str]]  # cited (by a profile or a test) but not in the texts

    def row(self, clause: str) -> TraceRow:
        return next(r for r in self.rows if r.clause.id == clause)

    def to_json(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.rows]

    def counts(self) -> dict[str, Counter[str]]:
        """Status counts per text (and ``all``), contract readings left out."""
        out: dict[str, Counter[str]] = {"all": Counter()}
        for r in self.rows:
            if r.clause.id.startswith(CONTRACT):
                continue
            out.setdefault(r.clause.source, Counter())[r.status] += 1
            out["all"][r.status] += 1
        return out


def _attach(rows: dict[str, TraceRow], clause: str, where: str, code: bool,
            unknown: dict[str, list[str]]) -> None:
    row = rows.get(clause) if clause.startswith(CONTRACT) else next(
        (rows[a] for a in ancestors(clause) if a in rows), None)
    if row is None:
        unknown.setdefault(clause, []).append(where)
        return
    target = row.code if code else row.tests
    if where not in target:
        target.append(where)


def _profile_evidence(rows: dict[str, TraceRow], unknown: dict[str, list[str]]) -> None:
    """Each clause a profile names is implemented by that profile key; a wager's clause also
    by the wager's definition, and the items of its definition along with it. A clause a
    refusal cites by duty (``readings.toml`` citations) is implemented by that citation."""
    for pid, key, citation in profile_citations():
        ids = [citation] if citation.startswith(CONTRACT) else clause_ids(citation)
        for clause in ids:
            _attach(rows, clause, f"rules/{pid}.toml {key}", True, unknown)
            game, _, rest = key.partition(".")
            if rest.startswith("wagers."):
                wager = rest.removeprefix("wagers.")
                _attach(rows, clause, f"{game}/wagers.py WAGERS[{wager!r}]", True, unknown)
    for pid, duties in citations_by_duty().items():
        for duty, citation in duties.items():
            ids = [citation] if citation.startswith(CONTRACT) else clause_ids(citation)
            for clause in ids:
                _attach(rows, clause, f"rules/readings.toml citations.{pid}.{duty}", True, unknown)


def _links() -> dict[str, set[str]]:
    """Clause -> equivalent clauses of other profiles: the same wager or the same setting."""
    by_key: dict[str, list[tuple[str, list[str]]]] = {}
    for pid, key, citation in profile_citations():
        if not citation.startswith(CONTRACT):
            by_key.setdefault(key, []).append((pid, clause_ids(citation)))
    links: dict[str, set[str]] = {}
    for group in by_key.values():
        for pid, ids in group:
            for other_pid, other in group:
                if other_pid == pid:
                    continue
                pairs = zip(ids, other, strict=True) if len(ids) == len(other) else (
                    (a, b) for a in ids for b in other)
                for a, b in pairs:
                    links.setdefault(a, set()).add(b)
    for clause, entry in readings().items():
        for other in entry.get("same_as", []):
            links.setdefault(clause, set()).add(other)
            links.setdefault(other, set()).add(clause)
    return links


def _own_status(row: TraceRow, entry: dict[str, Any] | None, heading: bool) -> str | None:
    """The status the clause's own evidence gives (None: it has none of its own). A heading's
    own code counts only with a test: its substance is its items."""
    if entry is not None and entry.get("status") in _DECLARED:
        return str(entry["status"])
    if row.tests:
        return "tested"
    if row.code and not heading:
        return "implemented"
    return None


def _combine(statuses: list[str]) -> str:
    kinds = set(statuses)
    if len(kinds) == 1:
        return statuses[0]
    if kinds & {"missing", "partial"}:
        return "partial"
    if "implemented" in kinds:
        return "implemented"
    return "tested" if "tested" in kinds else sorted(kinds)[0]


def _derive(rows: dict[str, TraceRow], items: dict[str, list[str]],
            notes: dict[str, dict[str, Any]]) -> None:
    """Give every row its status: leaves from their evidence, headings from their items."""
    done: set[str] = set()

    def visit(cid: str) -> str:
        row = rows[cid]
        if cid in done:
            return row.status
        entry = notes.get(cid)
        kids = [visit(k) for k in items.get(cid, [])]
        own = _own_status(row, entry, bool(kids))
        if kids and not (entry is not None and entry.get("status") in _DECLARED):
            row.status = _combine(kids + ([own] if own else []))
            tally = Counter(kids)
            row.note = row.note or "items: " + ", ".join(
                f"{n} {s}" for s, n in sorted(tally.items(), key=lambda x: STATUSES.index(x[0])))
        else:
            row.status = own or "missing"
        done.add(cid)
        return row.status

    for cid in rows:
        visit(cid)


def _apply_readings(rows: dict[str, TraceRow], notes: dict[str, dict[str, Any]],
                    unknown: dict[str, list[str]]) -> None:
    for cid, entry in notes.items():
        row = rows.get(cid)
        if row is None:
            unknown.setdefault(cid, []).append("rules/readings.toml or rules/records.toml")
            continue
        for where in entry.get("code", []):
            if where not in row.code:
                row.code.append(where)
        parts = []
        for key in ("reading", "record"):
            if entry.get(key):
                parts.append(f"{key}: {entry[key]}")
        if entry.get("note"):
            parts.append(str(entry["note"]))
        row.note = "; ".join(parts)


def build_trace(regulations: Path | None = None, tests: Path = ROOT / "tests") -> Trace:
    """Every clause of the texts (and every contract reading) with its evidence and status."""
    clauses = load_clauses(regulations or default_regulations())
    notes = readings()
    contract = [Clause(cid, str(e.get("reading", "")), "replay contract")
                for cid, e in notes.items() if cid.startswith(CONTRACT)]
    rows = {c.id: TraceRow(c) for c in [*clauses, *contract]}
    unknown: dict[str, list[str]] = {}
    _profile_evidence(rows, unknown)
    _apply_readings(rows, notes, unknown)
    if tests.is_dir():
        for clause, test in marker_refs(tests):
            _attach(rows, clause, test, False, unknown)
    items = children(clauses)
    _inherit_definitions(rows, items)
    _derive(rows, items, notes)
    links = _links()
    for cid, row in rows.items():
        row.same_as = sorted(c for c in links.get(cid, set()) if c in rows and c != cid)
    return Trace(list(rows.values()), unknown)


def _inherit_definitions(rows: dict[str, TraceRow], items: dict[str, list[str]]) -> None:
    """An item of a wager's definition (when the pass bet wins) is implemented by that
    wager's definition: say so, naming the clause it comes from."""
    for cid, kids in items.items():
        defs = [c for c in rows[cid].code if "wagers.py" in c]
        for kid in kids:
            if defs and not rows[kid].code:
                rows[kid].code = [f"{c} (part of N.J.A.C. {cid})" for c in defs]


# --- output ----------------------------------------------------------------------------------


def summary_lines(trace: Trace) -> list[str]:
    """The status counts, in all and per text, as Markdown table rows."""
    counts = trace.counts()
    lines = ["| text | " + " | ".join(STATUSES) + " | clauses |",
             "| --- |" + " --- |" * (len(STATUSES) + 1)]
    for source, tally in sorted(counts.items(), key=lambda x: (x[0] == "all", x[0])):
        cells = [str(tally.get(s, 0)) for s in STATUSES]
        lines.append(f"| {source} | " + " | ".join(cells) + f" | {sum(tally.values())} |")
    return lines


def _tests_cell(tests: list[str]) -> str:
    if not tests:
        return "-"
    shown = "<br>".join(f"`{t}`" for t in tests[:3])
    return shown + (f"<br>and {len(tests) - 3} more" if len(tests) > 3 else "")


def render_markdown(trace: Trace) -> str:
    """The traceability matrix as Markdown (``docs/traceability.md`` is this output)."""
    lines = [
        "# Regulation traceability",
        "",
        "Generated by `croupier trace --markdown`; do not edit by hand (a test fails when this",
        "file differs from a fresh run). Each numbered clause of the regulation texts shipped in",
        "`src/croupier/rules/texts/`, its status and evidence: the code that implements it (rule",
        "profiles' clause data, wager definitions, annotations in `src/croupier/rules/readings.toml`",
        "and `records.toml`) and the tests marked `@pytest.mark.clause(...)` that exercise it.",
        "Statuses: tested, implemented (no test), partial, interpretation (the reading chosen),",
        "physical (the record or procedure serving it), missing. A clause with items takes its",
        "status from them.",
        "`croupier trace --json` gives every test; this page shows three per clause.",
        "",
        *summary_lines(trace),
        *_readings_section(trace),
    ]
    source = None
    for row in trace.rows:
        if row.clause.source != source:
            source = row.clause.source
            lines += ["", f"## {source}", "",
                      "| clause | rule | status | implemented by | tested by | note |",
                      "| --- | --- | --- | --- | --- | --- |"]
        name = row.clause.id if source == "replay contract" else f"N.J.A.C. {row.clause.id}"
        cells = [name, _cell(row.clause.summary), f"**{row.status}**",
                 "<br>".join(_cell(c) for c in row.code) or "-", _tests_cell(row.tests),
                 _cell(row.full_note) or "-"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _readings_section(trace: Trace) -> list[str]:
    """Every reading croupier chose, in one place: where a text leaves a choice or is silent."""
    lines = ["", "## Readings chosen", "",
             "Where a text leaves a choice or says nothing, croupier reads it as follows (each",
             "is an option with its default or a refusal; the clause rows below repeat them).", ""]
    for row in trace.rows:
        if row.status == "interpretation" or "reading: " in row.note:
            name = row.to_json()["clause"]
            reading = row.note.split("reading: ", 1)[-1] if "reading: " in row.note else row.note
            lines.append(f"- **{name}**: {' '.join(reading.split())}")
    return lines


def render_text(trace: Trace) -> str:
    """A plain listing: one clause per block, then the counts."""
    out = []
    for row in trace.rows:
        out.append(f"{row.to_json()['clause']}  [{row.status}]  {row.clause.summary}")
        out.extend(f"    code: {c}" for c in row.code)
        out.extend(f"    test: {t}" for t in row.tests)
        if row.full_note:
            out.append(f"    note: {row.full_note}")
    for source, tally in trace.counts().items():
        out.append(f"{source}: " + ", ".join(f"{tally.get(s, 0)} {s}" for s in STATUSES))
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")
