"""``croupier simulate --trace N``: one session followed roll by roll (spin by spin).

Session N is dealt the very outcomes the simulation deals it (:func:`outcome_stream` under the
same seed) and played on the reference engine (:mod:`croupier.sim.table_play`), which the tests
hold to the kernel's bankrolls to the cent. Every bet made or taken down before a roll, the
roll, every settlement and each player's bankroll after it are printed; the last line gives
each player's final bankroll, the figure the simulation counts for that session.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from croupier.events import Event, Settled
from croupier.games import game as game_entry
from croupier.sim.compile import Compiled

BET_KINDS = {"bet": "bets", "take_down": "takes down", "remove": "removes"}


class _Recorder:
    """Stands in for the reference engine's table: every event it returns is kept, in order,
    and after each roll or spin the players' chips in hand and on the layout."""

    def __init__(self, table: Any, names: list[str]) -> None:
        self._table, self._names = table, names
        self.log: list[Event | dict[str, tuple[Decimal, Decimal]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)

    def _keep(self, events: list[Event]) -> list[Event]:
        self.log.extend(events)
        if any(e.kind in ("roll", "crown", "no_spin") for e in events):
            self.log.append({n: (self._bank(n), self._table.on_table(n)) for n in self._names})
        return events

    def _bank(self, name: str) -> Decimal:
        if hasattr(self._table, "bankrolls"):
            return Decimal(self._table.bankrolls[name])
        return Decimal(self._table.players[name].bankroll)

    def bet(self, *args: Any, **kwargs: Any) -> list[Event]:
        return self._keep(self._table.bet(*args, **kwargs))

    def take_down(self, *args: Any, **kwargs: Any) -> list[Event]:
        return self._keep(self._table.take_down(*args, **kwargs))

    def roll(self, d1: int, d2: int) -> list[Event]:
        return self._keep(self._table.roll(d1, d2))

    def act(self, action: Any) -> list[Event]:
        return self._keep(self._table.act(action))


@dataclass
class Trace:
    """What one session did: the printed lines and each player's final bankroll."""
    lines: list[str] = field(default_factory=list)
    final: list[Decimal] = field(default_factory=list)
    rolls: int = 0


def trace_session(compiled: Compiled, session: int, rolls: int, bankroll: Decimal,
                  seed: int) -> Trace:
    """Play session ``session`` of a simulation under ``seed`` and describe every roll."""
    from croupier.sim.engine import outcome_stream
    from croupier.sim.table_play import seat

    outcomes = [int(o) for o in outcome_stream(seed, session, rolls, compiled.n_outcomes)]
    names = [f"p{i}" for i in range(compiled.players)]
    runner: Any = seat(compiled, bankroll)
    recorder = _Recorder(runner.table, names)
    runner.table = recorder
    run = runner.run(outcomes)
    who = {n: f"{n} {s.name}" for n, s in zip(names, compiled.strategies, strict=True)}
    trace = Trace(final=list(run.final), rolls=run.rolls)
    trace.lines = list(_lines(compiled, recorder.log, who, seed, session, bankroll))
    unit = game_entry(compiled.game).decisions
    ends = ", ".join(f"{who[n]} {amount:.2f}" for n, amount in zip(names, run.final,
                                                                      strict=True))
    trace.lines.append(f"session {session} ended after {run.rolls} {unit}: final bankroll "
                       f"(chips in hand and on the layout) {ends}")
    return trace


def _lines(compiled: Compiled, log: list[Any], who: dict[str, str], seed: int, session: int,
           bankroll: Decimal) -> Iterator[str]:
    unit = game_entry(compiled.game).decisions.removesuffix("s")
    yield (f"session {session} of seed {seed}: {' + '.join(who.values())} under "
           f"{compiled.profile}, bankroll {bankroll:.2f} each")
    count = 0
    for entry in log:
        if isinstance(entry, dict):
            yield "  bankroll: " + "; ".join(
                f"{who[n]} {bank:.2f} in hand + {down:.2f} on the layout"
                for n, (bank, down) in entry.items())
        elif entry.kind in ("roll", "crown", "no_spin"):
            count += 1
            yield f"{unit} {count}: {_outcome(entry)}"
        elif isinstance(entry, Settled):
            yield f"  {who[entry.player]}: {_settled(entry, compiled.game)}"
        elif entry.kind in BET_KINDS:
            amount = getattr(entry, "amount", None) or getattr(entry, "returned", None)
            yield (f"  {who[entry.player]} {BET_KINDS[entry.kind]} "
                   f"{wager_name(entry.wager, compiled.game)} {amount:.2f}")
        elif entry.kind == "move":
            name = wager_name(entry.wager, compiled.game)
            yield (f"  {who[entry.player]}: {name} stands on {entry.state}" if entry.to ==
                   entry.wager else f"  {who[entry.player]}: {name} moves to {entry.state}")


def wager_name(label: str, game: str) -> str:
    """A wager label as its definition names it: ``place_win:8`` is "Place Bet to Win 8"."""
    wager_id, _, qualifier = label.partition(":")
    name = game_entry(game).wager_names.get(wager_id, wager_id)
    name = name[:1].upper() + name[1:]
    return f"{name} {qualifier}" if qualifier else name


def _outcome(event: Any) -> str:
    if event.kind == "roll":
        d1, d2 = event.dice
        point = f", point {event.point_after}" if event.point_after else ", no point"
        return f"{d1} + {d2} = {event.total}{' (come-out)' if event.come_out else ''}{point}"
    if event.kind == "crown":
        return f"the ball rests in {event.number} ({event.colour})"
    return f"no spin: {event.reason}"


def _settled(e: Settled, game: str) -> str:
    text = f"{wager_name(e.wager, game)} {e.stake:.2f} {e.result}"
    if e.result == "win":
        text += f", paid {e.paid:.2f}" + (" (stays up)" if e.stays_up else "")
    elif e.result == "lose":
        text += f", {e.taken:.2f} taken"
    if e.returned and e.result != "win":
        text += f", {e.returned:.2f} returned"
    if e.commission:
        text += f", commission {e.commission:.2f}"
    return text
