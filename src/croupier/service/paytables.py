"""Uniform pay tables: every craps table of one game and profile pays the same odds.

N.J.A.C. 13:69F-1.4(b), 19:47-1.4(b) and 13:47-20.25(i)2 let a house pay more than the listed
odds only if what it pays is uniform within the casino (or the casino-night event). The house's
pay table for a game and profile is the one its open tables already pay; a new table whose own
``pays`` would price any entry differently is refused, citing the profile's own clause.
(Scheduled changes with an approver and an effective date are not built yet: issue 13 item 9.)
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from croupier.craps.table import CrapsTable
from croupier.errors import Refusal
from croupier.service.live import LiveTable, make_engine_table


def _ratios(engine: CrapsTable) -> dict[str, Fraction]:
    return {key: Fraction(odds.ratio) for key, odds in engine.config.pays.items()}


def check_uniform(table_id: str, game: str, profile: str, options: dict[str, Any],
                  others: Iterable[LiveTable]) -> None:
    """Refuse a new table ``table_id`` if it would price a pay-table entry differently from
    an open table of the same game and profile (roulette: 13:47-20.32 has no such rule).
    Called before the table's transaction opens (a Refusal does not pass through ``with``)."""
    engine = make_engine_table(game, profile, options)
    if not isinstance(engine, CrapsTable):
        return
    mine = _ratios(engine)
    for other in others:
        if other.game != game or other.profile != profile or not other.is_craps:
            continue
        theirs = _ratios(other.craps())
        for key in sorted(mine.keys() & theirs.keys()):
            if mine[key] != theirs[key]:
                raise Refusal(f"{key} would pay {engine.config.pays[key]} at table {table_id} "
                              f"but pays {other.craps().config.pays[key]} at table {other.id}: "
                              "the odds paid are uniform within the casino",
                              engine.config.rules.clause("pays_clause"))
