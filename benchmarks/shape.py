"""The live service's shape, counted: what the server asks of a game, and where.

Each count comes with the command that lists what it counted (``--only X --verbose``):

(a) **type branches on the game outside the engines and the registry**, read with :mod:`ast`
    from every module of ``src/croupier`` but ``croupier/craps/``, ``croupier/roulette/`` and
    ``croupier/games.py``: ``isinstance(x, CrapsTable)`` (or ``RouletteTable``, alone, in a
    tuple or a union), ``.is_craps``, ``.craps()`` and ``.roulette()``, a comparison with a
    game's or a family's name (the registry's names: craps, mini-craps, automated-craps,
    roulette; ``x == "craps"``, ``x in ("craps", ...)``, ``case "craps":``) and a dict literal
    keyed by one. Two related counts are shown below it, not in it: ``isinstance`` on a
    game's rules class (``CrapsRules``, ``RouletteRules``), and calls of an engine's own
    methods outside the ``Table`` protocol (a public method of ``CrapsTable`` or
    ``RouletteTable`` that ``croupier/table.py`` does not declare and no function outside
    the engines is named, called by name).
(b) **comparisons on a user's role** (``x.role == ...``, ``x.role in ...``) outside
    ``service/api/deps.py``, with :mod:`ast`; a SQL expression on a table's column
    (``users.c.role == ...``) is not one.
(c) **operations of /openapi.json whose success answer has no schema**: the app is built
    in-process over a demo ledger and ``app.openapi()`` read; an operation counts when none
    of its 2xx answers has a non-empty schema. Below it, not in it: operations whose success
    schema is only "an object" or "a list of objects" (a ``dict[str, Any]``, no field named).
(d) **wager ids written in the JavaScript** of ``src/croupier/web/static``: a string (or a
    template's text) equal to a wager id of the craps or roulette registry or starting with
    one and ``:`` (a wager key: ``place_win:6``, ``split:0-00``), an object key that is one
    (``{pass: "Pass Line"}``) and a property named by one (``PARTS.horn``; not a method
    call: ``.split(`` is a string's). The files are tokenised (comments, strings, templates,
    regular expressions), not merely searched. A word that is also a wager id counts wherever
    it is written (a pocket's colour "red", a field ``spec.column``): ``--verbose`` lists
    each place, for a reader to judge.
(e) **the files a new craps wager touches**: the tree is copied, one scratch ``WagerDef`` (a
    one-roll bet on 3 or 11, paying 7 to 1) added to ``craps/wagers.py`` and permitted in
    ``rules/nj-13-69f.toml`` (its clause and its pay), then played over the replay (a bet and
    a roll of 1-2, settled at 7 to 1), over the server (an app of the copy: a player's bet,
    the dealer's roll of 1-2, the win in the table's events) and on the felt (a real server
    of the copy and Chromium: the spot drawn, and a chip placed on it); each that fails says
    why, and for the felt the JavaScript files that name every craps wager by id, where a new
    one must be written. The count is the files edited plus those the failures point at.
    ``--no-browser`` leaves the felt out (it needs Chromium and takes a few seconds).
(f) **comments that explain by an issue's number**: the lines of the tree's Python (``src``,
    ``tests``, ``benchmarks``) and of the browser table's JavaScript naming an issue by number
    (``issue 12``, ``Issue 13 items 9``, ``issue #8``) or writing a bare ``#12`` (not a
    colour, not an HTML entity); ``tests/architecture/test_reasons_not_issue_numbers.py``
    fails on one.
(g) **dead code a review of the live service listed, still dead**: each of its names
    (``zero_if_none``, ``copy_config``, ``ROLE_NAMES``, ``GAME_NAMES``, ``CouponReader``,
    ``normal_sf``, ``bonferroni``, ``bank_names``, ``TABLE_ARGS``, ``TYPES``,
    ``MONEY_FIELDS``, ``_LABEL``, ``NATURALS``, and the architecture tests' ``KNOWN_CYCLES``)
    defined at a module's top level (with :mod:`ast`, in ``src`` and ``tests``) and read
    nowhere in the tree (no name, attribute or import of it outside its definition).

Usage::

    .venv/bin/python benchmarks/shape.py                      # this tree
    .venv/bin/python benchmarks/shape.py --before /tmp/old    # an older tree beside it
    .venv/bin/python benchmarks/shape.py --only a --verbose   # every type branch, by place

Each tree is measured in a process of its own with its ``src`` first on ``PYTHONPATH`` (as
``benchmarks/hops.py`` does). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hops  # the tree helpers and the in-process app are shared

ROOT = Path(__file__).resolve().parents[1]
COUNTS = ("a", "b", "c", "d", "e", "f", "g")
GAME_NAMES = ("craps", "mini-craps", "automated-craps", "roulette")
"""The registry's names, used where a tree's registry cannot be read."""
EXCLUDED = ("croupier/craps/", "croupier/roulette/", "croupier/games.py")
ENGINE_CLASSES = frozenset({"CrapsTable", "RouletteTable"})
RULES_CLASSES = frozenset({"CrapsRules", "RouletteRules"})
ROLE_CHECKS_AT = "croupier/service/api/deps.py"
SCRATCH = "scratch_3_11"
SCRATCH_DEF = (f'    WagerDef("{SCRATCH}", "Three or Eleven (scratch)", '
               f'lambda _q, _s, d1, d2: Win("{SCRATCH}") if d1 + d2 in (3, 11) else Lose(), '
               f'lambda _q, _s: ("{SCRATCH}",), one_roll=True),\n')
SCRATCH_CLAUSE = "N.J.A.C. 13:69F-1.2(a)17"  # the eleven's: a clause the profile already cites
SCRATCH_PAY = "7 to 1"
SCRATCH_PROFILE = "nj-13-69f"
PASSWORD = "shape-bench-pass-1"


@dataclass(frozen=True)
class Site:
    """One counted place: the file (under ``src``), the line, what kind, and its text."""

    path: str
    line: int
    kind: str
    text: str


def modules(src: Path) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted((src / "croupier").rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        yield rel, ast.parse(path.read_text("utf-8"), rel)


# --- (a) type branches on the game ----------------------------------------------------------


def _class_names(node: ast.AST) -> set[str]:
    """The class names an isinstance's second argument spells (a name, a tuple, a union)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Tuple):
        return set().union(*(_class_names(e) for e in node.elts)) if node.elts else set()
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _class_names(node.left) | _class_names(node.right)
    return set()


def _names_in(node: ast.AST, names: frozenset[str]) -> set[str]:
    """The game names a comparison operand spells: a string, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & names
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_names_in(e, names) for e in node.elts)) if node.elts else set()
    return set()


def _compared_names(node: ast.Compare, names: frozenset[str]) -> set[str]:
    found: set[str] = set()
    left = node.left
    for op, right in zip(node.ops, node.comparators, strict=True):
        # ``x in ("craps", ...)`` tests a name; ``"craps" in profile`` looks a key up.
        operands = (right,) if isinstance(op, ast.In | ast.NotIn) else (left, right)
        for operand in operands:
            found |= _names_in(operand, names)
        left = right
    return found


def _branch_kind(node: ast.AST, names: frozenset[str]) -> str | None:
    """The kind of type branch on the game ``node`` is, if it is one (or a related count)."""
    if isinstance(node, ast.Call):
        return _call_kind(node)
    if isinstance(node, ast.Attribute) and node.attr in ("is_craps", "is_roulette"):
        return ".is_craps"
    if isinstance(node, ast.Compare) and _compared_names(node, names):
        return "comparison with a game's name"
    if isinstance(node, ast.match_case) and isinstance(node.pattern, ast.MatchValue):
        if _names_in(node.pattern.value, names):
            return "comparison with a game's name"
    elif isinstance(node, ast.Dict) and any(k is not None and _names_in(k, names)
                                            for k in node.keys):
        return "dict keyed by a game's name"
    return None


def _call_kind(node: ast.Call) -> str | None:
    """An ``isinstance`` on an engine or rules class, or a call of ``.craps()`` /
    ``.roulette()``."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "isinstance" and len(node.args) == 2:
        classes = _class_names(node.args[1])
        if classes & ENGINE_CLASSES:
            return "isinstance on an engine class"
        if classes & RULES_CLASSES:
            return "isinstance on a rules class"
    if isinstance(func, ast.Attribute) and func.attr in ("craps", "roulette") and not node.args:
        return ".craps() / .roulette()"
    return None


def _excluded(rel: str) -> bool:
    return any(rel == e or (e.endswith("/") and rel.startswith(e)) for e in EXCLUDED)


def game_branches(src: Path, names: frozenset[str]) -> list[Site]:
    sites = []
    for rel, tree in modules(src):
        if _excluded(rel):
            continue
        for node in ast.walk(tree):
            kind = _branch_kind(node, names)
            if kind is not None:
                line = getattr(node, "lineno", getattr(getattr(node, "pattern", None), "lineno", 0))
                sites.append(Site(rel, line, kind, _line_of(src / rel, line)))
    return sites


def engine_only_methods(src: Path) -> frozenset[str]:
    """Public methods of the engines' table classes that the Table protocol does not declare
    and no function outside the engines is named (so a call by that name is a call to an
    engine)."""
    trees = dict(modules(src))
    engine: set[str] = set()
    for rel in ("croupier/craps/table.py", "croupier/roulette/table.py"):
        for node in ast.walk(trees.get(rel, ast.Module(body=[], type_ignores=[]))):
            if isinstance(node, ast.ClassDef) and node.name in ENGINE_CLASSES:
                engine |= {f.name for f in node.body
                           if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")}
    elsewhere: set[str] = set()  # a function of that name elsewhere makes a call ambiguous
    for rel, tree in trees.items():
        if rel not in ("croupier/craps/table.py", "croupier/roulette/table.py"):
            elsewhere |= {f.name for f in ast.walk(tree)
                          if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)}
    return frozenset(engine - elsewhere)


def engine_method_calls(src: Path) -> list[Site]:
    methods = engine_only_methods(src)
    sites = []
    for rel, tree in modules(src):
        if _excluded(rel):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in methods):
                sites.append(Site(rel, node.lineno, f".{node.func.attr}()",
                                  _line_of(src / rel, node.lineno)))
    return sites


def _line_of(path: Path, line: int) -> str:
    lines = path.read_text("utf-8").splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


# --- (b) role comparisons ----------------------------------------------------------------------


def _on_role(node: ast.AST) -> bool:
    """A user's role, ``x.role``; not a table's column ``t.c.role`` in a SQL expression (a
    ``WHERE`` clause compares no user's role in Python)."""
    if not (isinstance(node, ast.Attribute) and node.attr == "role"):
        return False
    return not (isinstance(node.value, ast.Attribute) and node.value.attr == "c")


def role_comparisons(src: Path) -> list[Site]:
    sites = []
    for rel, tree in modules(src):
        if rel == ROLE_CHECKS_AT:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                    _on_role(o) for o in (node.left, *node.comparators)):
                sites.append(Site(rel, node.lineno, "role comparison",
                                  _line_of(src / rel, node.lineno)))
    return sites


# --- (c) success answers without a schema ---------------------------------------------------------

METHODS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")


def _bare(schema: dict[str, Any]) -> bool:
    """Whether a schema says only "an object" or "a list of objects" (no field named)."""
    if schema.get("type") == "array":
        return _bare(schema.get("items", {}))
    return schema.get("type") == "object" and not schema.get("properties") and "$ref" not in schema


def openapi_operations(spec: dict[str, Any]) -> tuple[int, list[Site], list[Site]]:
    """The number of operations, those whose success answer has no schema, and those whose
    success schema names no field."""
    total, none, bare = 0, [], []
    for path, item in spec.get("paths", {}).items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            total += 1
            ok = [r for code, r in op.get("responses", {}).items() if str(code).startswith("2")]
            schemas = [m.get("schema") or {} for r in ok for m in r.get("content", {}).values()]
            where = Site("/openapi.json", 0, method.upper(), path)
            if not any(schemas):
                none.append(where)
            elif all(_bare(s) for s in schemas if s):
                bare.append(where)
    return total, none, bare


def openapi_spec() -> dict[str, Any]:
    with hops.demo_app(express_lane=True) as app:
        spec: dict[str, Any] = app.openapi()
    return spec


# --- (d) wager ids in the JavaScript ----------------------------------------------------------------

_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"=>", "...", "?."}
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete",
                      "void", "throw", "instanceof", "yield", "await"}
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"\d[\w.]*|\.\d[\w.]*")


@dataclass(frozen=True)
class Token:
    kind: str  # "string" (a string or a template's text), "ident", "punct", "number", "regex"
    text: str
    line: int


class JsLexer:
    """JavaScript tokens, enough to tell strings, keys and property names from comments and
    regular expressions."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.i = 0
        self.line = 1
        self.tokens: list[Token] = []
        self.braces = 0
        self.templates: list[int] = []  # the brace depth each open ``${`` returns to

    def run(self) -> list[Token]:
        while self.i < len(self.src):
            self.step()
        return self.tokens

    def emit(self, kind: str, text: str, line: int | None = None) -> None:
        self.tokens.append(Token(kind, text, self.line if line is None else line))

    def step(self) -> None:
        src, c = self.src, self.src[self.i]
        if c == "\n" or c.isspace():
            self.line += c == "\n"
            self.i += 1
        elif src.startswith("//", self.i):
            end = src.find("\n", self.i)
            self.i = len(src) if end < 0 else end
        elif src.startswith("/*", self.i):
            end = src.find("*/", self.i + 2)
            end = len(src) if end < 0 else end + 2
            self.line += src.count("\n", self.i, end)
            self.i = end
        elif c in "'\"":
            self.string(c)
        elif c == "`":
            self.i += 1
            self.template()
        elif c == "/" and self.regex_may_start():
            self.regex()
        elif _IDENT.match(src, self.i):
            self.word(_IDENT, "ident")
        elif _NUMBER.match(src, self.i):
            self.word(_NUMBER, "number")
        else:
            self.punct(c)

    def word(self, pattern: re.Pattern[str], kind: str) -> None:
        found = pattern.match(self.src, self.i)
        assert found is not None
        self.emit(kind, found.group())
        self.i = found.end()

    def punct(self, c: str) -> None:
        for multi in ("...", "?.", "=>"):
            if self.src.startswith(multi, self.i):
                self.emit("punct", multi)
                self.i += len(multi)
                return
        if c == "{":
            self.braces += 1
        elif c == "}":
            if self.templates and self.templates[-1] == self.braces:
                self.templates.pop()
                self.i += 1
                self.template()
                return
            self.braces -= 1
        self.emit("punct", c)
        self.i += 1

    def regex_may_start(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        return (last.kind == "punct" and last.text in _REGEX_AFTER) or (
            last.kind == "ident" and last.text in _REGEX_AFTER_WORDS)

    def string(self, quote: str) -> None:
        start, out, i = self.line, [], self.i + 1
        while i < len(self.src) and self.src[i] != quote:
            if self.src[i] == "\\":
                i += 1
            out.append(self.src[i])
            i += 1
        self.emit("string", "".join(out), start)
        self.i = i + 1

    def template(self) -> None:
        """A template's text up to its end or its next ``${``."""
        start, out, i = self.line, [], self.i
        while i < len(self.src) and self.src[i] != "`" and not self.src.startswith("${", i):
            if self.src[i] == "\\":
                i += 1
            self.line += self.src[i] == "\n"
            out.append(self.src[i])
            i += 1
        self.emit("string", "".join(out), start)
        if self.src.startswith("${", i):
            self.templates.append(self.braces)
            self.i = i + 2
        else:
            self.i = i + 1

    def regex(self) -> None:
        i, in_class = self.i + 1, False
        while i < len(self.src) and (in_class or self.src[i] != "/") and self.src[i] != "\n":
            if self.src[i] == "\\":
                i += 1
            elif self.src[i] == "[":
                in_class = True
            elif self.src[i] == "]":
                in_class = False
            i += 1
        i += 1
        while i < len(self.src) and self.src[i].isalpha():
            i += 1
        self.emit("regex", self.src[self.i:i])
        self.i = i


def _is_wager_text(text: str, ids: frozenset[str]) -> bool:
    """A wager id, or a wager key (an id, ``:`` and its qualifier or pay entry)."""
    return text in ids or (":" in text and text.split(":", 1)[0] in ids)


def wager_ids_in(source: str, ids: frozenset[str]) -> list[tuple[int, str, str]]:
    """``(line, kind, text)`` for each wager id written in a JavaScript source."""
    tokens = JsLexer(source).run()
    found = []
    for n, tok in enumerate(tokens):
        before = tokens[n - 1].text if n else ""
        after = tokens[n + 1].text if n + 1 < len(tokens) else ""
        if tok.kind == "string" and _is_wager_text(tok.text, ids):
            found.append((tok.line, "string", tok.text))
        elif tok.kind == "ident" and tok.text in ids:
            if before in ("{", ",") and after == ":":
                found.append((tok.line, "object key", tok.text))
            elif before in (".", "?.") and after != "(":  # ``.split(`` is a string's method
                found.append((tok.line, "property", tok.text))
    return found


def js_wager_ids(src: Path, ids: frozenset[str]) -> list[Site]:
    static = src / "croupier" / "web" / "static"
    sites = []
    for path in sorted(static.glob("*.js")):
        rel = path.relative_to(src).as_posix()
        for line, kind, text in wager_ids_in(path.read_text("utf-8"), ids):
            sites.append(Site(rel, line, kind, text))
    return sites


def registry_names() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The game names, the craps wager ids and the roulette wager ids of the tree imported."""
    try:
        from croupier.games import FAMILIES, GAMES

        names = frozenset(GAMES) | frozenset(FAMILIES)
    except ImportError:
        names = frozenset(GAME_NAMES)
    from croupier.craps.wagers import WAGERS as CRAPS
    from croupier.roulette.wagers import WAGERS as ROULETTE

    return names, frozenset(CRAPS), frozenset(ROULETTE)


# --- (e) a new craps wager ---------------------------------------------------------------------------


def _insert_after(text: str, anchor: re.Pattern[str], addition: str) -> str | None:
    found = anchor.search(text)
    if found is None:
        return None
    end = text.index("\n", found.end()) + 1
    return text[:end] + addition + text[end:]


def scratch_tree(src: Path, into: Path) -> list[str]:
    """A copy of ``src`` with the scratch wager defined and permitted: the files edited."""
    shutil.copytree(src / "croupier", into / "croupier",
                    ignore=shutil.ignore_patterns("__pycache__"))
    wagers = into / "croupier" / "craps" / "wagers.py"
    text = _insert_after(wagers.read_text("utf-8"),
                         re.compile(r"^_ALL\b[^\n]*=\s*\($", re.M), SCRATCH_DEF)
    if text is None:  # no tuple of definitions to add to: into the registry itself
        text = (wagers.read_text("utf-8") + f"\nWAGERS[{SCRATCH!r}] = (\n{SCRATCH_DEF.strip()}"
                "\n)[0]\n")
    wagers.write_text(text, "utf-8")
    profile = into / "croupier" / "rules" / f"{SCRATCH_PROFILE}.toml"
    toml = profile.read_text("utf-8")
    for section, line in (("craps.wagers", f'{SCRATCH} = "{SCRATCH_CLAUSE}"\n'),
                          ("craps.pays", f'"{SCRATCH}" = "{SCRATCH_PAY}"\n')):
        edited = _insert_after(toml, re.compile(rf"^\[{re.escape(section)}\]\s*$", re.M), line)
        if edited is None:
            raise SystemExit(f"shape: no [{section}] in {profile.name} to permit the wager in")
        toml = edited
    profile.write_text(toml, "utf-8")
    return ["croupier/craps/wagers.py", f"croupier/rules/{SCRATCH_PROFILE}.toml"]


def replay_check() -> str | None:
    """None if the replay plays the scratch wager (a bet and a 1-2, paid 7 to 1); else why not."""
    from croupier.transcript import replay

    doc = {"game": "craps", "rules": SCRATCH_PROFILE, "players": {"a": 100},
           "actions": [{"player": "a", "bet": SCRATCH, "amount": 10}, {"roll": [1, 2]}]}
    try:
        result = replay(doc)
    except Exception as exc:  # the measurement reports whatever stops it
        return f"{type(exc).__name__}: {exc}"
    if result["rejected"]:
        return f"refused: {result['rejected'][0]}"
    chips = result["players"]["a"]["bankroll"]
    return None if chips == "170.00" else f"settled wrong: 100.00 after 10 at 7 to 1 is {chips}"


async def _server_check(app: Any) -> str | None:
    login = {}
    for who in ("alice", "dealer"):
        status, answer = await hops.call_app(app, "/auth/login",
                                             {"username": who, "password": PASSWORD}, {})
        login[who] = {"authorization": f"Bearer {answer['token']}"}
    steps = (("alice", "/tables/craps-1/buy-in", {"amount": "100"}),
             ("alice", "/tables/craps-1/bets", {"wager": SCRATCH, "amount": "5"}),
             ("dealer", "/tables/craps-1/dice/offer",
              {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]}),
             ("dealer", "/tables/craps-1/dice/select", {"serials": ["NJ-0001", "NJ-0002"]}),
             ("dealer", "/tables/craps-1/roll", {"dice": [1, 2]}))
    for n, (who, path, body) in enumerate(steps):
        status, answer = await hops.call_app(app, path, body,
                                             {**login[who], "idempotency-key": f"scratch-{n}"})
        if status >= 300:
            return f"{path} {body}: {status} {json.dumps(answer)[:300]}"
    status, events = await hops.call_app(app, "/tables/craps-1/events?limit=1000", None,
                                         login["dealer"], method="GET")
    won = [e for e in events or [] if isinstance(e, dict) and e.get("type") == "settle"
           and SCRATCH in json.dumps(e) and e.get("result") == "win"]
    return None if won else "the roll did not settle the wager as a win"


def server_check() -> str | None:
    """None if a server of this tree takes the scratch wager, rolls and pays it; else why not."""
    import asyncio

    try:
        with hops.demo_app(express_lane=True, password=PASSWORD) as app:
            return asyncio.run(_server_check(app))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def felt_check(src: Path) -> str | None:
    """None if the felt of a real server of the tree at ``src`` draws the scratch wager's spot
    and a chip placed on it is bet; else why not."""
    import httpx

    data = Path(tempfile.mkdtemp(prefix="shape-felt-"))
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--data-dir", str(data),
         "--insecure-test-rng-seed", "5", "--test-mode", "--demo", "--demo-password", PASSWORD],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=data)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                return "the server did not start: " + (data / "server.log").read_text()[-300:]
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                return "the server did not start within 90 s"
            time.sleep(0.2)
        return _felt_in_browser(url)
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
        shutil.rmtree(data, ignore_errors=True)


def _felt_in_browser(url: str) -> str | None:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 1000},
                                       bypass_csp=True).new_page()
            page.set_default_timeout(15000)
            page.goto(f"{url}/#table=craps-1")
            page.fill("#login-user", "alice")
            page.fill("#login-pass", PASSWORD)
            page.click("#login-btn")
            page.wait_for_selector('[data-spot="pass"]')
            spot = page.locator(f'[data-spot="{SCRATCH}"]')
            if spot.count() == 0:
                return "the felt draws no spot for it (no [data-spot] of its id)"
            page.fill("#buyin-amount", "100")
            page.click("#buyin-btn")
            page.wait_for_function(
                "document.querySelector('#bankroll-chips').textContent === '100.00'")
            page.check('input[name="chip"][value="5"]', force=True)
            spot.click()
            page.wait_for_function(
                "document.querySelector('#bankroll-chips').textContent === '95.00'")
            return None
        except Exception as exc:
            return f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
        finally:
            browser.close()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def adding_a_wager_doc(root: Path) -> list[str]:
    """The files docs/architecture.md's "Adding a wager" list names (for comparison)."""
    doc = root / "docs" / "architecture.md"
    if not doc.is_file():
        return []
    text = doc.read_text("utf-8")
    found = re.search(r"^## Adding a wager.*?$(.*?)^(?:## |That is all)", text, re.M | re.S)
    if found is None:
        return []
    items = re.findall(r"^\d+\. `([^`]+)`", found.group(1), re.M)
    return items


def new_wager(src: Path, browser: bool) -> dict[str, Any]:
    """The scratch wager added to a copy of ``src`` and played three ways."""
    with tempfile.TemporaryDirectory(prefix="shape-wager-") as tmp:
        copy = Path(tmp)
        edited = scratch_tree(src, copy)
        checks: dict[str, str | None]
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--scratch-checks"],
                              capture_output=True, text=True, check=False,
                              env={**os.environ, "PYTHONPATH": str(copy)}, cwd=tmp)
        if done.returncode != 0:
            checks = {"replay": "the copy did not run: " + done.stderr.strip()[-400:],
                      "server": "not reached"}
        else:
            checks = json.loads(done.stdout)
        checks["felt"] = felt_check(copy) if browser else "not checked (--no-browser)"
    return {"edited": edited, "checks": checks}


# --- (f) comments naming an issue, (g) the dead code listed -----------------------------------

ISSUE = re.compile(r"\bissues?\s+#?\d+|(?<![\w&#])#\d+\b(?![0-9a-fA-F])", re.IGNORECASE)
DEAD = ("zero_if_none", "copy_config", "ROLE_NAMES", "GAME_NAMES", "CouponReader", "normal_sf",
        "bonferroni", "bank_names", "TABLE_ARGS", "TYPES", "MONEY_FIELDS", "_LABEL", "NATURALS",
        "KNOWN_CYCLES")


def _tree_files(root: Path) -> Iterator[Path]:
    for folder in ("src", "tests", "benchmarks"):
        yield from sorted((root / folder).rglob("*.py"))
    yield from sorted((root / "src" / "croupier" / "web" / "static").glob("*.js"))


def issue_comments(root: Path) -> list[Site]:
    """Every line naming an issue by its number (this script's own docstring and patterns
    and the test that looks for them left out: they say what is looked for)."""
    skip = {"benchmarks/shape.py", "tests/test_benchmark_shape.py",
            "tests/architecture/test_reasons_not_issue_numbers.py"}
    sites = []
    for path in _tree_files(root):
        rel = path.relative_to(root).as_posix()
        if rel in skip:
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if ISSUE.search(line):
                sites.append(Site(rel, n, "issue number", line.strip()))
    return sites


def _top_level_defs(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node.lineno
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        yield from ((t.id, node.lineno) for t in targets if isinstance(t, ast.Name))


def _reads(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.alias):
            yield node.name.rsplit(".", 1)[-1]


def dead_names(root: Path) -> list[Site]:
    """The names of :data:`DEAD` defined at a module's top level and read nowhere."""
    trees = {p.relative_to(root).as_posix(): ast.parse(p.read_text("utf-8"))
             for p in _tree_files(root) if p.suffix == ".py"}
    read = {name for tree in trees.values() for name in _reads(tree)}
    return [Site(rel, line, "defined, read nowhere", name)
            for rel, tree in trees.items() if not rel.startswith("benchmarks/")
            for name, line in _top_level_defs(tree) if name in DEAD and name not in read]


# --- one tree, and the table ----------------------------------------------------------------------


def measure(src: Path, only: tuple[str, ...], browser: bool) -> dict[str, Any]:
    names, craps, roulette = registry_names()
    out: dict[str, Any] = {"src": str(src)}
    if "a" in only:
        out["a"] = [s.__dict__ for s in game_branches(src, names)]
        out["a_engine_calls"] = [s.__dict__ for s in engine_method_calls(src)]
    if "b" in only:
        out["b"] = [s.__dict__ for s in role_comparisons(src)]
    if "c" in only:
        total, none, bare = openapi_operations(openapi_spec())
        out["c"] = {"total": total, "none": [s.__dict__ for s in none],
                    "bare": [s.__dict__ for s in bare]}
    if "d" in only:
        out["d"] = [s.__dict__ for s in js_wager_ids(src, craps | roulette)]
    if "f" in only:
        out["f"] = [s.__dict__ for s in issue_comments(src.parent)]
    if "g" in only:
        out["g"] = [s.__dict__ for s in dead_names(src.parent)]
    if "e" in only:
        out["e"] = new_wager(src, browser)
        out["e"]["doc"] = adding_a_wager_doc(src.parent)
        out["e"]["js"] = sorted({s.path for s in js_wager_ids(src, craps)})
        out["e"]["draws"] = [js for js in out["e"]["js"]
                             if "data-spot" in (src / js).read_text("utf-8")]
    return out


def measure_tree(tree: Path, only: tuple[str, ...], browser: bool) -> dict[str, Any]:
    src = hops.src_of(tree)
    args = [sys.executable, str(Path(__file__).resolve()), "--measure", "--only", ",".join(only)]
    if not browser:
        args.append("--no-browser")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, (str(src), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False,
                          cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"shape: measuring {tree} failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _by_kind(sites: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for s in sites:
        counts[s["kind"]] = counts.get(s["kind"], 0) + 1
    return counts


A_KINDS = ("isinstance on an engine class", ".is_craps", ".craps() / .roulette()",
           "comparison with a game's name", "dict keyed by a game's name")


def rows(r: dict[str, Any], only: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(label, value)`` for each count of one tree, in the table's order."""
    out: list[tuple[str, str]] = []
    if "a" in r:
        kinds = _by_kind(r["a"])
        out.append(("(a) type branches on the game outside the engines",
                    str(sum(kinds.get(k, 0) for k in A_KINDS))))
        out += [(f"      {k}", str(kinds.get(k, 0))) for k in A_KINDS]
        out.append(("    not in (a): isinstance on a rules class",
                    str(kinds.get("isinstance on a rules class", 0))))
        out.append(("    not in (a): calls of an engine's own methods", str(len(r["a_engine_calls"]))))
    if "b" in r:
        out.append(("(b) role comparisons outside service/api/deps.py", str(len(r["b"]))))
    if "c" in r:
        c = r["c"]
        out.append(("(c) operations with no success schema", f"{len(c['none'])} of {c['total']}"))
        out.append(("    not in (c): success schema names no field", str(len(c["bare"]))))
    if "d" in r:
        kinds = _by_kind(r["d"])
        out.append(("(d) wager ids written in the JavaScript", str(len(r["d"]))))
        out += [(f"      {k}", str(kinds.get(k, 0))) for k in ("string", "object key", "property")]
    if "e" in r:
        out += e_rows(r["e"])
    if "f" in r:
        out.append(("(f) comments naming an issue by its number", str(len(r["f"]))))
    if "g" in r:
        out.append(("(g) listed dead names, still defined and unread", str(len(r["g"]))))
    return out


def _failed(e: dict[str, Any]) -> list[str]:
    return [way for way in ("replay", "server", "felt")
            if e["checks"].get(way) is not None and "not checked" not in e["checks"][way]]


def e_rows(e: dict[str, Any]) -> list[tuple[str, str]]:
    """The files edited, and "+" when a way it is not played there needs at least one more."""
    failed = _failed(e)
    count = f"{len(e['edited']) + 1}+" if failed else str(len(e["edited"]))
    out = [("(e) files a new craps wager touches", count)]
    for way in ("replay", "server", "felt"):
        why = e["checks"].get(way)
        out.append((f"      plays over the {way}", "yes" if why is None else
                    ("not checked" if "not checked" in str(why) else "no")))
    return out


COMMANDS = {
    "a": "benchmarks/shape.py --only a --verbose   (ast over src/croupier)",
    "b": "benchmarks/shape.py --only b --verbose   (ast over src/croupier)",
    "c": "benchmarks/shape.py --only c --verbose   (app.openapi() of an in-process app)",
    "d": "benchmarks/shape.py --only d --verbose   (the JavaScript tokenised)",
    "e": "benchmarks/shape.py --only e --verbose   (a copy with a scratch WagerDef, played)",
    "f": "benchmarks/shape.py --only f --verbose   (the tree's lines, read)",
    "g": "benchmarks/shape.py --only g --verbose   (ast over src and tests)",
}


def table(results: list[tuple[str, dict[str, Any]]], only: tuple[str, ...]) -> list[str]:
    columns = [(name, dict(rows(r, only))) for name, r in results]
    labels = [label for label, _ in rows(results[0][1], only)]
    width = max(len(label) for label in labels)
    head = f"{'count':<{width}}" + "".join(f"  {name:>10}" for name, _ in columns)
    lines = [head]
    for label in labels:
        lines.append(f"{label:<{width}}" + "".join(f"  {vals.get(label, '-'):>10}"
                                                      for _, vals in columns))
    return lines


def details(name: str, r: dict[str, Any], verbose: bool) -> list[str]:
    out: list[str] = []
    if "e" in r:
        e = r["e"]
        out += ["", f"(e) {name}: edited {', '.join(e['edited'])}; "
                f"docs/architecture.md's list names {', '.join(e['doc']) or 'nothing'}"]
        for way in ("replay", "server", "felt"):
            why = e["checks"].get(way)
            out.append(f"    {way}: {'plays it' if why is None else why}")
        if "felt" in _failed(e):
            out.append("    the felt names craps wagers by id in " + ", ".join(e["js"])
                       + "; the spots are drawn in " + (", ".join(e["draws"]) or "?"))
        if _failed(e):
            out.append(f"    so at least {len(e['edited']) + 1} files: the ones edited and at least "
                       "one where a way that does not play it is written")
    if not verbose:
        return out
    for key, title in (("a", "(a)"), ("a_engine_calls", "(a) engine methods"), ("b", "(b)"),
                       ("d", "(d)"), ("f", "(f)"), ("g", "(g)")):
        if key in r:
            out += ["", f"{title} {name}:"]
            out += [f"    {s['path']}:{s['line']}  [{s['kind']}]  {s['text']}" for s in r[key]]
    if "c" in r:
        out += ["", f"(c) {name}, no success schema:"]
        out += [f"    {s['kind']} {s['text']}" for s in r["c"]["none"]]
        out += ["", f"(c) {name}, a success schema that names no field:"]
        out += [f"    {s['kind']} {s['text']}" for s in r["c"]["bare"]]
    return out


def report(results: list[tuple[str, dict[str, Any]]], only: tuple[str, ...],
           verbose: bool) -> str:
    out = ["shape: the live service's shape, counted (benchmarks/shape.py; how: its docstring)", ""]
    out += [f"  {name}: {r['src']}" for name, r in results] + [""]
    out += table(results, only)
    out += ["", "the commands that list what each counts:"]
    out += [f"  ({k}) .venv/bin/python {COMMANDS[k]}" for k in only]
    for name, r in results:
        out += details(name, r, verbose)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--src", type=Path, help="count this tree instead of this checkout's")
    parser.add_argument("--before", type=Path,
                        help="an older tree, counted beside the current one in the same run")
    parser.add_argument("--only", default=",".join(COUNTS),
                        help="which counts, comma-separated (default: all)")
    parser.add_argument("--verbose", action="store_true", help="list every place counted")
    parser.add_argument("--no-browser", action="store_true",
                        help="(e): leave the felt out (no Chromium)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--scratch-checks", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    only = tuple(k.strip() for k in args.only.split(",") if k.strip())
    if any(k not in COUNTS for k in only):
        parser.error(f"--only takes some of {','.join(COUNTS)}")
    if args.scratch_checks:
        print(json.dumps({"replay": replay_check(), "server": server_check()}))
        return
    if args.measure:
        import croupier

        src = Path(croupier.__file__).resolve().parents[1]
        print(json.dumps(measure(src, only, not args.no_browser)))
        return
    results = []
    if args.before is not None:
        results.append(("before", measure_tree(args.before, only, not args.no_browser)))
    results.append(("now" if args.before is not None else "this tree",
                    measure_tree(args.src or ROOT, only, not args.no_browser)))
    if args.json:
        print(json.dumps(dict(results), indent=1))
    else:
        print(report(results, only, args.verbose))


if __name__ == "__main__":
    main()
