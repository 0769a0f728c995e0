"""The table procedures the server records in a table's chain as it runs them.

Calling "no more bets" is the :class:`~croupier.service.events.BettingClosed` event the dealer's
request writes. Besides it, each roll where a stickperson handles the dice carries the
stickperson's call of the total (13:47-20.25(e)4: "calling out the sum of the numbers on the
high or uppermost sides of the two dice when the dice come to rest"), and each spin of a
physical wheel records the ball spun in the direction opposite to the wheel's rotation with
its revolutions around the track counted (13:47-20.32(j)1), and a change of dealer: the
dealer who calls or decides at a table is recorded as dealing it from then on. All are
:class:`~croupier.service.events.Procedure` events, written after (the call) or before (the
spin) the engine's own events, so the audit's replay of the outcome is unchanged.

>>> call_of(4, (2, 2))
'four, the hard way'
>>> call_of(7, (3, 4))
'seven'
"""

from __future__ import annotations

from croupier.craps.events import Rolled
from croupier.events import Event
from croupier.service import events as sv

STICK_CLAUSE = "N.J.A.C. 13:47-20.25(e)4"
DEALER_ON_DUTY = "dealer_on_duty"
SPIN_CLAUSE = "N.J.A.C. 13:47-20.32(j)1"
_NAMES = {2: "two, craps", 3: "three, craps", 4: "four", 5: "five", 6: "six", 7: "seven",
          8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve, craps"}


def call_of(total: int, dice: tuple[int, int]) -> str:
    """What the stickperson calls out for ``dice`` showing ``total``."""
    name = _NAMES[total]
    if total in (4, 6, 8, 10) and dice[0] == dice[1]:
        return f"{name}, the hard way"
    return name


def stick_call(by: str, rolled: list[Event]) -> list[Event]:
    """The stickperson's call of the roll among ``rolled`` (the engine's events for it)."""
    for event in rolled:
        if isinstance(event, Rolled):
            d1, d2 = event.dice
            return [sv.Procedure("stick_call", by, f"{call_of(event.total, (d1, d2))} "
                                 f"({d1} and {d2})", STICK_CLAUSE)]
    return []


def ball_spun(by: str, revolutions: int | None, same_direction: bool) -> sv.Procedure:
    """The dealer's spin of the ball as recorded: against the wheel's rotation (or not: the
    engine then declares no spin, 13:47-20.32(m)1) and the revolutions counted."""
    direction = ("in the same direction as the wheel" if same_direction
                 else "in the direction opposite to the wheel's rotation")
    counted = ("revolutions not counted" if revolutions is None
               else f"{revolutions} revolutions around the track counted")
    return sv.Procedure("ball_spun", by, f"ball spun {direction}; {counted}", SPIN_CLAUSE)


def dealer_on_duty(by: str, table_id: str, clause: str) -> sv.Procedure:
    """Who deals the table from now on: recorded when a dealer first calls or decides there
    (the dealer is responsible for the conduct of the game, 13:47-20.25(c), 20.32(c)2)."""
    return sv.Procedure(DEALER_ON_DUTY, by, f"{by} deals table {table_id}", clause)
