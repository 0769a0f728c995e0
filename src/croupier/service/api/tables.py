"""``/tables``: the tables, opening one (admin), and a player's chips and seat at one."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from croupier.errors import Malformed
from croupier.money import parse_amount
from croupier.rules import PROFILE_IDS, load_profile
from croupier.service import cashier, controls, paytables, visibility, wagers
from croupier.service.api.account_replies import TableListed, TableState
from croupier.service.api.act import act
from croupier.service.api.deps import Admin, Current, IdemKey, Key, Player, Svc, TableId
from croupier.service.api.models import Amount, CashOut, NewTable
from croupier.service.api.replies import TableReply, answers
from croupier.service.errors import ApiError

router = APIRouter(prefix="/tables")


def no_floats(value: Any, where: str) -> None:
    """Money and rates in table options come as decimal strings or integers, never as JSON
    fractions: the request parser would have made them binary floats."""
    if isinstance(value, float):
        raise Malformed(where, f"write {value!r} as a decimal string, e.g. \"{value!r}\"")
    if isinstance(value, dict):
        for key, item in value.items():
            no_floats(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            no_floats(item, f"{where}[{i}]")


@router.get("", tags=["tables"], response_model=None,
            responses=answers(list[TableListed]))
def list_tables(user: Current, svc: Svc) -> list[dict[str, Any]]:
    """The open tables, each with how its results come: ``rng`` or ``physical``."""
    listed = list(svc.tables)
    with svc.engine.connect() as conn:
        entries = {t.id: controls.entry(conn, t.id) for t in listed}
    players: dict[str, int] = {}
    for t in listed:
        # A table marked ahead: its players as the ledger has them, not a lost buy-in's.
        with svc.tables.read(t) if t.ahead else contextlib.nullcontext(t):
            players[t.id] = len(t.present())
    return [{"id": t.id, "game": t.game.name, "profile": t.profile, "players": players[t.id],
             "capacity": t.capacity, "entry": entries[t.id]} for t in listed]


@router.post("", tags=["admin"], status_code=201, response_model=None,
             responses=answers(TableState, 201))
def create_table(body: NewTable, user: Admin, svc: Svc) -> dict[str, Any]:
    """Open a table under a rule profile with its options (checked as the replay does)."""
    if body.profile not in PROFILE_IDS:
        raise Malformed("profile", f"unknown profile {body.profile!r}; expected one of "
                        f"{', '.join(PROFILE_IDS)}")
    if not load_profile(body.profile).covers(body.game):
        raise Malformed("game", f"{body.profile} does not cover {body.game}")
    if body.id in svc.tables:
        raise ApiError(409, "exists", f"there is already a table {body.id!r}")
    no_floats(body.options, "options")
    entry = controls.EntryMode(body.entry)
    try:
        opening = paytables.Opening(body.id, body.game, body.profile, body.options, user.username,
                                    entry, body.capacity)
        live = paytables.open_table(svc.tables, opening)
    except LookupError:
        raise ApiError(409, "exists", f"there is already a table {body.id!r}") from None
    svc.tables.add(live)
    return {**live.state(), "entry": entry}


@router.get("/{table_id}", tags=["tables"], response_model=None,
            responses=answers(TableState))
def table_state(table_id: TableId, user: Current, svc: Svc) -> dict[str, Any]:
    live = svc.tables.find(table_id)
    with svc.engine.connect() as conn:
        entry = controls.entry(conn, table_id)
    with svc.tables.read(live):
        state = live.state()
    return visibility.table_view(user.role, user.username, {**state, "entry": entry})


@router.post("/{table_id}/buy-in", tags=["cashier"], response_model=TableReply)
async def buy_in(request: Request, table_id: TableId, body: Amount, user: Player, key: Key,
                 svc: Svc) -> Response:
    """Chips from the player's wallet to their place at the table."""
    amount = parse_amount(body.amount, "amount")
    return await act(request, body, user, table_id, key,
                     lambda live: cashier.buy_in(svc.ledger, user, live, amount))


@router.post("/{table_id}/cash-out", tags=["cashier"], response_model=TableReply)
async def cash_out(request: Request, table_id: TableId, body: CashOut, user: Player, key: Key,
                   svc: Svc) -> Response:
    """Chips (not wagers on the layout) back to the wallet; all of them if no amount."""
    amount = parse_amount(body.amount, "amount") if body.amount is not None else None
    return await act(request, body, user, table_id, key,
                     lambda live: cashier.cash_out(user, live, amount))


@router.post("/{table_id}/sit", tags=["players"], response_model=TableReply)
async def sit(request: Request, table_id: TableId, user: Player, svc: Svc,
              key: IdemKey = None) -> Response:
    """Take a seat at mini-craps (only seated players wager there, 13:69F-1.3(f))."""
    return await act(request, None, user, table_id, key,
                     lambda live: wagers.seat(user, live, True))


@router.post("/{table_id}/stand", tags=["players"], response_model=TableReply)
async def stand(request: Request, table_id: TableId, user: Player, svc: Svc,
                key: IdemKey = None) -> Response:
    return await act(request, None, user, table_id, key,
                     lambda live: wagers.seat(user, live, False))
