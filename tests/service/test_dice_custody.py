"""The dice's chain of custody as a state machine, and the cup the stickperson offers from:
each step allowed only from the steps that make sense, a refused step changing nothing, and
only a die issued to a table's cup in its custody offered there. In-process (no server)."""

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

from croupier.errors import Refusal
from croupier.service import cashier, equipment, equipment_register, register, store
from croupier.service.equipment_register import NEXT, CustodyStep
from croupier.service.errors import ApiError
from croupier.service.plans import Job

from .ledgerkit import Kit

PROFILES = {"craps-1": "nj-13-69f", "craps-2": "nj-casino-night"}
_serials = itertools.count(1)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("custody") / "data")
    try:
        yield made
    finally:
        made.engine.dispose()


def _inspect(conn: sa.Connection, serial: str, passed: bool) -> str | None:
    """An inspection recorded in the house's chain; the table whose cup it took the die
    from (a failed one takes an issued die out at once)."""
    record = equipment.passing_record()
    if not passed:
        record["sides_inch"] = ["0.700"] * 3
    failures = equipment.inspect(record)
    return equipment_register.inspect_die(conn, "admin", serial, record, failures)


def _state(conn: sa.Connection, serial: str) -> tuple[Any, ...]:
    """Everything a custody step may change: the die's row and its custody records."""
    row = conn.execute(sa.select(store.dice).where(store.dice.c.serial == serial)).one()
    return (row.table_id, row.retired, len(equipment_register.custody(conn, serial)),
            len(register.rows(conn)))


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)2")
def test_registering_records_receipt_and_the_demo_dice_are_issued(kit: Kit) -> None:
    with kit.engine.begin() as conn:
        equipment_register.register_die(conn, "admin", "REG-1", "set", None)
        steps = [r["payload"]["step"] for r in equipment_register.custody(conn, "REG-1")]
        assert steps == ["received"]
        assert equipment_register.issued_to(conn, "NJ-0001") == "craps-1"
        assert equipment_register.issued_to(conn, "REG-1") is None


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)3")
def test_a_die_in_the_cup_without_a_custody_record_is_not_offered(kit: Kit) -> None:
    # A die put into the cup's row with no custody at all (as before custody was recorded):
    # in spec, in craps-1's cup by its row, but never received nor issued.
    with kit.engine.begin() as conn:
        conn.execute(store.dice.insert().values(serial="LOOSE-1", set_name="x",
                                                table_id="craps-1", retired=False,
                                                registered_at=store.now()))
        _inspect(conn, "LOOSE-1", True)
    led, users = kit.ledger, kit.users
    craps = kit.tables.all["craps-1"]
    kit.act("alice", "craps-1", cashier.buy_in(led, users["alice"], craps, Decimal(100)))
    offered = ["NJ-0001", "NJ-0002", "NJ-0003", "NJ-0004", "LOOSE-1"]
    reply = kit.runner.run(Job(users["dealer"], craps, uuid.uuid4().hex, uuid.uuid4().hex,
                               craps.procedures.dice.offer(offered)))
    assert reply.status == 409, reply.body
    error = reply.body["error"]
    assert "LOOSE-1 is not in this table's dice cup" in error["reason"]
    assert error["clause"] == "replay contract: Table procedures"  # craps-1 is nj-13-69f
    # Its custody stands at issued (it is in a cup): it is returned, never received again.
    with kit.engine.begin() as conn, pytest.raises(Refusal) as refused:
        equipment_register.custody_step(conn, "admin", CustodyStep("LOOSE-1", "received"),
                                        PROFILES)
    assert "craps-1's dice cup" in refused.value.reason
    with kit.engine.begin() as conn:
        equipment_register.custody_step(conn, "admin", CustodyStep("LOOSE-1", "returned"))
        equipment_register.custody_step(conn, "admin",
                                        CustodyStep("LOOSE-1", "issued", "craps-1"))
    reply = kit.runner.run(Job(users["dealer"], craps, uuid.uuid4().hex, uuid.uuid4().hex,
                               craps.procedures.dice.offer(offered)))
    assert reply.status in (200, 201), reply.body


STEP = st.tuples(st.sampled_from(equipment_register.STEPS),
                 st.sampled_from([None, "craps-1", "craps-2"]),
                 st.sampled_from(["pass", "fail", "none"]))


@pytest.mark.clause("N.J.A.C. 13:47-20.25(b)2")
@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)2")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEP, min_size=1, max_size=8))
def test_custody_follows_its_state_machine_and_a_refused_step_changes_nothing(
        kit: Kit, steps: list[tuple[str, str | None, str]]) -> None:
    serial = f"P-{next(_serials)}"
    at: str | None = "received"  # registering records the receipt
    with kit.engine.begin() as conn:
        equipment_register.register_die(conn, "admin", serial, "prop", None)
    for step, table, inspection in steps:
        with kit.engine.begin() as conn:
            if inspection != "none":
                left = _inspect(conn, serial, inspection == "pass")
                # A failed inspection takes an issued die out of its cup at once.
                assert (left is not None) == (inspection == "fail" and at == "issued")
                if left is not None:
                    at = "returned"
            latest = equipment_register.latest_inspection(conn, serial)
            passed = latest is not None and latest["passed"]
            before = _state(conn, serial)
            allowed = (step in NEXT[at] and (step == "issued") == (table is not None)
                       and (step != "issued" or bool(passed)))
            try:
                equipment_register.custody_step(conn, "admin",
                                                CustodyStep(serial, step, table), PROFILES)
            except (Refusal, ApiError) as exc:
                assert not allowed, (at, step, table, exc.reason)
                assert _state(conn, serial) == before  # nothing recorded, nothing moved
                if isinstance(exc, Refusal) and at == "issued":
                    assert exc.clause  # cites the clause of the cup's table's profile
                continue
            assert allowed, (at, step, table)
            at = step
            table_id, retired, records, _ = _state(conn, serial)
            assert (table_id, retired) == (table if step == "issued" else None,
                                           step == "cancelled")
            assert records == before[2] + 1
            assert equipment_register.issued_to(conn, serial) == table_id


def test_the_custody_chain_recomputes(kit: Kit) -> None:
    with kit.engine.connect() as conn:
        records = [dict(r._mapping) for r in conn.execute(
            sa.select(store.house_records).order_by(store.house_records.c.seq))]
    assert any(r["kind"] == "dice_custody" for r in records)
    assert register.recompute(records)[1] == []
