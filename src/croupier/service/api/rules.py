"""``/tables/{id}/rules``: the rules of the game posted at a table, generated from its profile
and options (13:47-20.32(g) and (i)1 notices, 13:69F-1.4(a) odds "x to y"); any role reads it."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from croupier.rules.posted import posted_rules, to_html, to_json, to_markdown
from croupier.service.api.deps import Current, Svc, TableId

router = APIRouter(prefix="/tables", tags=["tables"])

Format = Literal["json", "markdown", "html"]


@router.get("/{table_id}/rules", response_model=None)
def table_rules(table_id: TableId, user: Current, svc: Svc,
                format: Format = "json",
                ) -> dict[str, Any] | Response:
    """The table's posted rules: wagers, limits, pay table, odds, commission, fire, 6-7-8, the
    zero rule and every notice its clauses require, as JSON, Markdown or an HTML fragment."""
    live = svc.tables.find(table_id)
    doc = posted_rules(live.game.name, live.profile, live.options, table=live.id)
    if format == "markdown":
        return PlainTextResponse(to_markdown(doc), media_type="text/markdown; charset=utf-8")
    if format == "html":
        return HTMLResponse(to_html(doc))
    return to_json(doc)
