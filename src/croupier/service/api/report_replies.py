"""What the end-of-night reports and the alert records answer (``/reports``, ``/tables/{id}/
alert-records``), as models for ``/docs``: the figures of :mod:`croupier.service.reports`, the
money of :mod:`croupier.service.night` and the fairness alerts with their acknowledgements.

Money is a decimal string, a ratio (hold, theoretical win) the string of an exact fraction
("27/1000"), never a binary float."""

from __future__ import annotations

from pydantic import Field

from croupier.service.api.replies import AlertFields, Documented


class Acknowledgement(Documented):
    """Who acknowledged a fairness alert, why and when (the event that records it: ``seq``)."""

    by: str
    reason: str
    at: float
    seq: int


class AlertRecord(AlertFields):
    """A fairness alert as the table's chain recorded it, with its acknowledgement."""

    table: str
    acknowledged: Acknowledgement | None = Field(description="None while it has none")


class AlertRecords(Documented):
    """Every fairness alert raised at a table, oldest first."""

    table: str
    alerts: list[AlertRecord]


class BigWin(Documented):
    table: str
    seq: int
    player: str
    wager: str
    paid: str


class VoidLine(Documented):
    seq: int
    round: int | None
    reason: str
    by: str
    approved_by: str | None
    kind: str = Field(description="``stakes returned`` or ``result corrected``")
    events: int
    table: str | None = Field(default=None, description="the event's total only")


class AdjustmentLine(Documented):
    seq: int
    player: str
    amount: str
    reason: str
    by: str
    table: str | None = Field(default=None, description="the event's total only")


class HaltLine(Documented):
    seq: int
    player: str
    wager: str
    reason: str
    table: str | None = Field(default=None, description="the event's total only")


class Figures(Documented):
    """One table's night (or the whole event's, ``table`` then ``all tables``)."""

    table: str
    drop: str
    win: str
    hold: str | None = Field(description="win over drop, an exact fraction; None: no drop")
    handle: str
    theoretical: str = Field(description="the wagers' exact house edge times their handle")
    big_wins: list[BigWin]
    voids: list[VoidLine]
    halts: list[HaltLine]
    adjustments: list[AdjustmentLine]


class Cash(Documented):
    """The night's money as the ledger holds it (the event's report only)."""

    deposits: str
    cage_cash_outs: str
    net_in: str
    bought: str
    returned: str
    wallets: str
    chips_at_tables: str
    house_win: str
    accounted: str
    difference: str
    adds_up: bool


class NightReport(Documented):
    """The end-of-night report as JSON (``format=html`` and ``format=csv`` answer the same
    figures as a printable page or a spreadsheet)."""

    tables: list[Figures]
    event: Figures
    made: str = Field(description="when the report was made")
    alerts: list[AlertRecord]
    cash: Cash | None = Field(default=None, description="the whole event's report only")
