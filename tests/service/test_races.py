"""Two people deciding one thing at the same moment, over real HTTP on PostgreSQL (where
requests run in parallel; SQLite's ``BEGIN IMMEDIATE`` already serialises them, and runs too):
every state check happens under the lock that guards the write, so exactly one of the two
wins and the other is refused, told why.

* A pay table change approved and withdrawn at once: a withdrawal first leaves nothing to
  approve, and the approval is refused; an approval first leaves a change that stands, and the
  withdrawal is refused. Before the check moved under the house chain's lock, both got 200
  and the change ended approved while its withdrawer was told it was withdrawn.
* Two admins deleting (or locking) each other at once: before, both got 200 and no admin was
  left; now the second finds its own admin gone and is refused (or, if its request came in
  after the first's commit, its token no longer logs it in).
* A large adjustment approved by two supervisors at once moves the chips once.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest

from .conftest import BACKENDS, PASSWORD, Server, make_server

ROUNDS = 6


@pytest.fixture(scope="module", params=BACKENDS)
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
        ) -> Iterator[Server]:
    server = make_server(request.param, tmp_path_factory.mktemp("races"), seed=5)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def at_once(*calls: Callable[[], httpx.Response]) -> list[httpx.Response]:
    """Run ``calls`` on threads released together; their answers in order."""
    start = threading.Barrier(len(calls))
    out: list[httpx.Response | None] = [None] * len(calls)

    def run(i: int) -> None:
        start.wait()
        out[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(r is not None for r in out)
    return [r for r in out if r is not None]


def _post(s: Server, who: str, path: str, body: Any = None) -> Callable[[], httpx.Response]:
    headers = s.headers(who, uuid.uuid4().hex)  # logged in now, not inside the race
    return lambda: httpx.post(s.base + path, json=body, headers=headers, timeout=60)


def _delete(s: Server, who: str, path: str) -> Callable[[], httpx.Response]:
    headers = s.headers(who)
    return lambda: httpx.delete(s.base + path, headers=headers, timeout=60)


def test_pay_table_change_approved_and_withdrawn_at_once(srv: Server) -> None:
    s = srv
    for n in range(ROUNDS):
        made = s.ok("supervisor", "/paytables/changes", {
            "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": f"{3 + n} to 1"},
            "effective": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
            "reason": "the house pays more"})
        path = f"/paytables/changes/{made['id']}"
        approve, withdraw = at_once(
            _post(s, "floor", path + "/approve"),
            _post(s, "supervisor", path + "/withdraw", {"reason": "a typing error"}))
        final = next(c for c in s.get("auditor", "/paytables/changes").json()
                     if c["id"] == made["id"])
        if approve.status_code == 200:  # approved first: it stands, the withdrawal refused
            assert withdraw.status_code == 409, (n, withdraw.text)
            assert "is approved: a change a second person approved is not withdrawn" in (
                withdraw.json()["error"]["reason"])
            assert (final["status"], final["approved_by"]) == ("approved", "floor"), (n, final)
        else:  # withdrawn first: the approval refused, naming why
            assert (approve.status_code, withdraw.status_code) == (409, 200), (n, approve.text)
            assert (final["status"], final["approved_by"]) == ("withdrawn", None), (n, final)
            assert "is withdrawn: only a proposed change is approved" in (
                approve.json()["error"]["reason"])


def _admins(s: Server, *names: str) -> None:
    for name in names:
        s.ok("admin", "/users", {"username": name, "password": PASSWORD, "role": "admin"},
             key=None)


def _lost(r: httpx.Response) -> bool:
    """The loser of a race between admins: refused because its own admin is gone (409), or,
    when it came in after the winner committed, no longer logged in (401)."""
    if r.status_code == 409:
        return "is no longer an admin who can act" in r.json()["error"]["reason"]
    return r.status_code == 401


def _active_admins(s: Server) -> set[str]:
    return {u["username"] for u in s.get("admin", "/users").json()
            if u["role"] == "admin" and not u["deleted"] and not u["locked"]}


@pytest.mark.parametrize("verb", ["delete", "lock"])
def test_two_admins_acting_on_each_other_at_once(srv: Server, verb: str) -> None:
    s = srv
    for n in range(ROUNDS):
        x, y = f"{verb}-x{n}", f"{verb}-y{n}"
        _admins(s, x, y)
        if verb == "delete":
            calls = (_delete(s, x, f"/users/{y}"), _delete(s, y, f"/users/{x}"))
        else:
            calls = (_post(s, x, f"/users/{y}/lock"), _post(s, y, f"/users/{x}/lock"))
        first, second = at_once(*calls)
        assert sorted([first.status_code == 200, second.status_code == 200]) == [False, True], (
            first.text, second.text)
        loser = second if first.status_code == 200 else first
        assert _lost(loser), loser.text
        assert len({x, y} & _active_admins(s)) == 1  # the winner is still an admin


def test_large_adjustment_approved_twice_at_once(srv: Server) -> None:
    s = srv
    s.ok("admin", "/users", {"username": "pit", "password": PASSWORD, "role": "supervisor"},
         key=None)
    s.ok("bob", "/tables/roulette-1/buy-in", {"amount": "10"})
    for _ in range(3):
        before = s.get("bob", "/tables/roulette-1").json()
        asked = s.post("supervisor", "/tables/roulette-1/adjustments", {
            "player": "bob", "amount": "150.00", "reason": "a payout missed"})
        assert asked.status_code == 202, asked.text
        path = f"/tables/roulette-1/adjustments/{asked.json()['pending_adjustment']}/approve"
        a, b = at_once(_post(s, "floor", path), _post(s, "pit", path))
        assert sorted([a.status_code, b.status_code]) == [200, 409], (a.text, b.text)
        loser = a if a.status_code == 409 else b
        assert "already approved" in loser.json()["error"]["reason"]
        after = s.get("bob", "/tables/roulette-1").json()
        assert _chips(after, "bob") - _chips(before, "bob") == 150


def _chips(state: dict[str, Any], player: str) -> Decimal:
    return Decimal(state["players"][player]["chips"])
