"""The service's pure parts: unbiased RNG scaling, the dice specification, the event codec."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest

from croupier.craps.events import Rolled
from croupier.events import BetMade, BetTakenDown, Settled
from croupier.service import codec
from croupier.service.equipment import ATTESTED, inspect, passing_record
from croupier.service.events import Drawn, LateBetAsked
from croupier.service.rng import Rng, SeededRng, scale_byte


def test_scaling_is_unbiased() -> None:
    for n in (6, 37, 38):
        counts = Counter(scale_byte(b, n) for b in range(256))
        rejected = counts.pop(None, 0)
        assert set(counts) == set(range(n)) and len(set(counts.values())) == 1
        assert rejected == 256 % n


def test_draws_record_every_raw_byte() -> None:
    class Fixed(Rng):
        def __init__(self, raw: list[int]) -> None:
            self.raw = raw

        def byte(self) -> int:
            return self.raw.pop(0)

    draw = Fixed([255, 252, 7, 11]).dice()  # 255 and 252 are rejected for a die
    assert draw.raw == (255, 252, 7, 11) and draw.outcome == (2, 6)
    assert SeededRng(3).dice() == SeededRng(3).dice()


@pytest.mark.clause("N.J.A.C. 13:47-20.25(b)2i-ix")
def test_dice_specification() -> None:
    assert inspect(passing_record()) == []
    bad_faces = {**passing_record(), "opposite_faces": [[1, 5], [2, 6], [3, 4]]}
    assert any("summing to seven" in f for f in inspect(bad_faces))
    deep = {**passing_record(), "spot_depths_inch": ["0.0200", "0.0205"]}
    assert any("0.0004" in f for f in inspect(deep))
    big = {**passing_record(), "sides_inch": ["0.776", "0.776", "0.776"]}
    assert any("0.775" in f for f in inspect(big))
    for name in ATTESTED:
        assert inspect({**passing_record(), name: False})


def test_codec_round_trip() -> None:
    events = [
        ("craps", BetMade("a", "hop:1-3", "hop", Decimal("5"), qualifier=(1, 3),
                          commission=Decimal("0.25"))),
        ("craps", BetMade("a", "fire", "fire", Decimal("1"), state=(frozenset({4, 5}), 6),
                          commission=Decimal(0))),
        ("craps", Rolled((3, 4), 7, 6, None, False, False)),
        ("craps", Settled("a", "pass", Decimal(10), "win", paid=Decimal(10), odds="1 to 1")),
        ("craps", LateBetAsked(1, "a", "hop", (2, 2), Decimal(1), "c")),
        ("roulette", BetMade("a", "split:0-00", "split", Decimal(5), numbers=(0, "00"),
                             stake=Decimal(5))),
        ("roulette", BetTakenDown("a", "split:0-00", Decimal(5), whole=True)),
        ("roulette", Drawn("os", (1, 250), ("00",))),
    ]
    for game, event in events:
        assert codec.decode(game, codec.encode(event)) == event
