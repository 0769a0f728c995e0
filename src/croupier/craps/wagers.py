"""Every craps wager, defined once.

A wager is data (its id, qualifier, when it may be made and removed, whether it stays up after a
win) plus one pure decision function. The decision function sees only the wager's qualifier, its
own state and the two dice, and says: it wins (at which pay-table entry), it loses, it moves to a
new state (a come bet travelling to its number), or nothing happens. The table engine plays these
functions, the exact analysis enumerates them over the 36 outcomes, and the simulator compiles
them into lookup tables: one definition each.

A wager's state is what it remembers between rolls: the point for a line bet (``None`` before
the come-out), the come point for a come bet, ``(points made, point)`` for a fire bet, nothing
(``None``) for the rest.

>>> PASS.decide(None, None, 3, 4)
Win(key='pass')
>>> PASS.decide(None, None, 2, 2)
Move(state=4)
>>> PASS.decide(None, 4, 3, 4)
Lose()
>>> WAGERS["hard"].decide(6, None, 2, 4)
Lose()
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from croupier.dice import HARDWAYS, HOPS, POINTS, hop_key

Qualifier = int | tuple[int, int] | None
State = Hashable


@dataclass(frozen=True, slots=True)
class Win:
    """The wager wins, paid at pay-table entry ``key``."""

    key: str


@dataclass(frozen=True, slots=True)
class Lose:
    """The wager loses."""


@dataclass(frozen=True, slots=True)
class Move:
    """The wager is not decided but moves to a new state (a come bet travels to its number)."""

    state: State


Outcome = Win | Lose | Move | None
LOSE = Lose()


class Timing(Enum):
    """When a wager may be made (the contract's "When a wager can be made")."""

    COME_OUT = "only before a come-out roll"
    POINT_ON = "only while a point is established"
    LINE_ODDS = "only while the player's flat bet stands on a point"
    COME_ODDS = "only on the player's come bet standing on that number"
    NEW_SHOOTER = "only before the first roll of a new shooter"
    ANY_TIME = "at any time"


class Removal(Enum):
    """When a wager may be taken down or reduced (13:69F-1.3(c), (d))."""

    UNTIL_POINT = "not after its point is established"
    DONT = "at any time, but not increased or replaced afterwards"
    NEVER = "never"
    ANY_TIME = "before the roll that decides it"


Decide = Callable[[Any, Any, int, int], Outcome]


@dataclass(frozen=True)
class Part:
    """One of the separate wagers a split wager is settled as: ``units`` of its stake on it."""

    wager: str
    qualifier: Qualifier
    units: int


@dataclass(frozen=True)
class WagerDef:
    """One craps wager.

    ``qualifier`` names the bet action's field (``number`` or ``dice``) and ``domain`` its values.
    ``odds_of`` names the flat bet an odds wager stands behind; ``lay_odds`` marks odds laid
    against a number, limited by what they win. ``commission`` marks buy and lay.
    ``down_on_win`` and ``off_during_point`` say which calls a player may make on it at a table
    whose option of that name is on: "down on the win" (it comes down with its next win
    instead of staying up) and "off" for the rest of a point.
    """

    id: str
    name: str
    decide: Decide
    pay_keys: Callable[[Any, Any], tuple[str, ...]]
    timing: Timing = Timing.ANY_TIME
    removal: Removal = Removal.ANY_TIME
    qualifier: str | None = None
    domain: tuple[Any, ...] = ()
    stays_up: bool = False
    travels: bool = False
    one_roll: bool = False
    parts: Callable[[Any], tuple[Part, ...]] | None = None
    odds_of: str | None = None
    lay_odds: bool = False
    commission: str | None = None
    dont: bool = False
    down_on_win: bool = False
    off_during_point: bool = False
    # Its state when made (table point, qualifier -> state); nothing to remember by default.
    start: Callable[[Any, int | None], State] = lambda _q, _point: None
    # How it ends when the shooter's hand ends without a seven-out (the fire bet), if it does.
    hand_end: Callable[[Any], Outcome] | None = None

    @property
    def units(self) -> int:
        """How many equal units a split wager's stake divides into (1 for any other wager)."""
        if self.parts is None:
            return 1
        return sum(p.units for p in self.parts(self.domain[0] if self.domain else None))

    def initial_state(self, qualifier: Qualifier, point: int | None) -> State:
        """The state a wager starts in when it is made with the table at ``point``."""
        return self.start(qualifier, point)

    def label(self, qualifier: Qualifier, state: State) -> str:
        """The old name of :meth:`key` (the simulator still calls it so)."""
        return self.key(qualifier, state)

    def key(self, qualifier: Qualifier, state: State) -> str:
        """The wager's key on the table: ``place_win:6``, ``come:9``, ``hop:1-3``, ``pass_odds``."""
        if self.travels:
            return self.id if state is None else f"{self.id}:{state}"
        if qualifier is None:
            return self.id
        if isinstance(qualifier, tuple):
            return hop_key(*qualifier)
        return f"{self.id}:{qualifier}"


# --- decision functions -------------------------------------------------------------------

DONT_BAR = 12
"""The come-out total a don't bet stands on (barred): the one every profile names (``dont_bar``)."""


def _line(win_key: str, dont: bool) -> Decide:
    """Pass/come (``dont`` False) or don't pass/don't come: 13:69F-1.2(a)1-4."""

    def decide(_q: Qualifier, point: int | None, d1: int, d2: int) -> Outcome:
        total = d1 + d2
        if point is None:
            if total in (7, 11):
                return LOSE if dont else Win(win_key)
            if total in (2, 3):
                return Win(win_key) if dont else LOSE
            if total == DONT_BAR:
                return None if dont else LOSE  # a don't bet is barred: it stays undecided
            return Move(total)
        if total == point:
            return LOSE if dont else Win(win_key)
        if total == 7:
            return Win(win_key) if dont else LOSE
        return None

    return decide


def _odds(prefix: str, lay: bool) -> Decide:
    """Odds behind a flat bet standing on ``number``: decided with it, at the true odds."""

    def decide(_q: Qualifier, number: int, d1: int, d2: int) -> Outcome:
        total = d1 + d2
        if total == number:
            return LOSE if lay else Win(f"{prefix}:{number}")
        if total == 7:
            return Win(f"{prefix}:{number}") if lay else LOSE
        return None

    return decide


def _number_before_seven(prefix: str, against: bool) -> Decide:
    """Place to win / buy (the number before a 7) and place to lose / lay (a 7 before it)."""

    def decide(number: int, _s: State, d1: int, d2: int) -> Outcome:
        total = d1 + d2
        if total == number:
            return LOSE if against else Win(f"{prefix}:{number}")
        if total == 7:
            return Win(f"{prefix}:{number}") if against else LOSE
        return None

    return decide


def _hard(number: int, _s: State, d1: int, d2: int) -> Outcome:
    """13:69F-1.2(a)7-10: the number the hardway before it is thrown any other way or a 7."""
    total = d1 + d2
    if total == number:
        return Win(f"hard:{number}") if d1 == d2 else LOSE
    if total == 7:
        return LOSE
    return None


def _field(_q: Qualifier, _s: State, d1: int, d2: int) -> Outcome:
    """13:69F-1.2(a)11: wins on 2, 3, 4, 9, 10, 11, 12 (2 and 12 at their own odds)."""
    total = d1 + d2
    if total == 2:
        return Win("field:2")
    if total == 12:
        return Win("field:12")
    if total in (3, 4, 9, 10, 11):
        return Win("field")
    return LOSE


def _one_roll(key: str, totals: frozenset[int]) -> Decide:
    """A one-roll wager on a set of totals (any seven, any craps, craps 2, 3, 12, 11)."""

    def decide(_q: Qualifier, _s: State, d1: int, d2: int) -> Outcome:
        return Win(key) if d1 + d2 in totals else LOSE

    return decide


def _hop(dice: tuple[int, int], _s: State, d1: int, d2: int) -> Outcome:
    """13:69F-1.2(a)22-38: exactly that combination of the two dice on the next roll."""
    return Win(hop_key(*dice)) if tuple(sorted((d1, d2))) == dice else LOSE


def _six_seven_eight(_q: Qualifier, _s: State, d1: int, d2: int) -> Outcome:
    """13:69F-1.2(a)39 and 1.4(b): 6, 7 or 8 on the next roll; a hard 6 or 8 at its own odds."""
    total = d1 + d2
    if total in (6, 8) and d1 == d2:
        return Win("six_seven_eight:hard")
    if total in (6, 7, 8):
        return Win("six_seven_eight")
    return LOSE


FIRE_WIN_AT = 4
FIRE_MAX = len(POINTS)


def fire_result(made: frozenset[int]) -> Outcome:
    """How a fire bet ends when the shooter's hand ends with ``made`` different points made."""
    return Win(f"fire:{len(made)}") if len(made) >= FIRE_WIN_AT else LOSE


def _fire(_q: Qualifier, state: tuple[frozenset[int], int | None], d1: int, d2: int) -> Outcome:
    """13:69F-1.2(a)40, 1.4(e): at least four different points made before a loser 7.

    Paid once, for the highest count: at once on the sixth different point, otherwise when the
    hand ends with the seven-out.
    """
    made, point = state
    total = d1 + d2
    if point is None:
        return Move((made, total)) if total in POINTS else None
    if total == point:
        made = made | {point}
        if len(made) == FIRE_MAX:
            return Win(f"fire:{FIRE_MAX}")
        return Move((made, None))
    if total == 7:
        return fire_result(made)
    return None


def _composite(parts: Callable[[Any], tuple[Part, ...]]) -> Decide:
    """A split wager has no decision of its own: each part is decided as its own wager."""

    def decide(_q: Qualifier, _s: State, _d1: int, _d2: int) -> Outcome:
        raise TypeError("a split wager is settled part by part; see WagerDef.parts")

    del parts
    return decide


def _at_point(_q: Qualifier, point: int | None) -> State:
    """Line odds stand on the table's point."""
    return point


def _at_qualifier(qualifier: Qualifier, _point: int | None) -> State:
    """Come odds stand on the number their come bet stands on."""
    return qualifier


def _keys(*keys: str) -> Callable[[Any, Any], tuple[str, ...]]:
    return lambda _q, _s: keys


def _numbered(prefix: str) -> Callable[[Any, Any], tuple[str, ...]]:
    return lambda q, _s: (f"{prefix}:{q}",)


def _state_numbered(prefix: str) -> Callable[[Any, Any], tuple[str, ...]]:
    return lambda _q, s: (f"{prefix}:{s}",)


def _parts_pay_keys(parts: Callable[[Any], tuple[Part, ...]]) -> Callable[[Any, Any], tuple[str, ...]]:
    def keys(q: Qualifier, _s: State) -> tuple[str, ...]:
        out: list[str] = []
        for part in parts(q):
            out.extend(WAGERS[part.wager].pay_keys(part.qualifier, None))
        return tuple(out)

    return keys


_HORN = (Part("craps_2", None, 1), Part("craps_3", None, 1), Part("yo_11", None, 1),
         Part("craps_12", None, 1))
_HORN_NUMBER = {2: "craps_2", 3: "craps_3", 11: "yo_11", 12: "craps_12"}


def _horn_parts(_q: Qualifier) -> tuple[Part, ...]:
    """13:69F-1.4(c): paid as four separate wagers on 2, 3, 11 and 12."""
    return _HORN


def _horn_high_parts(number: int) -> tuple[Part, ...]:
    """13:69F-1.2(a)20: four units as a Horn Bet and one more unit on the chosen total."""
    return tuple(
        Part(p.wager, None, p.units + (1 if p.wager == _HORN_NUMBER[number] else 0)) for p in _HORN
    )


def _whirl_parts(_q: Qualifier) -> tuple[Part, ...]:
    """13:69F-1.2(a)21: four units on 2, 3, 11 and 12 and the fifth on Any Seven."""
    return (*_HORN, Part("any_seven", None, 1))


def _c_and_e_parts(_q: Qualifier) -> tuple[Part, ...]:
    """13:69F-1.4(d): one half on Any Craps and one half on Eleven."""
    return (Part("any_craps", None, 1), Part("yo_11", None, 1))


def _split(wager_id: str, name: str, parts: Callable[[Any], tuple[Part, ...]],
           qualifier: str | None = None, domain: tuple[Any, ...] = ()) -> WagerDef:
    return WagerDef(wager_id, name, _composite(parts), _parts_pay_keys(parts), one_roll=True,
                    parts=parts, qualifier=qualifier, domain=domain)


PASS = WagerDef("pass", "Pass Bet", _line("pass", dont=False), _keys("pass"),
                timing=Timing.COME_OUT, removal=Removal.UNTIL_POINT)
DONT_PASS = WagerDef("dont_pass", "Don't Pass Bet", _line("dont_pass", dont=True),
                     _keys("dont_pass"), timing=Timing.COME_OUT, removal=Removal.DONT, dont=True)
COME = WagerDef("come", "Come Bet", _line("come", dont=False), _keys("come"),
                timing=Timing.POINT_ON, removal=Removal.UNTIL_POINT, travels=True)
DONT_COME = WagerDef("dont_come", "Don't Come Bet", _line("dont_come", dont=True),
                     _keys("dont_come"), timing=Timing.POINT_ON, removal=Removal.DONT,
                     travels=True, dont=True)

_ALL: tuple[WagerDef, ...] = (
    PASS,
    DONT_PASS,
    COME,
    DONT_COME,
    WagerDef("pass_odds", "odds on the Pass Bet", _odds("pass_odds", lay=False),
             _state_numbered("pass_odds"), timing=Timing.LINE_ODDS, odds_of="pass",
             start=_at_point),
    WagerDef("dont_pass_odds", "odds on the Don't Pass Bet", _odds("dont_pass_odds", lay=True),
             _state_numbered("dont_pass_odds"), timing=Timing.LINE_ODDS, odds_of="dont_pass",
             lay_odds=True, start=_at_point),
    WagerDef("come_odds", "odds on a Come Bet", _odds("come_odds", lay=False),
             _state_numbered("come_odds"), timing=Timing.COME_ODDS, odds_of="come",
             qualifier="number", domain=POINTS, start=_at_qualifier),
    WagerDef("dont_come_odds", "odds on a Don't Come Bet", _odds("dont_come_odds", lay=True),
             _state_numbered("dont_come_odds"), timing=Timing.COME_ODDS, odds_of="dont_come",
             lay_odds=True, qualifier="number", domain=POINTS, start=_at_qualifier),
    # Place, buy and lay bets stay up after a win; a player may call one down on its next win
    # or off for the rest of a point (hardways too), where the table's options allow the call.
    WagerDef("place_win", "Place Bet to Win", _number_before_seven("place_win", against=False),
             _numbered("place_win"), qualifier="number", domain=POINTS, stays_up=True,
             down_on_win=True, off_during_point=True),
    WagerDef("place_lose", "Place Bet to Lose", _number_before_seven("place_lose", against=True),
             _numbered("place_lose"), qualifier="number", domain=POINTS, stays_up=True,
             down_on_win=True, off_during_point=True),
    WagerDef("buy", "Buy Bet", _number_before_seven("buy", against=False), _numbered("buy"),
             qualifier="number", domain=POINTS, stays_up=True, commission="buy",
             down_on_win=True, off_during_point=True),
    WagerDef("lay", "Lay Bet", _number_before_seven("lay", against=True), _numbered("lay"),
             qualifier="number", domain=POINTS, stays_up=True, commission="lay",
             down_on_win=True, off_during_point=True),
    WagerDef("hard", "Hardway Bet", _hard, _numbered("hard"), qualifier="number",
             domain=HARDWAYS, stays_up=True, off_during_point=True),
    WagerDef("field", "Field Bet", _field, _keys("field", "field:2", "field:12"), one_roll=True),
    WagerDef("any_seven", "Any Seven", _one_roll("any_seven", frozenset({7})),
             _keys("any_seven"), one_roll=True),
    WagerDef("any_craps", "Any Craps", _one_roll("any_craps", frozenset({2, 3, 12})),
             _keys("any_craps"), one_roll=True),
    WagerDef("craps_2", "Craps Two", _one_roll("craps_2", frozenset({2})), _keys("craps_2"),
             one_roll=True),
    WagerDef("craps_3", "Craps Three", _one_roll("craps_3", frozenset({3})), _keys("craps_3"),
             one_roll=True),
    WagerDef("craps_12", "Craps Twelve", _one_roll("craps_12", frozenset({12})),
             _keys("craps_12"), one_roll=True),
    WagerDef("yo_11", "11 in One Roll", _one_roll("yo_11", frozenset({11})), _keys("yo_11"),
             one_roll=True),
    _split("c_and_e", "Craps-Eleven (C and E)", _c_and_e_parts),
    _split("horn", "Horn Bet", _horn_parts),
    _split("horn_high", "Horn High Bet", _horn_high_parts, "number", (2, 3, 11, 12)),
    _split("whirl", "Whirl Bet", _whirl_parts),
    WagerDef("hop", "Hop Bet", _hop, lambda q, _s: (hop_key(*q),), qualifier="dice",
             domain=HOPS, one_roll=True),
    WagerDef("six_seven_eight", "6-7-8", _six_seven_eight,
             _keys("six_seven_eight", "six_seven_eight:hard"), one_roll=True),
    WagerDef("fire", "Fire Bet", _fire, _keys("fire:4", "fire:5", "fire:6"),
             timing=Timing.NEW_SHOOTER, removal=Removal.NEVER,
             start=lambda _q, _point: (frozenset(), None),
             hand_end=lambda state: fire_result(state[0])),
)

WAGERS: dict[str, WagerDef] = {w.id: w for w in _ALL}
"""Every craps wager by its contract id."""

ODDS_BEHIND: dict[str, WagerDef] = {w.odds_of: w for w in _ALL if w.odds_of is not None}
"""The odds wager that may stand behind each flat bet, by the flat bet's id."""
