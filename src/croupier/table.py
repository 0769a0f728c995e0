"""The one interface every game's table implements (craps and roulette alike).

A table is opened (:meth:`croupier.games.Game.open`) or rebuilt from its events
(:meth:`croupier.games.Game.rebuild`); :meth:`Table.check` says what an action would do (its
events, or the :class:`~croupier.errors.Refusal`) without changing anything; :meth:`Table.act`
checks and then folds the events in with :meth:`Table.apply`, the only code that changes a
table once it is made (its keeper sets only ``keep_log`` and ``earlier_release_pays``). The
service and the replay speak to a table only through this interface; the analysis and the
simulator of a family also ask its engine for a stake's or a bet's own check and a
commission.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

from croupier.events import Event, api_json
from croupier.money import ZERO, fmt


class Table(Protocol):
    """A table of any game."""

    house: Decimal
    """What the house has won (collected less paid): chips + stakes + house is constant."""
    keep_log: bool
    """Whether the table keeps its own event list (a server, whose ledger has it, does not)."""
    earlier_release_pays: bool
    """Settle a wager whose bet recorded no pays at the pay table in force at the decision, as
    the releases before wagers kept their pays did (the audit re-derives their records so)."""

    def apply(self, event: Event) -> None:
        """Fold one event (the game's own or a shared one) into the table."""

    def check(self, action: Any) -> list[Event]:
        """The events of ``action`` or the refusal; the table is unchanged either way."""

    def act(self, action: Any) -> list[Event]:
        """Check ``action`` and fold its events in."""

    def seats(self) -> list[str]:
        """The players at the table, in their order around it."""

    def seated(self) -> list[str]:
        """The players in a seat, where the game seats players (else empty)."""

    def chips(self, player: str) -> Decimal:
        """The chips in ``player``'s hand (0 for a player not at the table)."""

    def on_table(self, player: str) -> Decimal:
        """What ``player`` has on the layout."""

    def purses(self, players: Iterable[str]) -> dict[str, tuple[Decimal, Decimal]]:
        """The chips in hand and on the layout of each of ``players`` who is at the table
        (one look at the layout for all of them; a player not at the table is left out)."""

    def layout(self) -> list[tuple[str, str, Decimal]]:
        """Every wager on the layout: (player, wager key, stake)."""

    def offer(self) -> dict[str, Any]:
        """What the table offers: its wagers with their clauses, pay table, limits, clauses."""

    def state_json(self) -> dict[str, Any]:
        """Where the game stands (the replay result's ``state``)."""

    def opening_json(self) -> dict[str, Any]:
        """The opening event as the replay result lists it."""

    def event_json(self, event: Event) -> dict[str, Any]:
        """An event as the replay result lists it: under the name and fields every release
        has given it there (results are compared byte for byte across releases), which for
        a shared event may be the game's older own."""

    def live_state(self) -> dict[str, Any]:
        """Where the game stands, as the server shows it (the replay's state and more)."""

    def has_seating(self) -> bool:
        """Whether only seated players wager at this table."""

    def draw_ranges(self) -> tuple[int, ...]:
        """How many equally likely values each part of an outcome takes: two dice (6, 6), a
        wheel (its pockets). A random draw gives one index in each."""

    def outcome_from(self, indices: tuple[int, ...]) -> tuple[Any, ...]:
        """The outcome a draw's indices give (the dice, or the pocket)."""

    def outcome_of(self, event: Event) -> tuple[Any, ...] | None:
        """The outcome an event decides with (a roll's dice, the ball's pocket), or None for
        an event that decides nothing."""

    def unpayable(self) -> list[tuple[str, str, str]]:
        """Each wager on the layout its own pays cannot pay in the table unit: (player, wager
        key, why). Empty while every stake is checked payable when it is made."""


NO_PURSE = (ZERO, ZERO)
"""The seat of a player who has left the table: nothing in hand, nothing on the layout."""


@dataclass(frozen=True)
class Answer:
    """What the server answers of an action, as the table stands after it."""

    events: list[dict[str, Any]]
    """Each event as the API shows it (:func:`croupier.events.api_json`), in order."""
    seats: dict[str, tuple[Decimal, Decimal]]
    """The chips in hand and on the layout of each player asked (a player who has left the
    table: :data:`NO_PURSE`)."""
    you: dict[str, str] | None
    """The caller's chips, formatted (``chips``, ``on_table``); None if not at the table."""


def fold_in(table: Table, events: Iterable[Event]) -> None:
    """Fold ``events`` (the game's own and shared ones, in order) into ``table``."""
    for event in events:
        table.apply(event)


def players_of(events: Iterable[Event]) -> set[str]:
    """The players ``events`` name (those an action concerns)."""
    named = (getattr(event, "player", None) for event in events)
    return {player for player in named if isinstance(player, str)}


def answer(table: Table, placed: Iterable[tuple[int, int, Event]], players: AbstractSet[str],
           you: str, *, due: Iterable[Event] = (), everyone: bool = False) -> Answer:
    """The answer of an action whose events were ``placed`` (seq, round, event) at ``table``:
    the events as shown, the seats of ``players`` (those it concerns; ``everyone``: and every
    player at the table) and the chips of ``you`` (the caller), from one look at the layout.

    ``due``: the action's events for the table that its keeper has noted and not yet folded
    in; they are folded first (:func:`fold_in`), so the keeper hands the table an action once.

    >>> from decimal import Decimal
    >>> from croupier.games import GAMES
    >>> from croupier.rules import load_profile
    >>> craps = GAMES["craps"]
    >>> table = craps.open(load_profile("nj-13-69f"), {}, {"ann": Decimal(100)})
    >>> events = table.check(craps.read_action({"bet": "pass", "player": "ann",
    ...                                          "amount": "10"}, "body", ["ann"], table))
    >>> answer(table, [(2, 1, events[0])], set(), "ann", due=events).you
    {'chips': '90.00', 'on_table': '10.00'}
    """
    fold_in(table, due)
    if everyone:
        players = players | set(table.seats())
    purses = table.purses(players | {you})
    purse = purses.get(you)
    mine = None if purse is None else {"chips": fmt(purse[0]), "on_table": fmt(purse[1])}
    return Answer([api_json(seq, round_no, event) for seq, round_no, event in placed],
                  {p: purses.get(p, NO_PURSE) for p in players}, mine)
