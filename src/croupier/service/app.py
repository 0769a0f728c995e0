"""The HTTP API: FastAPI over the ledger. ``create_app`` builds it; ``croupier serve`` runs it.

Every refusal is ``{"error": {"code", "reason", "clause"}}`` with the regulation's reason; no
stack trace ever reaches a client. Money is a decimal string ("10.00"), never a float.
Money-moving requests need an ``Idempotency-Key`` header: a retry with the same key gets the
same response and moves nothing twice.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import Depends, FastAPI, Header, Path, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from croupier.errors import Malformed, Refusal
from croupier.money import fmt, parse_amount
from croupier.rules import PROFILE_IDS, load_profile
from croupier.service import actions, codec, equipment, recall, store
from croupier.service import events as sv
from croupier.service.auth import ROLES, Auth, LoginFailed, User
from croupier.service.commit import Committer
from croupier.service.ledger import ApiError, Job, Ledger, Reply, fingerprint, refusal_body
from croupier.service.live import GAMES
from croupier.service.rng import Rng
from croupier.service.streaming import Hub

log = logging.getLogger("croupier.service")

MONEY = r"^[0-9]{1,13}(\.[0-9]{1,2})?$"
SIGNED_MONEY = r"^-?[0-9]{1,13}(\.[0-9]{1,2})?$"
NAME = r"^[a-z][a-z0-9_-]{1,31}$"
IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", min_length=1, max_length=128)]
TableId = Annotated[str, Path(max_length=64)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Login(Body):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class NewUser(Body):
    username: str = Field(pattern=NAME)
    password: str = Field(min_length=8, max_length=256)
    role: Literal["player", "dealer", "supervisor", "auditor", "admin"]


class Amount(Body):
    amount: str = Field(pattern=MONEY, examples=["100.00"])


class CashOut(Body):
    amount: str | None = Field(default=None, pattern=MONEY, description="all chips if omitted")


class NewTable(Body):
    id: str = Field(pattern=NAME)
    game: Literal["craps", "mini-craps", "roulette"]
    profile: str = Field(max_length=32, examples=["nj-13-69f"])
    options: dict[str, Any] = Field(default_factory=dict)
    capacity: int | None = Field(default=None, ge=1, le=30)


Die = Annotated[int, Field(ge=1, le=6)]
Pocket = int | str


class Wager(Body):
    """A wager named as in the transcript contract: craps takes number or dice; roulette takes
    numbers, center, column or dozen."""

    wager: str = Field(max_length=32, examples=["pass"])
    number: int | None = None
    dice: list[Die] | None = Field(default=None, min_length=2, max_length=2)
    numbers: list[Pocket] | None = Field(default=None, max_length=38)
    center: Pocket | None = None
    column: int | None = None
    dozen: int | None = None

    def spec(self) -> dict[str, Any]:
        return self.model_dump(exclude={"amount", "coupon", "on"})


class BetBody(Wager):
    amount: str = Field(pattern=MONEY, examples=["10.00"])
    coupon: bool = Field(default=False, description="a match play coupon of the same value "
                         "(Pass and Don't Pass only, 13:69F-1.3(b))")


class TakeDownBody(Wager):
    amount: str | None = Field(default=None, pattern=MONEY, description="reduce by; whole if omitted")


class CallBody(Wager):
    on: bool


class RollBody(Body):
    dice: list[Die] | None = Field(default=None, min_length=2, max_length=2,
                                   description="a physical result; omitted: the RNG rolls")


class SpinBody(Body):
    number: Pocket | None = Field(default=None, description="a physical result; omitted: RNG")
    revolutions: int | None = Field(default=None, ge=0, le=10000)
    same_direction: bool = False
    foreign_object: bool = False


class VoidBody(Body):
    reason: str = Field(min_length=3, max_length=500)


class AdjustBody(Body):
    player: str = Field(max_length=64)
    amount: str = Field(pattern=SIGNED_MONEY)
    reason: str = Field(min_length=3, max_length=500)


class Serials(Body):
    serials: list[str] = Field(min_length=1, max_length=20)


class NewDie(Body):
    serial: str = Field(pattern=r"^[A-Za-z0-9-]{1,32}$")
    set_name: str = Field(max_length=64)
    table_id: str | None = Field(default=None, max_length=64)


class Inspection(Body):
    """An inspection record against 13:47-20.25(b)2 (lengths in inches as decimal strings)."""

    sides_inch: list[str] = Field(min_length=3, max_length=3, examples=[["0.765"] * 3])
    opposite_faces: list[list[int]] = Field(examples=[[[1, 6], [2, 5], [3, 4]]], max_length=6)
    spot_depths_inch: list[str] = Field(min_length=1, max_length=21)
    transparent_cellulose: bool = False
    sides_flat_spots_flush: bool = False
    edges_square: bool = False
    texture_identical: bool = False
    weight_balanced: bool = False
    spots_white_equal_diameter: bool = False
    provider_name_imprinted: bool = False


@dataclass
class Services:
    engine: sa.Engine
    ledger: Ledger
    auth: Auth
    rng: Rng
    hub: Hub


def _no_floats(value: Any, where: str) -> None:
    """Money and rates in table options come as decimal strings or integers, never as JSON
    fractions: the request parser would have made them binary floats."""
    if isinstance(value, float):
        raise Malformed(where, f"write {value!r} as a decimal string, e.g. \"{value!r}\"")
    if isinstance(value, dict):
        for key, item in value.items():
            _no_floats(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _no_floats(item, f"{where}[{i}]")


def _money(text: str, where: str = "amount") -> Decimal:
    return parse_amount(text, where)


def _signed(text: str) -> Decimal:
    negative = text.startswith("-")
    amount = parse_amount(text.lstrip("-"), "amount")
    return -amount if negative else amount


def create_app(engine: sa.Engine, rng: Rng) -> FastAPI:
    """The app over a migrated database; tables are rebuilt from their events."""
    ledger = Ledger(engine)
    ledger.load()
    report = ledger.verify()
    if not report["ok"]:
        raise RuntimeError("the ledger does not balance: " + "; ".join(report["problems"]))
    hub = Hub()
    ledger.listeners.append(hub.publish)
    svc = Services(engine, ledger, Auth(engine), rng, hub)
    app = FastAPI(
        title="croupier",
        version="0.1.0",
        description="Live craps and roulette tables under New Jersey's regulations: a real "
                    "ledger, roles, RNG, recall and equipment. Refusals are "
                    '`{"error": {"code", "reason", "clause"}}`.',
    )
    app.state.services = svc
    _handlers(app)
    _routes(app, svc)
    # The browser table (``/`` and ``/static``) ships in the package, served by the same app.
    from croupier.web import mount

    mount(app)
    return app


def _error(status: int, code: str, reason: str, clause: str = "") -> Response:
    return JSONResponse({"error": {"code": code, "reason": reason, "clause": clause}},
                        status_code=status)


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(Malformed)
    async def _malformed(request: Request, exc: Malformed) -> Response:
        return _error(422, "malformed", str(exc))

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> Response:
        return JSONResponse(refusal_body(exc), status_code=409)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(422, "malformed", f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = {401: "unauthorized", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return _error(500, "internal", "internal error; nothing was changed by this request")


def _reply(reply: Reply) -> Response:
    headers = {"Idempotent-Replay": "true"} if reply.replayed else {}
    if reply.text is not None:  # encoded once, as the ledger stored it
        return Response(reply.text, status_code=reply.status, headers=headers,
                        media_type="application/json")
    return JSONResponse(reply.body, status_code=reply.status, headers=headers)


_bearer = HTTPBearer(auto_error=False)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def current_user(request: Request, creds: Credentials) -> User:
    """The user of the bearer token (401 without a valid one)."""
    if creds is None:
        raise ApiError(401, "unauthorized", "log in first: Authorization: Bearer <token>")
    svc: Services = request.app.state.services
    user = svc.auth.user_for(creds.credentials)
    if user is None:
        raise ApiError(401, "unauthorized", "the token is unknown, expired or locked")
    return user


Current = Annotated[User, Depends(current_user)]


def _routes(app: FastAPI, svc: Services) -> None:
    ledger = svc.ledger

    def need(user: User, *roles: str) -> None:
        if user.role not in roles:
            raise ApiError(403, "forbidden",
                           f"a {user.role} may not do this (needs {' or '.join(roles)})")

    def need_key(key: str | None) -> str:
        if key is None:
            raise ApiError(428, "idempotency_key_required",
                           "a money-moving request needs an Idempotency-Key header")
        return key

    committer = Committer(ledger, single_writer=store.is_sqlite(svc.engine))

    async def act(request: Request, body: BaseModel | None, user: User, table_id: str,
                  key: str | None, make: Callable[[Any], actions.PlanFn]) -> Response:
        """Run an action with the others queued meanwhile, in one transaction (group commit):
        on SQLite in the event loop (one writer; its transactions take well under a
        millisecond), on PostgreSQL in a worker thread per table (tables run in parallel)."""
        live = ledger.table(table_id)
        path: str = request.scope["path"]
        if path.startswith("//") or any(c in path for c in "?#\\"):
            path = request.url.path  # escaped as the URL shows it (building it costs more)
        fp = fingerprint(request.method, path,
                         body.model_dump(mode="json") if body is not None else None)
        return _reply(await committer.run(Job(user, live, key, fp, make(live))))

    # --- health, login ---------------------------------------------------------------

    @app.get("/health", tags=["service"])
    def health() -> dict[str, Any]:
        """Liveness, the database in use and the RNG's source (``os`` unless in test mode)."""
        return {"status": "ok", "database": svc.engine.dialect.name, "rng": svc.rng.source,
                "tables": len(ledger.tables)}

    @app.post("/auth/login", tags=["auth"])
    def login(body: Login) -> dict[str, Any]:
        """A bearer token. Three failed logins in a row lock the account (an admin unlocks)."""
        try:
            token, user = svc.auth.login(body.username, body.password)
        except LoginFailed as exc:
            if exc.locked:
                raise ApiError(423, "locked", "the account is locked after three failed logins; "
                               "an admin unlocks it") from None
            raise ApiError(401, "unauthorized", "wrong name or password") from None
        return {"token": token, "username": user.username, "role": user.role}

    @app.post("/auth/logout", tags=["auth"])
    def logout(user: Current, creds: Credentials) -> dict[str, str]:
        if creds is not None:
            svc.auth.logout(creds.credentials)
        return {"status": "logged out"}

    @app.get("/auth/me", tags=["auth"])
    def me(user: Current) -> dict[str, Any]:
        return {"username": user.username, "role": user.role}

    # --- users and wallets (admin) -------------------------------------------------------

    @app.post("/users", tags=["admin"], status_code=201)
    def create_user(body: NewUser, user: Current) -> dict[str, Any]:
        need(user, "admin")
        with svc.engine.begin() as conn:
            exists = conn.execute(sa.select(store.users.c.id).where(
                store.users.c.username == body.username)).first()
            if exists:
                raise ApiError(409, "exists", f"there is already a user {body.username!r}")
            created = svc.auth.create_user(conn, body.username, body.password, body.role)
        return {"username": created.username, "role": created.role}

    @app.get("/users", tags=["admin"])
    def list_users(user: Current) -> list[dict[str, Any]]:
        need(user, "admin", "auditor")
        with svc.engine.connect() as conn:
            rows = conn.execute(sa.select(store.users).order_by(store.users.c.id)).all()
        return [{"username": r.username, "role": r.role, "locked": r.locked,
                 "failed_logins": r.failed_logins} for r in rows]

    @app.post("/users/{username}/unlock", tags=["admin"])
    def unlock(username: Annotated[str, Path(max_length=64)], user: Current) -> dict[str, Any]:
        need(user, "admin")
        if not svc.auth.set_locked(username, False):
            raise ApiError(404, "not_found", f"there is no user {username!r}")
        return {"username": username, "locked": False}

    @app.post("/users/{username}/lock", tags=["admin"])
    def lock(username: Annotated[str, Path(max_length=64)], user: Current) -> dict[str, Any]:
        need(user, "admin")
        if not svc.auth.set_locked(username, True):
            raise ApiError(404, "not_found", f"there is no user {username!r}")
        return {"username": username, "locked": True}

    @app.get("/wallets/{player}", tags=["cashier"])
    def wallet(player: Annotated[str, Path(max_length=64)], user: Current) -> dict[str, Any]:
        """A wallet's balance and its last 50 entries (the player, or staff)."""
        if user.username != player:
            need(user, "admin", "auditor", "supervisor")
        with svc.engine.connect() as conn:
            balance = ledger.wallet_balance(conn, player)
            entries = conn.execute(sa.select(store.wallet_entries).where(
                store.wallet_entries.c.player == player).order_by(
                store.wallet_entries.c.id.desc()).limit(50)).all()
        return {"player": player, "balance": fmt(store.dollars(balance)),
                "entries": [{"amount": fmt(store.dollars(e.amount_cents)), "kind": e.kind,
                             "table": e.table_id, "seq": e.seq,
                             "balance_after": fmt(store.dollars(e.balance_after_cents)),
                             "at": e.at} for e in entries]}

    @app.post("/wallets/{player}/deposits", tags=["cashier"])
    def deposit(request: Request, player: Annotated[str, Path(max_length=64)], body: Amount,
                user: Current, key: IdemKey = None) -> Response:
        """Money into a player's wallet at the cage (admin)."""
        need(user, "admin")
        fp = fingerprint("POST", request.url.path, body.model_dump())
        return _reply(ledger.deposit(user, need_key(key), fp, player, _money(body.amount)))

    # --- tables --------------------------------------------------------------------------

    @app.get("/tables", tags=["tables"])
    def list_tables(user: Current) -> list[dict[str, Any]]:
        return [{"id": t.id, "game": t.game, "profile": t.profile, "players": len(t.present()),
                 "capacity": t.capacity} for t in ledger.tables.values()]

    @app.post("/tables", tags=["admin"], status_code=201)
    def create_table(body: NewTable, user: Current) -> dict[str, Any]:
        """Open a table under a rule profile with its options (checked as the replay does)."""
        need(user, "admin")
        if body.profile not in PROFILE_IDS:
            raise Malformed("profile", f"unknown profile {body.profile!r}; expected one of "
                            f"{', '.join(PROFILE_IDS)}")
        if not load_profile(body.profile).covers(body.game):
            raise Malformed("game", f"{body.profile} does not cover {body.game}")
        if body.id in ledger.tables:
            raise ApiError(409, "exists", f"there is already a table {body.id!r}")
        _no_floats(body.options, "options")
        with svc.engine.begin() as conn:
            live = ledger.create_table(conn, body.id, body.game, body.profile, body.options,
                                       body.capacity)
        ledger.tables[live.id] = live
        return live.state()

    @app.get("/tables/{table_id}", tags=["tables"])
    def table_state(table_id: TableId, user: Current) -> dict[str, Any]:
        live = ledger.table(table_id)
        with live.lock:
            return live.state()

    @app.post("/tables/{table_id}/buy-in", tags=["cashier"])
    async def buy_in(request: Request, table_id: TableId, body: Amount, user: Current,
               key: IdemKey = None) -> Response:
        """Chips from the player's wallet to their place at the table."""
        need(user, "player")
        amount = _money(body.amount)
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.buy_in(ledger, user, live, amount))

    @app.post("/tables/{table_id}/cash-out", tags=["cashier"])
    async def cash_out(request: Request, table_id: TableId, body: CashOut, user: Current,
                 key: IdemKey = None) -> Response:
        """Chips (not wagers on the layout) back to the wallet; all of them if no amount."""
        need(user, "player")
        amount = _money(body.amount) if body.amount is not None else None
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.cash_out(ledger, user, live, amount))

    @app.post("/tables/{table_id}/sit", tags=["players"])
    async def sit(request: Request, table_id: TableId, user: Current, key: IdemKey = None) -> Response:
        """Take a seat at mini-craps (only seated players wager there, 13:69F-1.3(f))."""
        need(user, "player")
        return await act(request, None, user, table_id, key, lambda live: actions.seat(user, live, True))

    @app.post("/tables/{table_id}/stand", tags=["players"])
    async def stand(request: Request, table_id: TableId, user: Current,
              key: IdemKey = None) -> Response:
        need(user, "player")
        return await act(request, None, user, table_id, key, lambda live: actions.seat(user, live, False))

    @app.post("/tables/{table_id}/bets", tags=["players"])
    async def place_bet(request: Request, table_id: TableId, body: BetBody, user: Current,
                  key: IdemKey = None) -> Response:
        """A wager by the player making it. While the dice are in the air a craps wager waits
        (202) for the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
        need(user, "player")
        amount = _money(body.amount)
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.bet(user, live, body.spec(), amount, body.coupon))

    @app.post("/tables/{table_id}/bets/take-down", tags=["players"])
    async def take_down(request: Request, table_id: TableId, body: TakeDownBody, user: Current,
                  key: IdemKey = None) -> Response:
        """Remove a wager, or reduce it by ``amount`` (craps), where the rules allow."""
        need(user, "player")
        amount = _money(body.amount) if body.amount is not None else None
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.take_down(user, live, body.spec(), amount))

    @app.post("/tables/{table_id}/bets/call", tags=["players"])
    async def call_bet(request: Request, table_id: TableId, body: CallBody, user: Current,
                 key: IdemKey = None) -> Response:
        """Call a wager "on" or "off" for come-out rolls (craps)."""
        need(user, "player")
        return await act(request, body, user, table_id, key,
                   lambda live: actions.call(user, live, body.spec(), body.on))

    @app.post("/tables/{table_id}/no-more-bets", tags=["dealer"])
    async def no_more_bets(request: Request, table_id: TableId, user: Current,
                     key: IdemKey = None) -> Response:
        """Roulette: "No more bets" (20.32(j)2). Craps: the dice are in the air; later wagers
        need the dealer's and the boxperson's confirmation (13:69F-1.3(a))."""
        need(user, "dealer")
        return await act(request, None, user, table_id, key,
                   lambda live: actions.no_more_bets(user, live))

    @app.post("/tables/{table_id}/late-bets/{late_id}/confirm", tags=["dealer"])
    async def confirm_late(request: Request, table_id: TableId,
                     late_id: Annotated[int, Path(ge=1, le=2**31)], user: Current,
                     key: IdemKey = None) -> Response:
        """The dealer's or the boxperson's (supervisor's) confirmation of a late wager."""
        need(user, "dealer", "supervisor")
        return await act(request, None, user, table_id, need_key(key),
                   lambda live: actions.confirm_late(user, live, late_id))

    @app.post("/tables/{table_id}/roll", tags=["dealer"])
    async def roll(request: Request, table_id: TableId, body: RollBody, user: Current,
             key: IdemKey = None) -> Response:
        """Roll: the RNG's dice (raw draw recorded) or the physical dice entered; every wager
        settled in the same transaction as the roll."""
        need(user, "dealer")
        dice = (body.dice[0], body.dice[1]) if body.dice else None
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.roll(user, live, svc.rng, dice))

    @app.post("/tables/{table_id}/spin", tags=["dealer"])
    async def spin(request: Request, table_id: TableId, body: SpinBody, user: Current,
             key: IdemKey = None) -> Response:
        """Spin (after "No more bets"): the RNG's pocket or the number entered; an irregular
        spin (20.32(m)) is "no spin" and every wager stays."""
        need(user, "dealer")
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.spin(user, live, svc.rng, body.number, body.revolutions,
                                             body.same_direction, body.foreign_object))

    @app.post("/tables/{table_id}/void", tags=["supervisor"])
    async def void(request: Request, table_id: TableId, body: VoidBody, user: Current,
             key: IdemKey = None) -> Response:
        """Void the last decision with a reason: a compensating entry; history is kept."""
        need(user, "supervisor")
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.void(user, live, body.reason))

    @app.post("/tables/{table_id}/adjustments", tags=["supervisor"])
    async def adjustment(request: Request, table_id: TableId, body: AdjustBody, user: Current,
                   key: IdemKey = None) -> Response:
        """Correct a dealer's error: chips between the house and a player, with a reason."""
        need(user, "supervisor")
        amount = _signed(body.amount)
        return await act(request, body, user, table_id, need_key(key),
                   lambda live: actions.adjust(user, live, body.player, amount, body.reason))

    # --- dice ---------------------------------------------------------------------------

    @app.post("/tables/{table_id}/dice/offer", tags=["dice"])
    async def offer_dice(request: Request, table_id: TableId, body: Serials, user: Current,
                   key: IdemKey = None) -> Response:
        """The stickperson offers at least five inspected, in-spec dice to the shooter."""
        need(user, "dealer")
        return await act(request, body, user, table_id, key,
                   lambda live: actions.offer_dice(user, live, body.serials))

    @app.post("/tables/{table_id}/dice/select", tags=["dice"])
    async def select_dice(request: Request, table_id: TableId, body: Serials, user: Current,
                    key: IdemKey = None) -> Response:
        """The shooter selects two of the dice offered."""
        need(user, "player", "dealer")
        return await act(request, body, user, table_id, key,
                   lambda live: actions.select_dice(user, live, body.serials))

    @app.post("/tables/{table_id}/dice/refuse", tags=["dice"])
    async def refuse_dice(request: Request, table_id: TableId, user: Current,
                    key: IdemKey = None) -> Response:
        """A player refuses to shoot in their turn; the dice go clockwise to the next."""
        need(user, "player")
        return await act(request, None, user, table_id, key,
                   lambda live: actions.refuse_dice(user, live))

    @app.post("/tables/{table_id}/dice/pass", tags=["dice"])
    async def pass_dice(request: Request, table_id: TableId, user: Current,
                  key: IdemKey = None) -> Response:
        """The shooter passes the dice to the next player on completion of a decision."""
        need(user, "player", "dealer")
        return await act(request, None, user, table_id, key, lambda live: actions.pass_dice(user, live))

    @app.post("/tables/{table_id}/dice/change", tags=["dice"])
    async def change_dice(request: Request, table_id: TableId, user: Current,
                    key: IdemKey = None) -> Response:
        """Call for a change of dice: it takes place immediately after the next decision."""
        need(user, "player", "dealer", "supervisor")
        return await act(request, None, user, table_id, key,
                   lambda live: actions.change_dice(user, live))

    @app.post("/equipment/dice", tags=["equipment"], status_code=201)
    def register_die(body: NewDie, user: Current) -> dict[str, Any]:
        """Register a die by its serial number, in a set, in a table's dice cup."""
        need(user, "admin", "supervisor")
        if body.table_id is not None and body.table_id not in ledger.tables:
            raise ApiError(404, "not_found", f"there is no table {body.table_id!r}")
        with svc.engine.begin() as conn:
            if conn.execute(sa.select(store.dice.c.serial).where(
                    store.dice.c.serial == body.serial)).first():
                raise ApiError(409, "exists", f"die {body.serial} is already registered")
            conn.execute(store.dice.insert().values(
                serial=body.serial, set_name=body.set_name, table_id=body.table_id,
                retired=False, registered_at=store.now()))
        return {"serial": body.serial, "set_name": body.set_name, "table_id": body.table_id,
                "in_spec": False}

    @app.post("/equipment/dice/{serial}/inspections", tags=["equipment"], status_code=201)
    def inspect_die(serial: Annotated[str, Path(max_length=32)], body: Inspection,
                    user: Current) -> dict[str, Any]:
        """Record an inspection; the die may be put in play only if it passed (20.25(b)2)."""
        need(user, "admin", "supervisor")
        record = body.model_dump()
        failures = equipment.inspect(record)
        with svc.engine.begin() as conn:
            if not conn.execute(sa.select(store.dice.c.serial).where(
                    store.dice.c.serial == serial)).first():
                raise ApiError(404, "not_found", f"there is no die {serial}")
            conn.execute(store.inspections.insert().values(
                serial=serial, inspector=user.username, record=json.dumps(record),
                passed=not failures, failures=json.dumps(failures), at=store.now()))
        return {"serial": serial, "passed": not failures, "failures": failures,
                "clause": equipment.CLAUSE}

    @app.get("/equipment/dice", tags=["equipment"])
    def list_dice(user: Current) -> list[dict[str, Any]]:
        need(user, "admin", "supervisor", "auditor", "dealer")
        with svc.engine.connect() as conn:
            dice_rows = conn.execute(sa.select(store.dice).order_by(store.dice.c.serial)).all()
            out = []
            for d in dice_rows:
                latest = conn.execute(sa.select(store.inspections).where(
                    store.inspections.c.serial == d.serial).order_by(
                    store.inspections.c.id.desc()).limit(1)).first()
                out.append({"serial": d.serial, "set_name": d.set_name, "table_id": d.table_id,
                            "retired": d.retired, "in_spec": bool(latest and latest.passed),
                            "last_inspection": None if latest is None else {
                                "by": latest.inspector, "at": latest.at, "passed": latest.passed,
                                "failures": json.loads(latest.failures)}})
        return out

    # --- recall and audit ----------------------------------------------------------------

    @app.get("/tables/{table_id}/events", tags=["recall"])
    def table_events(table_id: TableId, user: Current,
                     since: Annotated[int, Query(ge=0, le=2**31)] = 0,
                     limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> list[dict[str, Any]]:
        need(user, "dealer", "supervisor", "auditor", "admin")
        live = ledger.table(table_id)
        with svc.engine.connect() as conn:
            rows = conn.execute(sa.select(store.events).where(
                store.events.c.table_id == table_id, store.events.c.seq > since)
                .order_by(store.events.c.seq).limit(limit)).all()
        return [{"seq": r.seq, "round": r.round, "actor": r.actor, "at": r.at,
                 **codec.decode(live.game, r.payload).to_json()} for r in rows]

    @app.get("/tables/{table_id}/alerts", tags=["recall"])
    def table_alerts(table_id: TableId, user: Current) -> dict[str, Any]:
        """The fairness monitors' alerts at the table (newest last; ``voided`` when the roll or
        spin that raised one was voided) and each monitor's state (supervisors, auditors)."""
        need(user, "supervisor", "auditor", "admin")
        live = ledger.table(table_id)
        kinds = (sv.IntegrityAlert.kind, sv.Voided.kind)
        with svc.engine.connect() as conn:
            rows = conn.execute(sa.select(store.events).where(
                store.events.c.table_id == table_id, store.events.c.kind.in_(kinds))
                .order_by(store.events.c.seq)).all()
        decoded = [(r, codec.decode(live.game, r.payload)) for r in rows]
        voided = {s for _, e in decoded if isinstance(e, sv.Voided) for s in e.seqs}
        with live.lock:
            monitors = live.monitors.summary(live.in_play)
        return {"table": table_id,
                "alerts": [{"seq": r.seq, "round": r.round, "at": r.at, "voided": r.seq in voided,
                            **e.to_json()} for r, e in decoded
                           if isinstance(e, sv.IntegrityAlert)],
                "monitors": monitors}

    @app.get("/tables/{table_id}/rounds", tags=["recall"])
    def table_rounds(table_id: TableId, user: Current,
                     limit: Annotated[int, Query(ge=1, le=500)] = 20) -> list[dict[str, Any]]:
        need(user, "dealer", "supervisor", "auditor", "admin")
        ledger.table(table_id)
        with svc.engine.connect() as conn:
            return recall.rounds_list(conn, table_id, limit)

    @app.get("/tables/{table_id}/rounds/{round_no}", tags=["recall"])
    def round_detail(table_id: TableId, round_no: Annotated[int, Path(ge=1, le=2**31)],
                     user: Current) -> dict[str, Any]:
        """A round's wagers, outcome (with the RNG's raw draw), settlements, balances before and
        after. Players may recall the rounds they took part in."""
        with svc.engine.connect() as conn:
            if user.role == "player":
                took_part = conn.execute(sa.select(store.round_players.c.player).where(
                    store.round_players.c.table_id == table_id,
                    store.round_players.c.round == round_no,
                    store.round_players.c.player == user.username)).first()
                if not took_part:
                    raise ApiError(403, "forbidden", "players recall only their own rounds")
            record = recall.round_record(conn, table_id, round_no)
        if record is None:
            raise ApiError(404, "not_found", f"no round {round_no} at table {table_id!r}")
        return record

    @app.get("/players/{player}/rounds", tags=["recall"])
    def player_rounds(player: Annotated[str, Path(max_length=64)], user: Current,
                      limit: Annotated[int, Query(ge=1, le=10)] = 10) -> list[dict[str, Any]]:
        """A player's last ten rounds, newest first."""
        if user.username != player:
            need(user, "supervisor", "auditor", "admin")
        with svc.engine.connect() as conn:
            return recall.player_rounds(conn, player, limit)

    @app.get("/audit/verify", tags=["recall"])
    def verify(user: Current) -> dict[str, Any]:
        """Rebuild every table from its events and check every balance against them."""
        need(user, "auditor", "supervisor", "admin")
        return ledger.verify()

    @app.websocket("/tables/{table_id}/stream")
    async def stream(websocket: WebSocket, table_id: str, token: str = "", since: int = -1,
                     ) -> None:
        """Each committed event of the table as JSON (``?token=`` logs in; ``since`` replays)."""
        user = svc.auth.user_for(token) if token else None
        if user is None or table_id not in ledger.tables:
            await websocket.close(code=4401 if user is None else 4404)
            return
        await websocket.accept()
        queue = svc.hub.subscribe(table_id)
        gone = asyncio.Event()

        async def watch_close() -> None:
            # Notice the client leaving while waiting for events, so shutdown never waits on it.
            try:
                while (await websocket.receive())["type"] != "websocket.disconnect":
                    pass
            except Exception:
                pass
            gone.set()
            svc.hub.unsubscribe(table_id, queue)
            queue.put_nowait(None) if not queue.full() else None

        watcher = asyncio.create_task(watch_close())
        sent = since
        try:
            if since >= 0:
                live = ledger.tables[table_id]
                with svc.engine.connect() as conn:
                    rows = conn.execute(sa.select(store.events).where(
                        store.events.c.table_id == table_id, store.events.c.seq > since)
                        .order_by(store.events.c.seq).limit(1000)).all()
                for r in rows:
                    await websocket.send_json({"seq": r.seq, "round": r.round,
                                               **codec.decode(live.game, r.payload).to_json()})
                    sent = r.seq
            while True:
                batch = await queue.get()
                if batch is None:
                    if not gone.is_set():
                        await websocket.close(code=4408)  # too slow to keep up
                    return
                for item in batch:
                    if item["seq"] > sent:  # committed while replaying: sent once, in order
                        await websocket.send_json(item)
                        sent = item["seq"]
        except WebSocketDisconnect:
            pass
        finally:
            watcher.cancel()
            svc.hub.unsubscribe(table_id, queue)

ROLE_NAMES = ROLES
GAME_NAMES = GAMES
