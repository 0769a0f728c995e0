"""The two-person decisions the chains record, each read again against the users' chain as it
stood when it was made: the one who decided must have been a person independent of the one who
asked (and, where the rule says so, of the player), by the same rule the server applies
(:meth:`croupier.service.people.Hands.why_one`).

The server decides from the users' chain under its lock, and checks that chain as it decides
(:func:`croupier.service.people.trusted`); this is the audit's own reading, so that a decision
made while the chain was edited and then put back (past the last signed checkpoint, or by
whoever held the pin too) is named, not trusted. The users' chain is read up to the decision's
time: a record of the users' chain is written under the users' lock, which every decision holds
from its check to its commit, so one written after the decision bears a later time.

Covered: a pay table change approved, a match play coupon approved, a cash-out paid at the cage,
equipment approved (the house's chain); an adjustment approved, the void of an RNG outcome
approved, a late bet confirmed, the result entered in place of one a supervisor voided (the
tables' chains).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from croupier.service import people, register
from croupier.service.audit.snapshot import Finding, Snapshot


@dataclass(frozen=True)
class Decision:
    """A decision a second person made: where it is recorded, when, by whom, and whom they
    had to be independent of (the one who asked first, then the player if any)."""

    where: str
    seq: int
    at: float
    by: str
    of: tuple[str, ...]
    what: str


_ASKED = {"paytable_approved": "paytable_proposed", "coupon_approved": "coupon_asked",
          "equipment_approved": "equipment_registered"}
"""Each approval of the house's chain and the record, about the same subject, that asked it
(a pay table change's is named by its number, the others by their subject)."""


def decisions(snap: Snapshot) -> Iterator[Decision]:
    """Every two-person decision the chains of ``snap`` record."""
    yield from _of_house(snap.records)
    for table_id, rows in snap.events.items():
        yield from _of_table(table_id, rows)
        yield from _replacements(table_id, rows)


def _of_house(records: list[dict[str, Any]]) -> Iterator[Decision]:
    first: dict[tuple[str, str], dict[str, Any]] = {}
    by_seq: dict[int, dict[str, Any]] = {}
    for _, shown in register.readable(records):
        kind, payload, seq = shown["kind"], shown["payload"], int(shown["seq"])
        by_seq[seq] = shown
        first.setdefault((kind, str(shown["subject"])), shown)
        asked: Mapping[str, Any] | None = None
        if kind == "paytable_approved" and isinstance(payload.get("change"), int):
            asked = by_seq.get(payload["change"])
        elif kind in _ASKED:
            asked = first.get((_ASKED[kind], str(shown["subject"])))
        elif kind == "cash_out_paid" and isinstance(payload.get("cash_out"), int):
            asked = by_seq.get(payload["cash_out"])
        if asked is None:
            continue  # a decision of nothing asked is named by the chain's own checks
        of = [str(asked["actor"])]
        player = asked["payload"].get("player") if isinstance(asked["payload"], dict) else None
        if kind in ("coupon_approved", "cash_out_paid") and player and player != of[0]:
            of.append(str(player))
        yield Decision(register.WHERE, seq, float(shown["at"]), str(shown["actor"]),
                       tuple(of), f"{kind} of record {asked['seq']}")


def _of_table(table_id: str, rows: list[dict[str, Any]]) -> Iterator[Decision]:
    where = f"table {table_id}"
    adjustments: dict[int, dict[str, Any]] = {}
    late: dict[int, tuple[str, list[str]]] = {}
    for e in rows:
        kind = e["kind"]
        if kind not in _TABLE_KINDS:
            continue
        try:
            f = json.loads(e["payload"])["f"]
        except (ValueError, KeyError, TypeError):
            continue  # an unreadable event is named by the replay
        seq, at = int(e["seq"]), float(e["at"])
        if kind == "adjustment_asked":
            adjustments.setdefault(int(f["pending"]), f)
        elif kind == "adjustment_approved" and int(f["pending"]) in adjustments:
            first = adjustments[int(f["pending"])]
            yield Decision(where, seq, at, str(f["by"]), (str(first["by"]), str(first["player"])),
                           f"adjustment {f['pending']} approved")
        elif kind == "void" and f.get("approved_by"):
            yield Decision(where, seq, at, str(f["approved_by"]), (str(f["by"]),),
                           f"the void of round {f['decision']} approved")
        elif kind == "late_bet":
            late[int(f["late_id"])] = (str(f["player"]), [])
        elif kind == "late_bet_confirmed" and int(f["late_id"]) in late:
            player, confirmed = late[int(f["late_id"])]
            yield Decision(where, seq, at, str(f["by"]), (*confirmed, player),
                           f"late bet {f['late_id']} confirmed")
            confirmed.append(str(f["by"]))


def _replacements(table_id: str, rows: list[dict[str, Any]]) -> Iterator[Decision]:
    """The results entered in place of one a supervisor voided alone: the dealer who entered
    each was to be a person independent of that supervisor (``outcomes.check_replacement``;
    the table's state as ``live.LiveTable`` folds it: a void waits for the next outcome,
    and an RNG outcome's void, approved by a second supervisor, replaces nothing)."""
    replacing: dict[str, Any] | None = None
    for e in rows:
        if e["kind"] not in ("void", "entered", "draw"):
            continue
        try:
            f = json.loads(e["payload"])["f"]
        except (ValueError, KeyError, TypeError):
            continue  # an unreadable event is named by the replay
        if e["kind"] == "void":
            replacing = None if f.get("approved_by") else f
            continue
        if e["kind"] == "entered" and replacing is not None:
            yield Decision(f"table {table_id}", int(e["seq"]), float(e["at"]), str(f["by"]),
                           (str(replacing["by"]),), f"the result entered in place of round "
                           f"{replacing['decision']}'s, voided")
        replacing = None


_TABLE_KINDS = ("adjustment_asked", "adjustment_approved", "void", "late_bet",
                "late_bet_confirmed")
"""The tables' events that ask for, or make, a two-person decision."""


def check(user_records: list[dict[str, Any]], snap: Snapshot) -> list[Finding]:
    """Every decision of ``snap`` whose second person the users' chain, as it stood then,
    counts as one person with whom they had to be independent of. A decision recorded before
    the users' chain began (its first record: the upgrade that made it, or the ledger's
    first account) was made by a release that had no users' chain to decide from, under the
    rules it had (an admin then approved the equipment they registered): it is not read
    against rules made since."""
    ats = [float(r["at"]) for r in user_records]
    found: list[tuple[int, Finding]] = []
    # The decisions in time, each against the chain grown to it one record at a time: the
    # chain folded again for each (a casino's players are accounts too, thousands of them)
    # took the square of its length. Found, they are named in the chains' order.
    held, known = people.Hands({}, {}), 0
    for place, d in sorted(enumerate(decisions(snap)), key=lambda pd: (pd[1].at, pd[0])):
        if not ats or d.at < ats[0]:
            continue
        for r in user_records[known:bisect.bisect_left(ats, d.at, lo=known)]:
            people.add_hand(held, r)
            known += 1
        for other in d.of:
            why = f"{d.by} is {other}" if other == d.by else held.why_one(other, d.by)
            if why is not None:
                found.append((place, Finding(d.where, d.seq, (
                    f"{d.what}: decided by {d.by}, who was to be a person independent of "
                    f"{other}, and the users' chain as it then stood says otherwise ({why})"))))
                break
    return [f for _, f in sorted(found, key=lambda pf: pf[0])]
