"""How far one bet travels: the functions of croupier it calls and the layers it crosses.

The interpreter's profiler (:func:`sys.setprofile`) watches three paths and records every
function of the ``croupier`` package that runs:

* ``express lane``: a player's bet (``POST /tables/craps-1/bets``, a pass line bet of 5 with an
  ``Idempotency-Key``), from the app's ASGI entry to the last message of its answer, on an app
  made by ``croupier.service.app.create_app`` over a demo ledger made as the tests make one;
* ``route``: the same bet on an app made with ``express_lane=False`` (every bet through its
  route);
* ``replay action``: one bet of a transcript played by ``croupier.transcript.replay``, counting
  only that action: the loop's body in ``replay`` and everything it calls, not the header, the
  opening or the result (where ``replay`` has no loop to find, the whole call is counted, and
  the output says so).

The app is driven in-process through its ASGI callable, as a server calls it; each path is
played once before the one that is measured (the player's first bet, their first chips on the
table; every first-time cost, a lazy import or a cache filling, is paid there), so what is
counted is an ordinary bet. The ledger is SQLite, where the whole bet runs in the event loop's
thread (the token look-up, the group commit): that thread is followed. What runs in another
thread meanwhile (:func:`threading.setprofile`) is named under the path, not counted: on
SQLite that is only the write-ahead log's checkpoint thread, if it wakes.

What is counted
---------------
* A **function** is a code object whose file is in the ``croupier`` package that is measured:
  frames of the framework, the database driver and the standard library are not, nor the
  methods a ``dataclass`` writes (they have no file), nor comprehensions and generator
  expressions (part of the function they are written in; Python 3.12 inlines them anyway).
  ``functions`` is how many distinct ones ran; ``--verbose`` lists them with their calls.
* The **layer** of a function is its module's, from :data:`LAYERS` (the layers of
  docs/architecture.md, the service split into route, service and ledger); the longest
  prefix wins.
* The **layer sequence** is the layer of the innermost croupier frame, followed as it changes:
  a call into a function of another layer is a move, and so is the return to a caller of
  another layer. Frames outside croupier are transparent: a route calling the framework,
  which calls a croupier dependency, is one move from the route to the dependency's layer;
  when the framework returns to an outer croupier frame, the sequence is back at that frame's
  layer. ``layer changes`` is the number of moves (the sequence's length less one).
* An ``await`` that suspends and later resumes a stack of coroutines is not a move (the stack
  is where it was); the event loop running another task (the group commit's drain) is: the
  sequence goes to that task's croupier frame, and comes back when the suspended one runs
  croupier code again. A plain generator yielding to its consumer, and resumed, is a return
  and a call.
* ``calls across`` counts only the calls whose nearest croupier caller is in another layer
  (each move "down"; the moves back up are returns).

Usage::

    .venv/bin/python benchmarks/hops.py                    # this tree
    .venv/bin/python benchmarks/hops.py --verbose          # and every function, with its calls
    .venv/bin/python benchmarks/hops.py --before /tmp/old  # an older tree (a git worktree) beside
    .venv/bin/python benchmarks/hops.py --src /tmp/old     # that tree alone

A tree is a checkout (``PATH/src/croupier``) or a ``src`` folder (``PATH/croupier``); each is
measured in a process of its own with that tree first on ``PYTHONPATH``. The aim the live
service is held to: 30 functions or fewer and 8 layer changes or fewer for a bet, by the lane
and by the route. This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import inspect
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, str], ...] = (
    # core: pure, no I/O
    ("croupier", "core"),  # the package's __init__ alone, not every module under it
    ("croupier.money", "core"),
    ("croupier.dice", "core"),
    ("croupier.errors", "core"),
    ("croupier.events", "core"),
    ("croupier.table", "core"),
    ("croupier.games", "core"),
    ("croupier.reading", "core"),
    ("croupier.rules", "core"),
    ("croupier.craps", "core"),
    ("croupier.roulette", "core"),
    # contracts: the replay contract and its summary
    ("croupier.transcript", "contracts"),
    ("croupier.replay_summary", "contracts"),
    ("croupier.analysis", "analysis"),
    ("croupier.integrity", "integrity"),
    ("croupier.sim", "simulation"),
    # the live service: its HTTP routes, its own logic, and the ledger (the modules that write)
    ("croupier.service", "service"),
    ("croupier.service.api", "route"),
    ("croupier.service.ledger", "ledger"),
    ("croupier.service.store", "ledger"),
    ("croupier.service.statements", "ledger"),
    ("croupier.service.writers", "ledger"),
    ("croupier.service.codec", "ledger"),
    ("croupier.service.audit.canonical", "ledger"),
    ("croupier.service.audit.chain", "ledger"),
    ("croupier.web", "web"),
    ("croupier.cli", "cli"),
    ("croupier.__main__", "cli"),
)
"""Each module's layer, by the longest prefix of its dotted name; a module no entry covers
(a new top-level one) is ``unlisted``, and the output names it so the table can be completed."""

UNLISTED = "unlisted"
PACKAGE = "croupier"
AIM_FUNCTIONS = 30
AIM_CHANGES = 8
PASSWORD = "hops-bench-pass-1"
BET = {"wager": "pass", "amount": "5"}
BUY_IN = {"amount": "100"}
WARM_BET = {"wager": "field", "amount": "5"}
TABLE = "craps-1"
TRANSCRIPT = {"game": "craps", "rules": "nj-13-69f", "players": {"a": 100},
              "actions": [{"player": "a", "bet": "pass", "amount": 10}]}
PATHS = ("express lane", "route", "replay action")


def layer_of(module: str) -> str:
    """The layer of a dotted module name, by the longest prefix in :data:`LAYERS`.

    >>> layer_of("croupier.service.api.bets"), layer_of("croupier.service.live")
    ('route', 'service')
    >>> layer_of("croupier.service.audit.chain"), layer_of("croupier.craps.table")
    ('ledger', 'core')
    >>> layer_of("croupier.protocol")
    'unlisted'
    """
    best, found = -1, UNLISTED
    for prefix, layer in LAYERS:
        covers = module == prefix or (prefix != PACKAGE and module.startswith(prefix + "."))
        if covers and len(prefix) > best:
            best, found = len(prefix), layer
    return found


# --- the tracer ----------------------------------------------------------------------------

_GENERATOR_FLAGS = sum(flag for flag, name in dis.COMPILER_FLAG_NAMES.items()
                       if name in ("GENERATOR", "COROUTINE", "ASYNC_GENERATOR",
                                   "ITERABLE_COROUTINE"))
_ASYNC_FLAGS = sum(flag for flag, name in dis.COMPILER_FLAG_NAMES.items()
                   if name in ("COROUTINE", "ASYNC_GENERATOR", "ITERABLE_COROUTINE"))
_RESUME = dis.opmap.get("RESUME", -1)
_YIELD = dis.opmap.get("YIELD_VALUE", -1)
_HIDDEN = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


def _resumed(frame: FrameType) -> bool:
    """Whether a generator's or coroutine's "call" resumes it (rather than starts it): the
    instruction it stands at is a RESUME whose argument is not 0 (0: the function's start)."""
    code = frame.f_code.co_code
    at = frame.f_lasti
    return 0 <= at < len(code) - 1 and code[at] == _RESUME and code[at + 1] & 3 != 0


def _yielded(frame: FrameType) -> bool:
    """Whether a generator's or coroutine's "return" is a suspension (a yield or an await)."""
    code = frame.f_code.co_code
    return 0 <= frame.f_lasti < len(code) and code[frame.f_lasti] == _YIELD


Info = tuple[str, str]
"""A counted function's name and layer."""


@dataclass
class Trace:
    """What one measured path ran: each function's calls and layer, and each move between
    layers as ``(layer, "call" | "return" | "resume", the function moved to)``."""

    calls: Counter[str] = field(default_factory=Counter)
    layers: dict[str, str] = field(default_factory=dict)
    moves: list[tuple[str, str, str]] = field(default_factory=list)
    across: int = 0
    elsewhere: Counter[str] = field(default_factory=Counter)
    """Functions that ran in another thread meanwhile (not counted: not the request's path)."""

    def json(self) -> dict[str, Any]:
        return {"functions": [[name, self.layers[name], n] for name, n in self.calls.items()],
                "modules": len({name.rsplit(".", 1)[0] for name in self.calls}),
                "sequence": [layer for layer, _, _ in self.moves],
                "moves": self.moves, "changes": max(len(self.moves) - 1, 0),
                "across": self.across, "elsewhere": sorted(self.elsewhere)}


class Tracer:
    """A profile function recording the croupier frames of the package in ``package``."""

    def __init__(self, package: Path) -> None:
        self.package = str(package) + os.sep
        self.trace = Trace()
        self.active = False
        self.home = threading.get_ident()  # the thread whose path is followed
        self.pending: Info | None = None  # where a resumed coroutine stack stands
        self._info: dict[CodeType, Info | None] = {}

    def start(self) -> None:
        """Follow this thread from now on, afresh."""
        self.trace = Trace()
        self.pending = None
        self.home = threading.get_ident()
        self.active = True

    def info(self, code: CodeType) -> Info | None:
        """The function's name and layer, or None for a frame that is not counted."""
        try:
            return self._info[code]
        except KeyError:
            pass
        found: Info | None = None
        path = code.co_filename
        if path.startswith(self.package) and code.co_name not in _HIDDEN:
            rel = Path(path[len(self.package):]).with_suffix("").parts
            module = ".".join((PACKAGE, *(p for p in rel if p != "__init__")))
            found = (f"{module}.{code.co_qualname}", layer_of(module))
        self._info[code] = found
        return found

    def above(self, frame: FrameType | None) -> Info | None:
        """The nearest croupier frame at or above ``frame``."""
        while frame is not None:
            found = self.info(frame.f_code)
            if found is not None:
                return found
            frame = frame.f_back
        return None

    def move(self, to: Info | None, how: str) -> None:
        moves = self.trace.moves
        if to is not None and (not moves or moves[-1][0] != to[1]):
            moves.append((to[1], how, to[0]))

    def settle(self) -> None:
        """A resumed stack does something: it stands where it was resumed."""
        if self.pending is not None:
            self.move(self.pending, "resume")
            self.pending = None

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active or (event != "call" and event != "return"):
            return
        found = self.info(frame.f_code)
        if found is None:
            return
        if threading.get_ident() != self.home:
            if event == "call" and not _resumed(frame):
                self.trace.elsewhere[found[0]] += 1
        elif event == "call":
            self.on_call(frame, found)
        else:
            self.on_return(frame)

    def on_call(self, frame: FrameType, found: Info) -> None:
        flags = frame.f_code.co_flags
        if flags & _GENERATOR_FLAGS and _resumed(frame):
            if flags & _ASYNC_FLAGS:
                self.pending = found  # the innermost resumed frame is called last
            else:
                self.settle()
                self.move(found, "resume")
            return
        self.settle()
        name, layer = found
        self.trace.calls[name] += 1
        self.trace.layers[name] = layer
        caller = self.above(frame.f_back)
        if caller is not None and caller[1] != layer:
            self.trace.across += 1
        self.move(found, "call")

    def on_return(self, frame: FrameType) -> None:
        flags = frame.f_code.co_flags
        if flags & _ASYNC_FLAGS and _yielded(frame):
            self.pending = None  # suspended again before doing anything
            return
        self.settle()
        self.move(self.above(frame.f_back), "return")


# --- the HTTP paths --------------------------------------------------------------------------

Send = Callable[[dict[str, Any]], Awaitable[None]]


async def call_app(app: Any, path: str, body: Any, headers: dict[str, str],
                   on_answered: Callable[[], None] = lambda: None,
                   method: str = "POST") -> tuple[int, Any]:
    """One request through ``app``'s ASGI callable: the status and the JSON answer (None for
    an empty one). ``on_answered`` runs when the answer's last message is sent."""
    raw = b"" if body is None else json.dumps(body).encode()
    path, _, query = path.partition("?")
    head = {"content-type": "application/json", "content-length": str(len(raw)), **headers}
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
             "http_version": "1.1", "method": method, "scheme": "http", "path": path,
             "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in head.items()],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000), "state": {}}
    done = asyncio.Event()
    received = False
    status, chunks = 0, []

    async def receive() -> dict[str, Any]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await done.wait()  # the client stays until it has its answer
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                on_answered()
                done.set()

    await app(scope, receive, send)
    return status, json.loads(b"".join(chunks) or b"null")


@contextmanager
def demo_app(express_lane: bool, password: str = PASSWORD) -> Iterator[Any]:
    """An app over a new demo SQLite ledger, made as the tests make one."""
    from croupier.service import install, preflight
    from croupier.service.app import create_app
    from croupier.service.audit import keys, verify
    from croupier.service.rng import make_rng

    with tempfile.TemporaryDirectory(prefix="hops-") as tmp:
        data = Path(tmp)
        if "test_mode" in inspect.signature(install.init).parameters:
            # A test ledger: the app refuses its seeded RNG on any other.
            install.init(data, None, None, install.FirstUsers(demo=True, demo_password=password),
                         test_mode=True)
        elif hasattr(install, "FirstUsers"):  # a tree from before test ledgers
            install.init(data, None, None, install.FirstUsers(demo=True, demo_password=password))
        else:  # an older tree (--before), whose init took the first users one by one
            install.init(data, None, None, "admin", None, True, password)
        engine = preflight.open_ledger(data, None)
        key_path = keys.key_path(data, None)
        verify.configure(keys.load_key(key_path), install.pin_path(key_path))
        try:
            yield create_app(engine, make_rng(11, True), express_lane=express_lane)
        finally:
            engine.dispose()


async def _bet_trace(app: Any, tracer: Tracer) -> Trace:
    status, answer = await call_app(app, "/auth/login",
                                    {"username": "alice", "password": PASSWORD}, {})
    if status != 200:
        raise RuntimeError(f"login: {status} {answer}")
    auth = {"authorization": f"Bearer {answer['token']}"}
    bets = f"/tables/{TABLE}/bets"
    for path, body, key in ((f"/tables/{TABLE}/buy-in", BUY_IN, "hops-buy-in"),
                            (bets, WARM_BET, "hops-warm")):
        status, answer = await call_app(app, path, body, {**auth, "idempotency-key": key})
        if status >= 300:
            raise RuntimeError(f"{path} was refused: {status} {answer}")

    def stop() -> None:
        tracer.active = False

    sys.setprofile(tracer)
    tracer.start()
    try:
        status, answer = await call_app(app, bets, BET, {**auth, "idempotency-key": "hops-1"},
                                        stop)
    finally:
        tracer.active = False
        sys.setprofile(None)
    if status >= 300:
        raise RuntimeError(f"the measured bet was refused: {status} {answer}")
    return tracer.trace


def bet_trace(tracer: Tracer, express_lane: bool) -> Trace:
    with demo_app(express_lane) as app:
        return asyncio.run(_bet_trace(app, tracer))


# --- the replay path ---------------------------------------------------------------------------


def loop_lines(function: Any) -> frozenset[int]:
    """The lines of the body of the first ``for`` loop in ``function`` (none: no loop)."""
    import ast
    import inspect
    import textwrap

    lines, first = inspect.getsourcelines(function)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    for node in ast.walk(tree):
        if isinstance(node, ast.For | ast.AsyncFor):
            start = node.body[0].lineno
            end = max(n.end_lineno or n.lineno for n in node.body)
            return frozenset(range(start + first - 1, end + first))
    return frozenset()


class ActionGate:
    """A profile function passing the tracer only the calls the replay loop's body makes."""

    def __init__(self, tracer: Tracer, root: CodeType, lines: frozenset[int]) -> None:
        self.tracer = tracer
        self.root = root
        self.lines = lines
        self.child: FrameType | None = None

    def _enters(self, frame: FrameType) -> bool:
        above = frame.f_back
        while above is not None and self.tracer.info(above.f_code) is None:
            above = above.f_back
        return above is not None and above.f_code is self.root and above.f_lineno in self.lines

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if self.child is None:
            if event != "call" or self.tracer.info(frame.f_code) is None or not self._enters(frame):
                return
            self.child = frame
            self.tracer.active = True
        self.tracer(frame, event, arg)
        if frame is self.child and event == "return" and not _yielded(frame):
            self.tracer.active = False
            self.child = None


def replay_trace(tracer: Tracer) -> tuple[Trace, str]:
    """One bet of a transcript: the loop's part of ``replay`` (or all of it, said so)."""
    from croupier import transcript

    transcript.replay(json.loads(json.dumps(TRANSCRIPT)))  # the first-time costs
    doc = json.loads(json.dumps(TRANSCRIPT))
    root = transcript.replay.__code__
    lines = loop_lines(transcript.replay)
    if not lines:
        sys.setprofile(tracer)
        tracer.start()
        try:
            transcript.replay(doc)
        finally:
            tracer.active = False
            sys.setprofile(None)
        return tracer.trace, "the whole of replay(): no loop found in it"
    tracer.start()
    tracer.active = False  # the gate opens it for each call the loop's body makes
    name, layer = found = tracer.info(root) or ("croupier.transcript.replay", "contracts")
    tracer.trace.calls[name] += 1
    tracer.trace.layers[name] = layer
    tracer.move(found, "call")
    sys.setprofile(ActionGate(tracer, root, lines))
    try:
        transcript.replay(doc)
    finally:
        sys.setprofile(None)
    return tracer.trace, "the loop's body in replay() for one action"


# --- one tree, measured in this process --------------------------------------------------------


def measure(paths: tuple[str, ...]) -> dict[str, Any]:
    """Every path asked for, measured on the croupier this process imports."""
    import croupier

    package = Path(croupier.__file__).resolve().parent
    tracer = Tracer(package)
    threading.setprofile(tracer)  # to say what ran in other threads meanwhile
    result: dict[str, Any] = {"croupier": str(package), "paths": {}}
    for path in paths:
        note = "from the ASGI entry to the answer's last message"
        if path == "express lane":
            trace = bet_trace(tracer, express_lane=True)
        elif path == "route":
            trace = bet_trace(tracer, express_lane=False)
        else:
            trace, note = replay_trace(tracer)
        result["paths"][path] = {**trace.json(), "counted": note}
    threading.setprofile(None)
    return result


# --- trees in subprocesses, and the table ------------------------------------------------------


def src_of(tree: Path) -> Path:
    """The folder holding ``croupier`` in a checkout or a ``src`` folder."""
    for candidate in (tree / "src", tree):
        if (candidate / "croupier" / "__init__.py").is_file():
            return candidate.resolve()
    raise SystemExit(f"hops: no croupier package under {tree} (nor {tree / 'src'})")


def measure_tree(tree: Path, paths: tuple[str, ...]) -> dict[str, Any]:
    """Measure ``tree`` in a process of its own, with its ``src`` first on PYTHONPATH."""
    src = src_of(tree)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(src), env.get("PYTHONPATH"))))
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure",
                           "--paths", ",".join(paths)],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(),
                          check=False)
    if done.returncode != 0:
        raise SystemExit(f"hops: measuring {tree} failed:\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    if Path(result["croupier"]) != src / "croupier":
        raise SystemExit(f"hops: {tree} was asked for but {result['croupier']} was measured")
    return result


KEYS = (("functions", "functions"), ("modules", "modules"), ("layer changes", "changes"),
        ("calls across", "across"))


def _number(result: dict[str, Any], path: str, key: str) -> str:
    data = result["paths"][path]
    return str(len(data["functions"]) if key == "functions" else data[key])


def table(results: list[tuple[str, dict[str, Any]]], paths: tuple[str, ...]) -> list[str]:
    """The counts per path, one column per tree under each count."""
    names = [name for name, _ in results]
    cell = max(6, *(len(n) for n in names))
    group = max(len(names) * (cell + 1) - 1, *(len(title) for title, _ in KEYS))
    cell = (group + 1) // len(names) - 1
    lines = [f"{'':<15}" + "".join(f"  {title:>{group}}" for title, _ in KEYS)]
    if len(names) > 1:
        lines.append(f"{'path':<15}" + "".join(
            "  " + " ".join(f"{n:>{cell}}" for n in names).rjust(group) for _ in KEYS))
    else:
        lines[0] = "path" + lines[0][4:]
    for path in paths:
        lines.append(f"{path:<15}" + "".join(
            "  " + " ".join(f"{_number(r, path, key):>{cell}}" for _, r in results).rjust(group)
            for _, key in KEYS))
    return lines


def wrapped(layers: list[str], width: int = 96) -> list[str]:
    """A layer sequence as lines of at most ``width`` characters."""
    lines, line = [], "  layers:"
    for n, layer in enumerate(layers):
        part = f" {layer}" if n == 0 else f" > {layer}"
        if len(line) + len(part) > width:
            lines.append(line)
            line = "         "
        line += part
    return [*lines, line]


def report(results: list[tuple[str, dict[str, Any]]], paths: tuple[str, ...],
           verbose: bool) -> str:
    out = ["hops: one bet traced call by call (benchmarks/hops.py; how it counts: its docstring)",
           ""]
    out += [f"  {name}: {result['croupier']}" for name, result in results] + [""]
    out += table(results, paths)
    out += ["", f"aim for the express lane and the route: {AIM_FUNCTIONS} functions or fewer, "
            f"{AIM_CHANGES} layer changes or fewer"]
    for path in paths:
        for name, result in results:
            data = result["paths"][path]
            out += ["", f"{path} ({name}; counted: {data['counted']}):"]
            out += wrapped(data["sequence"])
            unlisted = sorted({f for f, layer, _ in data["functions"] if layer == UNLISTED})
            if unlisted:
                out.append("  not in hops.LAYERS (add them): " + ", ".join(unlisted))
            if data.get("elsewhere"):
                out.append("  ran in another thread meanwhile (not counted): "
                           + ", ".join(data["elsewhere"]))
            if verbose:
                out += ["  functions (layer, calls, name):"]
                out += [f"    {layer:<10} {n:>3}  {f}" for f, layer, n in data["functions"]]
                out += ["  moves (to the layer, how, the function it reached):"]
                out += [f"    {i:>3} {layer:<10} {how:<7} {f}"
                        for i, (layer, how, f) in enumerate(data["moves"])]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--src", type=Path, help="measure this tree instead of this checkout's")
    parser.add_argument("--before", type=Path,
                        help="an older tree, measured beside the current one in the same run")
    parser.add_argument("--verbose", action="store_true", help="list every function per path")
    parser.add_argument("--paths", default=",".join(PATHS),
                        help=f"which paths, comma-separated (default: {','.join(PATHS)})")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    paths = tuple(p.strip() for p in args.paths.split(",") if p.strip())
    unknown = [p for p in paths if p not in PATHS]
    if unknown:
        parser.error(f"unknown path {unknown[0]!r}; expected some of {', '.join(PATHS)}")
    if args.measure:
        print(json.dumps(measure(paths)))
        return
    results = []
    if args.before is not None:
        results.append(("before", measure_tree(args.before, paths)))
    results.append(("now" if args.before is not None else "this tree",
                    measure_tree(args.src or ROOT, paths)))
    if args.json:
        print(json.dumps(dict(results), indent=1))
    else:
        print(report(results, paths, args.verbose))


if __name__ == "__main__":
    main()
