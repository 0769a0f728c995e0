"""A comment or docstring says why, in the project's own words, not by an issue's number: a
reader of the code has the reason, not a pointer to a tracker they may not have.

Every Python file of ``src``, ``tests`` and ``benchmarks`` and the JavaScript of the browser
table is read line by line, and a line naming an issue by number (``issue 12``, ``Issue 13
items 9``, ``issue #8``) or writing a bare ``#12`` is listed. Run this file alone to see them:
``.venv/bin/python -m pytest -q tests/architecture/test_reasons_not_issue_numbers.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("src", "tests", "benchmarks")
ISSUE = re.compile(r"\bissues?\s+#?\d+|(?<![\w&#])#\d+\b(?![0-9a-fA-F])", re.IGNORECASE)
"""An issue by number; not a colour (``#12ab34``) nor an HTML entity (``&#8212;``)."""
LOOK_FOR_THEM = frozenset({"benchmarks/shape.py", "tests/test_benchmark_shape.py",
                           "tests/architecture/test_reasons_not_issue_numbers.py"})
"""Files that count such lines and test the counting: their examples are what they look for."""


def files() -> Iterator[Path]:
    for folder in FOLDERS:
        yield from (ROOT / folder).rglob("*.py")
    yield from (ROOT / "src" / "croupier" / "web" / "static").glob("*.js")


def issue_numbers(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` (1-based) that name an issue by its number."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
            if ISSUE.search(line)]


def test_no_comment_explains_by_an_issue_number() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line}"
             for path in files() if path.relative_to(ROOT).as_posix() not in LOOK_FOR_THEM
             for n, line in issue_numbers(path.read_text(encoding="utf-8"))]
    assert found == [], "explain by the reason, not the issue's number:\n" + "\n".join(found)


def test_an_issue_number_is_found() -> None:
    text = ('"""Scheduled changes (issue 13 item 9)."""\n'
            "x = 1  # see #12\ncolour = '#12ab34'  # a colour, not an issue\n"
            "# Issues 4 and 5 asked for it\ndash = '&#8212;'\n")
    assert [n for n, _ in issue_numbers(text)] == [1, 2, 4]
