"""The server's procedures at the craps games (craps, mini-craps, automated craps).

Where a player throws (craps, mini-craps), the dice are offered to the first player to buy in
and pass around the table (:mod:`.dice`); a shooter who leaves between decisions passes them
on; wagers may be made while the dice are in the air where the profile and the game provide for
it (:mod:`.late_bets`); the stickperson calls each roll (13:47-20.25(e)4) and a change of dice
called takes effect after the next decision. Where a device throws (automated craps), the RNG
alone decides and none of this applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from croupier.craps.actions import Roll
from croupier.craps.events import Rolled, ShooterChanged
from croupier.dice import POINTS
from croupier.errors import Refusal
from croupier.events import Event
from croupier.rules import load_profile
from croupier.service import events as sv
from croupier.service import table_procedures
from croupier.service.auth import User
from croupier.service.equipment import CHANGE_CLAUSE
from croupier.service.monitoring import MONITOR_ACTOR
from croupier.service.plans import OUTCOME_CLAUSE
from croupier.service.procedures.clauses import clause
from croupier.service.procedures.dice import DiceDesk
from croupier.service.procedures.late_bets import LateBets

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from croupier.roulette.wheel import Wheel
    from croupier.service.live import LiveTable, PendingOutcome


def line_decided(event: Rolled) -> bool:
    """Whether a roll decided the pass line (a "decision" in 13:47-20.25(g)8)."""
    if event.point_before is None:
        return event.total not in POINTS
    return event.point_after is None


class CrapsProcedures:
    """The procedures around one craps, mini-craps or automated craps table."""

    def __init__(self, live: LiveTable) -> None:
        self._live = live
        game = live.game
        self.dice: DiceDesk | None = DiceDesk(live) if game.uses_dice else None
        self.late: LateBets | None = LateBets(live)

    @property
    def live(self) -> LiveTable:
        """The table these procedures serve."""
        return self._live

    @live.setter
    def live(self, live: LiveTable) -> None:
        # A rebuilt table (a void) hands its procedures to the table it replaces: the dice
        # desk and the late bets follow, or they read the discarded copy's state (whether a
        # voided entry waits for its replacement, the round) frozen at the rebuild.
        self._live = live
        if self.dice is not None:
            self.dice.live = live
        if self.late is not None:
            self.late.live = live

    def _rules_clause(self, name: str) -> str:
        rules = self.live.game.rules(load_profile(self.live.profile))
        return rules.clause(name) if rules is not None else ""

    def fold(self, event: Event) -> None:
        if self.dice is not None and self.dice.fold(event):
            return
        if self.late is not None:
            self.late.fold(event)

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = self.late.state() if self.late is not None else {}
        if self.dice is not None:
            out.update(self.dice.state())
        return out

    def fold_decision(self, event: Event) -> bool:
        """Fold a roll: the late bets waiting lapse with it. Whether ``event`` was one."""
        if not isinstance(event, Rolled):
            return False
        if self.late is not None:
            self.late.decided()
        return True

    def dealer_clause(self) -> str:
        return clause(self.live.profile, "dealer")

    def adjustment_clause(self) -> str:
        return clause(self.live.profile, "adjustment")

    def closed_clause(self) -> str:
        """Late bets with confirmation where the profile permits them, else bets before the
        throw."""
        rules = load_profile(self.live.profile).craps
        late = rules is not None and rules.late_bets
        return self._rules_clause("late_bet_clause" if late else "timing_clause")

    def removal_closed(self) -> Refusal:
        return Refusal("a wager is not removed or reduced while the dice are in the air",
                       self._rules_clause("removal_clause"))

    def _shooter(self) -> str:
        return str(self.live.table.state_json().get("shooter") or "")

    def joined(self, player: str) -> list[Event]:
        if not self.live.game.has_shooter or self._shooter():
            return []
        return [ShooterChanged(player, "the dice are offered to the first player")]

    def leaving(self, player: str) -> tuple[list[Event], bool]:
        if self.dice is None or self._shooter() != player:
            return [], True
        if self.live.table.state_json().get("point") is not None:
            return [], False  # the shooter throws until a decision; the chips still go out
        if len(self.live.present()) < 2:
            return [], True
        return self.dice.pass_to(self.dice.next_after(player)), True

    def check_outcome(self, conn: Connection, entered: bool) -> None:
        game = self.live.game
        if entered and not game.dealer_enters_results:
            raise Refusal(f"at {game.name} a device throws the dice: the RNG decides every "
                          "roll and no result is entered", OUTCOME_CLAUSE)
        if self.dice is not None:
            self.dice.check_ready(conn)

    def check_drawn(self, declared: dict[str, Any]) -> None:
        return None  # nothing is declared of a roll

    def before_outcome(self, user: User, entered: bool, declared: dict[str, Any],
                       ) -> list[Event]:
        return self.late.lapse() if self.late is not None else []

    def entered(self, action: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        assert isinstance(action, Roll)  # the craps reader's answer to a "roll"
        return (action.d1, action.d2), {}

    def decision(self, pending: PendingOutcome) -> Roll:
        d1, d2 = pending.outcome
        return Roll(int(d1), int(d2))

    def settles(self, event: Event) -> Roll | None:
        return Roll(*event.dice) if isinstance(event, Rolled) else None

    def after_decision(self, user: User, decided: Sequence[Event]) -> list[Event]:
        if self.dice is None:
            return []
        rolled = next(e for e in decided if isinstance(e, Rolled))
        return [*table_procedures.stick_call(user.username, list(decided)),
                *self.dice.after_decision(line_decided(rolled))]

    def describe(self, decided: Sequence[Event]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for event in decided:
            if isinstance(event, Rolled):
                out.update(kind="roll", dice=list(event.dice), total=event.total,
                           point_before=event.point_before, point_after=event.point_after)
            elif isinstance(event, ShooterChanged):
                out["shooter_after"] = event.shooter
        return out

    def after_alerts(self) -> list[Event]:
        """An alert on the dice in play calls a change of dice, effective after the next
        decision (13:47-20.25(g)8)."""
        if self.dice is None or not self.dice.in_play or self.dice.change_called:
            return []
        return [sv.DiceChangeCalled(MONITOR_ACTOR, CHANGE_CLAUSE)]

    def wheel(self) -> Wheel | None:
        return None

    def dice_set(self) -> tuple[str, ...]:
        return self.dice.in_play if self.dice is not None else ()


def procedures(live: LiveTable) -> CrapsProcedures:
    return CrapsProcedures(live)


__all__ = ["CrapsProcedures", "clause", "line_decided", "procedures"]
