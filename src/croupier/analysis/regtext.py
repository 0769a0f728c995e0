"""The regulation texts shipped with the package, parsed into numbered clauses.

Each text has one item per line (the 13:69F proposal is a cleaned transcription of a notice
that lost its line breaks; its header says what was cleaned). A line opening with ``(a)``,
``1.`` or ``i.`` opens a clause; ``(1)``, ``(A)`` and other lines continue the current one. In
the 13:69F text the roman items are part of their paragraph (the clause list counts that
text's sections, subsections and paragraphs only).

>>> clause_ids("N.J.A.C. 13:69F-1.2(a)7-10")
['13:69F-1.2(a)7', '13:69F-1.2(a)8', '13:69F-1.2(a)9', '13:69F-1.2(a)10']
>>> clause_ids("13:47-20.25(h)1vii-x")[-1], clause_ids("see 20.32(g)")
('13:47-20.25(h)1x', ['13:47-20.32(g)'])
>>> list(ancestors("13:47-20.25(h)1ii(3)"))[:3]
['13:47-20.25(h)1ii(3)', '13:47-20.25(h)1ii', '13:47-20.25(h)1']
>>> profile_of("13:47-20.32(e)1"), profile_of("N.J.A.C. 19:47-1.4(b)"), profile_of("x")
('nj-casino-night', 'nj-19-47', None)
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]

# Which profile's regulation each section belongs to.
SECTION_PROFILES = {
    "13:47-20.25": "nj-casino-night",
    "13:47-20.32": "nj-casino-night",
    "19:47-1.2": "nj-19-47",
    "19:47-1.4": "nj-19-47",
    "13:69F-1.1": "nj-13-69f",
    "13:69F-1.2": "nj-13-69f",
    "13:69F-1.3": "nj-13-69f",
    "13:69F-1.4": "nj-13-69f",
    "13:69F-1.5": "nj-13-69f",
}


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


def profile_of(clause: str) -> str | None:
    """The rule profile whose regulation text holds ``clause`` (None for no known section)."""
    ids = clause_ids(clause)
    if not ids:
        return None
    section = next(iter(reversed(list(ancestors(ids[0])))))
    return SECTION_PROFILES.get(section)


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

    @property
    def profile(self) -> str | None:
        return profile_of(self.id)


_L1 = re.compile(r"^\(([a-z])\)\s*(.*)$")
_L2 = re.compile(r"^(\d+)\.\s+(.*)$")
_L3 = re.compile(r"^([ivx]+)\.\s+(.*)$")
_SECTION_LINE = re.compile(r"^(?:.*§\s*|Section\s+)?(\d{2}:\d{2}[A-Z]?-\d+\.\d+)\b")


def parse_lines(text: str, source: str, depth: int = 3) -> list[Clause]:
    """A text with one item per line: ``(a)``, ``1.``, ``i.`` open clauses (down to ``depth``
    levels); ``(1)``, ``(A)`` and other lines continue the current one."""
    clauses: list[Clause] = []
    section = ""
    path: list[str] = []
    current: Clause | None = None
    levels = ((0, _L1), (1, _L2), (2, _L3))[:depth]
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
        for level, pattern in levels:
            m = pattern.match(line)
            if m and (level == 0 or len(path) >= level):
                token = f"({m.group(1)})" if level == 0 else m.group(1)
                path = [*path[:level], token]
                current = Clause(section + "".join(path), m.group(2), source)
                clauses.append(current)
                break
        else:
            if current is not None:
                current.text += "\n" + line
    return clauses


def load_clauses(directory: Path | None = None) -> list[Clause]:
    """Every numbered clause of the regulation texts in ``directory``, in reading order."""
    clauses: list[Clause] = []
    for path in sorted((directory or default_regulations()).glob("*.txt")):
        depth = 2 if "13-69f" in path.name else 3
        clauses.extend(parse_lines(path.read_text("utf-8"), path.name, depth))
    seen: set[str] = set()
    unique = []
    for c in clauses:
        if c.id not in seen:
            seen.add(c.id)
            unique.append(c)
    return unique


def children(clauses: list[Clause]) -> dict[str, list[str]]:
    """Each clause's direct items (a section's subsections, a subsection's paragraphs, ...)."""
    ids = {c.id for c in clauses}
    out: dict[str, list[str]] = {c.id: [] for c in clauses}
    for c in clauses:
        parent = next((a for a in list(ancestors(c.id))[1:] if a in ids), None)
        if parent is not None:
            out[parent].append(c.id)
    return out
