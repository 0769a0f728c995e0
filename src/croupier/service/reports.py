"""The end-of-night report: drop, win, hold, theoretical against actual win, big wins, voids and
adjustments, per table and for the whole event; as data, HTML and CSV.

Pure functions over a table's ledger events in the form the API shows them (``GET
/tables/{id}/events``: dicts with ``seq``, ``type`` and the event's fields, money as decimal
strings). Nothing here reads the database; the caller passes the rows.

* **drop**: the chips bought at the table (``chips_in``);
* **win**: what the house won: stakes taken and commissions, less winnings paid,
  adjustments in a player's favour and the match play coupons' value put down less what came
  back with their wagers (voided events count for nothing);
* **hold**: win over drop;
* **voids** and **halts**: each void with who asked and who approved it, each halted table
  with the wager it could not settle;
* **theoretical win**: each settled stake times its wager's house edge (``edges``, by wager
  label such as ``place_win:6`` or by wager id such as ``field``), exact as a fraction.

>>> rows = [{"seq": 1, "type": "chips_in", "player": "a", "amount": "100.00"},
...         {"seq": 2, "type": "settle", "player": "a", "wager": "pass", "stake": "10.00",
...          "result": "lose", "paid": "0.00", "taken": "10.00", "commission": "0.00"}]
>>> r = table_report("craps-1", rows, {"pass": Fraction(7, 495)})
>>> r.drop, r.win, r.hold
(Decimal('100.00'), Decimal('10.00'), Fraction(1, 10))
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

__all__ = ["BigWin", "Report", "event_report", "report_csv", "report_html", "table_report"]

ZERO = Decimal("0.00")
CENT = Decimal("0.01")


@dataclass(frozen=True)
class BigWin:
    table: str
    seq: int
    player: str
    wager: str
    paid: Decimal


@dataclass
class Report:
    """One table's night (or the event's, ``table`` = "all tables")."""

    table: str
    drop: Decimal = ZERO
    win: Decimal = ZERO
    theoretical: Fraction = Fraction(0)
    handle: Decimal = ZERO
    big_wins: list[BigWin] = field(default_factory=list)
    voids: list[dict[str, Any]] = field(default_factory=list)
    adjustments: list[dict[str, Any]] = field(default_factory=list)
    halts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def hold(self) -> Fraction | None:
        """Win over drop, exact; None when nothing was dropped."""
        return Fraction(self.win) / Fraction(self.drop) if self.drop else None


def _money(row: Mapping[str, Any], key: str) -> Decimal:
    value = row.get(key)
    return Decimal(str(value)) if value not in (None, "") else ZERO


def _edge(edges: Mapping[str, Fraction], label: str) -> Fraction:
    if label in edges:
        return edges[label]
    return edges.get(label.split(":")[0], Fraction(0))


def table_report(table: str, rows: Iterable[Mapping[str, Any]], edges: Mapping[str, Fraction],
                 big_win: Decimal = Decimal("500.00")) -> Report:
    """A table's report from its events (any order); ``big_win`` is the smallest payout listed
    as a big win."""
    rows = sorted(rows, key=lambda r: int(r["seq"]))
    voided = {int(s) for r in rows if r.get("type") == "void" for s in r.get("seqs", ())}
    report = Report(table)
    for row in rows:
        if int(row["seq"]) in voided:
            continue
        kind = row.get("type")
        if kind == "chips_in":
            report.drop += _money(row, "amount")
        elif kind == "bet":
            report.win += _money(row, "commission")
        elif kind == "settle":
            _settled(report, row, edges, big_win)
        elif kind in ("coupon_in", "coupon_out"):
            # A match play coupon's value is the house's, put down with the player's chips
            # and taken back with the wager: a lost coupon wager's stake, taken whole, holds
            # it, so it is no more the house's win than an adjustment is.
            moved = _money(row, "amount")
            report.win += -moved if kind == "coupon_in" else moved
        elif kind == "adjust":
            report.win -= _money(row, "amount")  # positive: chips from the house to the player
            report.adjustments.append({"seq": row["seq"], "player": row.get("player", ""),
                                       "amount": _money(row, "amount"),
                                       "reason": row.get("reason", ""), "by": row.get("by", "")})
        elif kind == "void":
            approved = row.get("approved_by")
            report.voids.append({"seq": row["seq"], "round": row.get("decision"),
                                 "reason": row.get("reason", ""), "by": row.get("by", ""),
                                 "approved_by": approved,
                                 "kind": "stakes returned" if approved else "result corrected",
                                 "events": len(row.get("seqs", ()))})
        elif kind == "table_halted":
            report.halts.append({"seq": row["seq"], "player": row.get("player", ""),
                                 "wager": row.get("wager", ""), "reason": row.get("reason", "")})
    return report


def _settled(report: Report, row: Mapping[str, Any], edges: Mapping[str, Fraction],
             big_win: Decimal) -> None:
    paid = _money(row, "paid")
    report.win += _money(row, "taken") + _money(row, "commission") - paid
    if row.get("result") in ("win", "lose"):
        stake = _money(row, "stake")
        report.handle += stake
        report.theoretical += Fraction(stake) * _edge(edges, str(row.get("wager", "")))
    if paid >= big_win:
        report.big_wins.append(BigWin(report.table, int(row["seq"]), str(row.get("player", "")),
                                      str(row.get("wager", "")), paid))


def event_report(tables: Sequence[Report]) -> Report:
    """The whole event: every table's figures added up, their lists joined."""
    total = Report("all tables")
    for r in tables:
        total.drop += r.drop
        total.win += r.win
        total.theoretical += r.theoretical
        total.handle += r.handle
        total.big_wins.extend(r.big_wins)
        total.voids.extend({**v, "table": r.table} for v in r.voids)
        total.halts.extend({**h, "table": r.table} for h in r.halts)
        total.adjustments.extend({**a, "table": r.table} for a in r.adjustments)
    return total


def _pct(value: Fraction | None) -> str:
    if value is None:
        return ""
    return f"{(Decimal(value.numerator) / Decimal(value.denominator) * 100).quantize(CENT)}%"


def _cents(value: Fraction) -> str:
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(CENT))


HEAD = ["table", "drop", "win", "hold", "handle", "theoretical win", "win less theoretical",
        "big wins", "voids", "adjustments"]


def _line(r: Report) -> list[str]:
    return [r.table, str(r.drop), str(r.win), _pct(r.hold), str(r.handle), _cents(r.theoretical),
            _cents(Fraction(r.win) - r.theoretical), str(len(r.big_wins)), str(len(r.voids)),
            str(len(r.adjustments))]


def report_csv(tables: Sequence[Report]) -> str:
    """One line per table and a last line for the event, figures as decimal strings."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEAD)
    for r in [*tables, event_report(tables)]:
        writer.writerow(_line(r))
    return out.getvalue()


def report_html(tables: Sequence[Report], title: str = "End-of-night report",
                more: str = "", plain: Mapping[str, str] | None = None) -> str:
    """A printable page: the figures table, then big wins, voids and adjustments listed;
    ``more``: further sections (HTML) at its end; ``plain``: each column's plain meaning,
    shown under the casino term."""
    esc = html.escape
    total = event_report(tables)
    rows = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in _line(r)) + "</tr>"
                   for r in [*tables, total])
    lists = [
        ("Big wins", [f"{esc(b.table)} #{b.seq}: {esc(b.player)}'s {esc(b.wager)} paid {b.paid}"
                      for b in total.big_wins]),
        ("Voids", [f"{esc(v['table'])} round {v['round']}, {esc(v['kind'])}: "
                   f"{esc(str(v['reason']))} (by {esc(str(v['by']))}"
                   + (f", approved by {esc(str(v['approved_by']))}" if v["approved_by"] else "")
                   + f", {v['events']} events)" for v in total.voids]),
        ("Halts", [f"{esc(h['table'])} #{h['seq']}: {esc(str(h['player']))}'s "
                   f"{esc(str(h['wager']))}: {esc(str(h['reason']))}" for h in total.halts]),
        ("Adjustments", [f"{esc(a['table'])}: {a['amount']} to {esc(str(a['player']))}: "
                         f"{esc(str(a['reason']))} (by {esc(str(a['by']))})"
                         for a in total.adjustments]),
    ]
    sections = "".join(f"<h2>{name}</h2>" + ("<ul>" + "".join(f"<li>{i}</li>" for i in items)
                                               + "</ul>" if items else "<p>None.</p>")
                       for name, items in lists)
    plain = plain or {}
    head = "".join(f"<th scope=\"col\">{esc(h)}" + (f"<br><small>{esc(plain[h])}</small>"
                                                     if h in plain else "") + "</th>"
                   for h in HEAD)
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}"
            f"</title></head><body><h1>{esc(title)}</h1><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{rows}</tbody></table>{sections}{more}</body></html>")
