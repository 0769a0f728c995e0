"""What a table action answers: the reply the runner builds (:mod:`croupier.service.runner`)
and the ledger keeps under the request's Idempotency-Key, as a model for ``/docs``.

These models document a reply that is encoded more cheaply than by validating it here: the
routes return the ledger's :class:`~croupier.service.plans.Reply` as it was stored (its JSON
text, once), so nothing in the hot path builds these models. ``tests/service/test_replies.py``
checks real answers of a real server against them, field by field, so the documentation
cannot drift from what a client gets.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Documented(BaseModel):
    """A reply's model: every field it may carry is named. ``extra="allow"`` keeps a value
    the model does not name rather than dropping it where a route validates its answer; the
    tests read :attr:`model_extra` to find any such field."""

    model_config = ConfigDict(extra="allow")


class EventShown(Documented):
    """An event as the API shows it: its place in the table's chain (``seq``, ``round``),
    its kind (``type``) and its own fields, which depend on the kind (the transcript
    contract's events, and the live service's own: buy-ins, seats, voids, alerts, ...)."""

    seq: int = Field(description="the event's place in the table's hash chain")
    round: int = Field(description="the round it belongs to")
    type: str = Field(description="the kind of event (``bet``, ``roll``, ``settled``, ...)")


class Chips(Documented):
    """A player's chips at the table after the action, as decimal strings."""

    chips: str = Field(examples=["190.00"], description="chips in hand")
    on_table: str = Field(examples=["10.00"], description="chips in wagers on the layout")


class TableReply(Documented):
    """The answer to every action at a table: the events it wrote and, for a player at the
    table, their chips. An action adds what it alone says (the fields below, present only
    for that action); a refusal is ``{"error": {...}}`` with status 409 instead."""

    table: str = Field(description="the table's id")
    round: int = Field(description="the round the action was taken in")
    events: list[EventShown] = Field(description="the events written, in the chain's order")
    you: Chips | None = Field(default=None, description="the caller's chips, when the caller "
                              "is a player at the table")
    settling: int | None = Field(default=None, description="202 only: the outcome recorded "
                                 "at this seq waits to be settled (a retry settles it)")
    left: bool | None = Field(default=None, description="cash-out: the player left the table")
    coupon: str | None = Field(default=None, description="a bet with a match play coupon: "
                               "the coupon's serial")
    late_bet: int | None = Field(default=None, description="202: the late wager waiting for "
                                 "the dealer's and the boxperson's confirmation")
    halted: dict[str, Any] | None = Field(default=None, description="the table halted: the "
                                          "halt's event")
    void_asked: int | None = Field(default=None, description="202: the round whose RNG "
                                   "outcome a second supervisor must approve voiding")
    waiting: str | None = Field(default=None, description="202: what the void waits for")
    voided_round: int | None = Field(default=None, description="the round voided")
    approved_adjustment: int | None = Field(default=None, description="the pending "
                                            "adjustment approved")
    withdrawn_adjustment: int | None = Field(default=None, description="the pending "
                                             "adjustment withdrawn by its asker")
    declined_adjustment: int | None = Field(default=None, description="the pending "
                                            "adjustment declined by another supervisor")
    pending_adjustment: int | None = Field(default=None, description="202: the adjustment "
                                           "asked, waiting for a second supervisor")
    player: str | None = Field(default=None, description="202 adjustment: whose chips")
    amount: str | None = Field(default=None, description="202 adjustment: the signed amount")
    reason: str | None = Field(default=None, description="202 adjustment: why")
    requested_by: str | None = Field(default=None, description="202 adjustment: who asked")
    status: str | None = Field(default=None, description="202 adjustment: ``pending``")
    reason_pending: str | None = Field(default=None, description="202 adjustment: why it "
                                       "waits for a second supervisor")


ACCEPTED: dict[int | str, dict[str, Any]] = {
    202: {"model": TableReply, "description": "Accepted: recorded, and waiting (a late bet's "
          "confirmation, a second supervisor's approval, or an outcome's settlement)"}}
"""The 202 answer of the actions that may wait for someone (``responses=`` of a route)."""


class WalletMove(Documented):
    """Money moved between a wallet and the cage: the balance after."""

    player: str
    balance: str = Field(examples=["250.00"], description="the wallet's balance after")
    paid: str | None = Field(default=None, description="a cash-out: the amount paid")
    cash_out: int | None = Field(default=None, description="a cash-out: the request paid")


def answers(model: Any, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route (with ``response_model=None``) whose ``status`` answer
    ``model`` documents: the route sends the dict it builds as it is, and the tests read real
    answers back through the model (``tests/service/test_replies.py``)."""
    return {status: {"model": model}}


class AlertFields(Documented):
    """A fairness alert's own fields, as the table's chain records it (``integrity_alert``)."""

    seq: int
    round: int
    at: float
    type: str = Field(description="``integrity_alert``")
    equipment: str = Field(description="``dice`` or ``wheel``")
    set_id: str = Field(description="the dice set (its serials) or the wheel (its table)")
    monitor: str
    observation: int
    statistic: str
    threshold: str
    message: str
