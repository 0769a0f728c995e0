"""The equipment register (``/equipment/items``), the dice's chain of custody
(``/equipment/dice/{serial}/custody``) and the house's chain itself (``/house/records``).

Admins and supervisors record; the dealer, supervisor, auditor and admin read (as for dice).
Every record is a link of the house's hash chain (``service/register.py``).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import Field
from sqlalchemy.engine import Connection
from starlette.concurrency import run_in_threadpool

from croupier.rules.citations import cite
from croupier.service import equipment_register as reg
from croupier.service import layouts, register, store
from croupier.service.acting import Asked
from croupier.service.api import queries
from croupier.service.api.act import act_at
from croupier.service.api.deps import (
    MOST,
    WHOLE,
    DiceReader,
    EquipmentStaff,
    Services,
    Svc,
    Verifier,
    known_query,
)
from croupier.service.api.models import NAME, Body, PlainText, Reason
from croupier.service.api.record_replies import HouseRecord, Item
from croupier.service.api.replies import answers
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable

log = logging.getLogger("croupier.service")

router = APIRouter(tags=["equipment"])
ItemId = Annotated[str, Path(pattern=NAME)]
Serial = Annotated[str, Path(max_length=32)]
Note = Reason


class NewItem(Body):
    id: str = Field(pattern=NAME, examples=["wheel-1"])
    type: Literal["table", "wheel", "ball", "layout", "dice"]
    description: PlainText = Field(min_length=3, max_length=300)
    table: str | None = Field(default=None, pattern=NAME,
                              description="the table it stands at (a table not yet opened too)")
    wagers: list[Literal["five_adjacent", "seven_numbers"]] = Field(
        default_factory=list, max_length=2,
        description="a layout: the optional wagers its design shows (13:47-20.32(e)1ii, (e)15i)")


class Approval(Body):
    authority: PlainText = Field(min_length=2, max_length=120,
                                 examples=["Casino Control Commission"])
    reference: PlainText = Field(min_length=1, max_length=120)


class ItemInspection(Body):
    passed: bool
    findings: Note


class Placing(Body):
    table: str | None = Field(pattern=NAME, description="null: taken from its table")


class Retirement(Body):
    reason: Note


class CustodyStep(Body):
    step: Literal["received", "stored", "issued", "returned", "cancelled"]
    table: str | None = Field(default=None, pattern=NAME, description="issued: the table")
    note: PlainText = Field(default="", max_length=500)


@router.post("/equipment/items", status_code=201, response_model=None,
             responses=answers(Item, 201))
def add_item(body: NewItem, user: EquipmentStaff, svc: Svc) -> dict[str, Any]:
    """Register a table, wheel, ball, layout or set of dice (refused, 409, at a table whose
    game uses none of its kind)."""
    with svc.engine.begin() as conn:
        return reg.add_item(conn, user.username, body.model_dump()).json()


def _record(svc: Svc, user: Any, item_id: str, kind: str, payload: dict[str, Any],
            ) -> dict[str, Any]:
    with svc.engine.begin() as conn:
        return reg.add_record(conn, user.username, item_id, kind, payload).json()


async def _withdrawn(request: Request, svc: Svc, user: Any, found: dict[str, Any],
                     reason: str) -> dict[str, Any]:
    """After a record that may take a layout (``found``) out of service at a table (a failed
    inspection, a retirement, a move), committed: each table this server holds that offers a
    wager no approved layout in service there shows any more is given a ``layout_withdrawn``
    event (``service/layouts.py``), whatever else waits at it (a halt, an outcome being
    settled: it only takes wagers off)."""
    item_id = found["id"]
    if found["type"] != "layout":
        return found
    for live in list(svc.tables.all.values()):
        if not layouts.needing_layout(live):
            continue
        try:
            await act_at(svc, Asked(user, live.id, None, ("POST", request.url.path)),
                         lambda at: layouts.withdrawal(at, item_id, reason), phase="resolve",
                         changes=False)
        except Exception:
            # The record stands (committed above), so an error here is not the answer: it
            # would say nothing was changed. The table refuses the wagers anyway, each bet
            # reading the register (layouts.require_layout); the next record of a layout
            # gives it the event.
            log.exception("taking %s's wagers off at table %s failed", item_id, live.id)
    return found


@router.post("/equipment/items/{item_id}/approvals", status_code=201, response_model=None,
             responses=answers(Item, 201))
def approve_item(item_id: ItemId, body: Approval, user: EquipmentStaff,
                 svc: Svc) -> dict[str, Any]:
    """Record an approval of the item (who approved it, under which reference)."""
    return _record(svc, user, item_id, "equipment_approved", body.model_dump())


@router.post("/equipment/items/{item_id}/inspections", status_code=201, response_model=None,
             responses=answers(Item, 201))
async def inspect_item(request: Request, item_id: ItemId, body: ItemInspection,
                       user: EquipmentStaff, svc: Svc) -> dict[str, Any]:
    """Record an inspection; an item failed at its latest one is out of service (a layout's
    wagers are off at the table it was at from then on)."""
    found = await run_in_threadpool(_record, svc, user, item_id, "equipment_inspected",
                                    body.model_dump())
    if body.passed:
        return found  # a pass takes nothing out of service
    return await _withdrawn(request, svc, user, found, f"it failed its inspection by "
                                f"{user.username} ({body.findings})")


@router.post("/equipment/items/{item_id}/placing", status_code=201, response_model=None,
             responses=answers(Item, 201))
async def place_item(request: Request, item_id: ItemId, body: Placing, user: EquipmentStaff,
                     svc: Svc) -> dict[str, Any]:
    """Record the item put at a table (or taken from one; refused, 409, at a table whose game
    uses none of its kind). A layout's wagers follow at the table's opening, and are off at
    the table it was taken from."""
    found = await run_in_threadpool(_record, svc, user, item_id, "equipment_placed",
                                    body.model_dump())
    return await _withdrawn(request, svc, user, found, f"{user.username} moved it to "
                                f"{'table ' + body.table if body.table else 'no table'}")


@router.post("/equipment/items/{item_id}/retirement", status_code=201, response_model=None,
             responses=answers(Item, 201))
async def retire_item(request: Request, item_id: ItemId, body: Retirement,
                      user: EquipmentStaff, svc: Svc) -> dict[str, Any]:
    """Take the item out of service for good (a layout's wagers are off at its table)."""
    found = await run_in_threadpool(_record, svc, user, item_id, "equipment_retired",
                                    body.model_dump())
    return await _withdrawn(request, svc, user, found, f"it was retired by {user.username} "
                                f"({body.reason})")


@router.get("/equipment/items", response_model=None, responses=answers(list[Item]))
def list_items(user: DiceReader, svc: Svc) -> list[dict[str, Any]]:
    with svc.engine.connect() as conn:
        return [i.json() for i in reg.items(conn)]


@router.get("/equipment/items/{item_id}", response_model=None, responses=answers(Item))
def one_item(item_id: ItemId, user: DiceReader, svc: Svc) -> dict[str, Any]:
    with svc.engine.connect() as conn:
        found = reg.item(conn, item_id)
    if found is None:
        raise ApiError(404, "not_found", f"there is no equipment {item_id}")
    return found.json()


@router.post("/equipment/dice/{serial}/custody", status_code=201, response_model=None,
             responses=answers(HouseRecord, 201))
def custody_step(serial: Serial, body: CustodyStep, user: EquipmentStaff,
                 svc: Svc) -> dict[str, Any]:
    """One step of a die's custody: received, stored, issued (to a table's cup), returned,
    cancelled. A die in play at its table is not returned or cancelled; whether it is in play
    is read from the ledger (its table brought up to its last event), never from a copy this
    node keeps of a table another node serves."""
    target = dice_table(svc, body.table) if body.table is not None else None
    with svc.engine.connect() as conn:
        cup = reg.cup_of(conn, serial)  # from its custody records, not its row
    home = svc.tables.known(cup) if cup is not None else None
    profiles = {t.id: t.profile for t in (target, home) if t is not None}
    with contextlib.ExitStack() as held:
        if home is not None:
            held.enter_context(home.lock)  # before the die's row, as a table's actions take them
        with svc.engine.begin() as conn:
            _hold_die(conn, serial, cup)
            if home is not None:
                # The die's row is held: an action offering or selecting it on any node
                # has committed, or waits for this step and then sees it.
                svc.tables.catch_up_in(conn, home)
                _not_in_play(home, serial)
            move = reg.CustodyStep(serial, body.step, body.table, body.note)
            return reg.custody_step(conn, user.username, move, profiles)


def dice_table(svc: Services, table_id: str) -> LiveTable:
    """The table a die is issued to, from the ledger (404 if none, 409 if it keeps no dice)."""
    live = svc.tables.known(table_id)
    if live is None:
        raise ApiError(404, "not_found", f"there is no table {table_id!r}")
    if live.procedures.dice is None:
        raise ApiError(409, "refused", f"table {table_id} keeps no dice: a die is issued "
                       "only to the cup of a table where a player throws the dice",
                       cite(live.profile, "dice_cup"))
    return live


def _hold_die(conn: Connection, serial: str, cup: str | None) -> None:
    """Lock the die's row to the end of the transaction; 409 if its cup changed since it was
    read (another step committed meanwhile: the request is retried)."""
    conn.execute(sa.select(store.dice.c.serial).where(store.dice.c.serial == serial)
                 .with_for_update()).first()
    if reg.cup_of(conn, serial) != cup:
        raise ApiError(409, "refused", f"die {serial} moved while this step was recorded: "
                       "nothing was changed; retry", reg.CLAUSE)


def _not_in_play(live: LiveTable, serial: str) -> None:
    desk = live.procedures.dice
    if desk is not None and (serial in desk.in_play or serial in desk.offered):
        raise ApiError(409, "refused", f"die {serial} is in play at table {live.id}: it "
                       "goes back to the cup after the decision (a change of dice)",
                       cite(live.profile, "dice_change"))


@router.get("/equipment/dice/{serial}/custody", response_model=None,
            responses=answers(list[HouseRecord]))
def custody(serial: Serial, user: DiceReader, svc: Svc) -> list[dict[str, Any]]:
    """A die's chain of custody, oldest first."""
    with svc.engine.connect() as conn:
        if not queries.die_exists(conn, serial):
            raise ApiError(404, "not_found", f"there is no die {serial}")
        return reg.custody(conn, serial)


@router.get("/house/records", tags=["audit"], response_model=None,
            responses=answers(list[HouseRecord]),
            dependencies=[Depends(known_query("after", "limit"))])
def house_records(user: Verifier, svc: Svc,
                  after: Annotated[int, Query(ge=0, le=MOST), WHOLE] = 0,
                  limit: Annotated[int, Query(ge=1, le=1000), WHOLE] = 200) -> list[dict[str, Any]]:
    """The house's chain (equipment, custody, pay table changes) with each record's hash."""
    with svc.engine.connect() as conn:
        return register.rows(conn, after=after, limit=limit)
