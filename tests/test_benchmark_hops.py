"""benchmarks/hops.py keeps working: how it counts, and that it prints its table.

The counting rules are checked on a small package of three layers written here (a route awaiting
the ledger, which suspends and calls the core; a generator of the core consumed by a route),
where the functions, the moves and their order are known by reading the code. The real
measurement is run once on this tree to see that it prints a row per path; of its numbers only
the layer changes of a bet are held, to what the service has come down to (:data:`MOST_CHANGES`),
so a change that sends a bet across more layers again is seen.
"""

from __future__ import annotations

import asyncio
import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCHMARK = ROOT / "benchmarks" / "hops.py"


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


hops = load(BENCHMARK, "croupier_benchmark_hops")

MOST_CHANGES = 10
"""The layer changes a bet makes by the express lane and by the route, as the service stands:
lower it when a change brings the count down (the aim is ``hops.AIM_CHANGES``)."""

FAKE = {
    "money.py": '''
def cents(x):
    return x * 100


def parts(n):
    for i in range(n):
        yield i
''',
    "service/ledger.py": '''
import asyncio


async def write(money):
    await asyncio.sleep(0)  # suspends: the loop runs, then resumes this stack
    return money.cents(5)
''',
    "service/api/bets.py": '''
async def bet(ledger, money):
    n = await ledger.write(money)
    return n + helper()


def helper():
    return 1


def total(money):
    n = 0
    for v in money.parts(2):
        n += v
    return n
''',
}


def fake_package(root: Path) -> dict[str, ModuleType]:
    """The three modules, loaded from a folder named ``croupier`` (under other module names)."""
    package = root / "croupier"
    loaded = {}
    for rel, text in FAKE.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        loaded[rel] = load(path, "hops_fake_" + rel.replace("/", "_").removesuffix(".py"))
    return loaded


def traced(tracer: Any, run: Any) -> Any:
    sys.setprofile(tracer)
    tracer.start()
    try:
        run()
    finally:
        tracer.active = False
        sys.setprofile(None)
    return tracer.trace


def test_the_layer_table_reads_as_its_examples_say() -> None:
    assert doctest.testmod(hops).failed == 0
    assert hops.layer_of("croupier.service.api.express") == "route"
    assert hops.layer_of("croupier.service.ledger") == "ledger"
    assert hops.layer_of("croupier.service.audit.replay") == "service"  # not canonical, not chain
    assert hops.layer_of("croupier.transcript") == "contracts"
    assert hops.layer_of("croupier") == "core"
    assert hops.layer_of("croupierx.money") == "unlisted"


def test_an_await_that_suspends_is_no_move(tmp_path: Path) -> None:
    m = fake_package(tmp_path)
    tracer = hops.Tracer(tmp_path / "croupier")
    trace = traced(tracer, lambda: asyncio.run(
        m["service/api/bets.py"].bet(m["service/ledger.py"], m["money.py"])))
    assert dict(trace.calls) == {"croupier.service.api.bets.bet": 1,
                                 "croupier.service.ledger.write": 1,
                                 "croupier.money.cents": 1,
                                 "croupier.service.api.bets.helper": 1}
    # bet calls write (a move), write suspends in asyncio.sleep and is resumed (no move),
    # calls cents (a move) and gets its answer (a move back), returns to bet (a move back).
    assert [(layer, how) for layer, how, _ in trace.moves] == [
        ("route", "call"), ("ledger", "call"), ("core", "call"), ("ledger", "return"),
        ("route", "return")]
    assert trace.json()["changes"] == 4
    assert trace.across == 2


def test_a_generator_yielding_to_another_layer_moves_each_time(tmp_path: Path) -> None:
    m = fake_package(tmp_path)
    tracer = hops.Tracer(tmp_path / "croupier")
    trace = traced(tracer, lambda: m["service/api/bets.py"].total(m["money.py"]))
    assert dict(trace.calls) == {"croupier.service.api.bets.total": 1,
                                 "croupier.money.parts": 1}
    # Started, then two yields, two resumptions and the end: six moves, one call across.
    assert trace.json()["sequence"] == ["route", "core"] * 3 + ["route"]
    assert trace.across == 1


def test_frames_outside_the_package_are_not_counted(tmp_path: Path) -> None:
    m = fake_package(tmp_path)
    tracer = hops.Tracer(tmp_path / "elsewhere")  # none of the fake modules is in it
    trace = traced(tracer, lambda: m["service/api/bets.py"].total(m["money.py"]))
    assert not trace.calls and not trace.moves


def test_the_replay_loop_is_found() -> None:
    def play(actions: list[int]) -> int:
        done = 0
        for a in actions:
            done += a
            done *= 2
        return done

    first = play.__code__.co_firstlineno
    assert hops.loop_lines(play) == frozenset({first + 3, first + 4})


def _fake_result(functions: int, changes: int) -> dict[str, Any]:
    data = {"functions": [[f"croupier.f{i}", "core", 1] for i in range(functions)],
            "modules": 1, "sequence": ["route", "core"][:changes + 1], "moves": [],
            "changes": changes, "across": 1, "counted": "all", "elsewhere": []}
    return {"croupier": "/x/croupier", "paths": {p: data for p in hops.PATHS}}


def test_before_and_now_are_printed_side_by_side() -> None:
    text = hops.report([("before", _fake_result(107, 21)), ("now", _fake_result(29, 1))],
                       hops.PATHS, verbose=True)
    row = next(line for line in text.splitlines() if line.startswith("express lane"))
    assert row.split()[2:4] == ["107", "29"]  # functions: before, now
    assert "before" in text and "now" in text and "layers: route > core" in text


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARK), *args], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_it_measures_this_tree_and_prints_its_table() -> None:
    out = _run("--verbose")
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("path"))
    for title in ("functions", "modules", "layer changes", "calls across"):
        assert title in header
    for path in hops.PATHS:
        row = next(line for line in lines if line.startswith(path))
        cells = row[len(path):].split()
        assert len(cells) == 4 and all(c.isdigit() for c in cells), row
        assert int(cells[0]) > 0
        if path != "replay action":
            assert int(cells[2]) <= MOST_CHANGES, f"a bet crosses more layers again: {row}"
    assert out.count("  layers: ") == 3
    assert "croupier.transcript.replay" in out and "croupier.service.api" in out
    assert "not in hops.LAYERS" not in out, "a module of croupier has no layer in hops.LAYERS"


def test_it_measures_another_tree_beside_this_one() -> None:
    out = _run("--before", str(ROOT), "--paths", "replay action")
    sub = next(line for line in out.splitlines() if line.startswith("path"))
    assert sub.split()[1:3] == ["before", "now"]
    row = next(line for line in out.splitlines() if line.startswith("replay action"))
    cells = row[len("replay action"):].split()
    assert len(cells) == 8 and cells[0] == cells[1]  # the same tree twice: the same count
