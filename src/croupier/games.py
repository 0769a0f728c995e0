"""The game registry: every game croupier plays, and everything that differs between them.

No other module lists the games or asks a game's name: each asks its :class:`Game` here (its
table class and events, how its options and actions are read, how the table is opened or
rebuilt, what the server's procedures need to know).

>>> [g.name for g in GAMES.values()]
['craps', 'mini-craps', 'automated-craps', 'roulette']
>>> list(FAMILIES), game("mini-craps").default_profile
(['craps', 'roulette'], 'nj-13-69f')
>>> from croupier.rules import load_profile
>>> table = game("automated-craps").open(load_profile("nj-13-69f"), {}, {})
>>> "fire" in table.offer()["wagers"], table.state_json()["shooter"]
(False, None)
>>> game("craps").late_bet(load_profile("nj-13-69f")).supervisor
'boxperson'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from croupier.craps import events as craps_events
from croupier.craps.config import OPTION_KEYS as CRAPS_OPTION_KEYS
from croupier.craps.config import CrapsConfig, CrapsVariant
from croupier.craps.reading import read_action as read_craps_action
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS as CRAPS_WAGERS
from croupier.errors import Malformed, Refusal
from croupier.events import Event
from croupier.money import show_json
from croupier.reading import body_action, did_you_mean
from croupier.roulette import events as roulette_events
from croupier.roulette.reading import OPTION_KEYS as ROULETTE_OPTION_KEYS
from croupier.roulette.reading import read_action as read_roulette_action
from croupier.roulette.reading import read_options as read_roulette_options
from croupier.roulette.table import RouletteTable
from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
from croupier.rules import CrapsRules, GameRules, Profile
from croupier.rules.late_bets import late_bet
from croupier.rules.profile import LateBetConfirmation
from croupier.table import Answer, Table, answer, players_of

Opener = Callable[[Profile, Mapping[str, Any], Mapping[str, Decimal]], Table]
ActionReader = Callable[[Any, str, Collection[str], Any], Any]
RulesOf = Callable[[Profile], GameRules | None]


@dataclass(frozen=True)
class Vetting:
    """What the caller of :meth:`Game.take` (the server) checks of a wager around the game's
    reading and the table's check, each check raising to refuse."""

    check: bool
    """Whether the table checks the action (else the caller plans it: a late bet, a coupon)."""
    up_to: Decimal
    """An amount ``vet`` passes for certain, as every smaller one: only an action whose amount
    is above it is put to ``vet`` (``-Infinity``: every action is)."""
    absent: Callable[[], None]
    """For a player not at the table: raises, before the body is read."""
    vet: Callable[[Any], None]
    """The caller's checks of a read action, before the table's."""
    confirmed: AbstractSet[str] = frozenset()
    """Wagers the caller checks again once the table has checked them, before they are
    folded in (``confirm``): at roulette, a wager the profile takes only on an approved
    layout, whose refusal by the table's own options comes first."""
    confirm: Callable[[Any], None] = lambda action: None
    """The caller's check of an action whose wager is in ``confirmed``, after the table's."""
    at: tuple[int, int] | None = None
    """Where the action's events go in the table's chain: (the place of the first, the round).
    Given, nothing the caller checks follows the table's check, so the table folds the events
    in and answers in the same call (:attr:`Taken.answer`); None, the caller folds them."""


@dataclass(frozen=True)
class Taken:
    """A wager taken by :meth:`Game.take`: the action read, its events (None where the table
    did not check it), and, where the table folded them in, what it answers."""

    action: Any
    events: list[Event] | None
    answer: Answer | None = None


@dataclass(frozen=True)
class Game:
    """One game: how to open its table and read its actions, and the facts the server needs."""

    name: str
    family: str
    """Games of one family share a table class and its events (the craps games)."""
    table_class: type
    events: tuple[type[Event], ...]
    """The game's own events; the shared ones (:data:`croupier.events.SHARED_EVENTS`) too."""
    default_capacity: int
    has_shooter: bool
    """A player throws the dice (and the dice pass around the table)."""
    uses_dice: bool
    """Dice are equipment the table keeps (offered, selected, changed, inspected)."""
    dealer_enters_results: bool
    """The dealer may enter a physical result instead of the RNG's (not where a device
    throws the dice, as at automated craps: there the RNG alone decides)."""
    decisions: str
    """What decides its wagers, in the plural: ``rolls`` or ``spins``."""
    opener: Opener
    action_reader: ActionReader
    rules_of: RulesOf
    """The section of a rule profile holding its rules (a profile without one: None)."""
    default_profile: str
    """The profile it is read under when none is named: the fullest regulation covering it."""
    wager_names: Mapping[str, str]
    """Every wager its engine knows, id -> name, in the engine's order (whether a table
    offers one is the profile's and the options' say: :meth:`offer`)."""
    house_pay_table: bool
    """The house pays the same odds at every table of the game and profile (the craps
    texts' uniform-pay rule, 13:69F-1.4(b)); a change of it applies to every such table."""
    procedures: str
    """The module of the live server's procedures around this family's tables (the dice
    and the shooter, late bets, the ball and wheel): named here, imported only by the
    server, so the server never asks which game a table plays."""
    analysis: str
    """The module of this family's exact analysis (its edge table and notes, the check of a
    proposed pay table, its wagers' reference): named here, imported only by the analysis
    (:func:`croupier.analysis.family.analysis_of`), so the analysis never asks which game a
    table plays."""
    option_keys: tuple[str, ...]
    """The table options its tables read (``options`` of the replay contract)."""
    elects_wagers: bool
    """A table option named by one of its wagers' ids elects whether the table offers that
    wager (the optional wagers of the craps texts, as ``six_seven_eight``)."""
    equipment: frozenset[str]
    """The kinds of gaming equipment its tables play with, as the equipment register names
    them (``table``, ``wheel``, ``ball``, ``layout``, ``dice``): the register places no other
    kind at one of its tables."""

    def rules(self, profile: Profile) -> GameRules | None:
        """Its rules under ``profile`` (None where the profile has no section for them)."""
        return self.rules_of(profile)

    def open(self, profile: Profile, options: Mapping[str, Any],
             players: Mapping[str, Decimal]) -> Table:
        """A new table under ``profile`` with ``options`` (Malformed, naming ``options.KEY``,
        for options the profile does not allow) and the players' starting chips."""
        if not profile.covers(self.name):
            raise Malformed("game", f"{self.name} is not a game that {profile.id} "
                            f"({profile.title}) covers")
        try:
            return self.opener(profile, options, players)
        except Malformed as exc:
            raise exc if exc.where.startswith("options") else exc.under("options") from None

    def rebuild(self, profile: Profile, options: Mapping[str, Any],
                events: Iterable[Event]) -> Table:
        """The table as its events leave it (opened empty, then every event folded in)."""
        table = self.open(profile, options, {})
        for event in events:
            table.apply(event)
        return table

    def read_action(self, raw: Any, where: str, players: Collection[str], table: Table) -> Any:
        """One action of this game, checked for form (Malformed naming the place)."""
        return self.action_reader(raw, where, players, table)

    def read_body(self, table: Table, verb: str, body: Mapping[str, Any], player: str,
                  amount: Decimal | str | None = None, *,
                  seats: Collection[str] | None = None) -> Any:
        """The action of a request's body naming a wager (``verb``: ``bet``, ``remove``,
        ``reduce``, ``on``, ``off``, ...) by ``player`` at ``table``, read as the replay reads
        a transcript's (:func:`croupier.reading.body_action`), the place named ``body``: the
        same typed action and the same Malformed for the same mistake. ``seats``: the table's,
        where the caller has them already."""
        raw = body_action(verb, body, player, amount)
        try:
            return self.action_reader(raw, "body", table.seats() if seats is None else seats,
                                      table)
        except Malformed as exc:
            if exc.where != f"body.{verb}":
                raise
            # The reader names the transcript's key (the verb); the request's field is ``wager``.
            raise Malformed("body.wager", exc.message) from None

    def take(self, table: Table, verb: str, body: Mapping[str, Any], player: str,
             vetting: Vetting) -> Taken:
        """A request's wager read, checked and, where the caller says where its events go
        (``vetting.at``), folded in and answered, in one call: ``player``'s action (as
        :meth:`read_body` reads it, the amount the body's) and, where ``vetting.check``, its
        events as :meth:`Table.check` gives them (else None: the caller plans it otherwise).
        In between the caller's own checks run, in this order: ``vetting.absent()`` first, for
        a player not at the table; then, once the body is read, ``vetting.vet(action)`` for an
        action whose amount is above ``vetting.up_to`` (at most that, they cannot refuse it);
        after the table's check, ``vetting.confirm(action)`` for a wager in
        ``vetting.confirmed``.

        >>> from croupier.rules import load_profile
        >>> craps = GAMES["craps"]
        >>> table = craps.open(load_profile("nj-13-69f"), {}, {"ann": Decimal(100)})
        >>> def refuse(*_: object) -> None: raise AssertionError("not asked")
        >>> taken = craps.take(table, "bet", {"wager": "pass", "amount": "10"}, "ann",
        ...                    Vetting(True, Decimal(100), refuse, refuse, at=(2, 1)))
        >>> taken.answer.you, taken.answer.events[0]["seq"], table.chips("ann")
        ({'chips': '90.00', 'on_table': '10.00'}, 2, Decimal('90'))
        """
        seats = table.seats()
        if player not in seats:
            vetting.absent()
        action = self.read_body(table, verb, body, player, body.get("amount"), seats=seats)
        # An amount at most ``up_to`` passes the caller's checks: not asking them changes no
        # answer, and the table's check still comes after them whenever they could refuse.
        if action.amount > vetting.up_to:
            vetting.vet(action)
        if not vetting.check:
            return Taken(action, None)
        events = table.check(action)
        if action.wager in vetting.confirmed:
            vetting.confirm(action)
        if vetting.at is None:
            return Taken(action, events)
        return Taken(action, events, _fold_and_answer(table, events, vetting.at, player))

    def offer(self, profile: Profile, options: Mapping[str, Any]) -> dict[str, Any]:
        """What a table of this game offers under ``profile`` with ``options``."""
        return self.open(profile, options, {}).offer()

    def late_bet(self, profile: Profile) -> LateBetConfirmation:
        """Who confirms a wager made at this game's table under ``profile`` while the dice are
        in the air (the dealer and the supervisor the clause names: ``.by``, ``.supervisor``,
        ``.clause``), or the :class:`~croupier.errors.Refusal` citing the clause: the profile
        takes no late bets, or no shooter throws here (automated craps), or the profile names
        no one to confirm one here. For the games whose dice are thrown (the craps family)."""
        if not isinstance(self.rules(profile), CrapsRules):
            raise TypeError(f"no dice are thrown at {self.name}")
        return late_bet(profile, self.name, shooter=self.has_shooter)


def _fold_and_answer(table: Table, events: list[Event], at: tuple[int, int],
                     player: str) -> Answer:
    """``events``, checked, folded into ``table`` from the place ``at`` and answered. Folding
    a checked action cannot be refused: a refusal raised here is a fault, never an answer
    (the table may have changed), so it is raised as one and the keeper rebuilds the table."""
    first, round_no = at
    try:
        return answer(table, [(first + i, round_no, e) for i, e in enumerate(events)],
                      players_of(events), player, due=events)
    except Refusal as fault:
        raise RuntimeError(f"folding a checked action was refused: {fault}") from fault


def _craps_opener(variant: CrapsVariant) -> Opener:
    def open_craps(profile: Profile, options: Mapping[str, Any],
                   players: Mapping[str, Decimal]) -> Table:
        config = CrapsConfig.from_options(profile, dict(options), variant)
        return CrapsTable(config, dict(players))
    return open_craps


def _open_roulette(profile: Profile, options: Mapping[str, Any],
                   players: Mapping[str, Decimal]) -> Table:
    return RouletteTable.open(profile.id, read_roulette_options(dict(options), profile), players)


def _read_craps(raw: Any, where: str, players: Collection[str], table: Any) -> Any:
    return read_craps_action(raw, where, players)


def _read_roulette(raw: Any, where: str, players: Collection[str], table: Any) -> Any:
    return read_roulette_action(raw, where, players, table.wheel.id)


CRAPS_EVENTS: tuple[type[Event], ...] = (
    craps_events.TableOpened, craps_events.CalledOn, craps_events.Seated, craps_events.Rolled,
    craps_events.Moved, craps_events.ShooterChanged,
    craps_events.CalledDownOnWin, craps_events.CalledOffDuringPoint,
)
ROULETTE_EVENTS: tuple[type[Event], ...] = (
    roulette_events.TableOpened, roulette_events.NoSpin, roulette_events.Crowned, roulette_events.FifthMoved,
    roulette_events.LayoutWithdrawn,
)


def _craps_rules(profile: Profile) -> GameRules | None:
    return profile.craps


def _roulette_rules(profile: Profile) -> GameRules | None:
    return profile.roulette


CRAPS_WAGER_NAMES = MappingProxyType({w.id: w.name for w in CRAPS_WAGERS.values()})
ROULETTE_WAGER_NAMES = MappingProxyType({w.id: w.name for w in ROULETTE_WAGERS.values()})


CRAPS_EQUIPMENT = frozenset({"table", "layout"})
"""What every craps table plays with; dice too where a shooter throws them (a device's dice
are the RNG's: automated craps keeps none, ``uses_dice``)."""


def _craps_game(name: str, *, capacity: int, full_game: bool, device: bool) -> Game:
    variant = CrapsVariant(name, full_game=full_game, shooter=not device)
    return Game(name, "craps", CrapsTable, CRAPS_EVENTS, capacity, has_shooter=not device,
                uses_dice=not device, dealer_enters_results=not device, decisions="rolls",
                opener=_craps_opener(variant), action_reader=_read_craps,
                rules_of=_craps_rules, default_profile="nj-13-69f",
                wager_names=CRAPS_WAGER_NAMES, house_pay_table=True,
                procedures="croupier.service.procedures.craps",
                analysis="croupier.analysis.craps", option_keys=CRAPS_OPTION_KEYS,
                elects_wagers=True, equipment=CRAPS_EQUIPMENT | (
                    frozenset() if device else frozenset({"dice"})))


GAMES: dict[str, Game] = {g.name: g for g in (
    _craps_game("craps", capacity=16, full_game=True, device=False),
    # 13:69F-1.3(f): only seated players wager at mini-craps (the profile's seated_games).
    _craps_game("mini-craps", capacity=9, full_game=False, device=False),
    # Craps whose dice a device throws: no shooter, no fire bet (13:69F-1.2(a)), RNG dice only.
    _craps_game("automated-craps", capacity=16, full_game=False, device=True),
    Game("roulette", "roulette", RouletteTable, ROULETTE_EVENTS, 8, has_shooter=False,
         uses_dice=False, dealer_enters_results=True, decisions="spins", opener=_open_roulette,
         action_reader=_read_roulette, rules_of=_roulette_rules,
         default_profile="nj-casino-night", wager_names=ROULETTE_WAGER_NAMES,
         house_pay_table=False, procedures="croupier.service.procedures.roulette",
         analysis="croupier.analysis.roulette", option_keys=ROULETTE_OPTION_KEYS,
         elects_wagers=False, equipment=frozenset({"table", "layout", "wheel", "ball"})),
)}
GAME_NAMES: tuple[str, ...] = tuple(GAMES)
"""The games' names, in the registry's order (what a reader lists as expected)."""
FAMILIES: dict[str, Game] = {
    family: next(g for g in GAMES.values() if g.family == family)
    for family in dict.fromkeys(g.family for g in GAMES.values())}
"""Each family by its name, as its first game (the game the family is named after): the
analysis speaks of a family's wagers and rules (one section of each profile) once."""


def game(name: object, where: str = "game") -> Game:
    """The game named ``name``; Malformed (at ``where``) for any other name."""
    if not isinstance(name, str) or name not in GAMES:
        raise Malformed(where, f"unknown game {show_json(name)}; expected one of "
                        f"{', '.join(GAME_NAMES)}{did_you_mean(name, GAMES)}")
    return GAMES[name]


def offered(game_name: str, profile_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The wagers a table of ``game`` offers under ``profile_id`` with ``options``: their ids
    (with the clause permitting each), the pay table in force, the profile's settings the page
    needs, and for roulette the wheel (the table's own offer, :meth:`Table.offer`). Malformed
    if the profile, game or options are not."""
    from croupier.rules import PROFILE_IDS, load_profile

    if profile_id not in PROFILE_IDS:
        raise Malformed("profile", f"unknown profile {profile_id!r}")
    profile = load_profile(profile_id)
    played = game(game_name)
    if not profile.covers(played.name):
        raise Malformed("game", f"{profile_id} does not cover {game_name}")
    return played.offer(profile, options)
