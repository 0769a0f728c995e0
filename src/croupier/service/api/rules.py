"""``/tables/{id}/rules``: the rules of the game posted at a table, generated from its profile
and options (13:47-20.32(g) and (i)1 notices, 13:69F-1.4(a) odds "x to y"); any role reads it."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import Field

from croupier.rules.posted import posted_rules, to_html, to_json, to_markdown
from croupier.service.api.deps import Current, Svc, TableId
from croupier.service.api.replies import Documented

router = APIRouter(prefix="/tables", tags=["tables"])

Format = Literal["json", "markdown", "html"]


class Line(Documented):
    """One posted line: what (``name``) and its value, as a sentence or "x to y" odds."""

    name: str
    value: str


class Pay(Documented):
    on: str = Field(description="the qualifier (a number, a pocket); empty: the whole wager")
    odds: str = Field(examples=["2 to 1"])


class WagerPosted(Documented):
    id: str
    name: str
    clause: str = Field(description="the clause of the table's profile permitting it")
    pays: list[Pay]


class Notice(Documented):
    clause: str
    text: str


class Section(Documented):
    title: str
    lines: list[str]


class PostedRules(Documented):
    """The rules posted at a table (``format=json``; ``markdown`` and ``html`` say the same
    as text)."""

    table: str
    game: str
    profile: str
    title: str
    limits: list[Line]
    wagers: list[WagerPosted]
    odds_multiples: list[Line]
    commission: list[Line]
    fire: list[Line]
    six_seven_eight: str
    zero_rule: str
    notices: list[Notice]
    sections: list[Section] = Field(description="all but the notices and the wagers, as "
                                    "titled lines")


TEXT_FORMATS: dict[int | str, dict[str, Any]] = {200: {"model": PostedRules, "content": {
    "text/markdown": {"schema": {"type": "string"}},
    "text/html": {"schema": {"type": "string"}}}}}


@router.get("/{table_id}/rules", response_model=None, responses=TEXT_FORMATS)
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
