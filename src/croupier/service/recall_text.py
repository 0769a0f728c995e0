"""``croupier recall`` for a person: a round, or a player's last rounds, as aligned tables with
ISO-8601 times (UTC). ``--json`` prints the records of :mod:`croupier.service.recall` instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from croupier.service.rng import DrawSource


def iso(at: float | None) -> str:
    """An epoch time as ISO-8601 UTC to the second (``2026-11-30T14:05:09Z``)."""
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], indent: str = "  ") -> str:
    """Rows under their headers, columns aligned (numbers to the right)."""
    cells = [[("-" if c is None or c == "" else str(c)) for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    right = [bool(cells) and all(_numeric(r[i]) for r in cells) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right,
                                                                  strict=True)]
        return (indent + "  ".join(parts)).rstrip()

    return "\n".join([line(headers), *(line(r) for r in cells)])


def _numeric(text: str) -> bool:
    return text == "-" or text.replace(".", "", 1).lstrip("-+").isdigit()


def outcome_text(outcome: dict[str, Any] | None) -> str:
    """The decision in words: dice and total, the winning number, or why there was no spin."""
    if not outcome:
        return "not decided"
    if outcome.get("kind") == "roll":
        d1, d2 = outcome["dice"]
        point = outcome.get("point_after")
        tail = f", the point is {point}" if point else ""
        return f"rolled {d1} + {d2} = {outcome['total']}{tail}"
    if outcome.get("kind") == "spin":
        return f"the ball rests in {outcome['number']} ({outcome.get('colour', '')})".replace(
            " ()", "")
    if outcome.get("kind") == "no_spin":
        return f"no spin: {outcome.get('reason', '')} ({outcome.get('clause', '')})"
    return str(outcome.get("kind", "unknown"))


def _draw_text(draw: dict[str, Any] | None) -> str:
    if not draw:
        return "-"
    if draw.get("source") == DrawSource.ENTERED:
        return f"entered by {draw.get('by')} from the physical result"
    return f"{draw.get('source')} generator, raw draws {draw.get('raw')}"


def _bet_rows(events: list[dict[str, Any]]) -> list[list[object]]:
    return [[iso(e.get("at")), e.get("player"), e["type"].replace("_", " "), e.get("wager"),
             e.get("amount", "")] for e in events]


def _settle_rows(events: list[dict[str, Any]]) -> list[list[object]]:
    return [[e.get("player"), e.get("wager"), e.get("stake", e.get("amount")),
             e.get("result", e["type"].replace("_", " ")), e.get("paid"), e.get("taken"),
             e.get("returned"), e.get("commission")] for e in events]


SETTLE_HEADERS = ("player", "wager", "stake", "result", "paid", "taken", "returned",
                  "commission")


def round_text(record: dict[str, Any]) -> str:
    """One round as a person reads it."""
    events = record["events"]
    decided_at = iso(events[-1]["at"]) if events else "-"
    lines = [f"{record['game']} table {record['table']}, round {record['round']}: "
             f"{outcome_text(record['outcome'])}",
             f"  decided at {decided_at}; draw: {_draw_text(record['draw'])}"]
    if record["voided"]:
        v = record["voided"]
        approved = (f", approved by {v['approved_by']} (the outcome stands; its stakes were "
                    "returned)" if v.get("approved_by") else "")
        lines.append(f"  VOIDED by {v.get('by')}{approved}: {v.get('reason')}")
    lines += ["", "Bets", table(("time", "player", "action", "wager", "amount"),
                                _bet_rows(record["bets"])) if record["bets"] else "  none"]
    lines += ["", "Settlements", table(SETTLE_HEADERS, _settle_rows(record["settlements"]))
              if record["settlements"] else "  none"]
    before = record["balances"]["before"] or {}
    after = record["balances"]["after"] or {}
    rows = [[p, (before.get(p) or {}).get("chips"), (before.get(p) or {}).get("on_table"),
             (after.get(p) or {}).get("chips"), (after.get(p) or {}).get("on_table")]
            for p in sorted(set(before) | set(after))]
    lines += ["", "Balances", table(("player", "chips before", "on table before",
                                     "chips after", "on table after"), rows)
              if rows else "  none"]
    return "\n".join(lines)


def player_text(player: str, rounds: list[dict[str, Any]]) -> str:
    """A player's last rounds, newest first: one line each, then each round's settlements."""
    if not rounds:
        return f"{player} has no decided rounds yet."
    rows = []
    for r in rounds:
        times = [e["at"] for e in r["settlements"] + r["bets"] if e.get("at") is not None]
        rows.append([iso(max(times)) if times else "-", r["table"], r["round"],
                     outcome_text(r["outcome"]) + (" (VOIDED)" if r["voided"] else ""),
                     (r["balance_before"] or {}).get("chips"),
                     (r["balance_after"] or {}).get("chips"),
                     (r["balance_after"] or {}).get("on_table")])
    count = "round" if len(rounds) == 1 else f"{len(rounds)} rounds, newest first"
    lines = [f"{player}'s last {count}",
             table(("time", "table", "round", "outcome", "chips before", "chips after",
                    "on table after"), rows)]
    for r in rounds:
        if r["settlements"]:
            lines += ["", f"{r['table']} round {r['round']}: settlements",
                      table(SETTLE_HEADERS[1:], [row[1:] for row in
                                                 _settle_rows(r["settlements"])])]
    return "\n".join(lines)
