"""The ledger's codec reads every kind an earlier release wrote as the shared event it now is.

The recorded ledger (tests/fixtures/ledger-v1) holds craps openings of kind ``open``; a roulette
wager taken back was kind ``remove``. These rows are chained and signed as written, so the
codec, not a migration, reads them.
"""

from __future__ import annotations

import json
from decimal import Decimal

from croupier.craps.events import TableOpened as CrapsOpened
from croupier.events import BetMade, BetTakenDown, Opened
from croupier.roulette.events import TableOpened as RouletteOpened
from croupier.service import codec


def test_old_craps_opening_reads_as_the_shared_kind() -> None:
    old = ('{"type":"open","f":{"players":{"$t":[{"$t":["ann",{"$d":"500"}]}]},'
           '"shooter":"ann"}}')
    event = codec.decode("mini-craps", old)
    assert event == CrapsOpened((("ann", Decimal(500)),), "ann")
    assert isinstance(event, Opened) and event.kind == "table_opened"
    # Written again, it is written under today's kind and reads back the same.
    assert json.loads(codec.encode(event))["type"] == "table_opened"
    assert codec.decode("craps", codec.encode(event)) == event


def test_old_roulette_removal_reads_as_the_shared_take_down() -> None:
    old = '{"type":"remove","f":{"player":"ann","wager":"red","returned":{"$d":"5"}}}'
    assert codec.decode("roulette", old) == BetTakenDown("ann", "red", Decimal(5), whole=True)


def test_one_kind_per_shared_event_in_every_game() -> None:
    craps_bet = BetMade("a", "pass", "pass", Decimal(5), commission=Decimal(0))
    roulette_bet = BetMade("a", "red", "red", Decimal(5), numbers=(1, 3), stake=Decimal(5))
    for game, event in (("craps", craps_bet), ("roulette", roulette_bet)):
        assert json.loads(codec.encode(event))["type"] == "bet"
        assert codec.decode(game, codec.encode(event)) == event
    # Each game's opening is one kind, read by the table's family into its own class.
    assert CrapsOpened.kind == RouletteOpened.kind == Opened.kind
    assert codec.KINDS_BY_FAMILY[("craps", "table_opened")] is CrapsOpened
    assert codec.KINDS_BY_FAMILY[("roulette", "table_opened")] is RouletteOpened
