"""The end-of-night report's money and alerts, in words an organiser knows: each casino term
with its plain meaning beside it, the night's money reconciled to the cent, the alerts listed,
and the date the report was made.

>>> from croupier.service.reconcile import Cash
>>> page = cash_html(Cash(500_00, 100_00, 200_00, 150_00, 350_00, 30_00, 20_00), [], "2026-12-02 01:00 UTC")
>>> "Adds up: yes" in page and "400.00" in page
True
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from croupier.money import fmt
from croupier.service import store
from croupier.service.reconcile import Cash

# Each casino term of the report, with what it means in plain words.
TERMS = {
    "drop": "chips bought at the tables",
    "win": "what the house won at the tables",
    "hold": "the share of the chips bought that the house kept (win over drop)",
    "handle": "all the stakes settled",
    "theoretical win": "what the house was expected to win, from the exact edge of every bet",
    "win less theoretical": "luck: how far the actual win is from the expected",
    "big wins": "payouts at or above the big-win amount",
    "voids": "results set aside by a supervisor",
    "adjustments": "chips given or taken back by a supervisor, with the reason",
}


def now_text() -> str:
    """The report's date: now, in UTC."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _d(cents: int) -> str:
    return fmt(store.dollars(cents))


def cash_lines(c: Cash) -> list[tuple[str, str, str]]:
    """The reconciliation as (line, plain meaning, amount)."""
    return [
        ("Deposits", "cash taken in at the cage into players' wallets", _d(c.deposits)),
        ("Cage cash-outs", "cash paid back out of wallets at the cage", _d(c.cage_cash_outs)),
        ("Net cash in", "deposits less cage cash-outs", _d(c.net_in)),
        ("Chips bought (drop)", "wallet money turned into chips at the tables", _d(c.bought)),
        ("Chips cashed in at tables", "chips turned back into wallet money", _d(c.returned)),
        ("Wallets still held", "money players still hold in their wallets", _d(c.wallets)),
        ("Chips at tables", "chips still in players' hands or on the layouts", _d(c.chips)),
        ("House win", "what the house won at the tables", _d(c.house)),
        ("Accounted for", "wallets + chips at tables + house win", _d(c.accounted)),
        ("Difference", "net cash in less accounted for: 0.00 when the night adds up",
         _d(c.difference)),
    ]


def cash_json(c: Cash) -> dict[str, Any]:
    return {"deposits": _d(c.deposits), "cage_cash_outs": _d(c.cage_cash_outs),
            "net_in": _d(c.net_in), "bought": _d(c.bought), "returned": _d(c.returned),
            "wallets": _d(c.wallets), "chips_at_tables": _d(c.chips), "house_win": _d(c.house),
            "accounted": _d(c.accounted), "difference": _d(c.difference),
            "adds_up": c.adds_up}


def _alert_line(a: Mapping[str, Any]) -> str:
    esc = html.escape
    ack = a.get("acknowledged")
    state = (f"acknowledged by {esc(str(ack['by']))}: {esc(str(ack['reason']))}" if ack
             else "not acknowledged")
    return (f"{esc(str(a['table']))} #{a['seq']} ({esc(str(a['equipment']))} "
            f"{esc(str(a['set_id']))}): {esc(str(a['message']))} ({state})")


def cash_html(c: Cash, alerts: Sequence[Mapping[str, Any]], when: str, *,
              whole: bool = True) -> str:
    """The money (``whole``: for the whole event; a table's report has none) and alerts
    sections of the report page."""
    esc = html.escape
    rows = "".join(f"<tr><th scope=\"row\">{esc(name)}</th><td>{esc(plain)}</td>"
                   f"<td class=\"num\">{amount}</td></tr>" for name, plain, amount in cash_lines(c))
    verdict = ("Adds up: yes, to the cent." if c.adds_up
               else f"Adds up: NO, {_d(c.difference)} is not accounted for.")
    items = "".join(f"<li>{_alert_line(a)}</li>" for a in alerts)
    terms = "".join(f"<dt>{esc(t)}</dt><dd>{esc(m)}</dd>" for t, m in TERMS.items())
    money = (f"<h2>The night's money</h2><table class=\"cash\" id=\"reconciliation\">"
             f"<tbody>{rows}</tbody></table><p class=\"verdict\" id=\"reconciled\">{verdict}</p>"
             if whole else "")
    return (f"<p class=\"report-date\">Made {esc(when)}.</p>{money}"
            f"<h2>Fairness alerts</h2>" + (f"<ul id=\"report-alerts\">{items}</ul>" if items
                                           else "<p id=\"report-alerts\">None.</p>")
            + f"<h2>Words used</h2><dl class=\"terms\">{terms}</dl>")
