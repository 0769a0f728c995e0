"""Two-person rules count people, adjustments add up, the last admin survives, and the
recovery commands tell the truth (the users' chain, ``service/people.py``).

Each test is an attack that passed before: over real HTTP, on SQLite and PostgreSQL where the
store decides (the races run on PostgreSQL, where the users' lock is an advisory lock)."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from .conftest import PASSWORD, Server, make_server
from .test_ledger_users_cli import login, users


def _make(s: Server, who: str, name: str, role: str) -> None:
    s.ok(who, "/users", {"username": name, "password": PASSWORD, "role": role}, key=None)


def _propose(s: Server, who: str) -> int:
    made = s.ok(who, "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": "3 to 1"},
        "effective": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
        "reason": "the house pays more"})  # approved before its time, as a change must be
    return int(made["id"])


def _own_password(s: Server, who: str) -> None:
    """``who`` chooses their own password (every session ends) and logs in again with it."""
    new = f"{who}'s own secret words"
    wrong = s.post(who, "/auth/me/password", {"current": "not it at all", "new": new}, key=None)
    assert wrong.status_code == 403, wrong.text
    same = s.post(who, "/auth/me/password", {"current": PASSWORD, "new": PASSWORD}, key=None)
    assert same.status_code == 422 and "the current one" in same.json()["error"]["reason"]
    s.ok(who, "/auth/me/password", {"current": PASSWORD, "new": new}, key=None)
    r = httpx.post(f"{s.base}/auth/login", json={"username": who, "password": new})
    assert r.status_code == 200, r.text
    s.tokens[who] = r.json()["token"]


def test_an_admin_approves_nothing_through_an_account_of_their_own_making(
        sqlite_server: Server) -> None:
    """Separation of duties: the admin who makes a supervisor through the API is one person
    with them; two supervisors made at the command line (the demo's) are two people, and so
    are two supervisors the same organiser made."""
    s = sqlite_server
    _make(s, "admin", "sam", "supervisor")
    change = _propose(s, "admin")
    r = s.post("sam", f"/paytables/changes/{change}/approve", key=None)
    assert r.status_code == 409 and "one person, not two" in r.json()["error"]["reason"], r.text
    change2 = _propose(s, "sam")
    r = s.post("admin", f"/paytables/changes/{change2}/approve", key=None)
    assert r.status_code == 409 and "one person, not two" in r.json()["error"]["reason"], r.text
    # The organiser's staff: sam and sue, both made by the admin with passwords the admin
    # chose, are the admin's hands until one of them chooses their own password.
    _make(s, "admin", "sue", "supervisor")
    r = s.post("sue", f"/paytables/changes/{change2}/approve", key=None)
    assert r.status_code == 409 and "both came from admin" in r.json()["error"]["reason"]
    _own_password(s, "sue")  # the admin could have typed it: still the admin's line
    r = s.post("sue", f"/paytables/changes/{change2}/approve", key=None)
    assert r.status_code == 409 and "both came from admin" in r.json()["error"]["reason"]
    # Two people the command line made.
    change3 = _propose(s, "supervisor")
    assert s.post("floor", f"/paytables/changes/{change3}/approve", key=None).status_code == 200
    assert s.audit()["ok"], s.audit()["problems"]


def test_siblings_in_one_pair_of_hands_pass_no_two_person_rule(sqlite_server: Server) -> None:
    """One admin made two supervisors through the API, kept their passwords, and had one ask
    for a 500.00 adjustment and the other approve it: the house paid 500.00 on one person's
    word. Accounts that came from one maker are that maker, whoever chose their passwords
    since (the maker could have typed those too)."""
    s = sqlite_server
    _make(s, "admin", "ann2", "supervisor")
    _make(s, "admin", "bea2", "supervisor")
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    before = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]
    asked = s.post("ann2", "/tables/craps-1/adjustments",
                   {"player": "alice", "amount": "500.00", "reason": "short paid"})
    assert asked.status_code == 202, asked.text
    pid = asked.json()["pending_adjustment"]
    for changed in (False, True):
        r = s.post("bea2", f"/tables/craps-1/adjustments/{pid}/approve")
        assert r.status_code == 409 and "one person, not two" in r.json()["error"]["reason"]
        assert s.get("auditor", "/tables/craps-1").json()["players"]["alice"] == before
        if not changed:  # a password "of their own" the admin may have chosen: no change
            _own_password(s, "bea2")
    s.ok("floor", f"/tables/craps-1/adjustments/{pid}/approve")  # another line: a second person
    assert s.audit()["ok"], s.audit()["problems"]


def test_a_new_role_does_not_wash_out_who_made_the_account(sqlite_server: Server) -> None:
    """``admin`` made dealer ``d2`` and knows its password; another admin made supervisor of it
    (which recorded only the second admin as its maker): ``admin`` proposed a pay-table change
    and approved it as ``d2``. Every maker an account ever had counts."""
    s = sqlite_server
    _make(s, "admin", "d2", "dealer")
    # An independent admin, made at the command line by whoever holds the data.
    r = users(s, "add", "adm3", "--role", "admin", "--password", PASSWORD)
    assert r.returncode == 0, r.stderr
    s.ok("adm3", "/users/d2/role", {"role": "supervisor"}, key=None)
    change = _propose(s, "admin")
    r = s.post("d2", f"/paytables/changes/{change}/approve", key=None)
    assert r.status_code == 409 and "came from admin" in r.json()["error"]["reason"], r.text


def test_a_role_given_through_an_admin_counts_as_theirs(sqlite_server: Server) -> None:
    """``boss`` (an admin the demo admin made) makes ``sid`` a supervisor; boss is then made a
    supervisor: boss asks for an adjustment, sid may not approve it (sid came through boss),
    the demo's ``floor`` may. A supervisor never approves their own."""
    s = sqlite_server
    _make(s, "admin", "boss", "admin")
    _make(s, "boss", "sid", "supervisor")
    s.ok("admin", "/users/boss/role", {"role": "supervisor"}, key=None)
    assert s.get("boss", "/users").status_code == 401  # a new role ends the old sessions
    s.tokens.pop("boss")
    listed = {u["username"]: u for u in s.get("admin", "/users").json()}
    assert (listed["boss"]["role"], listed["boss"]["made_by"]) == ("supervisor", "admin")
    assert listed["sid"]["made_by"] == "boss" and listed["floor"]["made_by"] is None
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    asked = s.post("boss", "/tables/craps-1/adjustments",
                   {"player": "alice", "amount": "150.00", "reason": "short paid"})
    assert asked.status_code == 202, asked.text
    pid = asked.json()["pending_adjustment"]
    for who in ("boss", "sid"):
        r = s.post(who, f"/tables/craps-1/adjustments/{pid}/approve")
        assert r.status_code == 409 and "second person" in r.json()["error"]["reason"], r.text
    s.ok("floor", f"/tables/craps-1/adjustments/{pid}/approve")
    chips = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]["chips"]
    assert chips == "250.00"
    assert s.audit()["ok"], s.audit()["problems"]


def test_one_supervisor_moves_at_most_the_limit_alone_per_player_and_day(
        sqlite_server: Server) -> None:
    """Five $100.00 adjustments for alice, each within the $100.00 per-request limit: the
    first moves alone, every later one (at either table) waits for a second supervisor."""
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "10"})
    statuses = [s.post("supervisor", f"/tables/{t}/adjustments",
                       {"player": "alice", "amount": "100.00", "reason": "short paid"}
                       ).status_code for t in ("craps-1", "craps-1", "roulette-1", "craps-1",
                                               "craps-1")]
    assert statuses == [200, 202, 202, 202, 202]
    # Another supervisor's own allowance, and another player's, are their own.
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
    assert s.post("supervisor", "/tables/craps-1/adjustments",
                  {"player": "bob", "amount": "60.00", "reason": "short paid"}).status_code == 200
    assert s.post("floor", "/tables/craps-1/adjustments",
                  {"player": "alice", "amount": "-60.00", "reason": "short paid"}).status_code == 200
    assert s.post("supervisor", "/tables/craps-1/adjustments",
                  {"player": "bob", "amount": "-40.01", "reason": "short paid"}).status_code == 202
    assert s.audit()["ok"], s.audit()["problems"]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_one_request_sent_twice_makes_one_pending_adjustment(backend: str, tmp_path: Any,
                                                            ) -> None:
    s = make_server(backend, tmp_path)
    s.start()
    try:
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
        body = {"player": "alice", "amount": "150.00", "reason": "short paid"}
        first = s.post("supervisor", "/tables/craps-1/adjustments", body, key="one-key")
        again = s.post("supervisor", "/tables/craps-1/adjustments", body, key="one-key")
        assert first.status_code == again.status_code == 202, (first.text, again.text)
        assert first.json() == again.json()
        pid = first.json()["pending_adjustment"]
        s.ok("floor", f"/tables/craps-1/adjustments/{pid}/approve")
        # No second pending adjustment exists to approve.
        assert s.post("floor", f"/tables/craps-1/adjustments/{pid + 1}/approve"
                      ).status_code == 404
        chips = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]["chips"]
        assert chips == "250.00"
        kinds = [e["type"] for e in s.get("auditor", "/tables/craps-1/events").json()]
        assert kinds.count("adjustment_asked") == 1 and kinds.count("adjustment_approved") == 1
        assert s.audit()["ok"], s.audit()["problems"]
    finally:
        s.stop()


def test_accounts_and_pending_adjustments_edited_in_the_database_are_named(
        sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    pid = s.ok("supervisor", "/tables/craps-1/adjustments",
               {"player": "alice", "amount": "150.00", "reason": "short paid"})["pending_adjustment"]
    assert s.audit()["ok"]
    db = sqlite3.connect(s.data_dir / "croupier.db")
    with db:
        db.execute("UPDATE pending_adjustments SET amount_cents = 990000 WHERE id = ?", (pid,))
        db.execute("UPDATE users SET role = 'admin' WHERE username = 'dealer'")
        db.execute("INSERT INTO users (username, role, password_hash, failed_logins, locked, "
                   "created_at) SELECT 'mallory', 'admin', password_hash, 0, 0, 0 FROM users "
                   "WHERE username = 'admin'")
    db.close()
    problems = " | ".join(s.audit()["problems"])
    assert f"pending adjustment {pid}: its row differs" in problems and "amount_cents" in problems
    assert "user dealer: role is 'admin' where the chain says 'dealer'" in problems
    assert "user mallory: the account is in the users table but in no record" in problems


def _delete_each_other(s: Server, a: str, b: str) -> list[int]:
    tokens = {who: s.token(who) for who in (a, b)}
    barrier = threading.Barrier(2)
    codes: dict[str, int] = {}

    def delete(who: str, whom: str) -> None:
        barrier.wait()
        codes[who] = httpx.delete(f"{s.base}/users/{whom}", timeout=30, headers={
            "Authorization": f"Bearer {tokens[who]}"}).status_code

    threads = [threading.Thread(target=delete, args=pair) for pair in ((a, b), (b, a))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(codes.values())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_admins_deleting_each_other_leave_one(backend: str, tmp_path: Any) -> None:
    s = make_server(backend, tmp_path)
    s.start()
    try:
        previous = "admin"
        for n in range(4):
            other = f"admin{n}"
            _make(s, previous, other, "admin")
            # One wins; the other is refused: under the lock (409: the last admin) or, when
            # the first has already committed, at its token (401: deleted).
            first, second = _delete_each_other(s, previous, other)
            assert first == 200 and second in (401, 409), (first, second)
            left = [u["username"] for u in s.get("auditor", "/users").json()
                    if u["role"] == "admin" and not u["deleted"]]
            assert len(left) == 1, left
            previous = left[0]
        assert s.audit()["ok"], s.audit()["problems"]
    finally:
        s.stop()


def test_recovery_commands_tell_the_truth_and_restore_a_deleted_admin(
        sqlite_server: Server) -> None:
    s = sqlite_server
    _make(s, "admin", "second", "admin")
    assert httpx.delete(f"{s.base}/users/admin", timeout=30,
                        headers=s.headers("second")).status_code == 200
    assert login(s, "admin", PASSWORD) == 401
    for verb in (("unlock", "admin"), ("reset-password", "admin", "--password",
                                       "another-long-password")):
        done = users(s, *verb)
        assert done.returncode == 1 and "admin is deleted" in done.stderr, done
        assert "restore" in done.stderr
    assert login(s, "admin", PASSWORD) == 401
    done = users(s, "restore", "admin")
    assert done.returncode == 0, done.stderr
    assert login(s, "admin", PASSWORD) == 200
    assert users(s, "restore", "admin").returncode == 1  # not deleted now: said so
    listed = {u["username"]: u for u in s.get("auditor", "/users").json()}
    assert listed["admin"]["deleted"] is False
    assert s.audit()["ok"], s.audit()["problems"]
    # An account added at the command line is a person of its own.
    assert users(s, "add", "cleo", "--role", "supervisor", "--password",
                 "cleo-long-password").returncode == 0
    assert login(s, "cleo", "cleo-long-password") == 200


def test_no_account_takes_a_name_the_ledger_records_for_the_system(
        sqlite_server: Server) -> None:
    """A user named ``pay-table-schedule`` could be made: its acts and the scheduled pay table
    changes the server applies would be recorded under one name."""
    s = sqlite_server
    for name in ("pay-table-schedule", "croupier", "operator", "integrity-monitor"):
        r = s.post("admin", "/users", {"username": name, "password": PASSWORD,
                                       "role": "supervisor"}, key=None)
        assert r.status_code == 409 and "the actor of" in r.json()["error"]["reason"], r.text
    assert not {"pay-table-schedule", "croupier", "operator"} & {
        u["username"] for u in s.get("admin", "/users").json()}
    done = users(s, "add", "operator", "--role", "admin", "--password", PASSWORD)
    assert done.returncode == 1 and "the actor of" in done.stderr, done.stderr
