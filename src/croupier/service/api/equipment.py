"""Dice: registered by serial with inspection records (``/equipment/dice``), and at a table
offered, selected, refused, passed and changed (``/tables/{id}/dice``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from croupier.service import equipment, equipment_register
from croupier.service.acting import Asked
from croupier.service.api import queries
from croupier.service.api.act import act, act_at
from croupier.service.api.deps import (
    Dealer,
    DiceCaller,
    DiceHandler,
    DiceReader,
    EquipmentStaff,
    IdemKey,
    Player,
    Svc,
    TableId,
)
from croupier.service.api.models import Inspection, NewDie, Serials
from croupier.service.api.record_replies import Die, DieInspection
from croupier.service.api.register import dice_table
from croupier.service.api.replies import TableReply, answers
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable
from croupier.service.procedures.dice import DiceDesk

router = APIRouter()
Serial = Annotated[str, Path(max_length=32)]


def _dice(live: LiveTable) -> DiceDesk:
    """The dice the table keeps, or 422 where it keeps none."""
    desk = live.procedures.dice
    if desk is not None:
        return desk
    game = live.game
    if game.decisions == "rolls":
        raise ApiError(422, "malformed", f"at {game.name} a device throws the dice: they are "
                       "not offered, selected, passed or changed")
    raise ApiError(422, "malformed", f"not an action at {game.name}")


@router.post("/tables/{table_id}/dice/offer", tags=["dice"], response_model=TableReply)
async def offer_dice(request: Request, table_id: TableId, body: Serials, user: Dealer, svc: Svc,
                     key: IdemKey = None) -> Response:
    """The stickperson offers at least five inspected, in-spec dice to the shooter."""
    return await act(request, body, user, table_id, key,
                     lambda live: _dice(live).offer(body.serials))


@router.post("/tables/{table_id}/dice/select", tags=["dice"], response_model=TableReply)
async def select_dice(request: Request, table_id: TableId, body: Serials, who: DiceHandler,
                      svc: Svc, key: IdemKey = None) -> Response:
    """The shooter selects two of the dice offered (the dealer may record the pick)."""
    return await act(request, body, who.user, table_id, key,
                     lambda live: _dice(live).select(who.user, body.serials,
                                                     by_shooter=who.as_player))


@router.post("/tables/{table_id}/dice/refuse", tags=["dice"], response_model=TableReply)
async def refuse_dice(request: Request, table_id: TableId, user: Player, svc: Svc,
                      key: IdemKey = None) -> Response:
    """A player refuses to shoot in their turn; the dice go clockwise to the next."""
    return await act(request, None, user, table_id, key,
                     lambda live: _dice(live).refuse(user))


@router.post("/tables/{table_id}/dice/pass", tags=["dice"], response_model=TableReply)
async def pass_dice(request: Request, table_id: TableId, who: DiceHandler, svc: Svc,
                    key: IdemKey = None) -> Response:
    """The shooter passes the dice to the next player on completion of a decision."""
    return await act(request, None, who.user, table_id, key,
                     lambda live: _dice(live).pass_on(who.user, by_shooter=who.as_player))


@router.post("/tables/{table_id}/dice/change", tags=["dice"], response_model=TableReply)
async def change_dice(request: Request, table_id: TableId, who: DiceCaller, svc: Svc,
                      key: IdemKey = None) -> Response:
    """Call for a change of dice: it takes place immediately after the next decision."""
    return await act(request, None, who.user, table_id, key,
                     lambda live: _dice(live).change(who.user, by_player=who.as_player))


@router.post("/equipment/dice", tags=["equipment"], status_code=201, response_model=None,
             responses=answers(Die, 201))
def register_die(body: NewDie, user: EquipmentStaff, svc: Svc) -> dict[str, Any]:
    """Register a die by its serial number, in a set: its receipt into the house's custody is
    recorded, and with ``table_id`` its issue into that table's dice cup (a craps table's)."""
    if body.table_id is not None:
        dice_table(svc, body.table_id)  # from the ledger: the table may be another node's
    with svc.engine.begin() as conn:
        if queries.die_exists(conn, body.serial):
            raise ApiError(409, "exists", f"die {body.serial} is already registered")
        equipment_register.register_die(conn, user.username, body.serial, body.set_name,
                                        body.table_id)
    return {"serial": body.serial, "set_name": body.set_name, "table_id": body.table_id,
            "in_spec": False}


@router.post("/equipment/dice/{serial}/inspections", tags=["equipment"], status_code=201,
             response_model=None, responses=answers(DieInspection, 201))
async def inspect_die(request: Request, serial: Serial, body: Inspection,
                      user: EquipmentStaff, svc: Svc) -> dict[str, Any]:
    """Record an inspection; the die may be put in play only if it passed (20.25(b)2). One
    that passes issues a die registered for a table's cup; one that fails takes the die out
    of its cup and out of play at once."""
    record = body.model_dump()
    failures = equipment.inspect(record)

    def write() -> str | None:
        with svc.engine.begin() as conn:
            if not queries.die_exists(conn, serial):
                raise ApiError(404, "not_found", f"there is no die {serial}")
            return equipment_register.inspect_die(conn, user.username, serial, record,
                                                  failures)

    left = await run_in_threadpool(write)
    if left is not None and left in svc.tables and svc.tables.all[left].procedures.dice:
        # The dice in play at that table go back to the cup now; if the table cannot take
        # the event (halted, an outcome waiting), no throw uses the die anyway.
        await act_at(svc, Asked(user, left, None, ("POST", request.url.path)),
                     lambda live: _dice(live).withdraw(serial), changes=False)
    return {"serial": serial, "passed": not failures, "failures": failures,
            "clause": equipment.CLAUSE, "taken_from_table": left}


@router.get("/equipment/dice", tags=["equipment"], response_model=None,
            responses=answers(list[Die]))
def list_dice(user: DiceReader, svc: Svc) -> list[dict[str, Any]]:
    with svc.engine.connect() as conn:
        dice = queries.dice_with_latest_inspection(conn)
    return [{"serial": d.serial, "set_name": d.set_name, "table_id": d.table_id,
             "retired": d.retired, "in_spec": bool(latest and latest["passed"]),
             "last_inspection": latest} for d, latest in dice]
