"""benchmarks/shape.py keeps working: what each count takes in, and that it prints its table.

Each counter is given a small source written here whose places are known by reading it (and
some that look alike but are not what is counted); then the script is run on this tree to see
that it prints every row. Its numbers are not checked: they are what the live service's
rework changes. The felt (Chromium) is left out here: ``--no-browser``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BENCHMARK = ROOT / "benchmarks" / "shape.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("croupier_benchmark_shape", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


shape = load()
NAMES = frozenset({"craps", "mini-craps", "automated-craps", "roulette"})

SERVICE = '''
if isinstance(t, CrapsTable): pass
if isinstance(t, (int, RouletteTable)): pass
if isinstance(t, int | CrapsTable): pass
if isinstance(rules, CrapsRules): pass
if live.is_craps: pass
shooter = live.craps().shooter
wheel = live.roulette().wheel
profile_section = profile.craps          # a profile's section: no call
CONFIRMERS = {"craps": "boxperson", "other": 1}
if game == "mini-craps": pass
if game in ("craps", "roulette"): pass
if "craps" in raw: pass                  # a key looked up, not a name tested
default = "roulette"                     # a name written, not tested
match game:
    case "roulette": pass
if user.role == "player": pass
if "dealer" != user.role: pass
if role == "player": pass                # a variable, not a user's role
'''


def fake_src(root: Path) -> Path:
    src = root / "src"
    for rel, text in (("croupier/service/x.py", SERVICE),
                      ("croupier/craps/engine_side.py", "ok = isinstance(t, CrapsTable)\n"),
                      ("croupier/games.py", 'if name == "craps": pass\n'),
                      ("croupier/service/api/deps.py", 'ok = user.role in ("dealer",)\n')):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    return src


def test_type_branches_on_the_game_are_counted_by_kind(tmp_path: Path) -> None:
    sites = shape.game_branches(fake_src(tmp_path), NAMES)
    assert {s.path for s in sites} == {"croupier/service/x.py"}  # the engines and games.py not
    assert Counter(s.kind for s in sites) == {
        "isinstance on an engine class": 3,
        "isinstance on a rules class": 1,
        ".is_craps": 1,
        ".craps() / .roulette()": 2,
        "dict keyed by a game's name": 1,
        "comparison with a game's name": 3,
    }


def test_calls_of_an_engine_s_own_methods_are_counted(tmp_path: Path) -> None:
    src = tmp_path / "src"
    for rel, text in (
            ("croupier/craps/table.py", "class CrapsTable:\n    def check(self): pass\n"
             "    def check_bet(self): pass\n    def call(self): pass\n"
             "    def _commit(self): pass\n"),
            ("croupier/table.py", "class Table(Protocol):\n    def check(self): ...\n"),
            ("croupier/service/actions.py", "def call(user): pass\n"),
            ("croupier/service/x.py", "engine.check_bet(1)\ntable.check(a)\n"
             "actions.call(u)\nengine._commit()\nengine.check_bet\n")):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    assert shape.engine_only_methods(src) == {"check_bet"}
    assert [(s.path, s.line) for s in shape.engine_method_calls(src)] == [
        ("croupier/service/x.py", 1)]


def test_role_comparisons_are_counted_outside_the_dependencies(tmp_path: Path) -> None:
    sites = shape.role_comparisons(fake_src(tmp_path))
    assert [(s.path, s.line) for s in sites] == [("croupier/service/x.py", 17),
                                                 ("croupier/service/x.py", 18)]


def test_operations_without_a_success_schema() -> None:
    ok = {"description": "ok"}
    spec = {"paths": {
        "/a": {"post": {"responses": {"200": {**ok, "content": {"application/json": {
            "schema": {}}}}}},
               "get": {"responses": {"200": {**ok, "content": {"application/json": {
                   "schema": {"$ref": "#/components/schemas/A"}}}}}}},
        "/b": {"get": {"responses": {"204": ok}},
               "delete": {"responses": {"200": {**ok, "content": {"application/json": {
                   "schema": {"type": "array", "items": {"type": "object",
                                                         "additionalProperties": True}}}}}}}},
        "/c": {"parameters": [], "put": {"responses": {"422": {**ok, "content": {
            "application/json": {"schema": {"type": "object"}}}}}}},
    }}
    total, none, bare = shape.openapi_operations(spec)
    assert total == 5  # "parameters" is no operation
    assert sorted((s.kind, s.text) for s in none) == [("GET", "/b"), ("POST", "/a"), ("PUT", "/c")]
    assert [(s.kind, s.text) for s in bare] == [("DELETE", "/b")]


JS = r'''
// pass, in a comment
/* "field" in a block comment */
const NAMES = { pass: "Pass Line", field: 'Field', other: 1 };
const re = /"pass"|fire/g, half = a / 2 / b;
const key = `place_win:${n}`;
const label = `${ {a: {b: 1}}.a.b }` + "fire";
const words = s.split(","), horn = PARTS.horn, x = cond ? pass : y;
const text = "place_win 6", odd = "hop:1-3";
'''


def test_wager_ids_in_javascript_are_found_as_strings_keys_and_properties() -> None:
    ids = frozenset({"pass", "field", "place_win", "hop", "fire", "split", "horn"})
    found = shape.wager_ids_in(JS, ids)
    assert found == [(4, "object key", "pass"), (4, "object key", "field"),
                     (6, "string", "place_win:"), (7, "string", "fire"),
                     (8, "property", "horn"), (9, "string", "hop:1-3")]


def test_the_scratch_wager_is_defined_and_permitted_in_a_copy(tmp_path: Path) -> None:
    edited = shape.scratch_tree(ROOT / "src", tmp_path)
    assert edited == ["croupier/craps/wagers.py", "croupier/rules/nj-13-69f.toml"]
    assert shape.SCRATCH_DEF in (tmp_path / edited[0]).read_text()
    profile = tomllib.loads((tmp_path / edited[1]).read_text())
    assert profile["craps"]["wagers"][shape.SCRATCH] == shape.SCRATCH_CLAUSE
    assert profile["craps"]["pays"][shape.SCRATCH] == shape.SCRATCH_PAY
    assert shape.SCRATCH not in (ROOT / "src" / edited[0]).read_text()  # the tree is untouched


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARK), *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


ROWS = ("(a) type branches on the game", "(b) role comparisons", "(c) operations with no",
        "(d) wager ids written", "(e) files a new craps wager", "plays over the replay",
        "plays over the server", "plays over the felt", "(f) comments naming an issue",
        "(g) listed dead names")


def test_comments_naming_an_issue_and_dead_names_are_counted(tmp_path: Path) -> None:
    (tmp_path / "src" / "croupier").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "src" / "croupier" / "a.py").write_text(
        '"""Reports (issue 14)."""\nTYPES = ("a",)\nMONEY_FIELDS = ("x",)\nCOLOUR = "#12ab34"\n')
    (tmp_path / "tests" / "test_a.py").write_text(
        "from croupier.a import MONEY_FIELDS  # see #12\n")
    assert [(s.path, s.line) for s in shape.issue_comments(tmp_path)] == [
        ("src/croupier/a.py", 1), ("tests/test_a.py", 1)]
    assert [(s.text, s.line) for s in shape.dead_names(tmp_path)] == [("TYPES", 2)]


def test_it_counts_this_tree_and_prints_its_table() -> None:
    out = _run("--no-browser")
    lines = out.splitlines()
    for row in ROWS:
        line = next((line for line in lines if row in line), None)
        assert line is not None, f"no row {row!r} in:\n{out}"
        assert line.split()[-1] not in ("-", ""), line
    assert "plays over the felt" in out and "not checked" in out
    for key in shape.COUNTS:
        assert f"benchmarks/shape.py --only {key} --verbose" in out


def test_it_counts_another_tree_beside_this_one() -> None:
    out = _run("--before", str(ROOT), "--only", "b,d", "--verbose")
    header = next(line for line in out.splitlines() if line.startswith("count"))
    assert header.split()[1:] == ["before", "now"]
    row = next(line for line in out.splitlines() if line.startswith("(b)"))
    assert row.split()[-2] == row.split()[-1]  # the same tree twice: the same count
    count = int(row.split()[-1])
    listed = out.split("(b) now:\n", 1)[1].split("\n\n", 1)[0]
    places = [line for line in listed.splitlines() if "[role comparison]" in line]
    assert len(places) == count  # --verbose lists each place it counted
