"""Outcomes through the service's own actions and ledger, in process (SQLite): an outcome is
committed before it is settled, nothing else happens at the table until it is, a restart
settles it without drawing again, and over random play with pay-table changes every draw is in
the ledger exactly once and chips are conserved."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.craps.events import PayTableApplied, Rolled
from croupier.service import cashier, codec, halts, outcomes, paytables, store, wagers
from croupier.service import events as sv
from croupier.service.live import LiveTable
from croupier.service.plans import Job, Plan
from croupier.service.rng import Draw, SeededRng
from croupier.service.runner import Runner

from .ledgerkit import Kit


class Recording(SeededRng):
    """A seeded generator that keeps every draw it hands out (as dice)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[Draw] = []

    def draw(self, ranges: Any) -> Draw:
        draw = super().draw(ranges)
        self.draws.append(Draw(draw.source, draw.raw, tuple(i + 1 for i in draw.outcome)))
        return draw


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("outcomes") / "data")
    for player in ("alice", "bob"):
        made.deposit(player, "100000")
    try:
        yield made
    finally:
        made.engine.dispose()


_tables = itertools.count(1)


def new_table(kit: Kit) -> LiveTable:
    table_id = f"auto-{next(_tables)}"
    opening = paytables.Opening(table_id, "automated-craps", "nj-13-69f", {}, "admin")
    live = paytables.open_table(kit.tables, opening)
    kit.tables.add(live)
    for player in ("alice", "bob"):
        kit.act(player, table_id, cashier.buy_in(kit.ledger, kit.users[player], live,
                                                 Decimal(300)))
    return live


def run(kit: Kit, who: str, live: LiveTable, plan: Any, phase: str = "act") -> Any:
    return kit.runner.run(Job(kit.users[who], live, uuid.uuid4().hex, uuid.uuid4().hex, plan,
                              phase))


def stored(kit: Kit, table_id: str) -> list[tuple[int, Any]]:
    with kit.engine.connect() as conn:
        rows = conn.execute(sa.select(store.events.c.seq, store.events.c.payload).where(
            store.events.c.table_id == table_id).order_by(store.events.c.seq)).all()
    return [(r.seq, codec.decode("automated-craps", r.payload)) for r in rows]


@pytest.mark.clause("replay contract: Outcomes")
def test_nothing_happens_between_an_outcome_and_its_settlement(kit: Kit) -> None:
    live = new_table(kit)
    rng = Recording(3)
    dealer = kit.users["dealer"]
    recorded = run(kit, "dealer", live, outcomes.record(dealer, live, rng, None), "outcome")
    # The dealer's first act at the table records them on duty, then the draw alone.
    assert [e["type"] for e in recorded.body["events"]] == ["procedure", "draw"]
    assert live.pending is not None and live.pending.outcome == rng.draws[0].outcome
    # The draw's event holds the plain string its record holds, as one read back does.
    assert type(live.pending.event.source) is str  # not a DrawSource member
    assert live.pending.event == stored(kit, live.id)[-1][1]
    field = {"wager": "field", "amount": "5"}
    refused = run(kit, "alice", live, wagers.bet(kit.users["alice"], live, field, kit.ledger.limits))
    assert refused.status == 409
    assert refused.body["error"]["clause"] == "replay contract: Outcomes"
    assert "is being settled" in refused.body["error"]["reason"]
    # A restart finds the outcome waiting; the next roll settles it and draws nothing.
    fresh = Runner.over(kit.engine)
    again = fresh.tables.all[live.id]
    assert again.pending is not None and again.pending.seq == live.pending.seq
    reply = fresh.run_outcome(Job(dealer, again, uuid.uuid4().hex, uuid.uuid4().hex,
                                  outcomes.record(dealer, again, rng, None), "outcome",
                                  outcomes.settle(dealer, again)))
    assert len(rng.draws) == 1
    rolled = [e for e in reply.body["events"] if e["type"] == "roll"]
    assert [tuple(e["dice"]) for e in rolled] == [rng.draws[0].outcome]
    assert again.pending is None
    kit.tables.load()  # the module's tables see what the other runner wrote


@pytest.mark.clause("replay contract: Outcomes")
def test_a_roll_plan_run_twice_draws_once(kit: Kit) -> None:
    live = new_table(kit)
    rng = Recording(4)
    plan = outcomes.record(kit.users["dealer"], live, rng, None)
    with kit.engine.connect() as conn:
        first, second = plan(conn), plan(conn)
    assert first.events == second.events and len(rng.draws) == 1


PAYS = [{}, {"place_win:6": "10 to 7"}, {"lay:4": "7 to 13"},
        {"place_win:6": "10 to 7", "field": "2 to 1"}]
WAGERS = [({"wager": "pass"}, 6), ({"wager": "field"}, 7), ({"wager": "place_win", "number": 6}, 12),
          ({"wager": "lay", "number": 4}, 40), ({"wager": "come"}, 5),
          ({"wager": "dont_pass"}, 10)]
steps = st.lists(st.one_of(
    st.tuples(st.just("bet"), st.sampled_from(["alice", "bob"]), st.integers(0, len(WAGERS) - 1),
              st.integers(1, 3)),
    st.tuples(st.just("pays"), st.integers(0, len(PAYS) - 1)),
    st.tuples(st.just("roll")),
), min_size=1, max_size=40)


def _pay_change(live: LiveTable, pays: dict[str, str]) -> Any:
    def plan(conn: Any) -> Plan:
        if live.round_first_seq != live.seq + 1 or live.options.get("pays", {}) == pays:
            return Plan([])  # a change applies only between rounds
        return Plan([PayTableApplied(0, tuple(sorted(pays.items())), "N.J.A.C. 13:69F-1.4(b)")])
    return plan


@pytest.mark.clause("replay contract: Outcomes")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_every_draw_is_in_the_ledger_once_and_chips_are_conserved(kit: Kit,
                                                                  plan: list[Any]) -> None:
    live = new_table(kit)
    rng = Recording(len(plan))
    dealer = kit.users["dealer"]
    for step in plan:
        if step[0] == "bet":
            _, who, wager, units = step
            spec, amount = WAGERS[wager]
            body = {**spec, "amount": str(amount * units)}
            reply = run(kit, who, live, wagers.bet(kit.users[who], live, body, kit.ledger.limits))
        elif step[0] == "pays":
            reply = run(kit, "dealer", live, _pay_change(live, PAYS[step[1]]))
        else:
            reply = kit.runner.run_outcome(Job(dealer, live, uuid.uuid4().hex, uuid.uuid4().hex,
                                               outcomes.record(dealer, live, rng, None), "outcome",
                                               outcomes.settle(dealer, live)))
            assert "halted" not in reply.body
        assert reply.status in (200, 409), reply.body
    events = stored(kit, live.id)
    drawn = [e for _, e in events if isinstance(e, sv.Drawn)]
    assert [d.outcome for d in drawn] == [d.outcome for d in rng.draws]
    assert [tuple(e.dice) for _, e in events if isinstance(e, Rolled)] == [
        d.outcome for d in rng.draws]
    chips = sum((live.chips(p) + live.on_table(p) for p in ("alice", "bob")), Decimal(0))
    assert chips + live.house == Decimal(600)
    again = Runner.over(kit.engine).tables.all[live.id]
    assert (again.balances(), again.house) == (live.balances(), live.house)


@pytest.mark.clause("replay contract: Outcomes")
def test_a_retry_after_another_request_settled_its_outcome_draws_nothing(kit: Kit) -> None:
    live = new_table(kit)
    rng = Recording(6)
    dealer = kit.users["dealer"]
    key, fp = uuid.uuid4().hex, uuid.uuid4().hex
    job = Job(dealer, live, key, fp, outcomes.record(dealer, live, rng, None), "outcome",
              outcomes.settle(dealer, live))
    # The request's outcome is committed (and its key kept as waiting), then the request
    # is lost before its settlement; another roll request settles that outcome.
    waiting = kit.runner._record(job)
    assert waiting.status == 202 and waiting.body["settling"] == live.pending.seq
    other = kit.runner.run_outcome(Job(dealer, live, uuid.uuid4().hex, uuid.uuid4().hex,
                                       outcomes.record(dealer, live, rng, None), "outcome",
                                       outcomes.settle(dealer, live)))
    assert other.body["events"][0]["type"] == "roll" and live.pending is None
    # The first request, retried with its key: the stored 202, and no new draw.
    again = kit.runner.run_outcome(Job(dealer, live, key, fp,
                                       outcomes.record(dealer, live, rng, None), "outcome",
                                       outcomes.settle(dealer, live)))
    assert again.status == 202 and again.replayed and len(rng.draws) == 1
    # A retry once settled by itself answers the whole reply kept with the settlement.
    key2 = uuid.uuid4().hex
    first = kit.runner.run_outcome(Job(dealer, live, key2, fp, outcomes.record(
        dealer, live, rng, None), "outcome", outcomes.settle(dealer, live)))
    second = kit.runner.run_outcome(Job(dealer, live, key2, fp, outcomes.record(
        dealer, live, rng, None), "outcome", outcomes.settle(dealer, live)))
    assert first.status == second.status == 200 and second.replayed
    assert second.body["events"] == first.body["events"] and len(rng.draws) == 2


@pytest.mark.clause("replay contract: Outcomes")
def test_a_retry_refused_while_its_table_is_halted_keeps_no_refusal(kit: Kit) -> None:
    """A roll whose settlement failed halts its table; its request retried with its key while
    the halt stands is refused, and the refusal is not kept under the key (a refusal changes
    nothing, and the audit names any kept): the key still holds the 202 naming the outcome that
    waits, which is never drawn again, and is settled once a supervisor resolves the halt."""
    live = new_table(kit)
    rng = Recording(8)
    dealer, supervisor = kit.users["dealer"], kit.users["supervisor"]
    key, fp = uuid.uuid4().hex, uuid.uuid4().hex

    def roll() -> Job:
        return Job(dealer, live, key, fp, outcomes.record(dealer, live, rng, None), "outcome",
                   outcomes.settle(dealer, live))

    waiting = kit.runner._record(roll())
    kit.runner._halt_after(dealer, live, RuntimeError("the settlement was lost"))
    assert live.halted is not None and live.pending is not None
    refused = kit.runner.run_outcome(roll())
    assert refused.status == 409 and refused.body["error"]["code"] == "refused", refused.body
    assert "is halted" in refused.body["error"]["reason"]
    kept = kit.ledger.peek(dealer, key, fp)
    assert kept is not None and (kept.status, kept.body) == (202, waiting.body)
    kit.runner.run_outcome(Job(supervisor, live, uuid.uuid4().hex, uuid.uuid4().hex,
                               halts.resolve(supervisor, live, "settlement retried"), "resolve",
                               outcomes.settle(supervisor, live)))
    assert live.halted is None and live.pending is None
    again = kit.runner.run_outcome(roll())
    assert again.status == 202 and again.replayed and len(rng.draws) == 1
