"""The browser table: the page at ``/`` and its assets under ``/static``, shipped as package data.

:func:`mount` adds three things to the live-table server (``croupier serve``):

* ``GET /`` -- the single page (``static/index.html``): craps and roulette layouts, the dealer
  and supervisor consoles, history and recall; it talks to the HTTP API and the table's
  WebSocket stream like any other client (plain ES modules, no build step);
* ``GET /static/{name}`` -- the page's scripts and style, read from the package;
* ``GET /web/offer`` -- what a table offers under its profile and options (the wagers, their
  pays and clauses, the wheel's pockets in order), which the page draws its layout from.

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

from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse, Response

from croupier.errors import Malformed
from croupier.rules import PROFILE_IDS, load_profile

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
    "keys.js": "text/javascript; charset=utf-8",
    "admin.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
"""Every file served under ``/static`` (nothing else is), with its content type."""

_MARK = "croupier_web_mounted"
_HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}


def _asset(name: str) -> bytes:
    return resources.files("croupier.web").joinpath("static", name).read_bytes()


def offered(game: str, profile_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """The wagers a table of ``game`` offers under ``profile_id`` with ``options``: their ids
    (with the clause permitting each), the pay table in force, the profile's settings the page
    needs, and for roulette the wheel. Malformed if the profile, game or options are not."""
    if profile_id not in PROFILE_IDS:
        raise Malformed("profile", f"unknown profile {profile_id!r}")
    profile = load_profile(profile_id)
    if not profile.covers(game):
        raise Malformed("game", f"{profile_id} does not cover {game}")
    if game == "roulette":
        return _roulette_offer(profile_id, options)
    return _craps_offer(profile_id, game, options)


def _craps_offer(profile_id: str, game: str, options: dict[str, Any]) -> dict[str, Any]:
    from croupier.craps.config import CrapsConfig

    profile = load_profile(profile_id)
    config = CrapsConfig.from_options(profile, options, mini=game == "mini-craps")
    rules = config.rules
    settings = rules.settings
    wagers = dict(rules.wagers)
    if not config.six_seven_eight:
        wagers.pop("six_seven_eight", None)
    if config.mini:
        for wager_id in settings.get("craps_only", []):
            wagers.pop(wager_id, None)
    if not settings.get("free_odds", False):
        wagers = {k: v for k, v in wagers.items() if not k.endswith("_odds")}
    return {
        "game": game, "profile": profile_id, "title": profile.title, "wagers": wagers,
        "pays": {k: str(v) for k, v in config.pays.items()},
        "off_on_come_out": list(settings.get("off_on_come_out", [])),
        "clauses": {k: v for k, v in settings.items() if isinstance(v, str) and "clause" in k},
        "unit": str(config.unit), "min_bet": str(config.min_bet),
        "max_bet": None if config.max_bet is None else str(config.max_bet),
        "vig": str(config.vig), "odds": None if config.odds is None else str(config.odds),
    }


def _roulette_offer(profile_id: str, options: dict[str, Any]) -> dict[str, Any]:
    from croupier.roulette.replay import read_options
    from croupier.roulette.wheel import WHEELS

    profile = load_profile(profile_id)
    rules = profile.roulette
    if rules is None:  # pragma: no cover - covers() said roulette
        raise Malformed("game", f"{profile_id} does not cover roulette")
    config = read_options(options, profile)
    wheel = WHEELS[config.wheel]
    wagers = dict(rules.wagers)
    if not config.five_adjacent:
        wagers.pop("five_adjacent", None)
    if not config.seven_numbers:
        wagers.pop("seven_numbers", None)
    if "00" not in wheel.in_play:
        wagers.pop("first_five", None)
    pays = {k: str(v) for k, v in rules.pays.items()}
    pays.update({k: str(v) for k, v in config.pays.items()})
    return {
        "game": "roulette", "profile": profile_id, "title": profile.title, "wagers": wagers,
        "pays": pays,
        "clauses": {k: v for k, v in rules.settings.items() if isinstance(v, str) and "clause" in k},
        "unit": str(config.unit),
        "min_bet": None if config.min_bet is None else str(config.min_bet),
        "max_bet": None if config.max_bet is None else str(config.max_bet),
        "zero_rule": config.zero_rule,
        "wheel": {"id": wheel.id, "name": wheel.name, "layout": wheel.layout_id,
                  "order": list(wheel.order), "in_play": sorted(wheel.in_play, key=_pocket_order)},
    }


def _pocket_order(pocket: Any) -> int:
    return -1 if pocket == "00" else int(pocket)


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

    @app.get("/web/offer", tags=["tables"])
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
