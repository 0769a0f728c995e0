"""Monte Carlo runs of the engines themselves (CrapsTable, RouletteTable) fed seeded random
dice or pockets, for cross-checking the exact analysis within four standard errors."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from croupier.craps.config import CrapsConfig
from croupier.craps.events import BetMade, Settled
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS, Timing, WagerDef
from croupier.errors import Refusal
from croupier.rules import load_profile

STAKE = Decimal(660)  # splits into 4 and 5 units, pays 5 to 11, 7 to 6, 6 to 5; 5% is whole
PLAYER = "mc"


def simulate_craps(wager_id: str, qualifier: Any, decisions: int, *, seed: int = 2024,
                   profile: str = "nj-13-69f", options: dict[str, Any] | None = None,
                   ) -> tuple[float, int]:
    """Play ``decisions`` decisions of one wager on the real engine; return the mean net result
    per unit staked per bet made (a push counts as a bet made) and the number of bets made."""
    cfg = CrapsConfig.from_options(load_profile(profile), options or {})
    table = CrapsTable(cfg, {PLAYER: Decimal(10) ** 12})
    d = WAGERS[wager_id]
    rng = random.Random(seed)
    base = d.label(qualifier, None)
    off = cfg.rules.off_on_come_out
    net = Decimal(0)
    decided = pushes = 0
    while decided + pushes < decisions:
        if not any(w.wager_id == wager_id for w in table.wagers.values()):
            net -= _place(table, d, qualifier, wager_id in off)
        mine = [w for w in table.wagers.values() if w.wager_id == wager_id]
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if d.dont and d1 + d2 == 12 and any(w.state is None for w in mine) and (
                d.travels or table.point is None):
            pushes += 1  # void for that roll: a decided bet that returned its stake
        won, bets = _settle(table.roll(d1, d2), base)
        net += won
        decided += bets
    return float(net / STAKE) / (decided + pushes), decided + pushes


def _place(table: CrapsTable, d: WagerDef, qualifier: Any, call_on: bool) -> Decimal:
    """Make the wager (its flat bet first, for odds) when its window is open; the commission
    paid on placing it."""
    if d.odds_of is not None:
        flat = table.wager(PLAYER, d.odds_of)
        if flat is None and table.point is None:
            table.bet(PLAYER, d.odds_of, None, STAKE)
        elif flat is not None and flat.state is not None:
            table.bet(PLAYER, d.id, None, STAKE)
        return Decimal(0)
    if table.point is not None if d.timing is Timing.COME_OUT else (
            d.timing is Timing.POINT_ON and table.point is None):
        return Decimal(0)  # a line bet waits for its window (pass: come-out; come: point on)
    try:
        events = table.bet(PLAYER, d.id, qualifier, STAKE)
    except Refusal:  # a fire bet waits for the next shooter
        events = []
    if events and call_on:
        table.call(PLAYER, d.id, qualifier, True)
    return sum((e.commission for e in events if isinstance(e, BetMade)), Decimal(0))


def _settle(events: list[Any], base: str) -> tuple[Decimal, int]:
    """The player's net result from a roll's settlements of the wager (labelled ``base``),
    and the bets they decide (a wager of several parts counts once)."""
    net, decided, parts_seen = Decimal(0), 0, False
    for e in events:
        if not isinstance(e, Settled) or e.player != PLAYER:
            continue
        label = e.part_of or e.wager
        if not (label == base or label.startswith(base + ":")) or e.result == "returned":
            continue
        net += e.paid - e.taken - e.commission
        if e.part_of is None:
            decided += 1
        elif not parts_seen:
            decided += 1
            parts_seen = True
    return net, decided


def simulate_roulette(wager_id: str, qualifier: Any, spins: int, *, seed: int = 2024,
                      options: dict[str, Any] | None = None) -> tuple[float, int]:
    """Mean net result per unit staked over ``spins`` decisions of one roulette wager."""
    from croupier.roulette.reading import read_options
    from croupier.roulette.table import PlaceBet, RouletteTable, Spin
    from croupier.roulette.wheel import WHEELS

    profile = load_profile("nj-casino-night")
    config = read_options(dict(options or {}), profile)
    table = RouletteTable.open("nj-casino-night", config, {PLAYER: Decimal(10) ** 12})
    pockets = WHEELS[config.wheel].order
    rng = random.Random(seed)
    stake = Decimal(10)
    net = Decimal(0)
    decided = 0
    while decided < spins:
        if not table.wagers:
            table.act(PlaceBet(PLAYER, wager_id, qualifier, stake))
        events = table.act(Spin(rng.choice(pockets)))
        settled = [e for e in events if isinstance(e, Settled)]
        if settled:
            decided += 1
            net += sum((e.paid - e.taken for e in settled), Decimal(0))
    return float(net / stake) / decided, decided
