"""A request's body read as the game's own action, the way the replay reads a transcript's.

The HTTP body keeps its fields (``wager``, the qualifier, ``amount``); one function maps it to
the transcript's action (``wager`` under the verb, the player from the token) and hands it to
the game's reader (:meth:`croupier.games.Game.read_action`) with the place named ``body``, so a
request and a transcript give the same typed action and the same Malformed for the same
mistake. A field the game does not take is malformed there, naming it.

>>> from croupier.service.live import LiveTable
>>> live = LiveTable("t", "craps", "nj-13-69f", {}, None)
>>> game_action(live, "bet", {"wager": "hop", "dice": [3, 1]}, "ann", "5", players=["ann"])
Bet(player='ann', wager='hop', qualifier=(1, 3), amount=Decimal('5'), covered=Decimal('0'))
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from croupier.errors import Malformed

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

WAGER_FIELDS = ("number", "dice", "numbers", "center", "column", "dozen")
"""The fields that say which wager of its kind a body means (a game reads its own)."""


def game_action(live: LiveTable, verb: str, body: Mapping[str, Any], player: str,
                amount: Decimal | str | None = None, players: Collection[str] | None = None,
                ) -> Any:
    """The game's action for a body naming a wager (``verb``: ``bet``, ``remove``,
    ``reduce``, ``on``, ``off``, ...) by ``player`` at ``live``."""
    raw: dict[str, Any] = {verb: body.get("wager"), "player": player}
    raw.update((k, body[k]) for k in WAGER_FIELDS if body.get(k) is not None)
    if amount is not None:
        raw["amount"] = amount
    seated = live.present() if players is None else players
    try:
        return live.game.read_action(raw, "body", seated, live.table)
    except Malformed as exc:
        if exc.where != f"body.{verb}":
            raise
        # The reader names the transcript's key (the verb); the request's field is ``wager``.
        raise Malformed("body.wager", exc.message) from None


def outcome_action(live: LiveTable, raw: Mapping[str, Any]) -> Any:
    """The game's action for an outcome the dealer entered (``{"roll": [3, 4]}``,
    ``{"spin": 17, "revolutions": 5}``)."""
    return live.game.read_action(dict(raw), "body", live.present(), live.table)
