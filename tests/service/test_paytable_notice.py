"""A pay table change is approved before its effective time, never at or after it: approved
late, it took effect at the next round with no notice to the players (an attack on the live
server approved a change an hour after the time it named). A late approval is refused and
records nothing; the change is proposed again with a time to come. Once approved, a change
stands: one person does not withdraw what two decided. In-process (no server)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy.engine import Engine

from croupier.errors import Refusal
from croupier.service import paytable_changes as changes
from croupier.service import register

from .appkit import App
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


def _engine(app: App) -> Engine:
    served: Any = app.client.app
    engine: Engine = served.state.services.engine
    return engine


@pytest.mark.clause(PAYS)
def test_an_approved_change_is_not_withdrawn_by_one_person(sqlite_app: App) -> None:
    # Found by a review: a supervisor withdrew a change a second person had approved, and the
    # old pay table stayed in force on one person's word against the two who decided. An
    # approved change now stands; the house keeps its old table by a change back to it,
    # which a second person approves in turn.
    app = sqlite_app
    ahead = _hence(3600)
    made = app.ok("supervisor", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": "3 to 1"},
        "effective": ahead, "reason": "the house pays more"})
    path = f"/paytables/changes/{made['id']}"
    app.ok("floor", f"{path}/approve")
    records = app.get("auditor", "/house/records").json()
    for who in ("supervisor", "floor", "admin"):  # the proposer, the approver, a third
        refused = app.refused(who, f"{path}/withdraw", {"reason": "we changed our minds"})
        assert refused["clause"] == PAYS, refused
        assert "change back to it for the same time" in refused["reason"], refused
    assert app.get("auditor", "/house/records").json() == records  # nothing recorded
    listed = {c["id"]: c for c in app.get("auditor", "/paytables/changes").json()}
    assert listed[made["id"]]["status"] == "approved"
    # The way the refusal names, by two people: a change back for the same time.
    back = app.ok("supervisor", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {}, "effective": ahead,
        "reason": "keep the profile's pays"})
    app.ok("floor", f"/paytables/changes/{back['id']}/approve")
    with _engine(app).connect() as conn:
        due = changes.due(changes.changes(conn), "craps", "nj-13-69f", made["effective_at"])
    assert due is not None and due.id == back["id"] and due.pays == {}
    assert app.get("auditor", "/audit/verify").json()["ok"]


def test_the_audit_names_a_withdrawal_of_an_approved_change_this_release_made(
        sqlite_app: App) -> None:
    # A withdrawal recorded behind the server's back (a writer of the database) after an
    # approval of this release is named; one after an approval recorded as an earlier
    # release recorded it (no mark: one person might then withdraw an approved change before
    # its time) is that release's rule, and must not stop the server starting.
    app = sqlite_app
    ids = []
    for twelve in ("3 to 1", "4 to 1"):
        ids.append(app.ok("supervisor", "/paytables/changes", {
            "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": twelve},
            "effective": _hence(3600), "reason": "the house pays more"})["id"])
    older, this = ids
    app.ok("floor", f"/paytables/changes/{this}/approve")
    subject = changes.subject("craps", "nj-13-69f")
    with _engine(app).begin() as conn:
        register.append(conn, "paytable_approved", subject, {"change": older}, "floor")
        for number in (older, this):
            register.append(conn, "paytable_withdrawn", subject,
                            {"change": number, "reason": "one person's word"}, "supervisor")
    report = app.get("auditor", "/audit/verify").json()
    found = [f["what"] for f in report["findings"] if f["where"] == "house records"]
    assert found == [f"paytable_withdrawn of change {this}: it was approved by a second "
                     "person, and an approved change is not withdrawn by one"], report
