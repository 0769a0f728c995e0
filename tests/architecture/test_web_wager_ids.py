"""The browser table names no wager: it draws the felt and the moves from the table's offer.

Every wager id and wager key of the engines (``pass``, ``place_win:6``, ``hop:1-3``,
``split:17-20``) written in the page's JavaScript as a string or a property name, and every
beginning of one a key is tested for (``startsWith("dont")``), would be a list kept beside
the definitions, and a new wager would not reach the felt. This test reads every
script under ``web/static`` and counts them: 0. Run as a script, it prints the count and each
place (``python tests/architecture/test_web_wager_ids.py``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

from croupier.craps.wagers import WAGERS as CRAPS_WAGERS
from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS

STATIC = Path(__file__).resolve().parents[2] / "src" / "croupier" / "web" / "static"
IDS = frozenset(CRAPS_WAGERS) | frozenset(ROULETTE_WAGERS)

# A string literal ('...', "..." or `...` without the ${...} parts), or a property name: after
# a dot (not a method called) or before the colon of an object literal.
STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*?)\1""")
PROPERTY = re.compile(r"""\.([A-Za-z_]\w*)\b(?!\s*\()|[{,]\s*([A-Za-z_]\w*)\s*:""")
PREFIX_TEST = re.compile(r"""\.(?:startsWith|indexOf|lastIndexOf|includes)\(\s*(["'`])(.*?)\1""")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _names_a_wager(text: str) -> bool:
    """Whether a string names a wager id or a wager's key (``id:...``)."""
    return text.split(":", 1)[0].split("${", 1)[0] in IDS


def wager_names(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` for each wager id, key or prefix ``source`` writes."""
    code = COMMENT.sub(lambda m: "\n" * m.group().count("\n"), source)
    for match in STRING.finditer(code):
        if _names_a_wager(match.group(2)):
            yield code.count("\n", 0, match.start()) + 1, match.group()
    for match in PREFIX_TEST.finditer(code):
        text = match.group(2)
        if text and not _names_a_wager(text) and any(w.startswith(text) for w in IDS):
            yield code.count("\n", 0, match.start()) + 1, f"{match.group(1)}{text}{match.group(1)}"
    for match in PROPERTY.finditer(STRING.sub(lambda m: m.group(1) * 2, code)):
        name = match.group(1) or match.group(2)
        if name in IDS:
            yield code.count("\n", 0, match.start()) + 1, name


def found() -> list[str]:
    return [f"{path.name}:{line}: {text}" for path in sorted(STATIC.glob("*.js"))
            for line, text in wager_names(path.read_text("utf-8"))]


def test_the_page_writes_no_wager_id() -> None:
    assert found() == []


def test_the_count_finds_each_way_of_writing_one() -> None:
    code = '''
const a = "pass"; const b = 'hop:1-3'; const c = `place_win:${n}`; const d = x.startsWith("dont");
const e = { come: 1 }; const f = offer.six_seven_eight; // "field" in a comment is no use
const g = "Pass Line"; const h = text.split(":"); const i = "come-out"; const j = w.red;
'''
    assert [t for _, t in wager_names(code)] == [
        '"pass"', "'hop:1-3'", "`place_win:${n}`", '"dont"', "come", "six_seven_eight", "red"]


if __name__ == "__main__":
    places = found()
    print(f"wager ids written in the JavaScript: {len(places)}")
    print("\n".join(places))
    sys.exit(0)
