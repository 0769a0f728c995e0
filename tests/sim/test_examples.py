"""The example strategy files compile under their rules and play."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.sim.compile import compile_table
from croupier.sim.engine import Simulation, simulate
from croupier.sim.library import load_strategy

EXAMPLES = sorted((Path(__file__).parents[2] / "examples" / "strategies").glob("*.toml"))


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_strategy_plays(path: Path) -> None:
    strategy = load_strategy(str(path))
    assert strategy.name.endswith("-example")
    res = simulate(compile_table([strategy]), Simulation(16, 200, 100_000, 1), kernel="generic")
    assert (res.wagered > 0).all()
