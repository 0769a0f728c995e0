"""Regulation traceability: every numbered clause of the regulation texts, the code that
implements it and the tests that check it, all read from the sources themselves.

* **Clauses** are parsed from the four texts (N.J.A.C. 13:47-20.25, 13:47-20.32, 19:47-1.2/1.4
  and the 13:69F-1 proposal): subsections ``(a)``, paragraphs ``1.`` and, where the text is
  clean enough, roman items ``i.``. The sub-items ``(1)``, ``(A)`` belong to their item.
* **Code** is what cites a clause: the rule profiles (every string naming a clause in
  ``rules/*.toml``: a wager's clause, ``removal_clause``, ``pays_clause``, ...; a permitted
  wager also names its definition in ``craps/wagers.py`` or ``roulette/wagers.py``) and every
  docstring or string constant of the package that names a clause.
* **Tests** are those marked ``@pytest.mark.clause("N.J.A.C. ...")`` (on the test, its class, or
  the module's ``pytestmark``), read by parsing the test files, never by running them.

Clauses that nothing implements are listed as such.

>>> clause_ids("N.J.A.C. 13:69F-1.2(a)7-10")
['13:69F-1.2(a)7', '13:69F-1.2(a)8', '13:69F-1.2(a)9', '13:69F-1.2(a)10']
>>> clause_ids("13:47-20.25(h)1vii-x")[-1], clause_ids("see 20.32(g)")
('13:47-20.25(h)1x', ['13:47-20.32(g)'])
"""

from __future__ import annotations

import ast
import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parents[1]


def default_regulations() -> Path:
    """``$CROUPIER_REGULATIONS``, else the regulation texts shipped with the package."""
    env = os.environ.get("CROUPIER_REGULATIONS")
    return Path(env) if env else PACKAGE / "rules" / "texts"


# --- clause references in free text ---------------------------------------------------------

_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9,
          "x": 10, "xi": 11, "xii": 12, "xiii": 13, "xiv": 14, "xv": 15, "xvi": 16,
          "xvii": 17, "xviii": 18, "xix": 19, "xx": 20}
_TO_ROMAN = {v: k for k, v in _ROMAN.items()}
_REF = re.compile(
    r"(?:N\.J\.A\.C\.\s*)?(?P<section>\d{2}:\d{2}[A-Z]?-\d+\.\d+|(?<![\d.:-])20\.(?:25|32))"
    r"(?P<rest>(?:\([a-zA-Z0-9]{1,4}\)|\d+|(?<=[\d)])[ivx]+)*)(?:-(?P<upto>\d+|[ivx]+)\b)?")
_TOKEN = re.compile(r"\([a-zA-Z0-9]{1,4}\)|\d+|[ivx]+")


def clause_ids(text: str) -> list[str]:
    """Every clause ``text`` names, ranges expanded, in the canonical form ``13:69F-1.2(a)1``."""
    out: list[str] = []
    for m in _REF.finditer(text):
        section = m.group("section")
        if section.startswith("20."):
            section = "13:47-" + section
        rest, upto = m.group("rest"), m.group("upto")
        tokens = _TOKEN.findall(rest)
        if upto and tokens and (tokens[-1].isdigit() == upto.isdigit()):
            last = tokens[-1]
            if last.isdigit():
                items = [str(n) for n in range(int(last), int(upto) + 1)]
            elif last in _ROMAN and upto in _ROMAN:
                items = [_TO_ROMAN[n] for n in range(_ROMAN[last], _ROMAN[upto] + 1)]
            else:
                items = [last]
            out.extend(section + "".join(tokens[:-1]) + item for item in items)
        else:
            out.append(section + "".join(tokens))
    return out


def ancestors(clause: str) -> Iterator[str]:
    """``clause`` and each clause above it: ``...(h)1vii``, ``...(h)1``, ``...(h)``, section."""
    m = re.match(r"(\d{2}:\d{2}[A-Z]?-\d+\.\d+)(.*)$", clause)
    if not m:
        yield clause
        return
    tokens = _TOKEN.findall(m.group(2))
    for k in range(len(tokens), -1, -1):
        yield m.group(1) + "".join(tokens[:k])


# --- clauses from the regulation texts -------------------------------------------------------


@dataclass
class Clause:
    id: str
    text: str
    source: str

    @property
    def summary(self) -> str:
        words = " ".join(self.text.split())
        return words if len(words) <= 90 else words[:87].rstrip() + "..."


_L1 = re.compile(r"^\(([a-z])\)\s*(.*)$")
_L2 = re.compile(r"^(\d+)\.\s+(.*)$")
_L3 = re.compile(r"^([ivx]+)\.\s+(.*)$")
_SECTION_LINE = re.compile(r"^(?:.*§\s*|Section\s+)?(\d{2}:\d{2}-\d+\.\d+)\b")


def parse_lines(text: str, source: str) -> list[Clause]:
    """A text with one item per line: ``(a)``, ``1.``, ``i.`` open clauses; ``(1)``, ``(A)``
    and other lines continue the current one."""
    clauses: list[Clause] = []
    section = ""
    path: list[str] = []
    current: Clause | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _SECTION_LINE.match(line)
        if m and (not section or m.group(1) != section) and not line.startswith("("):
            section, path = m.group(1), []
            current = Clause(section, line, source)
            clauses.append(current)
            continue
        if not section:
            continue
        for level, pattern in ((0, _L1), (1, _L2), (2, _L3)):
            m = pattern.match(line)
            if m and (level == 0 or len(path) >= level):
                token = f"({m.group(1)})" if level == 0 else m.group(1)
                path = [*path[:level], token]
                current = Clause(section + "".join(path), m.group(2), source)
                clauses.append(current)
                break
        else:
            if current is not None:
                current.text += " " + line
    return clauses


def _find_sequence(text: str, make: Any, start: int = 1) -> list[tuple[int, int, str]]:
    """Positions of the markers ``make(1)``, ``make(2)``, ... found in order."""
    found: list[tuple[int, int, str]] = []
    pos, n = 0, start
    while True:
        m = make(n).search(text, pos)
        if not m:
            return found
        found.append((m.start(), m.end(), str(n)))
        pos, n = m.end(), n + 1


def parse_run_on(text: str, source: str, chapter: str) -> list[Clause]:
    """A transcription with the line breaks lost (the 13:69F proposal): sections by heading,
    subsections ``(a)`` and paragraphs ``1.`` by looking for each marker in turn. Body text
    before the first marker of a section that starts at ``(b)`` is its ``(a)``."""
    body_at = text.find("Full text of the proposed new rules follows")
    text = text[max(body_at, 0):]
    heads: list[tuple[int, int, str]] = []
    pos, n = 0, 1
    while True:
        m = re.compile(re.escape(chapter) + rf"\.{n}\s*[A-Z]").search(text, pos)
        if not m:
            break
        heads.append((m.start(), m.end() - 1, f"{chapter}.{n}"))
        pos, n = m.end(), n + 1
    clauses: list[Clause] = []
    for i, (start, body, section) in enumerate(heads):
        end = heads[i + 1][0] if i + 1 < len(heads) else len(text)
        chunk = text[body:end]
        letters: list[tuple[int, int, str]] = []
        pos = 0
        for k, letter in enumerate("abcdefghijklmnopqrstuvwxyz"):
            m = re.compile(rf"(?<!\d)\({letter}\)").search(chunk, pos)
            if not m:
                if k == 0:
                    continue  # (a) lost in the transcription: see below
                break
            letters.append((m.start(), m.end(), letter))
            pos = m.end()
        if letters and letters[0][2] == "b":
            letters.insert(0, (0, 0, "a"))
        title = text[start:body] + chunk[: letters[0][0]] if letters else text[start:end]
        clauses.append(Clause(section, title, source))
        for j, (_s, e, letter) in enumerate(letters):
            stop = letters[j + 1][0] if j + 1 < len(letters) else len(chunk)
            sub = chunk[e:stop]
            items = _find_sequence(
                sub, lambda n: re.compile(rf"(?<!\d){n}\.(?=\s*(?:[\"“”]|[A-Z]))"))
            head = sub[: items[0][0]] if items else sub
            clauses.append(Clause(f"{section}({letter})", head, source))
            for k, (_is, ie, num) in enumerate(items):
                istop = items[k + 1][0] if k + 1 < len(items) else len(sub)
                clauses.append(Clause(f"{section}({letter}){num}", sub[ie:istop], source))
    return clauses


def load_clauses(directory: Path) -> list[Clause]:
    """Every numbered clause of the regulation texts in ``directory``, in reading order."""
    clauses: list[Clause] = []
    for path in sorted(directory.glob("*.txt")):
        text = path.read_text("utf-8")
        m = re.search(r"CHAPTER\s*69F", text)
        if m:
            clauses.extend(parse_run_on(text, path.name, "13:69F-1"))
        else:
            clauses.extend(parse_lines(text, path.name))
    seen: set[str] = set()
    unique = []
    for c in clauses:
        if c.id not in seen:
            seen.add(c.id)
            unique.append(c)
    return unique


# --- code and tests that cite clauses --------------------------------------------------------


def _walk_toml(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk_toml(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, str) and "N.J.A.C." in value:
        yield where, value


def profile_refs(rules_dir: Path = PACKAGE / "rules") -> list[tuple[str, str]]:
    """``(clause, where)`` for every clause a rule profile names."""
    out: list[tuple[str, str]] = []
    for path in sorted(rules_dir.glob("*.toml")):
        raw = tomllib.loads(path.read_text("utf-8"))
        for where, text in _walk_toml(raw, ""):
            for clause in clause_ids(text):
                out.append((clause, f"rules/{path.name} `{where}`"))
                game, _, rest = where.partition(".")
                if rest.startswith("wagers."):
                    wager = rest.removeprefix("wagers.")
                    out.append((clause, f"{game}/wagers.py `WAGERS[{wager!r}]`"))
    return out


class _Strings(ast.NodeVisitor):
    def __init__(self, module: str) -> None:
        self.scope = [module]
        self.found: list[tuple[str, str]] = []

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            where = self.scope[0] + (f" `{'.'.join(self.scope[1:])}`" if len(self.scope) > 1
                                     else "")
            self.found.extend((clause, where) for clause in clause_ids(node.value))


def code_refs(package: Path = PACKAGE) -> list[tuple[str, str]]:
    """``(clause, where)`` for every docstring or string constant of the package naming a clause."""
    out: list[tuple[str, str]] = []
    for path in sorted(package.rglob("*.py")):
        if path.parent.name == "analysis" and path.name in ("trace.py", "commands.py"):
            continue  # they describe clauses; they implement none
        visitor = _Strings(path.relative_to(package).as_posix())
        visitor.visit(ast.parse(path.read_text("utf-8")))
        out.extend(visitor.found)
    return out


def _marker_clauses(node: ast.AST) -> list[str]:
    """Clauses named by ``pytest.mark.clause(...)`` calls anywhere inside ``node``."""
    out: list[str] = []
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                and sub.func.attr == "clause" and isinstance(sub.func.value, ast.Attribute)
                and sub.func.value.attr == "mark"):
            for arg in sub.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.extend(clause_ids(arg.value))
    return out


def marker_refs(tests: Path = ROOT / "tests") -> list[tuple[str, str]]:
    """``(clause, test id)`` for every test carrying a ``clause`` marker (parsed, not run)."""
    out: list[tuple[str, str]] = []
    for path in sorted(tests.rglob("test_*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        rel = path.relative_to(tests.parent).as_posix()
        module_marks: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                module_marks.extend(_marker_clauses(node.value))
        for node, prefix, inherited in _tests_in(tree.body, rel, module_marks):
            marks = inherited + [c for d in node.decorator_list for c in _marker_clauses(d)]
            out.extend((clause, f"{prefix}::{node.name}") for clause in dict.fromkeys(marks))
    return out


def _tests_in(body: Iterable[ast.stmt], prefix: str, inherited: list[str],
              ) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, list[str]]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, prefix, inherited
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            marks = inherited + [c for d in node.decorator_list for c in _marker_clauses(d)]
            yield from _tests_in(node.body, f"{prefix}::{node.name}", marks)


# --- the table -------------------------------------------------------------------------------


@dataclass
class TraceRow:
    clause: Clause
    code: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        if not self.code:
            return "not implemented"
        return "implemented, tested" if self.tests else "implemented, no test"


@dataclass
class Trace:
    rows: list[TraceRow]
    unmatched: dict[str, list[str]]

    def to_json(self) -> dict[str, Any]:
        return {
            "clauses": [{"clause": "N.J.A.C. " + r.clause.id, "source": r.clause.source,
                         "text": r.clause.summary, "status": r.status, "code": r.code,
                         "tests": r.tests} for r in self.rows],
            "cited_but_not_in_texts": self.unmatched,
        }


def build_trace(regulations: Path | None = None, tests: Path = ROOT / "tests") -> Trace:
    """Match every clause of the texts with the code and the tests that cite it (a citation of
    a sub-item such as ``(h)1i(1)`` counts for the nearest listed clause)."""
    clauses = load_clauses(regulations or default_regulations())
    rows = {c.id: TraceRow(c) for c in clauses}
    unmatched: dict[str, list[str]] = {}

    def attach(refs: Iterable[tuple[str, str]], code: bool) -> None:
        for clause, where in refs:
            row = next((rows[a] for a in ancestors(clause) if a in rows), None)
            if row is None:
                unmatched.setdefault(clause, []).append(where)
                continue
            target = row.code if code else row.tests
            if where not in target:
                target.append(where)

    attach(profile_refs(), True)
    attach(code_refs(), True)
    if tests.is_dir():
        attach(marker_refs(tests), False)
    # An item of a wager's definition (19:47-1.2(a)1i: when the pass bet wins) is implemented
    # by that wager's definition: say so, naming the clause it comes from.
    for row in rows.values():
        if row.code:
            continue
        for above in list(ancestors(row.clause.id))[1:]:
            parent = rows.get(above)
            if parent is None:
                continue
            defs = [c for c in parent.code if "wagers.py" in c]
            if defs:
                row.code = [f"{c} (part of N.J.A.C. {above})" for c in defs]
            break
    return Trace(list(rows.values()), unmatched)


def render_markdown(trace: Trace) -> str:
    """The traceability table as Markdown (``docs/traceability.md`` is this output)."""
    lines = [
        "# Regulation traceability",
        "",
        "Generated by `croupier trace --markdown`; do not edit by hand. Each numbered clause of",
        "the regulation texts, the code that cites it (rule profiles, docstrings) and the tests",
        "marked `@pytest.mark.clause(...)` for it.",
        "",
    ]
    counts: dict[str, int] = {}
    for row in trace.rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    lines.append("Summary: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ".")
    source = None
    for row in trace.rows:
        if row.clause.source != source:
            source = row.clause.source
            lines += ["", f"## {source}", "",
                      "| clause | rule | status | implemented by | tested by |",
                      "| --- | --- | --- | --- | --- |"]
        cells = [f"N.J.A.C. {row.clause.id}", _cell(row.clause.summary), row.status,
                 "<br>".join(_cell(c) for c in row.code) or "**not implemented**",
                 "<br>".join(f"`{t}`" for t in row.tests) or "-"]
        lines.append("| " + " | ".join(cells) + " |")
    if trace.unmatched:
        lines += ["", "## Cited but not found in the texts", "",
                  "| clause | cited by |", "| --- | --- |"]
        for clause, where in sorted(trace.unmatched.items()):
            lines.append(f"| N.J.A.C. {clause} | {'<br>'.join(_cell(w) for w in where)} |")
    return "\n".join(lines) + "\n"


def render_text(trace: Trace) -> str:
    """A plain listing: one clause per block."""
    out = []
    for row in trace.rows:
        out.append(f"N.J.A.C. {row.clause.id}  [{row.status}]  {row.clause.summary}")
        out.extend(f"    code: {c}" for c in row.code)
        out.extend(f"    test: {t}" for t in row.tests)
    for clause, where in sorted(trace.unmatched.items()):
        out.append(f"N.J.A.C. {clause}  [cited, not found in the texts]")
        out.extend(f"    cited by: {w}" for w in where)
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
