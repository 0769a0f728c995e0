"""A live table's memory does not grow with the bets it takes: a casino table runs for days, so
nothing may be kept per bet, per roll or per spin (the ledger in the database keeps the events).

The tables are driven in-process through the service's own actions and ledger (the code the
HTTP routes call); after a warm-up, two equal stretches of rounds must leave the objects the
garbage collector tracks, and the named per-table structures, where they were (a few objects
of slack for caches that fill once). Nothing is timed."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from croupier.service import outcomes, wagers

from .ledgerkit import Kit

ROUNDS = 80
SLACK = 60
"""Objects a stretch may add (caches filling once); a leak of one object per bet adds 160."""


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Kit:
    made = Kit(tmp_path_factory.mktemp("memory") / "data")
    made.deposit("alice", "5000")
    made.deposit("bob", "5000")
    made.play(20, 20)  # buy-ins, dice offered and selected, and a warm-up
    return made


def _rounds(kit: Kit, n: int) -> None:
    """``n`` rounds at each table: a $1 field bet and a roll; a $1 red bet, no more bets, a spin."""
    u = kit.users
    craps, wheel = kit.tables.all["craps-1"], kit.tables.all["roulette-1"]
    for _ in range(n):
        kit.act("alice", "craps-1", wagers.bet(u["alice"], craps, {"wager": "field", "amount": "1"},
                                                kit.ledger.limits))
        kit.roll("craps-1")
        kit.act("bob", "roulette-1", wagers.bet(u["bob"], wheel, {"wager": "red", "amount": "1"},
                                                 kit.ledger.limits))
        kit.act("dealer", "roulette-1", outcomes.no_more_bets(u["dealer"], wheel))
        kit.spin("roulette-1")


def _objects() -> int:
    """The objects the collector tracks, less dead weak references: Python's sqlite3 keeps a
    weak reference to each cursor of a connection in a list and drops the dead ones only every
    200 cursors, so they come and go with the number of statements, not with what is kept."""
    gc.collect()
    return sum(1 for o in gc.get_objects()
               if not (isinstance(o, weakref.ref) and o() is None))


def _sizes(kit: Kit) -> dict[str, Any]:
    """The per-table structures that could keep something per bet, and their sizes."""
    out: dict[str, Any] = {"tables": len(kit.tables.all), "heads": len(kit.ledger.heads)}
    for name, live in kit.tables.all.items():
        # Who took part in the round so far is at most who sits there (a craps round may
        # still be open at either count, so only its bound is compared).
        late = live.procedures.late
        out[name] = (len(live.participants) <= len(live.present()),
                     len(late.waiting) if late is not None else 0,
                     len(live.coupons), len(live.raised), len(live.monitors.dice),
                     len(getattr(live.table, "events", ())))
    return out


def test_rounds_leave_no_objects_behind(kit: Kit) -> None:
    _rounds(kit, ROUNDS // 2)  # this module's own warm-up (first calls fill caches)
    before = _objects()
    _rounds(kit, ROUNDS)
    middle = _objects()
    _rounds(kit, ROUNDS)
    after = _objects()
    assert middle - before < SLACK, f"{middle - before} objects kept over {ROUNDS} rounds"
    assert after - middle < SLACK, f"{after - middle} objects kept over {ROUNDS} rounds"


def test_per_table_structures_stay_the_same_size(kit: Kit) -> None:
    _rounds(kit, 5)
    before = _sizes(kit)
    _rounds(kit, ROUNDS // 2)
    assert _sizes(kit) == before
