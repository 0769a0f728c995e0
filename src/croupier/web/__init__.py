"""The browser table: the page at ``/`` and its assets under ``/static``, shipped as package data.

:func:`mount` adds three things to the live-table server (``croupier serve``):

* ``GET /`` -- the single page (``static/index.html``): craps and roulette layouts, the dealer
  and supervisor consoles, history and recall; it talks to the HTTP API and the table's
  WebSocket stream like any other client (plain ES modules, no build step);
* ``GET /static/{name}`` -- the page's scripts and style, read from the package;
* ``GET /web/offer`` -- what a table offers under its profile and options (the wagers, their
  pays and clauses, the wheel's pockets in order, and each wager's definition and spots as
  :mod:`croupier.craps.felt` and :mod:`croupier.roulette.felt` describe them), which the page
  draws its layout and the legal moves from: it names no wager itself.

Mounting twice changes nothing, so a server that already calls it may be handed to it again.

>>> offer = offered("craps", "nj-13-69f", {})
>>> "hop" in offer["wagers"], "fire" in offer["wagers"], offer["pays"]["place_win:6"]
(True, True, '7 to 6')
>>> "fire" in offered("mini-craps", "nj-13-69f", {})["wagers"]
False
>>> "six_seven_eight" in offered("craps", "nj-13-69f", {"six_seven_eight": False})["wagers"]
False
>>> r = offered("roulette", "nj-casino-night", {"seven_numbers": False})
>>> "seven_numbers" in r["wagers"], r["wheel"]["order"][:3], len(r["wheel"]["in_play"])
(False, [0, 28, 9], 38)
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query
from fastapi.responses import JSONResponse, Response

from croupier.errors import Malformed
from croupier.games import offered
from croupier.service.api.account_replies import Offer
from croupier.service.api.deps import known_query
from croupier.service.api.replies import answers

__all__ = ["ASSETS", "mount", "offered"]

ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "api.js": "text/javascript; charset=utf-8",
    "svg.js": "text/javascript; charset=utf-8",
    "craps.js": "text/javascript; charset=utf-8",
    "roulette.js": "text/javascript; charset=utf-8",
    "consoles.js": "text/javascript; charset=utf-8",
    "messages.js": "text/javascript; charset=utf-8",
    "legal.js": "text/javascript; charset=utf-8",
    "offer.js": "text/javascript; charset=utf-8",
    "keys.js": "text/javascript; charset=utf-8",
    "admin.js": "text/javascript; charset=utf-8",
    "rules.js": "text/javascript; charset=utf-8",
    "alerts.js": "text/javascript; charset=utf-8",
    "roving.js": "text/javascript; charset=utf-8",
    "password.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
"""Every file served under ``/static`` (nothing else is), with its content type."""

_MARK = "croupier_web_mounted"
_HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}


def _asset(name: str) -> bytes:
    return resources.files("croupier.web").joinpath("static", name).read_bytes()


def _is_mounted(app: FastAPI) -> bool:
    if getattr(app.state, _MARK, False):
        return True
    return any(getattr(route, "path", None) == "/" for route in app.router.routes)


def mount(app: FastAPI) -> None:
    """Serve the browser table at ``/`` and its assets at ``/static`` (idempotent)."""
    if _is_mounted(app):
        return
    setattr(app.state, _MARK, True)

    @app.get("/", include_in_schema=False)
    def page() -> Response:
        return Response(_asset("index.html"), media_type=ASSETS["index.html"], headers=_HEADERS)

    @app.get("/static/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        if name not in ASSETS:
            return JSONResponse({"error": {"code": "not_found", "reason": f"no asset {name!r}",
                                           "clause": ""}}, status_code=404)
        return Response(_asset(name), media_type=ASSETS[name], headers=_HEADERS)

    @app.get("/web/offer", tags=["tables"], response_model=None, responses=answers(Offer),
             dependencies=[Depends(known_query("game", "profile", "options"))])
    def offer(game: Annotated[str, Query(max_length=16)],
              profile: Annotated[str, Query(max_length=32)],
              options: Annotated[str, Query(max_length=4000)] = "{}") -> dict[str, Any]:
        """What a table offers under its profile and options (public: the regulations' own
        data): wagers with their clauses, the pay table, and for roulette the wheel."""
        try:
            parsed = json.loads(options)
        except ValueError:
            raise Malformed("options", "not a JSON object") from None
        if not isinstance(parsed, dict):
            raise Malformed("options", "not a JSON object")
        return offered(game, profile, parsed)
