"""``/reports``: the end-of-night report of a table and of the whole event, as JSON, HTML
(printable) or CSV, for the admin, auditor and supervisor.

The figures are ``service/reports.py``'s, over the table's ledger events; the theoretical win
takes each wager's exact house edge (``analysis/exact.py``) under the table's own profile and
options, for the wagers actually settled there.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from croupier.money import parse_amount
from croupier.service import codec, store
from croupier.service.api import lanes, queries
from croupier.service.api.deps import ReportReader, Svc, TableId, known_query
from croupier.service.api.night import night_sections
from croupier.service.api.report_replies import NightReport
from croupier.service.live import LiveTable
from croupier.service.night import TERMS
from croupier.service.reports import Report, event_report, report_csv, report_html, table_report

router = APIRouter(prefix="/reports", tags=["reports"])

Format = Literal["json", "html", "csv"]
BigWin = Annotated[str, Query(max_length=16, pattern=r"^[0-9]{1,10}(\.[0-9]{1,2})?$",
                              description="the smallest payout listed as a big win")]
PAGE = 5000
FORMATS: dict[int | str, dict[str, Any]] = {200: {"model": NightReport, "content": {
    "text/html": {"schema": {"type": "string"}}, "text/csv": {"schema": {"type": "string"}}}}}


@lru_cache(maxsize=64)
def _edges(game: str, profile: str, options_json: str) -> dict[str, Fraction]:
    """The exact house edge of every wager a table offers, by the label its settlements carry:
    a buy or lay bet at the table's commission timing for it, the fire bet at its pay table."""
    from croupier.analysis.exact import analyse

    options = json.loads(options_json, parse_float=Decimal)
    fire = options.get("fire_pay_table", "A")
    edges: dict[str, Fraction] = {}
    for row in analyse(game, profile, options):
        parts = row.wager.split(":")
        if parts[0] in ("buy", "lay") and len(parts) == 3:
            if row.as_configured:  # the timing this table collects that bet's commission at
                edges[f"{parts[0]}:{parts[1]}"] = row.house_edge
        elif parts[0] == "fire":
            if parts[1] == fire:
                edges["fire"] = row.house_edge
        else:
            edges[row.wager] = row.house_edge
    return edges


def _rows(svc: Any, live: LiveTable) -> list[dict[str, Any]]:
    """Every event of the table, as ``GET /tables/{id}/events`` shows them."""
    out: list[dict[str, Any]] = []
    with store.reading(svc.engine) as conn:
        while True:
            page = queries.events_after(conn, live.id, out[-1]["seq"] if out else 0, PAGE)
            out += [{"seq": r.seq, "round": r.round, "by": r.actor,
                     **codec.decode(live.game.name, r.payload).to_json()} for r in page]
            if len(page) < PAGE:
                return out


def _report(svc: Any, live: LiveTable, big_win: Decimal) -> Report:
    options = json.dumps(live.options, sort_keys=True, default=str)
    return table_report(live.id, _rows(svc, live), _edges(live.game.name, live.profile, options),
                        big_win)


def _figures(r: Report) -> dict[str, Any]:
    hold = r.hold
    return {"table": r.table, "drop": str(r.drop), "win": str(r.win),
            "hold": None if hold is None else f"{hold.numerator}/{hold.denominator}",
            "handle": str(r.handle),
            "theoretical": f"{r.theoretical.numerator}/{r.theoretical.denominator}",
            "big_wins": [{"table": b.table, "seq": b.seq, "player": b.player, "wager": b.wager,
                          "paid": str(b.paid)} for b in r.big_wins],
            "voids": r.voids, "halts": r.halts,
            "adjustments": [{**a, "amount": str(a["amount"])} for a in r.adjustments]}


def _answer(svc: Any, tables: list[Report], fmt: str, title: str) -> Any:
    if fmt == "csv":
        return Response(report_csv(tables), media_type="text/csv; charset=utf-8")
    ids = [r.table for r in tables]
    if fmt == "html":
        return HTMLResponse(report_html(tables, title=title, plain=TERMS,
                                        more=night_sections(svc, ids, html=True)))
    return {"tables": [_figures(r) for r in tables], "event": _figures(event_report(tables)),
            **night_sections(svc, ids, html=False)}


@router.get("/tables/{table_id}", response_model=None, responses=FORMATS,
            dependencies=[Depends(known_query("format", "big_win"))])
async def table(request: Request, table_id: TableId, user: ReportReader, svc: Svc,
                format: Format = "json",
                big_win: BigWin = "500.00") -> Any:
    """One table's night: drop, win, hold, handle, theoretical against actual win, big wins,
    voids and adjustments."""
    live = svc.tables.find(table_id)
    limit = parse_amount(big_win, "big_win")

    def read() -> Any:
        report = _report(svc, live, limit)
        return _answer(svc, [report], format, f"End-of-night report: table {table_id}")

    with lanes.REPORTS.of(request).turn() as lane:
        return await lane.run(read)


@router.get("/event", response_model=None, responses=FORMATS,
            dependencies=[Depends(known_query("format", "big_win"))])
async def event(request: Request, user: ReportReader, svc: Svc,
                format: Format = "json",
                big_win: BigWin = "500.00") -> Any:
    """Every table's night and the event's total."""
    limit = parse_amount(big_win, "big_win")

    def read() -> Any:
        reports = [_report(svc, live, limit) for live in sorted(svc.tables,
                                                                 key=lambda t: t.id)]
        return _answer(svc, reports, format, "End-of-night report: the event")

    with lanes.REPORTS.of(request).turn() as lane:
        return await lane.run(read)
