"""The specialised kernels give the generic kernel's results exactly; the dice fill is exact."""

from __future__ import annotations

import dataclasses
import random
from decimal import Decimal

import numpy as np
import pytest

from croupier.sim.compile import compile_table
from croupier.sim.engine import Results, Simulation, grouped, simulate, ungrouped
from croupier.sim.kernel import fill_outcomes
from croupier.sim.library import BUILT_IN
from croupier.sim.specialise import source_for
from croupier.sim.strategy import Strategy

CRAPS = sorted(n for n, s in BUILT_IN.items() if s.game == "craps")
ROULETTE = sorted(n for n, s in BUILT_IN.items() if s.game == "roulette")


def _same(a: Results, b: Results) -> None:
    for name in ("final", "bank", "wagered", "rolls", "status", "endroll", "hist"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def _limits(rng: random.Random, name: str) -> Strategy:
    s = BUILT_IN[name]
    return dataclasses.replace(
        s,
        stop_loss=Decimal(rng.choice([0, 60, 150])) or None,
        win_goal=Decimal(rng.choice([0, 40, 200])) or None,
        shooter_loss_limit=(Decimal(rng.choice([0, 25, 50])) or None) if s.game == "craps"
        else None,
    )


@pytest.mark.parametrize("seed", range(4))
def test_specialised_equals_generic_on_random_tables(seed: int) -> None:
    rng = random.Random(seed)
    pool = CRAPS if seed % 4 != 3 else ROULETTE
    names = rng.sample(pool, rng.randint(1, 3))
    strategies = [_limits(rng, n) for n in names]
    compiled = compile_table(strategies)
    bankroll = rng.choice([8000, 30000, 200000])
    sessions, rolls = 1024 + 37, 1100  # a partial block and a partial chunk
    sim = Simulation(sessions, rolls, bankroll, 1000 + seed, n_hist=50, stride=rng.choice([1, 7]))
    fast = simulate(compiled, sim, kernel="specialised")
    slow = simulate(compiled, sim, kernel="generic")
    _same(fast, slow)
    threaded = simulate(compiled, sim, threads=2)
    _same(fast, threaded)


def test_generated_source_is_deterministic() -> None:
    compiled = compile_table([BUILT_IN["iron-cross"], BUILT_IN["knockout"]])
    assert source_for(compiled) == source_for(compile_table([BUILT_IN["iron-cross"],
                                                             BUILT_IN["knockout"]]))


def _fill_reference(words: np.ndarray, n: int, start: int, n_outcomes: int) -> tuple[list[int], int]:
    out: list[int] = []
    limit = 256 - 256 % n_outcomes
    pos = start
    for w in words.tolist():
        for _ in range(8):
            b = w & 0xFF
            w >>= 8
            if b < limit:
                out.append(b % n_outcomes)
                pos += 1
                if pos == n:
                    return out, pos
    return out, pos


@pytest.mark.parametrize("n_outcomes", [36, 37, 38])
def test_fill_outcomes_takes_the_bytes_in_order(n_outcomes: int) -> None:
    gen = np.random.Generator(np.random.PCG64(n_outcomes))
    for _ in range(200):
        n = int(gen.integers(1, 70))
        start = int(gen.integers(0, n))
        words = gen.integers(0, 2**63, size=int(gen.integers(0, 12)), dtype=np.uint64)
        words |= gen.integers(0, 2, size=words.shape[0], dtype=np.uint64) << np.uint64(63)
        out = np.full(n, 255, np.uint8)
        pos = fill_outcomes(words, out, start, n_outcomes)
        expect, epos = _fill_reference(words, n, start, n_outcomes)
        assert pos == epos
        assert out[start:pos].tolist() == expect
        assert (out[:start] == 255).all()  # nothing before the start is touched


def test_outcomes_grouped_by_eight_sessions_are_each_sessions_own() -> None:
    # the layout tables read a block's outcomes eight sessions side by side; the 8 x 8 byte
    # transpose gives every session its own outcomes, roll by roll, as numpy's transpose
    gen = np.random.Generator(np.random.PCG64(3))
    for sessions, rolls in [(1024, 1024), (16, 8), (8, 24), (13, 40), (9, 5)]:
        rows = gen.integers(0, 38, size=(sessions, rolls), dtype=np.uint8)
        got = grouped(rows)
        assert got.shape == (-(-sessions // 8), rolls, 8)
        for s in range(sessions):
            assert (got[s // 8, :, s % 8] == rows[s]).all()
        assert (ungrouped(got)[:sessions] == rows).all()
