"""Re-deriving every settlement and balance by playing the recorded outcomes through the engine.

Each table is rebuilt through the service's own rebuild path
(:func:`croupier.service.ledger.rebuild_table`). Before a recorded roll or spin is folded, the
engine is asked what that outcome settles at the table as it then stands, and its answer must
equal the recorded events one for one (the roll itself, every settlement, every move); an RNG
draw's raw bytes must scale to the recorded outcome. Then the balances the events give must
equal the seats, the house and the wallets the database holds, the wallets must equal their
entries, every chip a table took in or paid out must match a wallet entry, and everything must
add up to what was deposited. Sums are taken in Python's exact integers.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from croupier.events import Event
from croupier.money import fmt
from croupier.service import codec, rounds, store
from croupier.service import events as sv
from croupier.service.audit.snapshot import Finding, Snapshot
from croupier.service.live import LiveTable, PendingOutcome
from croupier.service.rng import scale_byte
from croupier.service.tables import Decoded, rebuild_table


def describe(recorded: Event, derived: Event) -> str:
    """What differs between a recorded event and the one the engine derives."""
    if type(recorded) is not type(derived):
        return f"recorded {recorded.kind} {recorded.to_json()}, the engine gives {derived.to_json()}"
    parts = []
    for f in dataclasses.fields(recorded):
        a, b = getattr(recorded, f.name), getattr(derived, f.name)
        if a != b:
            parts.append(f"{f.name}: recorded {_show(a)}, the engine gives {_show(b)}")
    return f"{recorded.kind}: " + "; ".join(parts)


def _show(value: Any) -> str:
    return fmt(value) if hasattr(value, "quantize") else repr(value)


def _draw_outcome(raw: Iterable[int], sizes: list[int]) -> list[int] | None:
    """The indices the raw bytes give under rejection sampling (None if too few bytes)."""
    out: list[int] = []
    it = iter(raw)
    for n in sizes:
        for b in it:
            scaled = scale_byte(b, n)
            if scaled is not None:
                out.append(scaled)
                break
        else:
            return None
    return out


def _derive(live: LiveTable, event: Event,
            recorded: Callable[[int], list[Event]]) -> list[Event] | None:
    """The events the table gives for a recorded decision at the table as it stands: each
    wager at the pays it was accepted at, or, where that differs from the record, wagers bet
    before the ledger kept their pays at the pay table in force at the decision, as the
    release that recorded them settled them."""
    action = live.procedures.settles(event)
    if action is None:
        return None
    derived: list[Event] = live.table.check(action)
    if derived != recorded(len(derived)):
        live.table.earlier_release_pays = True
        try:
            earlier: list[Event] = live.table.check(action)
        finally:
            live.table.earlier_release_pays = False
        if earlier == recorded(len(earlier)):
            return earlier
    return derived


def _check_draw(live: LiveTable, draw: sv.Drawn, event: Event) -> str | None:
    """Whether an RNG draw's raw bytes scale to the outcome recorded with it and settled."""
    recorded = live.table.outcome_of(event)
    if recorded is None or live.procedures.settles(event) is None:
        return None
    got = _draw_outcome(draw.raw, list(live.table.draw_ranges()))
    expected = live.table.outcome_from(tuple(got)) if got is not None else None
    if expected != recorded or tuple(draw.outcome) != recorded:
        return (f"the raw draw {list(draw.raw)} gives {_shown(expected)!r} but "
                f"{_shown(recorded)!r} was recorded")
    return None


def _shown(outcome: tuple[Any, ...] | None) -> Any:
    """An outcome as a finding names it: the dice as a pair, a pocket by itself."""
    return outcome if outcome is None or len(outcome) > 1 else outcome[0]


def _check_entered(live: LiveTable, pending: PendingOutcome, event: Event) -> str | None:
    """Whether the roll or spin settled is the one the dealer entered."""
    settled = live.table.outcome_of(event)
    if settled is None or settled == pending.outcome:
        return None
    return f"{list(pending.outcome)} was entered but {list(settled)} was settled"


@dataclass
class Replayed:
    """A table replayed: the table (None if its events cannot be played), what differs, and
    the cents each player brought to it net (chips in less chips out)."""

    live: LiveTable | None
    findings: list[Finding] = field(default_factory=list)
    moved: dict[str, int] = field(default_factory=dict)


def _count_chips(moved: dict[str, int], event: Event) -> None:
    if isinstance(event, sv.ChipsIn):
        moved[event.player] = moved.get(event.player, 0) + store.cents(event.amount)
    elif isinstance(event, sv.ChipsOut):
        moved[event.player] = moved.get(event.player, 0) - store.cents(event.amount)


class RoundCheck:
    """The rounds recall shows (``rounds`` rows, a projection) against the replay: each
    round not voided must show the outcome its events decided, the draw, the balances before
    it and the wagers in action as the decision found them, and the balances it left. Every
    round the chain decides (a decision folded in it, or a void naming it) has a row, and no
    other round one (where the rows were read from the ledger: a bundle carries none)."""

    def __init__(self, where: str, rows: dict[int, dict[str, Any]] | None) -> None:
        self.where, self.rows, self.given = where, rows or {}, rows is not None
        self.round: int | None = None
        self.decided: list[Event] = []
        self.before: dict[str, Any] | None = None
        self.findings: list[Finding] = []
        self.decided_rounds: set[int] = set()
        """The rounds the chain decides."""
        self.voids: dict[int, dict[str, Any]] = {}
        """Each round the chain voids, and what its row must show of the void."""

    def see(self, live: LiveTable, round_no: int, event: Event) -> None:
        """Before ``event`` (of round ``round_no``) is folded into ``live``."""
        if round_no != self.round:
            self.close(live)
            self.round, self.decided, self.before = round_no, [], None
        if isinstance(event, sv.Voided):
            self.decided_rounds.add(event.decision)
            self.voids[event.decision] = rounds.void_mark(event)
        settles = live.procedures.settles(event) is not None
        if self.before is None and settles:
            # The decision itself: the table as it finds it, as the round's row was written
            # (after whatever a supervisor's resolution of a halt returned first).
            self.before = {"before": live.balances(), "layout": live.layout()}
            if live.pending is not None:
                self.before["draw"] = rounds.draw_of(live.pending)
        if self.decided or settles:
            self.decided.append(event)

    def close(self, live: LiveTable) -> None:
        """The round under way ends with ``live`` as its events leave it."""
        if live.decided is not None and live.decided[1] == self.round:
            self.decided_rounds.add(self.round)
        row = self.rows.get(self.round) if self.round is not None else None
        if row is None or row["voided"] is not None or not self.decided:
            return
        shown = {"outcome": {k: v for k, v in json.loads(row["outcome"]).items()
                             if k != "from_seq"},
                 "after": json.loads(row["after"])}
        given = {"outcome": live.procedures.describe(self.decided), "after": live.balances()}
        if self.before is not None:
            shown.update({k: json.loads(row[k]) for k in self.before})
            given.update(self.before)
        for what, value in given.items():
            value = json.loads(json.dumps(value, default=str))
            if shown[what] != value:
                self.findings.append(Finding(self.where, None, (
                    f"round {self.round}: recall shows the {_NAMES[what]} {shown[what]}, its "
                    f"events give {value}")))

    def unmatched(self) -> list[Finding]:
        """Once every round is closed: the rounds the chain decides without a row, and the
        rows of rounds it does not decide."""
        if not self.given:
            return []
        return [Finding(self.where, None, (
            f"round {r}: its events decide it, but recall has no row of it"
            if r in self.decided_rounds else
            f"round {r}: recall shows a row of it, but its events decide no such round"))
            for r in sorted(self.decided_rounds ^ set(self.rows))] + self._void_marks()

    def _void_marks(self) -> list[Finding]:
        """Each row's void mark against the chain's voids. A row marked voided is not compared
        with its decision (the chain no longer counts it), so a mark written into a row whose
        round stands hid that round's outcome and balances, rewritten or not, from the audit,
        while recall showed it voided."""
        findings = []
        for r, row in sorted(self.rows.items()):
            shown = json.loads(row["voided"]) if row["voided"] is not None else None
            given = self.voids.get(r)
            if shown == given:
                continue
            if given is None:
                what = f"recall shows it voided {shown}, but no event voids it"
            elif shown is None:
                what = f"its events void it {given}, but recall does not show it voided"
            else:
                what = f"recall shows it voided {shown}, but its events void it {given}"
            findings.append(Finding(self.where, None, f"round {r}: {what}"))
        return findings


class PlayersCheck:
    """Who may look up each decided round (``round_players`` rows, a projection written with
    the decision: the players its events name and those with a wager in action when it was
    decided) against the chain. The replay gives, for each round, the players named in its
    events (voided ones too: they were named when the round was decided), the players with a
    wager on the layout as the round began and as its decision found it; any change to the
    layout between those names its player. Every round the chain decides (a decision folded in
    it, or a void naming it) must list exactly those players, and no other round any."""

    def __init__(self, where: str, rows: list[dict[str, Any]],
                 listed: dict[int, set[str]] | None) -> None:
        self.where, self.listed = where, listed
        self.named: dict[int, set[str]] = {}
        for r in rows if listed is not None else ():
            if r.get("player") is not None:
                self.named.setdefault(int(r["round"]), set()).add(str(r["player"]))
        self.started: dict[int, set[str]] = {}
        """Each round's players with a wager on the layout as its first event not voided
        found it (a round none of whose events counts stood as the next one began)."""
        self.decision: dict[int, set[str]] = {}
        """Each round's players with a wager on the layout as its decision found it."""
        self.round: int | None = None

    def see(self, live: LiveTable, round_no: int, event: Event) -> None:
        """Before ``event`` (of round ``round_no``) is folded into ``live``."""
        if self.listed is None:
            return
        if round_no != self.round:
            self.round = round_no
            self.started.setdefault(round_no, {p for p, _, _ in live.table.layout()})
        if live.procedures.settles(event) is not None:
            self.decision.setdefault(round_no, set()).update(
                p for p, _, _ in live.table.layout())

    def _given(self, r: int, starts: list[int]) -> set[str]:
        """The players round ``r``'s events give (a round the chain decides)."""
        at = bisect.bisect_left(starts, r)
        started = self.started[starts[at]] if at < len(starts) else set()
        return self.named.get(r, set()) | started | self.decision.get(r, set())

    def findings(self, decided: set[int]) -> list[Finding]:
        """Once every round is replayed, with the rounds the chain decides (``decided``, from
        :class:`RoundCheck`): each listed with the players it gives, every other with none."""
        if self.listed is None:
            return []
        out = []
        starts = sorted(self.started)
        for r in sorted(decided | set(self.listed)):
            listed = self.listed.get(r, set())
            given = self._given(r, starts) if r in decided else set()
            if listed != given:
                out.append(Finding(self.where, None, (
                    f"round {r}: round_players lets {sorted(listed)} look it up, its events "
                    f"give {sorted(given)}")))
        return out


_NAMES = {"outcome": "outcome", "after": "balances after it", "draw": "draw",
          "before": "balances before it", "layout": "wagers in action"}


def replay_table(t: dict[str, Any], rows: list[dict[str, Any]],
                 round_rows: dict[int, dict[str, Any]] | None = None,
                 round_players: dict[int, set[str]] | None = None) -> Replayed:
    """The table rebuilt from its events with every outcome re-derived; what differs. With
    ``round_rows`` (the table's ``rounds`` rows), each round as recall shows it is compared
    with what its events give; with ``round_players`` (its ``round_players`` rows, by round),
    who may look each round up."""
    where = f"table {t['id']}"
    out = Replayed(None)
    findings = out.findings
    current = [0]
    recalled = RoundCheck(where, round_rows)
    players = PlayersCheck(where, rows, round_players)

    def before(live: LiveTable, i: int, decoded: Decoded) -> None:
        seq, round_no, event = decoded[i]
        current[0] = seq
        recalled.see(live, round_no, event)
        players.see(live, round_no, event)
        _count_chips(out.moved, event)
        pending = live.pending
        if pending is not None and isinstance(event, (sv.Drawn, sv.Entered)):
            findings.append(Finding(where, seq, (
                f"an outcome recorded while the outcome {list(pending.outcome)} at event "
                f"{pending.seq} waited to be settled: an outcome is drawn or entered once")))
        if pending is not None:
            problem = (_check_draw(live, pending.event, event)
                       if isinstance(pending.event, sv.Drawn)
                       else _check_entered(live, pending, event))
            if problem:
                findings.append(Finding(where, pending.seq, problem))
        derived = _derive(live, event, lambda n: [e for _, _, e in decoded[i:i + n]])
        if derived is None:
            return
        recorded = [e for _, _, e in decoded[i:i + len(derived)]]
        for k, (rec, der) in enumerate(zip(recorded + [None] * len(derived), derived,
                                           strict=False)):
            if rec != der:
                if rec is None:
                    what = f"the engine gives {der.kind} {der.to_json()}, not recorded"
                else:
                    what = describe(rec, der)
                findings.append(Finding(where, decoded[i + k][0] if rec is not None else seq,
                                        what))
                return

    try:
        out.live = rebuild_table(SimpleNamespace(**t), [(r["seq"], r["round"], r["payload"])
                                                        for r in rows], before)
    except Exception as exc:
        findings.append(_unreadable(t, rows) or Finding(
            where, current[0], f"the engine cannot play this event: {exc!r}"))
        return out
    recalled.close(out.live)
    findings.extend(recalled.findings)
    findings.extend(recalled.unmatched())
    findings.extend(players.findings(recalled.decided_rounds))
    return out


def _unreadable(t: dict[str, Any], rows: list[dict[str, Any]]) -> Finding | None:
    """The first event that cannot be decoded, if any."""
    for r in rows:
        try:
            codec.decode(t["game"], r["payload"])
        except Exception as exc:
            return Finding(f"table {t['id']}", r["seq"], f"the event cannot be read: {exc!r}")
    return None


def check_seats(t: dict[str, Any], live: LiveTable, seats: list[dict[str, Any]],
                ) -> tuple[list[Finding], int]:
    """The seats and the house the database holds against the replayed table; the cents at
    the table (chips, wagers and the house's result)."""
    where = f"table {t['id']}"
    findings: list[Finding] = []
    rows = {s["player"]: s for s in seats if s["table_id"] == t["id"]}
    total = 0
    for p in sorted(set(rows) | set(live.present())):
        chips, on_table = store.cents(live.chips(p)), store.cents(live.on_table(p))
        seat = rows.get(p)
        held = (seat["chips_cents"], seat["on_table_cents"]) if seat else None
        if held != (chips, on_table):
            findings.append(Finding(where, None, (
                f"seat {p}: the ledger holds {held} cents (chips, on the layout); the "
                f"events give {(chips, on_table)}")))
        total += chips + on_table
    house = store.cents(live.house)
    if house != t["house_cents"]:
        findings.append(Finding(where, None, f"house: the ledger holds {t['house_cents']} "
                                f"cents; the events give {house}"))
    return findings, total + house


def check_wallets(snap: Snapshot) -> tuple[list[Finding], int, int]:
    """Each wallet against its entries; the wallets' total and what was deposited (net of
    what the cage paid back out)."""
    findings: list[Finding] = []
    total = deposits = 0
    for w in snap.wallets:
        where = f"wallet {w['player']}"
        running = 0
        for e in snap.entries.get(w["player"], []):
            running += int(e["amount_cents"])
            if e["kind"] in ("deposit", "cage_cash_out"):  # money in at the cage, and out
                deposits += int(e["amount_cents"])
            if running != e["balance_after_cents"] or running < 0:
                findings.append(Finding(where, e["id"], (
                    f"the entry says the balance became {e['balance_after_cents']} cents; "
                    f"the entries give {running}")))
                running = int(e["balance_after_cents"])
        if running != w["balance_cents"]:
            findings.append(Finding(where, None, f"balance {w['balance_cents']} cents but its "
                                    f"entries give {running}"))
        total += int(w["balance_cents"])
    return findings, total, deposits


def check_transfers(snap: Snapshot, moved: dict[str, dict[str, int]]) -> list[Finding]:
    """Every chip a table took in or paid out (``moved``: table -> player -> net cents, from
    the replay) matches the wallets' entries for that table."""
    findings: list[Finding] = []
    wallet_side: dict[tuple[str, str], int] = {}
    for entries in snap.entries.values():
        for e in entries:
            if e["table_id"] is not None:
                key = (e["table_id"], e["player"])
                wallet_side[key] = wallet_side.get(key, 0) - int(e["amount_cents"])
    for t in snap.tables:
        if t["id"] not in moved:
            continue  # its events cannot be played: named by the replay
        table = moved[t["id"]]
        for p in sorted(set(table) | {p for (tid, p) in wallet_side if tid == t["id"]}):
            if table.get(p, 0) != wallet_side.get((t["id"], p), 0):
                findings.append(Finding(f"table {t['id']}", None, (
                    f"{p} brought {table.get(p, 0)} cents net to the table by its events, but "
                    f"the wallet's entries say {wallet_side.get((t['id'], p), 0)}")))
    return findings
