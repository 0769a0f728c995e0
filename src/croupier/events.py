"""Typed, serialisable events: what happened at a table, the single source of truth for its state.

Every change to a table is an event; a table folds its events into state, so the events alone
rebuild it (``Table.from_events``). Events serialise to plain JSON with money as decimal strings.

The events every game shares are defined here, once: the table opened (each game's opening
extends :class:`Opened` with what its table opened with), a wager made, taken down and
settled, a player's chips in and out (a player joins with their first chips and leaves), a
supervisor's adjustment, a match play coupon. Each game's engine folds them
(:meth:`croupier.table.Table.apply`); each game adds its own (:mod:`croupier.craps.events`,
:mod:`croupier.roulette.events`). Ledgers keep the kinds earlier releases wrote (craps's
opening was ``open``, a roulette wager taken back ``remove``): the ledger's codec reads them
as these (:data:`croupier.service.codec.ALIASES`).

>>> from decimal import Decimal
>>> Settled("alice", "place_win:6", Decimal("12"), "win", paid=Decimal("14")).to_json()["paid"]
'14.00'
>>> bet = BetMade("ann", "split:0-00", "split", Decimal(5), numbers=(0, "00"), stake=Decimal(5))
>>> list(bet.to_json())  # a roulette wager: no qualifier, state or commission shown
['type', 'player', 'wager', 'wager_id', 'numbers', 'amount', 'stake']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, ClassVar

from croupier.money import fmt

# Fields a game leaves out of an event it shares with the others are not shown (so each
# game's events read as they always have).
_OMIT_WHEN_NONE = frozenset({"part_of", "clause", "odds", "qualifier", "state", "numbers",
                             "commission", "stake"})


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_json_value(v) for v in value)
    return value


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` names it in JSON."""

    kind: ClassVar[str] = "event"
    ledger_only: ClassVar[frozenset[str]] = frozenset()
    """Fields the ledger keeps (its codec stores every field) that the event's JSON never
    shows: the replay result lists events byte for byte as every release has."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for name, omit_none in _shown(type(self)):
            value = getattr(self, name)
            if value is None:
                if not omit_none:
                    out[name] = None
            elif type(value) in _AS_IS:
                out[name] = value
            else:
                out[name] = _json_value(value)
        return out


_AS_IS = frozenset({str, int, bool})
"""The types an event's JSON shows as they are (most of its fields): no conversion looked up."""

_SHOWN: dict[type[Event], tuple[tuple[str, bool], ...]] = {}
"""The fields each event class shows, in order, each with whether it is left out when None:
read once per class (``dataclasses.fields`` on every event answered cost a quarter of its
JSON)."""


def _shown(kind: type[Event]) -> tuple[tuple[str, bool], ...]:
    shown = _SHOWN.get(kind)
    if shown is None:
        shown = _SHOWN[kind] = tuple((f.name, f.name in _OMIT_WHEN_NONE) for f in fields(kind)
                                     if f.name not in kind.ledger_only)
    return shown


def api_json(seq: int, round_no: int, event: Event) -> dict[str, Any]:
    """An event as the server's API shows it: its place in the table's chain and its fields."""
    return {"seq": seq, "round": round_no, **event.to_json()}


@dataclass(frozen=True)
class Opened(Event):
    """The table opened: the base of every game's opening event, which adds what its table
    opened with (the players' starting chips; a craps table its first shooter, a roulette
    table its wheel, options and pay table). One kind for every game."""

    kind: ClassVar[str] = "table_opened"


@dataclass(frozen=True)
class BetMade(Event):
    """A wager put down, or ``amount`` added to the same wager (``wager`` is its key on the
    layout, as ``place_win:6`` or ``split:0-00``).

    What a game adds, keyword only (left out where None): at craps the wager's ``qualifier``
    (a hop's dice, a place bet's number), its ``state`` (a come bet's point), the
    ``commission`` paid now and the ``pays`` it is accepted at (each pay-table entry it can
    be paid at, with its odds: the wager keeps them whatever the pay table becomes); at
    roulette the ``numbers`` the wager covers and the ``stake`` now on it. ``pays`` is kept
    by the ledger and never shown in the event's JSON; a bet recorded without it (by an
    earlier release) is accepted at the pay table in force when it was made.
    """

    kind: ClassVar[str] = "bet"
    ledger_only: ClassVar[frozenset[str]] = frozenset({"pays"})
    player: str
    wager: str
    wager_id: str
    qualifier: Any = field(default=None, kw_only=True)
    state: Any = field(default=None, kw_only=True)
    numbers: tuple[int | str, ...] | None = field(default=None, kw_only=True)
    amount: Decimal
    commission: Decimal | None = field(default=None, kw_only=True)
    stake: Decimal | None = field(default=None, kw_only=True)
    pays: tuple[tuple[str, str], ...] | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class BetTakenDown(Event):
    """``amount`` of a wager back to the player's chips; ``whole`` when the wager comes off."""

    kind: ClassVar[str] = "take_down"
    player: str
    wager: str
    amount: Decimal
    whole: bool


@dataclass(frozen=True)
class Settled(Event):
    """A wager (or one part of a split wager) decided: ``result`` is win, lose, push or returned.

    ``paid`` is the winnings at ``odds``; ``commission`` what the house keeps out of them;
    ``taken`` the stake the house collects on a loss; ``returned`` the stake that goes back to
    the bankroll. The player receives ``returned + paid - commission``; ``stays_up`` when the
    stake stays on the layout after a win.
    """

    kind: ClassVar[str] = "settle"
    player: str
    wager: str
    stake: Decimal
    result: str
    paid: Decimal = Decimal(0)
    taken: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)
    commission: Decimal = Decimal(0)
    odds: str | None = None
    stays_up: bool = False
    part_of: str | None = None
    clause: str | None = field(default=None)


@dataclass(frozen=True)
class ChipsIn(Event):
    """The cashier moved ``amount`` from the player's wallet to their place at the table (a
    player not yet at the table joins it, last in the order around it)."""

    kind: ClassVar[str] = "chips_in"
    player: str
    amount: Decimal


@dataclass(frozen=True)
class ChipsOut(Event):
    """The cashier moved ``amount`` of the player's chips back to their wallet."""

    kind: ClassVar[str] = "chips_out"
    player: str
    amount: Decimal


@dataclass(frozen=True)
class Left(Event):
    """The player left the table (no chips and no wagers remain)."""

    kind: ClassVar[str] = "left"
    player: str


@dataclass(frozen=True)
class Adjusted(Event):
    """A supervisor's compensating entry: ``amount`` (signed) between the house and a player."""

    kind: ClassVar[str] = "adjust"
    player: str
    amount: Decimal
    reason: str
    by: str


@dataclass(frozen=True)
class CouponIn(Event):
    """A match play coupon of ``amount`` put with as much in chips on a wager: the coupon's
    value is staked (from the house) beside the player's chips."""

    kind: ClassVar[str] = "coupon_in"
    player: str
    wager: str
    amount: Decimal
    clause: str


@dataclass(frozen=True)
class CouponOut(Event):
    """The coupon's wager decided or taken down: unless it lost, the coupon's value goes back
    to the house (the player keeps the winnings on both and their own stake)."""

    kind: ClassVar[str] = "coupon_out"
    player: str
    wager: str
    amount: Decimal
    result: str


@dataclass(frozen=True)
class PayTableApplied(Event):
    """The house's pay table for the table's game and profile, taken at a round boundary:
    ``pays`` is the whole override table from now on (the table's ``options.pays``). Wagers
    already on the layout keep the pays they were accepted at. Only a game whose house keeps
    one pay table (craps) is given one."""

    kind: ClassVar[str] = "pay_table_applied"
    change: int
    """The house record of the change (its ``seq`` in the house's chain)."""
    pays: tuple[tuple[str, str], ...]
    clause: str


SHARED_EVENTS: tuple[type[Event], ...] = (
    BetMade, BetTakenDown, Settled, ChipsIn, ChipsOut, Left, Adjusted, CouponIn, CouponOut,
    PayTableApplied,
)


def taken_from_hand(events: Iterable[Event], player: str) -> Decimal:
    """What ``events`` take from ``player``'s chips in hand, less what they put in it: each
    wager's stake and the commission paid as it is made, net of chips bought in or given
    (a coupon's). Negative when the hand grows.

    >>> bet = BetMade("ann", "buy:4", "buy", Decimal("150"), commission=Decimal("7.50"))
    >>> taken_from_hand([bet, BetMade("bo", "field", "field", Decimal(5))], "ann")
    Decimal('157.50')
    """
    taken = Decimal(0)
    for event in events:
        if isinstance(event, BetMade) and event.player == player:
            taken += event.amount + (event.commission or 0)
            continue
        moved = chips_moved(event)
        if moved is not None and moved[0] == player:
            taken -= moved[1]
    return taken


def chips_moved(event: Event) -> tuple[str, Decimal, Decimal] | None:
    """For a shared event that moves chips: (player, to the player's chips, to the house).

    The one reading of these events both engines fold, so they cannot disagree.
    """
    if isinstance(event, ChipsIn):
        return event.player, event.amount, Decimal(0)
    if isinstance(event, ChipsOut):
        return event.player, -event.amount, Decimal(0)
    if isinstance(event, (Adjusted, CouponIn)):
        return event.player, event.amount, -event.amount
    if isinstance(event, CouponOut):
        return event.player, -event.amount, event.amount
    return None
