"""The whole API driven at random, in process, with the ledger's invariants checked after every
request: the night's money adds up to the cent (deposits less cage cash-outs = wallets + chips
at the tables + the house's win), a request answered with an error or a refusal changes no
balance and writes no event or wallet entry, and at the end the audit passes and the tables
rebuilt from the ledger are the tables in memory.

The requests mix what each role may do (deposits, buy-ins, wagers of both games, take-downs,
rolls, spins, cash-outs, adjustments with their second supervisor) with what it may not (a
player rolling, a dealer depositing, a bet naming another player, an Idempotency-Key sent
again with another body, amounts out of form or over the limit): the invariants hold for
every one of them, whatever the order.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from croupier.service import store
from croupier.service.api.night import cash
from croupier.service.runner import Runner

from .appkit import App, backend_app

PLAYERS = ("alice", "bob")
TABLES = ("craps-1", "roulette-1")
CRAPS_WAGERS: tuple[dict[str, Any], ...] = (
    {"wager": "pass"}, {"wager": "dont_pass"}, {"wager": "field"}, {"wager": "any_seven"},
    {"wager": "place_win", "number": 6}, {"wager": "hop", "dice": [1, 2]},
    {"wager": "hardway", "number": 8}, {"wager": "come"})
ROULETTE_WAGERS: tuple[dict[str, Any], ...] = (
    {"wager": "red"}, {"wager": "straight", "numbers": [17]}, {"wager": "dozen", "dozen": 2},
    {"wager": "column", "column": 1}, {"wager": "even"})
TOGETHER: tuple[tuple[str, dict[str, Any]], ...] = (
    ("/tables/craps-1/bets", {"wager": "field"}), ("/tables/craps-1/bets", {"wager": "pass"}),
    ("/tables/roulette-1/bets", {"wager": "red"}), ("/tables/craps-1/buy-in", {}),
    ("/tables/craps-1/bets/take-down", {"wager": "field"}), ("/tables/craps-1/cash-out", {}),
    ("/tables/roulette-1/cash-out", {}))
"""Requests a player sends at once: wagers, buy-ins and take-downs take an amount."""
AMOUNTS = st.sampled_from(["1", "5", "2.50", "0.01", "25", "100", "999999", "0", "-5", "1e3",
                           "5.001", ""])
STAKES = st.one_of(st.sampled_from(["5", "10", "25"]), AMOUNTS)
"""A wager's amount: half the time one the table takes, else any of :data:`AMOUNTS` (drawn
from those alone, most wagers were malformed or found no chips, and few were ever settled)."""
BUY_INS = st.one_of(st.sampled_from(["100", "200"]), AMOUNTS)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[App]:
    data = Path(tmp_path_factory.mktemp("invariants"))
    with backend_app(request.param, data, ": the random night on PostgreSQL", seed=5) as made:
        for player in PLAYERS:
            for table in TABLES:
                made.ok(player, f"/tables/{table}/buy-in", {"amount": "200"})
        made.ready_dice()
        yield made


def _snapshot(engine: sa.Engine) -> tuple[Any, ...]:
    """Every balance the ledger holds, and how many events and wallet entries it has."""
    with engine.connect() as conn:
        wallets = sorted(conn.execute(sa.select(store.wallets.c.player,
                                                store.wallets.c.balance_cents)).all())
        seats = sorted(conn.execute(sa.select(store.seats.c.table_id, store.seats.c.player,
                                              store.seats.c.chips_cents,
                                              store.seats.c.on_table_cents)).all())
        house = sorted(conn.execute(sa.select(store.tables.c.id,
                                              store.tables.c.house_cents)).all())
        events = conn.execute(sa.select(sa.func.count()).select_from(store.events)).scalar()
        entries = conn.execute(sa.select(sa.func.count()).select_from(
            store.wallet_entries)).scalar()
    return (tuple(wallets), tuple(seats), tuple(house), events, entries)


class Night(RuleBasedStateMachine):
    """A night at the demo's two tables, asked over the API in any order."""

    app: App

    def __init__(self) -> None:
        super().__init__()
        self.engine: sa.Engine = self.app.client.app.state.services.engine  # type: ignore[attr-defined]
        self.last: dict[str, Any] = {}
        self.coupons: list[tuple[str, str, str]] = []

    def ask(self, who: str, path: str, body: Any = None, key: str | None = None) -> int:
        """One request; if it is not done (an error, a refusal), nothing changed."""
        before = _snapshot(self.engine)
        response = self.app.post(who, path, body, key=key or uuid.uuid4().hex)
        status = response.status_code
        assert status < 500, f"{path} {body}: {status} {response.text}"
        if status >= 300:
            assert _snapshot(self.engine) == before, f"{path} {body}: {status} changed the ledger"
            error = response.json()["error"]
            assert error["code"], error
            if status == 409:
                assert error["clause"] and error["reason"], error
        self.last = response.json() if status < 300 else {}
        return status

    @invariant()
    def the_night_adds_up(self) -> None:
        with self.engine.connect() as conn:
            night = cash(conn)
        assert night.adds_up, night

    @rule(player=st.sampled_from(PLAYERS), amount=BUY_INS,
          by=st.sampled_from(("admin", "admin", "dealer", "alice")))
    def deposit(self, player: str, amount: str, by: str) -> None:
        status = self.ask(by, f"/wallets/{player}/deposits", {"amount": amount})
        if by != "admin":
            assert status == 403

    @rule(player=st.sampled_from(PLAYERS), table=st.sampled_from(TABLES), amount=BUY_INS)
    def buy_in(self, player: str, table: str, amount: str) -> None:
        self.ask(player, f"/tables/{table}/buy-in", {"amount": amount})

    @rule(player=st.sampled_from(PLAYERS), wager=st.sampled_from(CRAPS_WAGERS), amount=STAKES)
    def craps_bet(self, player: str, wager: dict[str, Any], amount: str) -> None:
        self.ask(player, "/tables/craps-1/bets", {**wager, "amount": amount})

    @rule(player=st.sampled_from(PLAYERS), wager=st.sampled_from(ROULETTE_WAGERS),
          amount=STAKES)
    def roulette_bet(self, player: str, wager: dict[str, Any], amount: str) -> None:
        self.ask(player, "/tables/roulette-1/bets", {**wager, "amount": amount})

    @rule(player=st.sampled_from(PLAYERS), wager=st.sampled_from(CRAPS_WAGERS))
    def take_down(self, player: str, wager: dict[str, Any]) -> None:
        self.ask(player, "/tables/craps-1/bets/take-down", wager)

    @rule(by=st.sampled_from(("dealer", "dealer", "dealer", "alice")))
    def roll(self, by: str) -> None:
        status = self.ask(by, "/tables/craps-1/roll", {})
        if by == "alice":
            assert status == 403

    @rule(change=st.booleans())
    def dice(self, change: bool) -> None:
        """A change of dice called (it takes place after the next decision); the dice offered
        and two selected, where the shooter needs them (else refused)."""
        if change:
            self.ask("dealer", "/tables/craps-1/dice/change", {})
        if self.ask("dealer", "/tables/craps-1/dice/offer",
                    {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]}) < 300:
            self.ask("dealer", "/tables/craps-1/dice/select", {"serials": ["NJ-0001", "NJ-0002"]})

    @rule()
    def spin(self) -> None:
        self.ask("dealer", "/tables/roulette-1/no-more-bets", {})
        self.ask("dealer", "/tables/roulette-1/spin", {})

    @rule(player=st.sampled_from(PLAYERS), table=st.sampled_from(TABLES),
          amount=st.one_of(st.none(), AMOUNTS))
    def cash_out(self, player: str, table: str, amount: str | None) -> None:
        self.ask(player, f"/tables/{table}/cash-out", {} if amount is None else {"amount": amount})

    @rule(player=st.sampled_from(PLAYERS), amount=st.sampled_from(["5", "-5", "150", "-0.01"]),
          second=st.booleans())
    def adjustment(self, player: str, amount: str, second: bool) -> None:
        base = "/tables/craps-1/adjustments"
        status = self.ask("supervisor", base, {"player": player, "amount": amount,
                                                "reason": "a payout misread"})
        if status == 202 and second:
            self.ask("floor", f"{base}/{self.last['pending_adjustment']}/approve", {})

    @rule(player=st.sampled_from(PLAYERS), face=st.sampled_from(["5", "10"]))
    def coupon(self, player: str, face: str) -> None:
        """A match play coupon issued for the craps table (13:69F-1.3(b)), kept to bet with."""
        if self.ask("supervisor", "/coupons", {"player": player, "face_value": face,
                                               "table": "craps-1"}) < 300:
            self.coupons.append((player, self.last["serial"], face))

    @precondition(lambda self: bool(self.coupons))
    @rule(pick=st.integers(0, 50), wager=st.sampled_from(["pass", "pass", "dont_pass", "field"]),
          stranger=st.sampled_from([False, False, True]))
    def coupon_bet(self, pick: int, wager: str, stranger: bool) -> None:
        owner, serial, face = self.coupons[pick % len(self.coupons)]
        who = next(p for p in PLAYERS if p != owner) if stranger else owner
        status = self.ask(who, "/tables/craps-1/bets", {"wager": wager, "amount": face,
                                                        "coupon": serial})
        if stranger or wager == "field":
            assert status == 409  # not the player's coupon; not good for that wager

    @rule(table=st.sampled_from(TABLES), then=st.sampled_from(["approve", "withdraw"]))
    def void(self, table: str, then: str) -> None:
        """The last decision voided: an entered result at once, an RNG outcome once a second
        supervisor approves (or its asker withdraws it)."""
        base = f"/tables/{table}/void"
        if self.ask("supervisor", base, {"reason": "the dice left the table"}) == 202:
            self.ask("floor" if then == "approve" else "supervisor", f"{base}/{then}", {})

    @rule(asks=st.lists(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(TOGETHER),
                                  st.sampled_from(["1", "5", "40"])), min_size=2, max_size=8),
          retried=st.booleans())
    def together(self, asks: list[tuple[str, tuple[str, dict[str, Any]], str]],
                 retried: bool) -> None:
        """Several requests at once (committed together, the group commit), the first one
        sent twice at once with its Idempotency-Key when ``retried``: no server error, and the
        two answers of the retried request are one answer (done once)."""
        sent = [(who, path, {**body, "amount": amount} if path.endswith(("bets", "buy-in"))
                 else body, uuid.uuid4().hex) for who, (path, body), amount in asks]
        if retried:
            # A refusal is not kept under its key: the copy decided after another request of
            # the same player (a take-down refused, then the bet it names made) is rightly
            # answered otherwise. The others come from the other player, so both copies are
            # decided alike, and two answers differing means the request was done twice.
            sent = [sent[0], sent[0], *(a for a in sent[1:] if a[0] != sent[0][0])]
        with ThreadPoolExecutor(len(sent)) as pool:
            answers = list(pool.map(lambda a: self.app.post(*a), sent))
        for (_, path, body, _), answer in zip(sent, answers, strict=True):
            assert answer.status_code < 500, f"{path} {body}: {answer.text}"
        if retried:
            first, again = answers[0], answers[1]
            assert first.status_code == again.status_code, (first.text, again.text)
            if first.status_code < 300:
                assert first.json().get("events") == again.json().get("events")

    @rule(player=st.sampled_from(PLAYERS), wager=st.sampled_from(CRAPS_WAGERS),
          confirmers=st.lists(st.sampled_from(["dealer", "supervisor", "alice"]), max_size=3))
    def late_bet(self, player: str, wager: dict[str, Any], confirmers: list[str]) -> None:
        """"No more bets" called at craps, then a wager: a late bet waits (202) for those the
        profile names to confirm it (13:69F-1.3), or is refused."""
        self.ask("dealer", "/tables/craps-1/no-more-bets", {})
        if self.ask(player, "/tables/craps-1/bets", {**wager, "amount": "5"}) == 202:
            late = self.last["late_bet"]
            for who in confirmers:
                status = self.ask(who, f"/tables/craps-1/late-bets/{late}/confirm", {})
                if who == "alice":
                    assert status == 403

    @rule(player=st.sampled_from(PLAYERS), amount=AMOUNTS,
          asker=st.sampled_from(["self", "admin"]),
          then=st.sampled_from(["pay", "pay", "withdraw", "decline", ""]))
    def cage_cash_out(self, player: str, amount: str, asker: str, then: str) -> None:
        """Cash asked at the cage (by the player or an admin) and paid, withdrawn or declined:
        an admin's own request is paid only by a second admin (the demo has one: refused)."""
        who = player if asker == "self" else "admin"
        base = f"/wallets/{player}/cash-outs"
        if self.ask(who, base, {"amount": amount}) != 202 or not then:
            return
        number = self.last["cash_out"]
        if then == "pay":
            status = self.ask("admin", f"{base}/{number}/pay", {})
            assert (status == 409) == (who == "admin"), status
        elif then == "withdraw":
            self.ask(who, f"{base}/{number}/withdraw", {})
        else:
            self.ask("admin", f"{base}/{number}/decline", {"reason": "no ID shown"})

    @rule(wager=st.sampled_from(CRAPS_WAGERS))
    def a_bet_for_someone_else(self, wager: dict[str, Any]) -> None:
        assert self.ask("alice", "/tables/craps-1/bets",
                        {**wager, "amount": "5", "player": "bob"}) == 422

    @rule(amount=st.sampled_from(["5", "6"]))
    def a_key_sent_again_with_another_body(self, amount: str) -> None:
        key = uuid.uuid4().hex
        first = self.ask("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": "5"},
                         key=key)
        again = self.ask("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": amount},
                         key=key)
        if amount != "5" and first < 300:
            assert again == 422


NIGHTS = settings(max_examples=8, stateful_step_count=40, deadline=None, database=None,
                  derandomize=True, suppress_health_check=list(HealthCheck))


def test_the_invariants_hold_over_a_random_night(app: App) -> None:
    """Chips conserved, a refused action changes nothing, and replaying the ledger's events
    rebuilds the tables in memory, over the API's requests in random order (hypothesis)."""
    Night.app = app
    run_state_machine_as_test(Night, settings=NIGHTS)
    services: Any = app.client.app.state.services  # type: ignore[attr-defined]
    rebuilt = Runner.over(services.engine).tables
    for table_id in TABLES:
        live = services.tables.find(table_id)
        again = rebuilt.all[table_id]
        assert (again.seq, again.balances(), again.house) == (live.seq, live.balances(),
                                                               live.house)
    verdict = app.get("auditor", "/audit/verify").json()
    assert verdict["ok"], verdict
