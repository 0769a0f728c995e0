"""A real ledger built in-process for the audit tests: ``croupier init --demo --test-mode`` in a
folder, then rounds of craps and roulette played through the service's own actions and ledger
(the code the HTTP routes call), with a seeded RNG so the ledger holds real draws (which only a
test ledger may: the audit names them on any other)."""

from __future__ import annotations

import json
import random
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from croupier.service import cashier, install, outcomes, reading, store, wagers
from croupier.service.auth import User
from croupier.service.plans import Job
from croupier.service.rng import SeededRng
from croupier.service.runner import Runner
from croupier.service.wagers import PlanFn

PASSWORD = "demo-pass-123"


def users(engine: sa.Engine) -> dict[str, User]:
    with engine.connect() as conn:
        return {r.username: User(r.id, r.username, r.role)
                for r in conn.execute(sa.select(store.users))}


class Kit:
    """A demo ledger in ``data_dir`` and a ledger object over it: a test ledger, unless
    ``test_mode`` is False (a production ledger, whose seeded draws the audit names)."""

    def __init__(self, data_dir: Path, database: str | None = None,
                 test_mode: bool = True) -> None:
        install.init(data_dir, database, None,
                     install.FirstUsers(demo=True, demo_password=PASSWORD), test_mode=test_mode)
        self.data_dir = data_dir
        self.url = database or f"sqlite:///{(data_dir / 'croupier.db').resolve()}"
        self.engine = store.make_engine(self.url)
        self.runner = Runner.over(self.engine)
        self.ledger = self.runner.ledger
        self.tables = self.runner.tables
        self.users = users(self.engine)
        self.rng = SeededRng(7)

    def act(self, who: str, table: str, plan: PlanFn) -> dict[str, Any]:
        reply = self.runner.run(Job(self.users[who], self.tables.all[table], uuid.uuid4().hex,
                                    uuid.uuid4().hex, plan))
        assert reply.status in (200, 201, 202), reply.body
        return reply.body

    def outcome(self, who: str, table: str, record: PlanFn, settle: PlanFn) -> dict[str, Any]:
        """A roll or spin as the route runs it: the outcome committed, then settled."""
        reply = self.runner.run_outcome(Job(self.users[who], self.tables.all[table],
                                            uuid.uuid4().hex, uuid.uuid4().hex, record,
                                            "outcome", settle))
        assert reply.status in (200, 201, 202), reply.body
        return reply.body

    def roll(self, table: str, dice: tuple[int, int] | None = None) -> dict[str, Any]:
        """A roll: the RNG's, or ``dice`` entered by the dealer."""
        return self._outcome(table, None if dice is None else {"roll": list(dice)})

    def spin(self, table: str, number: Any = None) -> dict[str, Any]:
        """A spin: the RNG's, or ``number`` entered by the dealer."""
        return self._outcome(table, None if number is None else {"spin": number})

    def _outcome(self, table: str, entered: dict[str, Any] | None) -> dict[str, Any]:
        dealer, live = self.users["dealer"], self.tables.all[table]
        action = None if entered is None else reading.outcome_action(live, entered)
        return self.outcome("dealer", table, outcomes.record(dealer, live, self.rng, action),
                            outcomes.settle(dealer, live))

    def deposit(self, player: str, amount: str) -> None:
        self.ledger.deposit(self.users["admin"], uuid.uuid4().hex, uuid.uuid4().hex, player,
                            Decimal(amount))

    def play(self, craps_rounds: int, roulette_rounds: int) -> None:
        """Buy-ins, then rounds: $1 wagers at craps (pass or field) and roulette (red)."""
        led, u = self.ledger, self.users
        craps, wheel = self.tables.all["craps-1"], self.tables.all["roulette-1"]
        self.act("alice", "craps-1", cashier.buy_in(led, u["alice"], craps, Decimal(500)))
        self.act("bob", "roulette-1", cashier.buy_in(led, u["bob"], wheel, Decimal(300)))
        dice = craps.procedures.dice
        assert dice is not None
        self.act("dealer", "craps-1", dice.offer([f"NJ-{i:04d}" for i in range(1, 6)]))
        self.act("dealer", "craps-1", dice.select(u["dealer"], ["NJ-0001", "NJ-0002"],
                                                  by_shooter=False))
        pick = random.Random(3)
        for _ in range(craps_rounds):
            wager = "pass" if craps.table.state_json()["point"] is None and not any(
                p == "alice" and label == "pass" for p, label, _ in craps.table.layout()) \
                else "field"
            bet = {"wager": wager, "amount": "1"}
            self.act("alice", "craps-1", wagers.bet(u["alice"], craps, bet, self.ledger.limits))
            dice = None if pick.random() < 0.5 else (pick.randint(1, 6), pick.randint(1, 6))
            self.roll("craps-1", dice)
        for _ in range(roulette_rounds):
            red = {"wager": "red", "amount": "1"}
            self.act("bob", "roulette-1", wagers.bet(u["bob"], wheel, red, self.ledger.limits))
            self.act("dealer", "roulette-1", outcomes.no_more_bets(u["dealer"], wheel))
            self.spin("roulette-1")


def record_row(seq: int, kind: str, subject: str, actor: str, at: float, **payload: Any
               ) -> dict[str, Any]:
    """A row of the users' or the house's chain as the audit's snapshot holds it."""
    return {"seq": seq, "kind": kind, "subject": subject, "actor": actor, "at": at,
            "payload": json.dumps(payload)}


def event_row(seq: int, kind: str, at: float, **fields: Any) -> dict[str, Any]:
    """A table's event row as the audit's snapshot holds it."""
    return {"seq": seq, "kind": kind, "at": at, "actor": "x",
            "payload": json.dumps({"type": kind, "f": fields})}
