"""What the records answer: recall (a table's events, alerts and rounds, a player's rounds),
the audit's verdict, the dice and the equipment register, the house's chain and the pay
tables, as models for ``/docs``.

As :mod:`croupier.service.api.replies`, each documents a reply the route builds as a dict and
sends as it is; ``tests/service/test_replies.py`` reads real answers back through these
models, field by field. Money is a decimal string, never a binary float; ``at`` is seconds
since the epoch.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from croupier.service.api.coupons import Coupon
from croupier.service.api.replies import AlertFields, Chips, Documented


class Recorded(Documented):
    """An event as recall shows it: its place in the table's chain, who acted and when, its
    kind (``type``) and its own fields, which depend on the kind."""

    seq: int
    round: int | None = Field(default=None, description="a table's events: the round")
    actor: str = Field(description="who acted")
    at: float
    type: str = Field(description="the kind of event (``bet``, ``roll``, ``settle``, ...)")


class AlertShown(AlertFields):
    """A fairness alert as the table's chain recorded it (the event ``integrity_alert``)."""

    voided: bool = Field(description="the roll or spin that raised it was voided")


class Alarm(Documented):
    """A monitor's alarm: its statistic (a CUSUM in log-likelihood-ratio units, a test
    statistic rather than money, hence a number) crossed its threshold."""

    monitor: str
    at: int = Field(description="the roll or spin of the set (1-based) it alarmed at")
    statistic: float
    threshold: float
    message: str


class MonitorState(Documented):
    """One fairness monitor: a dice set's or the wheel's."""

    kind: str = Field(description="``dice`` or ``wheel``")
    id: str = Field(description="the dice set (its serials joined) or the wheel's table")
    n: int = Field(description="observations")
    alarmed: bool
    peak: float = Field(description="its statistic nearest its threshold (1.0 is an alarm): "
                        "a ratio of test statistics, not money")
    alarms: list[Alarm]
    in_play: bool | None = Field(default=None, description="dice: the set now in play")
    wheel: str | None = Field(default=None, description="the wheel's id")


class TableAlerts(Documented):
    table: str
    alerts: list[AlertShown]
    monitors: list[MonitorState]


class Outcome(Documented):
    """A round's decision as the rounds record keeps it: the event it came from and its
    fields (a roll's dice and total, a spin's number), which depend on the game."""

    from_seq: int
    kind: str = Field(description="``roll`` or ``spin``")


class RoundVoided(Documented):
    """Why a round was voided and by whom (a second supervisor's approval, for an RNG's)."""

    reason: str
    by: str
    approved_by: str | None = None


class Draw(Documented):
    """Where a round's outcome came from: the RNG (its source and raw draw) or the person who
    entered it; empty when the round was decided by no outcome."""

    source: str | None = Field(default=None, description="``entered``, or the RNG's source")
    by: str | None = Field(default=None, description="entered: who entered it")
    raw: list[int] | None = Field(default=None, description="the RNG's raw draw")
    outcome: list[int | str] | None = None


class Staked(Documented):
    """A wager in action when the round was decided."""

    player: str
    wager: str = Field(description="the wager's key on the layout (``place_win:6``)")
    stake: str


class RoundListed(Documented):
    round: int
    outcome: Outcome
    voided: RoundVoided | None
    decided_at: float


class Balances(Documented):
    before: dict[str, Chips] | None
    after: dict[str, Chips] | None


class RoundRecord(Documented):
    """A round in full (a player sees only their own wagers, settlements, coupons and
    balances, and the events their role may see)."""

    table: str
    game: str
    round: int
    decided: bool
    outcome: Outcome | None
    draw: Draw | None
    voided: RoundVoided | None
    wagers_in_action: list[Staked] | None
    bets: list[Recorded] | None
    settlements: list[Recorded] | None
    balances: Balances
    coupons: list[Coupon] | None = Field(description="the match play coupons redeemed in it")
    events: list[Recorded]


class PlayerRound(Documented):
    """A player's part in one of their rounds."""

    table: str
    round: int
    outcome: Outcome | None
    voided: RoundVoided | None
    wagers_in_action: list[Staked]
    bets: list[Recorded]
    settlements: list[Recorded]
    balance_before: Chips | None
    balance_after: Chips | None


class FindingShown(Documented):
    where: str
    seq: int | None
    what: str


class Verdict(Documented):
    """The whole ledger checked against itself (``GET /audit/verify``)."""

    ok: bool
    problems: list[str]
    first: FindingShown | None
    findings: list[FindingShown] = Field(description="the first 100")
    notes: list[str]
    events: int
    deposits: str
    wallets: str
    tables: str


class Inspected(Documented):
    by: str
    at: float
    passed: bool
    failures: list[str]


class Die(Documented):
    serial: str
    set_name: str
    table_id: str | None = Field(description="the table whose cup holds it")
    retired: bool | None = Field(default=None, description="listed dice only")
    in_spec: bool
    last_inspection: Inspected | None = Field(default=None, description="listed dice only")


class DieInspection(Documented):
    serial: str
    passed: bool
    failures: list[str]
    clause: str
    taken_from_table: str | None = Field(description="a die failed: the table whose cup or "
                                         "play it was taken from")


class Approved(Documented):
    by: str
    authority: str
    reference: str
    at: float


class ItemInspected(Documented):
    by: str
    passed: bool
    findings: str
    at: float


class Retired(Documented):
    by: str
    reason: str
    at: float


class Item(Documented):
    """A table, wheel, ball, layout or set of dice in the equipment register."""

    id: str
    type: str
    description: str
    table: str | None
    wagers: list[str]
    registered_by: str
    approved: bool
    approvals: list[Approved]
    inspections: list[ItemInspected]
    retired: Retired | None
    in_service: bool
    records: list[int] = Field(description="its records in the house's chain, by seq")


class HouseRecord(Documented):
    """A record of the house's hash chain (equipment, custody, pay table changes)."""

    seq: int
    kind: str
    subject: str
    payload: dict[str, Any] = Field(description="the record's own fields, by kind")
    actor: str
    at: float
    hash: str = Field(description="SHA-256 of the record chained to the one before, hex")
    request: str | None = Field(default=None, description="the digest of the request that "
                                "made the record (a coupon issued), as its payload chains it")


class PayTableChange(Documented):
    id: int
    game: str
    profile: str
    pays: dict[str, str]
    effective_at: float
    effective: str = Field(description="ISO 8601")
    reason: str
    proposed_by: str
    approved_by: str | None
    status: str = Field(description="``proposed``, ``approved``, ``in effect``, "
                        "``withdrawn``, ...")
    notes: list[str]


class HousePayTable(Documented):
    game: str
    profile: str
    pays: dict[str, str]
    source: str
    tables: dict[str, bool] = Field(description="the tables that play it: whether each pays it")
