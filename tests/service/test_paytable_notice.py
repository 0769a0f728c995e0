"""A pay table change is approved before its effective time, never at or after it: approved
late, it took effect at the next round with no notice to the players (an attack on the live
server approved a change an hour after the time it named). A late approval is refused and
records nothing; the change is proposed again with a time to come. In-process (no server)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from croupier.errors import Refusal
from croupier.service import paytable_changes as changes
from croupier.service import register

from .ledgerkit import Kit


def _hence(seconds: float) -> str:
    return datetime.fromtimestamp(time.time() + seconds, UTC).isoformat()


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("notice") / "data")
    try:
        yield made
    finally:
        made.engine.dispose()


def _propose(kit: Kit, effective: str, twelve: str) -> changes.Change:
    with kit.engine.begin() as conn:
        return changes.propose(conn, "supervisor", changes.Proposal(
            "craps", "nj-13-69f", {"field:12": twelve}, effective, "the house pays more"))


def test_a_change_whose_time_has_come_is_not_approved(kit: Kit) -> None:
    # Proposed for a time just past (within the proposer's clock skew), then approved.
    late = _propose(kit, _hence(-5), "3 to 1")
    with kit.engine.begin() as conn:
        before = len(register.rows(conn))
        with pytest.raises(Refusal) as refused:
            changes.approve(conn, "floor", late.id)
        assert len(register.rows(conn)) == before
    assert "has come" in refused.value.reason and "propose it again" in refused.value.reason
    with kit.engine.connect() as conn:
        assert changes.changes(conn)[late.id].status == "proposed"
        # Nothing is due for the game: the house's pay table is unchanged.
        assert changes.due(changes.changes(conn), "craps", "nj-13-69f", time.time()) is None


def test_the_boundary_is_the_effective_time_itself(kit: Kit) -> None:
    ahead = _propose(kit, _hence(3600), "3 to 1")
    with kit.engine.begin() as conn, pytest.raises(Refusal):
        changes.approve(conn, "floor", ahead.id, now=ahead.effective_at)
    with kit.engine.begin() as conn:
        done = changes.approve(conn, "floor", ahead.id,
                               now=ahead.effective_at - 0.001)
    assert done.status == "approved" and done.approved_by == "floor"


PAYS = "N.J.A.C. 13:69F-1.4(b)"
"""The pay clause of nj-13-69f: the clause of the pay table a change sets."""


@pytest.mark.clause(PAYS)
def test_every_refusal_of_an_approval_or_withdrawal_cites_the_pay_clause(kit: Kit) -> None:
    # Found by an attack: these refusals answered an empty clause (the change's profile has
    # a clause for its pay table, which the change cites when it applies).
    late = _propose(kit, _hence(-5), "3 to 1")
    ahead = _propose(kit, _hence(3600), "3 to 1")
    refusals: list[Refusal] = []
    for act in (lambda conn: changes.approve(conn, "floor", late.id),  # its time has come
                lambda conn: changes.approve(conn, "supervisor", ahead.id),  # its proposer
                lambda conn: changes.withdraw(conn, "floor", late.id, "x") and
                changes.withdraw(conn, "floor", late.id, "again")):  # withdrawn already
        with kit.engine.begin() as conn, pytest.raises(Refusal) as refused:
            act(conn)
        refusals.append(refused.value)
    with kit.engine.begin() as conn, pytest.raises(Refusal) as refused:
        changes.approve(conn, "floor", late.id)  # withdrawn: only a proposed one is approved
    refusals.append(refused.value)
    assert [r.clause for r in refusals] == [PAYS] * 4, [(r.reason, r.clause) for r in refusals]
    with kit.engine.connect() as conn:
        assert changes.changes(conn)[ahead.id].status == "proposed"
