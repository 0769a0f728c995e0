"""The procedures the server runs around a game's table, one implementation per family.

What the server does around the table is not the same at every game: at craps a shooter
throws dice the house keeps (offered, selected, changed; :mod:`.dice`), wagers may be taken
while the dice are in the air (:mod:`.late_bets`) and the stickperson calls each roll; at
roulette the dealer calls "no more bets" and spins the ball against the wheel. Each family's
module implements :class:`Procedures`; the game registry names the module
(:attr:`croupier.games.Game.procedures`), so no caller asks which game a table plays.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from croupier.errors import Refusal
from croupier.events import Event

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from croupier.roulette.wheel import Wheel
    from croupier.service.auth import User
    from croupier.service.live import LiveTable, PendingOutcome
    from croupier.service.procedures.dice import DiceDesk
    from croupier.service.procedures.late_bets import LateBets


class Procedures(Protocol):
    """The server's procedures around one table of a family."""

    live: LiveTable
    dice: DiceDesk | None
    """The dice the house keeps at the table (None where a device throws, or no dice)."""
    late: LateBets | None
    """Wagers made while the dice are in the air (None where none can be)."""

    def fold(self, event: Event) -> None:
        """Fold one of the family's own service events (dice, late bets, procedures)."""

    def state(self) -> dict[str, Any]:
        """What the API shows of the procedures (dice in play, late bets waiting)."""

    def fold_decision(self, event: Event) -> bool:
        """Fold a decision (a roll, a spin or a "no spin") into the procedures; whether
        ``event`` was one."""

    def dealer_clause(self) -> str:
        """The clause making the dealer responsible for the game (cited by the record of who
        deals the table)."""

    def closed_clause(self) -> str:
        """The clause that governs wagers once betting is closed."""

    def adjustment_clause(self) -> str:
        """The clause (or reading) a refusal of a supervisor's adjustment cites: who answers
        the disputes about the conduct of the game, where the profile's text names one."""

    def removal_closed(self) -> Refusal:
        """Why no wager is taken down while betting is closed."""

    def joined(self, player: str) -> list[Event]:
        """What follows a player's first chips at the table (the dice offered to them)."""

    def leaving(self, player: str) -> tuple[list[Event], bool]:
        """What follows a player's leaving (the dice passed on), and whether they may leave
        now (a shooter throws until the decision)."""

    def check_outcome(self, conn: Connection, entered: bool) -> None:
        """Refuse an outcome the table cannot have now (no shooter, no dice in play, betting
        still open at roulette, an entry where only the RNG decides)."""

    def check_drawn(self, declared: dict[str, Any]) -> None:
        """Refuse what the dealer declares of an outcome the RNG is to draw, where it cannot
        be so (a ball's irregularity declared of a spin no ball makes)."""

    def before_outcome(self, user: User, entered: bool, declared: dict[str, Any],
                       ) -> list[Event]:
        """What is recorded before an outcome (late bets lapsing; a physical spin's ball)."""

    def entered(self, action: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The outcome an entered action gives (the dice, the number) and what the dealer
        declared with it (a spin's revolutions, direction, a foreign object)."""

    def decision(self, pending: PendingOutcome) -> Any:
        """The game's action that settles a recorded outcome (a roll, a spin)."""

    def settles(self, event: Event) -> Any:
        """The game's action a recorded decision event settled (for the audit), or None."""

    def after_decision(self, user: User, decided: Sequence[Event]) -> list[Event]:
        """What follows a decision (the stickperson's call, a change of dice due)."""

    def describe(self, decided: Sequence[Event]) -> dict[str, Any]:
        """A decision as a round's record shows it (the dice and the point, the pocket)."""

    def after_alerts(self) -> list[Event]:
        """What a fairness alert calls for at the table (a change of dice)."""

    def wheel(self) -> Wheel | None:
        """The table's wheel, for its monitor (None where dice decide)."""

    def dice_set(self) -> tuple[str, ...]:
        """The serials of the dice in play (empty where there are none)."""


def procedures_for(live: LiveTable) -> Procedures:
    """The procedures of ``live``'s family, from the module its game names."""
    module = importlib.import_module(live.game.procedures)
    made: Procedures = module.procedures(live)
    return made
