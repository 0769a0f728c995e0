"""The server's procedures at roulette: "no more bets", and the ball spun against the wheel.

The dealer calls "No more bets" while the ball is still rotating (13:47-20.32(j)2): no wager is
made or taken back after it, and the spin follows it. A spin of a physical wheel is recorded
with the ball spun in the direction opposite to the wheel's rotation and its revolutions
counted (13:47-20.32(j)1); what the dealer declares of an irregular spin (too few revolutions,
spun the wheel's way, a foreign object) is recorded with the outcome and makes it "no spin"
(13:47-20.32(m)). There are no dice, no shooter and no late bets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from croupier.errors import Refusal
from croupier.events import Event
from croupier.roulette.events import Crowned, NoSpin
from croupier.roulette.table import Spin
from croupier.roulette.wheel import WHEELS, Wheel
from croupier.rules.citations import cite
from croupier.service import equipment_register, table_procedures
from croupier.service import events as sv
from croupier.service.auth import User

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from croupier.service.live import LiveTable, PendingOutcome
    from croupier.service.procedures.dice import DiceDesk
    from croupier.service.procedures.late_bets import LateBets


class RouletteProcedures:
    """The procedures around one roulette table."""

    dice: DiceDesk | None = None
    late: LateBets | None = None

    def __init__(self, live: LiveTable) -> None:
        self.live = live

    def _clause(self, name: str) -> str:
        from croupier.rules import load_profile

        rules = self.live.game.rules(load_profile(self.live.profile))
        return rules.clause(name) if rules is not None else ""

    def fold(self, event: Event) -> None:
        return None  # roulette has no procedures of its own that change what it knows

    def state(self) -> dict[str, Any]:
        return {"late_bets": []}

    def fold_decision(self, event: Event) -> bool:
        return isinstance(event, (Crowned, NoSpin))

    def dealer_clause(self) -> str:
        return cite(self.live.profile, "wheel_dealer")

    def adjustment_clause(self) -> str:
        return cite(self.live.profile, "wheel_adjustment")

    def _check_equipment(self, conn: Connection) -> None:
        """Refuse a spin entered from a wheel or ball out of service at this table: a failed
        inspection or a retirement takes it out of play at once."""
        for kind in ("wheel", "ball"):
            out = equipment_register.out_of_service_at(conn, self.live.id, kind)
            if out is not None:
                raise Refusal(f"the {kind} {out.id} of table {self.live.id} "
                              f"{equipment_register.why_out(out, self.live.id)}: a spin is "
                              f"entered only from a {kind} in service",
                              cite(self.live.profile, kind))

    def closed_clause(self) -> str:
        return self._clause("no_more_bets_clause")

    def removal_closed(self) -> Refusal:
        return Refusal('the dealer has called "No more bets"', self.closed_clause())

    def joined(self, player: str) -> list[Event]:
        return []

    def leaving(self, player: str) -> tuple[list[Event], bool]:
        return [], True

    def check_outcome(self, conn: Connection, entered: bool) -> None:
        if entered:
            self._check_equipment(conn)
        if self.live.betting_open:
            raise Refusal('the dealer calls "No more bets" while the ball is still rotating, '
                          "before it comes to rest", self.closed_clause())

    def check_drawn(self, declared: dict[str, Any]) -> None:
        """Refuse a ball's irregularity declared of the RNG's spin: no ball is spun, and the
        draw is a valid spin ((j)1: against the wheel, at least the minimum revolutions)."""
        from croupier.rules import load_profile

        rules = load_profile(self.live.profile).roulette
        # A spin of no revolutions is never one, whatever minimum the text sets.
        minimum = max(rules.minimum_revolutions if rules is not None else 0, 1)
        revolutions = declared.get("revolutions")
        if revolutions is not None and revolutions < minimum:
            raise Refusal(f"the RNG's spin is a valid spin of at least {minimum} revolutions: "
                          f"{revolutions} revolutions cannot be declared of it (no ball is "
                          "spun; a physical spin's are entered with its number)",
                          self._clause("valid_spin_clause"))
        if declared.get("same_direction"):
            raise Refusal("the RNG's spin is a valid spin, against the wheel: a ball spun the "
                          "wheel's way cannot be declared of it (no ball is spun)",
                          self._clause("valid_spin_clause"))
        if declared.get("foreign_object"):
            raise Refusal("the RNG's spin is a valid spin: a foreign object in the wheel "
                          "cannot be declared of it (no ball is spun)",
                          self._clause("foreign_object_clause"))

    def before_outcome(self, user: User, entered: bool, declared: dict[str, Any],
                       ) -> list[Event]:
        """A physical spin: the ball spun against the wheel, its revolutions counted."""
        if not entered:
            return []
        return [table_procedures.ball_spun(user.username, declared.get("revolutions"),
                                           bool(declared.get("same_direction")))]

    def entered(self, action: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        assert isinstance(action, Spin)  # the roulette reader's answer to a "spin"
        return (action.number,), {"revolutions": action.revolutions,
                                  "same_direction": action.same_direction,
                                  "foreign_object": action.foreign_object}

    def decision(self, pending: PendingOutcome) -> Spin:
        declared = pending.declared or sv.SpinDeclared(None, False, False)
        return Spin(pending.outcome[0], declared.revolutions, declared.same_direction,
                    declared.foreign_object)

    def settles(self, event: Event) -> Spin | None:
        return Spin(event.number) if isinstance(event, Crowned) else None

    def after_decision(self, user: User, decided: Sequence[Event]) -> list[Event]:
        return []

    def describe(self, decided: Sequence[Event]) -> dict[str, Any]:
        for event in decided:
            if isinstance(event, Crowned):
                return {"kind": "spin", "number": event.number, "colour": event.colour}
            if isinstance(event, NoSpin):
                return {"kind": "no_spin", "reason": event.reason, "clause": event.clause,
                        "number": event.number}
        return {}

    def after_alerts(self) -> list[Event]:
        return []

    def wheel(self) -> Wheel | None:
        return WHEELS[str(self.live.table.live_state()["wheel"])]

    def dice_set(self) -> tuple[str, ...]:
        return ()


def procedures(live: LiveTable) -> RouletteProcedures:
    return RouletteProcedures(live)
