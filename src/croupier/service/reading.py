"""A request's body read as the game's own action, the way the replay reads a transcript's.

The HTTP body keeps its fields (``wager``, the qualifier, ``amount``); the game's registry
entry maps it to the transcript's action (``wager`` under the verb, the player from the token)
and hands it to the game's reader with the place named ``body``
(:meth:`croupier.games.Game.read_body`; a bet is read and checked in one call,
:meth:`croupier.games.Game.take`), so a request and a transcript give the same typed action
and the same Malformed for the same mistake. A field the game does not take is malformed
there, naming it.

>>> from croupier.service.live import LiveTable
>>> live = LiveTable("t", "craps", "nj-13-69f", {}, None)
>>> from croupier.events import ChipsIn
>>> live.table.apply(ChipsIn("ann", Decimal(100)))
>>> game_action(live, "bet", {"wager": "hop", "dice": [3, 1]}, "ann", "5")
Bet(player='ann', wager='hop', qualifier=(1, 3), amount=Decimal('5'), covered=Decimal('0'))
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.service.live import LiveTable


def game_action(live: LiveTable, verb: str, body: Mapping[str, Any], player: str,
                amount: Decimal | str | None = None) -> Any:
    """The game's action for a body naming a wager (``verb``: ``bet``, ``remove``,
    ``reduce``, ``on``, ``off``, ...) by ``player`` at ``live`` (the players: its seats)."""
    return live.game.read_body(live.table, verb, body, player, amount)


def outcome_action(live: LiveTable, raw: Mapping[str, Any]) -> Any:
    """The game's action for an outcome the dealer entered (``{"roll": [3, 4]}``,
    ``{"spin": 17, "revolutions": 5}``)."""
    return live.game.read_action(dict(raw), "body", live.present(), live.table)
