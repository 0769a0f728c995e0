"""Rows a decision read instead of the chain they project: each tampered through SQL behind
the server's back (an attacker who can write the database, not the key), and the decision
must stand as the chain has it. In-process (the app over a demo ledger)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import equipment_register, paytable_changes, people
from croupier.service.audit import second_persons
from croupier.service.audit.canonical import canonical, link
from croupier.service.audit.snapshot import Snapshot
from croupier.service.register import record_text
from serverkit import PASSWORD

from .appkit import App, backend_app, demo_app
from .ledgerkit import event_row, record_row


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[App]:
    with backend_app(request.param, tmp_path_factory.mktemp("rows-behind"),
                     ": rows behind the chain on PostgreSQL") as made:
        yield made


def _engine(app: App) -> sa.Engine:
    served: Any = app.client.app
    engine: sa.Engine = served.state.services.engine
    return engine


def _sql(app: App, text: str, **params: Any) -> None:
    with _engine(app).begin() as conn:
        conn.execute(sa.text(text), params)


def _steps(app: App, serial: str) -> list[str]:
    return [r["payload"]["step"]
            for r in app.get("auditor", f"/equipment/dice/{serial}/custody").json()]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)2")
def test_a_die_in_play_whose_row_names_no_cup_is_not_returned(app: App) -> None:
    # The custody route read the die's cup from its ``dice`` row to decide whether it is in
    # play at a table: a row set to no cup let a die in play be returned from it, and the
    # step itself then made the row what the chain says, so the audit found nothing.
    app.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    app.ready_dice()
    assert app.get("auditor", "/tables/craps-1").json()["dice_in_play"] == [
        "NJ-0001", "NJ-0002"]
    path = "/equipment/dice/NJ-0001/custody"
    r = app.post("supervisor", path, {"step": "returned"})
    assert r.status_code == 409 and "in play" in r.json()["error"]["reason"], r.text
    _sql(app, "UPDATE dice SET table_id = NULL WHERE serial = 'NJ-0001'")
    try:
        r = app.post("supervisor", path, {"step": "returned"})
        assert r.status_code == 409 and "in play" in r.json()["error"]["reason"], r.text
        assert _steps(app, "NJ-0001")[-1] == "issued"
    finally:
        _sql(app, "UPDATE dice SET table_id = 'craps-1' WHERE serial = 'NJ-0001'")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_a_tables_row_no_one_opened_sets_no_house_pay_table(app: App) -> None:
    # The house's pay table (before any change is approved) is its first table's, found by
    # the rows' created_at, which no chain holds, among every row, opened or not: a row
    # written into the database "first", with rich pays, gave them to the next table an
    # admin opened (two persons' approval skipped), and was gone before the audit.
    rich = '{"pays": {"field:12": "999999 to 1", "field:2": "999999 to 1"}}'
    _sql(app, "INSERT INTO tables (id, game, profile, options, capacity, house_cents, "
         "created_at) VALUES ('planted', 'craps', 'nj-13-69f', :o, 12, 0, 0.0)", o=rich)
    try:
        house = {(h["game"], h["profile"]): h for h in app.get("auditor", "/paytables").json()}
        assert house[("craps", "nj-13-69f")]["pays"] == {}
        opened = app.ok("admin", "/tables", {"id": "craps-after", "game": "craps",
                                             "profile": "nj-13-69f"}, key=None)
        assert opened["options"].get("pays", {}) == {}
    finally:
        _sql(app, "DELETE FROM tables WHERE id = 'planted'")


def _users_chain(app: App) -> list[dict[str, Any]]:
    with _engine(app).connect() as conn:
        return people.records(conn)


def _rewrite(app: App, chain: list[dict[str, Any]], *, rehash: bool) -> None:
    """Write ``chain``'s payloads back (and, ``rehash``, every hash recomputed from the
    genesis, as anyone can who writes the database without the key)."""
    head = people.GENESIS
    with _engine(app).begin() as conn:
        for r in chain:
            head = link(head, record_text(r)) if rehash else r["hash"]
            conn.execute(sa.text("UPDATE user_records SET payload = :p, actor = :a, hash = :h "
                                 "WHERE seq = :s"),
                         {"p": r["payload"], "a": r["actor"], "h": head, "s": r["seq"]})


def _made_by_no_one(chain: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """``chain`` with ``name``'s record of creation made the command line's: no maker, and
    a password its holder chose."""
    out = []
    for r in chain:
        if r["kind"] == "created" and r["subject"] == name:
            r = {**r, "actor": people.COMMAND_LINE,
                 "payload": canonical({**json.loads(r["payload"]), "made_by": None})}
        out.append(r)
    return out


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_a_users_record_edited_for_one_approval_is_refused_when_it_would_decide(
        app: App) -> None:
    # Who counts as a second person is read from the users' chain; an account's record of
    # creation made the command line's for the moment of one approval, then put back, made
    # its maker its second person, and the audit that followed found nothing.
    app.ok("admin", "/users", {"username": "sam", "password": PASSWORD,
                               "role": "supervisor"}, key=None)
    change = app.ok("sam", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": "3 to 1"},
        "effective": datetime.fromtimestamp(time.time() + 30 * 86400, UTC).isoformat(),
        "reason": "the house pays more on this bet"})
    approve = f"/paytables/changes/{change['id']}/approve"
    assert "one person" in app.refused("admin", approve)["reason"]
    assert app.get("auditor", "/audit/verify").json()["ok"]  # signed and pinned
    real = _users_chain(app)
    for rehash in (False, True):
        _rewrite(app, _made_by_no_one(real, "sam"), rehash=rehash)
        try:
            r = app.post("admin", approve)
            assert r.status_code == 409, r.text
            reason = r.json()["error"]["reason"]
            assert reason.startswith("the users' chain does not hold"), reason
            # Recomputed hashes link; the head the last checkpoint pinned is not in them.
            assert ("pinned" in reason) == rehash, reason
        finally:
            _rewrite(app, real, rehash=False)
    assert "one person" in app.refused("admin", approve)["reason"]
    assert app.get("auditor", "/audit/verify").json()["ok"]


def test_a_pending_adjustment_row_deleted_and_its_number_given_again_is_named(
        app: App) -> None:
    # A pending adjustment is numbered by its row: the last row deleted, SQLite gives its
    # number to the next one asked, and the audit, rebuilding the rows by number, found the
    # second request's row where the first's had been and named nothing, while the first
    # could no longer be approved, withdrawn or declined (its number now finds another
    # table's row).
    if _engine(app).dialect.name != "sqlite":
        pytest.skip("PostgreSQL's sequences never give a number again")
    app.ok("admin", "/wallets/bob/deposits", {"amount": "100"})
    app.ok("bob", "/tables/roulette-1/buy-in", {"amount": "100"})
    base = "/tables/roulette-1/adjustments"
    body = {"player": "bob", "amount": "150.00", "reason": "a payout was short"}
    first = app.ok("supervisor", base, body)["pending_adjustment"]
    _sql(app, "DELETE FROM pending_adjustments WHERE id = :n", n=first)
    second = app.ok("supervisor", base, body)["pending_adjustment"]
    assert second == first  # the number given again
    report = app.get("auditor", "/audit/verify").json()
    assert not report["ok"]
    found = [f["what"] for f in report["findings"]
             if f["where"] == f"pending adjustment {first}"]
    assert found and "asked twice" in found[0], report["findings"]


def test_an_act_of_a_locked_account_through_a_session_put_back_is_named(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    # Locking an account ends its sessions (their rows deleted); its holder, able to write
    # the database, put their own session's row back and the account's row unlocked for the
    # moment of an act, then locked again: the act was chained under the locked account and
    # the audit found nothing. It now names any act of an account the users' chain had
    # locked or deleted (past a grace for requests under way as it was locked).
    monkeypatch.setattr(people, "ENDED_GRACE", 0.0)
    app.add_user("dealer9", "dealer")
    token = app.token("dealer9")
    with _engine(app).connect() as conn:
        session = dict(conn.execute(sa.text(
            "SELECT t.* FROM tokens t JOIN users u ON u.id = t.user_id "
            "WHERE u.username = 'dealer9'")).one()._mapping)
    assert app.post("admin", "/users/dealer9/lock", None, key=None).status_code == 200
    _sql(app, "INSERT INTO tokens (token_hash, user_id, expires_at) VALUES (:h, :u, :e)",
         h=session["token_hash"], u=session["user_id"], e=session["expires_at"])
    _sql(app, "UPDATE users SET locked = false WHERE username = 'dealer9'")
    try:
        r = app.client.post("/tables/roulette-1/no-more-bets",
                            headers={"Authorization": f"Bearer {token}",
                                     "Idempotency-Key": "put-back"})
        assert r.status_code == 200, r.text
    finally:
        _sql(app, "UPDATE users SET locked = true WHERE username = 'dealer9'")
        _sql(app, "DELETE FROM tokens WHERE token_hash = :h", h=session["token_hash"])
    report = app.get("auditor", "/audit/verify").json()
    found = [f for f in report["findings"] if f["where"] == "table roulette-1"]
    assert found and "dealer9 acted here" in found[0]["what"], report["findings"]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_an_approval_made_while_the_users_chain_was_rewritten_is_named_by_the_audit(
        app: App) -> None:
    # Records written since the last signed checkpoint are checked only to link when they
    # decide: rewritten with their hashes recomputed, then put back, they let one person's
    # two accounts approve each other, and nothing in the chains said so. The audit now
    # reads every two-person decision again against the users' chain as it stood.
    app.ok("admin", "/users", {"username": "sam2", "password": PASSWORD,
                               "role": "supervisor"}, key=None)
    real = _users_chain(app)
    _rewrite(app, _made_by_no_one(real, "sam2"), rehash=True)
    try:
        change = app.ok("sam2", "/paytables/changes", {
            "game": "craps", "profile": "nj-13-69f", "pays": {"field:2": "3 to 1"},
            "effective": datetime.fromtimestamp(time.time() + 40 * 86400, UTC).isoformat(),
            "reason": "the house pays more on this bet"})
        app.ok("admin", f"/paytables/changes/{change['id']}/approve")
    finally:
        _rewrite(app, real, rehash=False)
    report = app.get("auditor", "/audit/verify").json()
    found = [f["what"] for f in report["findings"] if f["where"] == "house records"]
    assert any("paytable_approved" in w and "decided by admin" in w and "sam2" in w
               for w in found), report["findings"]


def test_the_tables_two_person_decisions_are_read_against_the_users_chain() -> None:
    # One admin made s1 and s2 through the API: one person. d was made at the command line.
    users = [
        record_row(1, "genesis", "", "croupier", 1.0, users=[
            {"username": "admin", "role": "admin", "locked": False, "deleted": False,
             "made_by": None, "password": "a"}]),
        record_row(2, "created", "s1", "admin", 2.0, role="supervisor", made_by="admin",
              password="b"),
        record_row(3, "created", "s2", "admin", 3.0, role="supervisor", made_by="admin",
              password="c"),
        record_row(4, "created", "d", "command line", 4.0, role="dealer", made_by=None,
              password="d")]
    snap = Snapshot()
    snap.events = {"craps-1": [
        event_row(1, "void", 10.0, decision=1, seqs=[], reason="r", by="s1", approved_by="s2"),
        event_row(2, "late_bet", 11.0, late_id=1, player="bob", wager="pass", qualifier=None,
               amount={"$d": "5.00"}, clause=""),
        event_row(3, "late_bet_confirmed", 12.0, late_id=1, by="s1", role="boxperson"),
        event_row(4, "late_bet_confirmed", 13.0, late_id=1, by="d", role="dealer"),
        event_row(5, "late_bet", 14.0, late_id=2, player="bob", wager="pass", qualifier=None,
               amount={"$d": "5.00"}, clause=""),
        event_row(6, "late_bet_confirmed", 15.0, late_id=2, by="s1", role="boxperson"),
        event_row(7, "late_bet_confirmed", 16.0, late_id=2, by="s2", role="dealer")]}
    found = second_persons.check(users, snap)
    assert [(f.where, f.seq) for f in found] == [("table craps-1", 1), ("table craps-1", 7)]
    assert "both came from admin" in found[0].what
    # Read as the chain stood: before s2 existed, nothing said they were one.
    assert second_persons.check(users[:2], snap) == []


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_a_withdrawn_change_approved_while_its_record_was_edited_is_named(app: App) -> None:
    # A pay table change's state is read from the house's records as it is decided: the
    # withdrawal's record edited out of the way for the moment of an approval, and put back,
    # left an approved change behind a withdrawal in a chain that links, and nothing named it.
    change = app.ok("supervisor", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {"field:2": "3 to 1"},
        "effective": datetime.fromtimestamp(time.time() + 50 * 86400, UTC).isoformat(),
        "reason": "the house pays more on this bet"})
    path = f"/paytables/changes/{change['id']}"
    app.ok("supervisor", f"{path}/withdraw", {"reason": "proposed by mistake"})
    assert "withdrawn" in app.refused("floor", f"{path}/approve")["reason"]
    hidden = "UPDATE house_records SET kind = :to WHERE kind = :was AND payload LIKE :change"
    change_of = f'%"change":{change["id"]}%'
    _sql(app, hidden, to="hidden", was="paytable_withdrawn", change=change_of)
    try:
        app.ok("floor", f"{path}/approve")
    finally:
        _sql(app, hidden, to="paytable_withdrawn", was="hidden", change=change_of)
    report = app.get("auditor", "/audit/verify").json()
    found = [f["what"] for f in report["findings"] if f["where"] == "house records"]
    assert f"paytable_approved of change {change['id']}: it was withdrawn, not proposed" \
        in found, report["findings"]


def test_an_approval_of_retired_equipment_made_while_its_record_was_edited_is_named(
        app: App) -> None:
    # The audit read an equipment approval's second person again, not whether the item
    # could be approved at all: a retirement's kind edited out of the way for the moment of
    # an approval, and put back, left a retired wheel approved in a chain that links, and
    # nothing named it. The register's rules are now run again on its records.
    item = f"wheel-{uuid.uuid4().hex[:6]}"
    app.ok("supervisor", "/equipment/items", {"id": item, "type": "wheel",
                                              "description": "a spare wheel"}, key=None)
    app.ok("floor", f"/equipment/items/{item}/retirement", {"reason": "worn"}, key=None)
    approval = {"authority": "Casino Control Commission", "reference": "CCC-9"}
    assert "was retired" in app.refused("floor", f"/equipment/items/{item}/approvals",
                                        approval)["reason"]
    assert _named(app, item) == []
    hidden = "UPDATE house_records SET kind = :to WHERE kind = :was AND subject = :item"
    _sql(app, hidden, to="hidden", was="equipment_retired", item=f"equipment:{item}")
    try:
        app.ok("floor", f"/equipment/items/{item}/approvals", approval, key=None)
    finally:
        _sql(app, hidden, to="equipment_retired", was="hidden", item=f"equipment:{item}")
    assert _named(app, item) == [f"equipment_approved of equipment:{item}: equipment {item} "
                                 "was retired: nothing more is recorded"]


def _named(app: App, item: str) -> list[str]:
    """What the audit finds in the house's records about ``item`` (the module's ledger holds
    other tests' findings too)."""
    report = app.get("auditor", "/audit/verify").json()
    return [f["what"] for f in report["findings"]
            if f["where"] == "house records" and f"equipment:{item}:" in f["what"]]


def test_the_registers_rules_are_run_again_on_its_records() -> None:
    # Each rule the register decides by, as check_records finds it broken: one person's
    # second approval, a record of an item never registered, an id registered twice. A
    # record refused is not folded: the wheel stays approved once, by floor.
    records = [
        record_row(1, "equipment_registered", "equipment:w", "sup", 1.0, id="w", type="wheel",
                description="a wheel"),
        record_row(2, "equipment_approved", "equipment:w", "floor", 2.0, authority="CCC",
                reference="1"),
        record_row(3, "equipment_approved", "equipment:w", "floor", 3.0, authority="CCC",
                reference="2"),
        record_row(4, "equipment_inspected", "equipment:v", "floor", 4.0, passed=True,
                findings="fine"),
        record_row(5, "equipment_registered", "equipment:w", "sup", 5.0, id="w", type="ball",
                description="a ball"),
        record_row(6, "equipment_approved", "equipment:w", "admin", 6.0, authority="CCC",
                reference="3")]
    found, notes = equipment_register.check_records(records)
    assert [(f.seq, f.what) for f in found] == [
        (3, "equipment_approved of equipment:w: floor has already recorded an approval of w"),
        (4, "equipment_inspected of equipment:v: no equipment was registered under that id"),
        (5, "equipment_registered of equipment:w: equipment w is already registered")]
    assert notes == []
    assert equipment_register.check_records(records[:2] + records[5:]) == ([], [])
    # Made before the users' chain began (at 4.5 here), by a release that checked the register
    # outside its lock on PostgreSQL: the records before it are noted, the one after is named.
    found, notes = equipment_register.check_records(records, since=4.5)
    assert [f.seq for f in found] == [5]
    assert [n.split(":")[0] for n in notes] == ["house records, record 3",
                                                "house records, record 4"]
    assert all("noted, not a finding" in n for n in notes)


def test_decisions_an_older_release_made_before_the_users_chain_are_not_findings() -> None:
    # A ledger of a release before the users' chain (tests/fixtures/ledger-v1-repriced): its
    # admin approved the equipment they registered and a pay table change after its time,
    # as that release allowed. The upgrade begins the users' chain after them; the audit
    # reads the decisions made since against today's rules, not these.
    def house(at: float) -> list[dict[str, Any]]:
        return [
            record_row(1, "equipment_registered", "equipment:t1", "admin", at, id="t1"),
            record_row(2, "equipment_approved", "equipment:t1", "admin", at + 1,
                    authority="demo", reference="x"),
            record_row(3, "paytable_proposed", "paytable:craps:nj-13-69f", "sup", at + 2,
                    effective_at=repr(at), game="craps"),
            record_row(4, "paytable_approved", "paytable:craps:nj-13-69f", "admin", at + 5,
                    change=3)]
    users = [record_row(1, "genesis", "", "croupier", 100.0, users=[
        {"username": "admin", "role": "admin", "locked": False, "deleted": False,
         "made_by": None, "password": "a"}])]
    old, new = Snapshot(), Snapshot()
    old.records, new.records = house(10.0), house(200.0)
    assert second_persons.check(users, old) == []
    assert paytable_changes.check_records(old.records, 100.0) == []
    # The same decisions made since the users' chain began are named.
    assert [f.seq for f in second_persons.check(users, new)] == [2]
    assert [f.seq for f in paytable_changes.check_records(new.records, 100.0)] == [4]


def test_a_log_in_as_a_checkpoint_pins_a_users_record_newer_than_it_read_is_let_in(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    # A log-in checks the users' chain against the pinned head without the users' lock. An
    # account made, then signed and pinned, between its reading the chain and the pin found
    # a head it had not read: a chain that "does not hold", so the log-in failed (and the
    # log said to run the audit). PostgreSQL's alone: SQLite's log-in holds the write lock.
    from croupier.service.audit import verify

    if _engine(app).dialect.name == "sqlite":
        pytest.skip("a SQLite log-in reads under the only write lock: nothing commits meanwhile")
    real = people.records
    late = f"late{uuid.uuid4().hex[:6]}"

    def then_an_account_made_and_pinned(conn: sa.Connection) -> list[dict[str, Any]]:
        chain = real(conn)
        monkeypatch.setattr(people, "records", real)
        app.add_user(late, "dealer")
        signer = verify.TRUST.signer
        assert signer is not None
        verify.writer(_engine(app), signer).write("test")
        return chain

    monkeypatch.setattr(people, "records", then_an_account_made_and_pinned)
    r = app.post_login({"username": "alice", "password": PASSWORD})
    assert people.records is real  # the race was run
    assert r.status_code == 200, r.text


class _Counted(dict[str, Any]):
    """A users' record counting how often its payload is read (decoded)."""

    reads = 0

    def __getitem__(self, key: str) -> Any:
        if key == "payload":
            _Counted.reads += 1
        return super().__getitem__(key)


def test_the_audit_reads_each_users_record_once_whatever_the_decisions() -> None:
    # Each decision was read against the users' chain folded again up to its time: with a
    # record between every two decisions (players are accounts: a casino's chain holds
    # thousands), the audit took the square of the chain's length (2,000 records and 20,000
    # decisions: 4 s). Folded as it grew, each record is read once.
    users = [_Counted(record_row(1, "genesis", "", "croupier", 1.0, users=[
        {"username": "admin", "role": "admin", "locked": False, "deleted": False,
         "made_by": None, "password": "a"}]))]
    for i in range(2, 301):
        users.append(_Counted(record_row(i, "created", f"s{i}", "admin", float(i * 10),
                                    role="supervisor", made_by="admin", password="p")))
    snap = Snapshot()
    snap.events = {"craps-1": [
        event_row(i, "void", i * 10.0 + 5, decision=1, seqs=[], reason="r", by=f"s{i}",
               approved_by=f"s{i - 1}") for i in range(3, 301)]}
    _Counted.reads = 0
    found = second_persons.check(users, snap)
    assert [f.seq for f in found] == list(range(3, 301))  # one admin made them all
    assert _Counted.reads <= len(users)


def test_a_log_in_decodes_the_first_record_and_the_accounts_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A log-in checks the whole users' chain (people.trusted), then folded all of it to find
    # one account: with 20,000 records that decoding took longer than reading them, at every
    # log-in. The account is made by the chain's first record and its own.
    chain = [_Counted(record_row(1, "genesis", "", "croupier", 1.0, users=[
        {"username": "admin", "role": "admin", "locked": False, "deleted": False,
         "made_by": None, "password": "a"}]))]
    chain += [_Counted(record_row(i, "created", f"p{i}", people.COMMAND_LINE, float(i),
                             role="player", made_by=None, password="p")) for i in range(2, 300)]
    chain.append(_Counted(record_row(300, "created", "ann", people.COMMAND_LINE, 300.0,
                                role="dealer", made_by=None, password="q")))
    monkeypatch.setattr(people, "trusted", lambda conn: chain)
    _Counted.reads = 0
    ann = people.chained(Any, "ann")
    assert ann is not None and (ann.role, ann.password) == ("dealer", "q")
    assert _Counted.reads == 2
    assert people.chained(Any, "admin") is not None


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_an_approval_is_timed_as_it_is_written_not_before_its_pay_table_is_checked(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # An approval read the clock, then checked the pay table (croupier check: 0.3 s here, more
    # on a busy host), then wrote its record: one made in the last moments before the change's
    # time bore a time past it by more than the second the audit allows, and the audit named
    # an honest approval (and a server refuses to start on a ledger that does not verify).
    from croupier.service import paytable_changes as schedule

    with demo_app(tmp_path) as fresh:
        change = fresh.ok("supervisor", "/paytables/changes", {
            "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": "3 to 1"},
            "effective": datetime.fromtimestamp(time.time() + 1.5, UTC).isoformat(),
            "reason": "the house pays more on this bet"})
        checked = schedule.check

        def slow(game: str, profile: str, pays: dict[str, str]) -> list[tuple[str, str]]:
            time.sleep(max(0.0, change["effective_at"] + 1.5 - time.time()))
            return checked(game, profile, pays)

        monkeypatch.setattr(schedule, "check", slow)
        r = fresh.post("floor", f"/paytables/changes/{change['id']}/approve")
        monkeypatch.setattr(schedule, "check", checked)
        assert r.status_code == 409 and "has come" in r.json()["error"]["reason"], r.text
        report = fresh.get("auditor", "/audit/verify").json()
        assert report["ok"], report["findings"]
