"""Scheduled changes of the house's pay table for one game and profile.

A change is proposed with the whole override table (``pays``, as a table's ``options.pays``),
the date and time it takes effect and a reason; it is checked as ``croupier check`` checks a
proposal (every entry at or above the regulation's minimum, odds stated "to", no entry the
profile does not have) and refused if it fails. A second person whose role may approve (admin
or supervisor, not the proposer) approves it before its effective time (an approval at or after
that time is refused: the change would take effect at once, with no notice; it is proposed
again with a time to come), and it is checked again. Approved, it stands: one person may
withdraw a proposed change, not one two people approved (that would keep the old pay table in
force on one person's word); to keep the old table the house proposes a change back to it for
the same time, which a second person approves. Once its time has come it applies to each
table of that game and profile at the table's next round boundary (never mid-round: only when
the table's current round has no event yet), checked a third time first, as a
``pay_table_applied`` event in the table's own chain, which the audit replays. Proposal,
approval, withdrawal and a refusal at the last check are records of the house's chain
(``service/register.py``).

The effective time is an ISO 8601 date and time with its offset from UTC, no earlier than
:data:`SKEW_SECONDS` before the proposal (a minute's allowance for the proposer's clock: a
change cannot take effect in the past, where tables would already have played rounds under the
old table) and no later than :data:`HORIZON_SECONDS` after it (a year: a change scheduled
further ahead is a typing error, not a plan); anything else is malformed at ``body.effective``.

The approved changes are read from the database at most once a second per process
(:data:`CACHE_SECONDS`), so an action at a table costs no query while nothing is due.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection, Engine

from croupier.craps.events import PayTableApplied
from croupier.errors import Malformed, Refusal
from croupier.games import GAMES
from croupier.rules import load_profile
from croupier.service import people, register
from croupier.service.audit.snapshot import Finding
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable, empty_table

KINDS = ("paytable_proposed", "paytable_approved", "paytable_withdrawn", "paytable_refused")
CACHE_SECONDS = 1.0
SKEW_SECONDS = 60.0
"""How far in the past an effective time may be (the proposer's clock running behind)."""
HORIZON_SECONDS = 366 * 24 * 3600.0
"""How far ahead an effective time may be: a year (a leap year's days)."""
FINAL = "final"
"""The key an approval's record carries (true) from the release on that no longer lets one
person withdraw an approved change: the audit holds the changes so approved to that rule, and
not those an earlier release approved, which one person might then still withdraw."""


@dataclass
class Change:
    """A pay table change as its records leave it."""

    id: int
    game: str
    profile: str
    pays: dict[str, str]
    effective_at: float
    effective: str
    reason: str
    proposed_by: str
    approved_by: str | None = None
    status: str = "proposed"
    notes: list[str] = field(default_factory=list)

    def json(self, now: float | None = None) -> dict[str, Any]:
        shown = self.status
        if shown == "approved" and (now if now is not None else time.time()) >= self.effective_at:
            shown = "in effect"
        return {"id": self.id, "game": self.game, "profile": self.profile, "pays": self.pays,
                "effective_at": self.effective_at, "effective": self.effective,
                "reason": self.reason, "proposed_by": self.proposed_by,
                "approved_by": self.approved_by, "status": shown, "notes": self.notes}


def subject(game: str, profile: str) -> str:
    return f"paytable:{game}:{profile}"


def parse_when(text: str, now: float | None = None) -> float:
    """An ISO 8601 date and time with its offset (``2026-12-01T18:00:00+00:00`` or ``...Z``)
    as seconds since the epoch, no more than :data:`SKEW_SECONDS` before ``now`` nor more than
    :data:`HORIZON_SECONDS` after it."""
    where = "body.effective"
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise Malformed(where, f"not an ISO 8601 date and time: {text!r}") from None
    if parsed.tzinfo is None:
        raise Malformed(where, "give the offset from UTC (as +00:00 or Z)")
    when = parsed.timestamp()
    now = time.time() if now is None else now
    if when < now - SKEW_SECONDS:
        raise Malformed(where, f"{text} is in the past: a change takes effect from now on "
                        f"(at most {SKEW_SECONDS:.0f} seconds' clock skew is allowed)")
    if when > now + HORIZON_SECONDS:
        raise Malformed(where, f"{text} is more than a year ahead: a change is scheduled at "
                        "most a year in advance")
    return when


def changes(conn: Connection) -> dict[int, Change]:
    """Every change, by id (its proposal's place in the house's chain)."""
    out: dict[int, Change] = {}
    for r in register.rows(conn, KINDS):
        p = r["payload"]
        if r["kind"] == "paytable_proposed":
            out[int(r["seq"])] = Change(int(r["seq"]), p["game"], p["profile"], p["pays"],
                                        float(p["effective_at"]), p["effective"], p["reason"],
                                        r["actor"])
            continue
        change = out.get(int(p["change"]))
        if change is None:
            continue
        if r["kind"] == "paytable_approved":
            change.approved_by, change.status = r["actor"], "approved"
        elif r["kind"] == "paytable_withdrawn":
            change.status = "withdrawn"
            change.notes.append(f"withdrawn by {r['actor']}: {p['reason']}")
        else:
            change.status = "refused"
            change.notes.append("refused before it applied: " + "; ".join(p["problems"]))
    return out


def check(game: str, profile: str, pays: dict[str, str]) -> list[tuple[str, str]]:
    """What ``croupier check`` finds wrong with ``pays`` for ``game`` under ``profile``: each
    problem with the clause it cites (empty: compliant)."""
    from croupier.analysis.compliance import Problems, check_documents

    try:
        report = check_documents([("change", {"game": game, "rules": profile, "pays": pays})])
    except Problems as exc:
        return [(str(p), _entry_clause(game, profile, p.where)) for p in exc.problems]
    found = [(f"{e.key}: {e.reason}", e.clause) for t in report.tables for e in t.entries
             if e.verdict != "ok"]
    if not found:
        try:  # and what a table of the game would refuse to open with
            empty_table(GAMES[game], profile, {"pays": pays})
        except Malformed as exc:
            found.append((str(exc), ""))
    return found


def _entry_clause(game: str, profile: str, where: str) -> str:
    """The clause a problem with one entry cites, as the check's own refusals pick it: the
    profile's pay clause for an entry of its pay table (odds of nothing, as "0 to 1", are below
    any minimum payout), its permitted-wagers clause for a key that is no entry; nothing for a
    problem that is not with an entry."""
    prefix = "change: pays."
    played = GAMES.get(game)
    rules = played.rules(load_profile(profile)) if played is not None else None
    if not where.startswith(prefix) or rules is None or not played or not played.house_pay_table:
        return ""
    entries = empty_table(played, profile, {}).offer()["pays"]
    return rules.clause("pays_clause" if where[len(prefix):] in entries else "permitted_clause")


def _refuse_if_failing(game: str, profile: str, pays: dict[str, str]) -> None:
    problems = check(game, profile, pays)
    if problems:
        raise Refusal("the pay table does not pass croupier check: "
                      + "; ".join(p for p, _ in problems), problems[0][1])


@dataclass(frozen=True)
class Proposal:
    """A change asked for: the whole ``pays`` table of a game under a profile from
    ``effective`` (ISO 8601 with its offset) on, and why."""

    game: str
    profile: str
    pays: dict[str, str]
    effective: str
    reason: str


def propose(conn: Connection, actor: str, asked: Proposal) -> Change:
    """Record a proposed change (checked first); it waits for a second person's approval."""
    game, profile = asked.game, asked.profile
    if game not in GAMES or not load_profile(profile).covers(game) or not (
            GAMES[game].house_pay_table):
        raise ApiError(422, "malformed", f"body.game: {profile} keeps no house pay table for {game}")
    when = parse_when(asked.effective)
    _refuse_if_failing(game, profile, asked.pays)
    row = register.append(conn, "paytable_proposed", subject(game, profile), {
        "game": game, "profile": profile, "pays": asked.pays, "effective_at": when,
        "effective": asked.effective, "reason": asked.reason}, actor)
    invalidate()
    return changes(conn)[int(row["seq"])]


def approve(conn: Connection, actor: str, change_id: int, now: float | None = None) -> Change:
    """A second person (an admin or a supervisor: the route's dependency says who may)
    approves a proposed change (checked again) before its effective time
    (``now``: the server's clock, unless given): an approval at or after it is refused, since
    the change would then take effect at once, with no notice to the players; it is proposed
    again with a time still to come. Its state is read under the house chain's writer lock,
    so an approval and a withdrawal at the same moment are decided one after the other: the
    second is refused, naming what the first did."""
    register.lock(conn)
    change = changes(conn).get(change_id)
    if change is None:
        raise ApiError(404, "not_found", f"there is no pay table change {change_id}")
    if change.status != "proposed":
        raise Refusal(f"change {change_id} is {change.status}: only a proposed "
                      "change is approved", pays_clause(change))
    why = people.not_independent(conn, change.proposed_by, actor)
    if why is not None:
        raise Refusal("a change is approved by a second person, independent of the "
                      f"one who proposed it: {why}", pays_clause(change))
    _refuse_if_failing(change.game, change.profile, change.pays)
    # The time is read after the pay table's check (croupier check: a third of a second, more
    # on a busy host), just before the record is written with its own: the audit allows the
    # two only DECIDED_WITHIN apart (check_records).
    if (time.time() if now is None else now) >= change.effective_at:
        raise Refusal(f"change {change_id} was to take effect at {change.effective}, which "
                      "has come: approved now it would take effect at once, with no notice "
                      "to the players; a change is approved before its time, so propose it "
                      "again with a time still to come", pays_clause(change))
    register.append(conn, "paytable_approved", subject(change.game, change.profile),
                    {"change": change_id, FINAL: True}, actor)
    invalidate()
    return changes(conn)[change_id]


def withdraw(conn: Connection, actor: str, change_id: int, reason: str) -> Change:
    """Withdraw a change still proposed (its state read under the writer lock, as
    :func:`approve` reads it). An approved change is not withdrawn: two people decided it, and
    one person's withdrawal would keep the old pay table in force on that one's word; the
    refusal says how the house keeps it, by the same two-person rule (a change back to it)."""
    register.lock(conn)
    change = changes(conn).get(change_id)
    if change is None:
        raise ApiError(404, "not_found", f"there is no pay table change {change_id}")
    if change.status == "approved":
        raise Refusal(f"change {change_id} is {change.json()['status']}: a change a second "
                      "person approved is not withdrawn by one; to keep the pay table in "
                      "force, propose a change back to it for the same time, which a second "
                      "person approves", pays_clause(change))
    if change.status != "proposed":
        raise Refusal(f"change {change_id} is {change.status}: it can no longer be "
                      "withdrawn", pays_clause(change))
    register.append(conn, "paytable_withdrawn", subject(change.game, change.profile),
                    {"change": change_id, "reason": reason}, actor)
    invalidate()
    return changes(conn)[change_id]


def due(all_changes: dict[int, Change], game: str, profile: str, now: float) -> Change | None:
    """The approved change in effect for ``game`` and ``profile`` at ``now`` (the latest whose
    time has come), or None."""
    ready = [c for c in all_changes.values() if c.game == game and c.profile == profile
             and c.status == "approved" and c.effective_at <= now]
    return max(ready, key=lambda c: (c.effective_at, c.id), default=None)


# --- applying at a table's round boundary --------------------------------------------------

_cache: dict[int, tuple[float, dict[int, Change]]] = {}
_cache_lock = threading.Lock()
_checked: dict[int, list[tuple[str, str]]] = {}


def invalidate() -> None:
    """Forget the cached changes (after this process records one)."""
    with _cache_lock:
        _cache.clear()


def fresh(engine: Engine) -> bool:
    """Whether the cached changes may be used without reading the database."""
    with _cache_lock:
        hit = _cache.get(id(engine))
    return hit is not None and time.monotonic() - hit[0] < CACHE_SECONDS


def cached(engine: Engine) -> dict[int, Change]:
    """The changes, read at most once every :data:`CACHE_SECONDS`."""
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(id(engine))
        if hit is not None and now - hit[0] < CACHE_SECONDS:
            return hit[1]
    with engine.connect() as conn:
        read = changes(conn)
    with _cache_lock:
        _cache[id(engine)] = (now, read)
    return read


def at_boundary(live: LiveTable) -> bool:
    """Whether the table stands between rounds: nothing yet recorded in its current round."""
    return live.round_first_seq == live.seq + 1


def pending(engine: Engine, live: LiveTable) -> Change | None:
    """The change the table should take now (in effect, not yet its pay table), if any."""
    if not live.game.house_pay_table:
        return None
    change = due(cached(engine), live.game.name, live.profile, time.time())
    if change is None or live.options.get("pays", {}) == change.pays:
        return None
    return change


def last_check(change: Change) -> list[tuple[str, str]]:
    """The check before a change applies (once per change in this process)."""
    if change.id not in _checked:
        _checked[change.id] = check(change.game, change.profile, change.pays)
    return _checked[change.id]


def pays_clause(change: Change) -> str:
    """The clause of the pay table ``change`` sets: its profile's pay clause for its game
    (cited by the change when it applies, and by every refusal to approve or withdraw it)."""
    played = GAMES.get(change.game)
    rules = played.rules(load_profile(change.profile)) if played is not None else None
    return rules.clause("pays_clause") if rules is not None else ""


def applied_event(change: Change) -> PayTableApplied:
    return PayTableApplied(change.id, tuple(sorted(change.pays.items())), pays_clause(change))


def refuse_at_last_check(conn: Connection, change: Change,
                         problems: list[tuple[str, str]]) -> None:
    """Record that a change failed its check before it applied (it never applies)."""
    register.lock(conn)
    current = changes(conn).get(change.id)
    if current is not None and current.status == "approved":
        register.append(conn, "paytable_refused", subject(change.game, change.profile),
                        {"change": change.id, "problems": [p for p, _ in problems]}, "croupier")
        invalidate()


HOUSE = "pay-table-schedule"
"""The actor of a ``pay_table_applied`` event: the schedule, not a person."""


# --- the audit ------------------------------------------------------------------------------

DECIDED_WITHIN = 1.0
"""Seconds an approval's record may bear past the change's effective time: the approval checks
the time, then writes its record a moment later."""


def check_records(records: list[dict[str, Any]], since: float) -> list[Finding]:
    """Every decision of the house's chain about a pay table change that its state, as the
    records before it leave it, did not allow: an approval of a change not proposed (or past
    its time), a withdrawal of one no longer to be withdrawn (in effect, or approved by a
    record marked :data:`FINAL`), a refusal of one not approved. The server decides from these
    records under the chain's lock; a record edited for the moment of a decision and put back
    would leave the decision standing and nothing else to name it. Only decisions recorded at
    or after ``since`` (when the users' chain began) are named: an older release approved a
    change after its time had come, as it then might, and its ledger must still verify (every
    record still folds into the changes' state). Likewise a withdrawal of a change approved
    without the mark: an older release let one person withdraw it before its time."""
    state: dict[int, tuple[str, float]] = {}
    final: set[int] = set()
    findings: list[Finding] = []
    for r, shown in register.readable(records, KINDS):
        p, seq, at = shown["payload"], int(r["seq"]), float(r["at"])
        if r["kind"] == "paytable_proposed":
            state[seq] = ("proposed", float(p["effective_at"]))
            continue
        number = p.get("change")
        status, effective_at = state.get(number, ("", 0.0)) if isinstance(number, int) \
            else ("", 0.0)
        why = _not_allowed(str(r["kind"]), status, at > effective_at + DECIDED_WITHIN,
                           isinstance(number, int) and number in final)
        if why is not None and (at >= since or not status):
            if at >= since:
                findings.append(Finding(register.WHERE, seq, f"{r['kind']} of change "
                                        f"{number!r}: {why}"))
            continue
        state[int(number)] = (_STATUS_AFTER[str(r["kind"])], effective_at)
        if r["kind"] == "paytable_approved" and p.get(FINAL) is True:
            final.add(int(number))
    return findings


_STATUS_AFTER = {"paytable_approved": "approved", "paytable_withdrawn": "withdrawn",
                 "paytable_refused": "refused"}
"""What a change stands at after each kind of decision."""


def _not_allowed(kind: str, status: str, past: bool, final: bool) -> str | None:
    """Why a decision ``kind`` of a change that stood at ``status`` (``past`` its effective
    time; ``final``: approved under the rule that an approved change stands) was not to be
    made (None: it was)."""
    if not status:
        return "no change was proposed under that number"
    if kind == "paytable_approved" and (status != "proposed" or past):
        return (f"it was {status}, not proposed" if status != "proposed"
                else "its effective time had come: an approval then takes effect at once")
    if kind == "paytable_withdrawn" and status == "approved" and final:
        return "it was approved by a second person, and an approved change is not " \
               "withdrawn by one"
    if kind == "paytable_withdrawn" and not (
            status == "proposed" or (status == "approved" and not past)):
        return f"it was {status}{' and in effect' if status == 'approved' else ''}: it could " \
               "no longer be withdrawn"
    if kind == "paytable_refused" and status != "approved":
        return f"it was {status}, not approved: only an approved change is refused at its " \
               "last check"
    return None
