"""Two real nodes on PostgreSQL read every request alike, and decide from the ledger.

- A request two readers could read differently (a single-valued header twice, a path not in
  normal form) is refused 400 on the holder and through the other node: the forwarder kept
  the last of two ``Authorization`` headers and the holder the first (one request bet as alice
  on one node and as bob through the other), and the HTTP client resolved
  ``/tables/craps-1/../../users`` to ``/users`` (the user list through a non-holder).
- ``GET /cluster`` is for staff; a request for a table from a caller nobody knows is answered
  401 before the table is looked up or claimed.
- One deposit sent with one key to both nodes at once is made once and answered with the
  stored reply on both (a unique violation gave 500).
- A die's custody is read from the ledger: a die in play at a table another node serves is not
  returned through this node, and a die the ledger no longer puts in the cup is not thrown.
"""

from __future__ import annotations

import http.client
import threading
import uuid
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from croupier.service import equipment_register

from .conftest import Cluster, Node, running_cluster
from .load import BETS


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(("n1", "n2"), tmp_path_factory.mktemp("reading")) as c:
        yield c


def _raw(node: Node, method: str, path: str, headers: list[tuple[str, str]],
         body: bytes = b"") -> tuple[int, Any]:
    """A request sent exactly as given (http.client resolves no path, merges no header)."""
    conn = http.client.HTTPConnection("127.0.0.1", node.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers:
            conn.putheader(name, value)
        if body:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def _holder_and_other(c: Cluster, table: str) -> tuple[Node, Node]:
    owner = c.owner(table)
    return owner, next(n for n in c.nodes if n is not owner)


def test_a_header_given_twice_is_refused_on_both_nodes(two: Cluster) -> None:
    c, table = two, "twice"
    c.new_craps_table(table)
    bet = (b'{"wager": "field", "amount": "1"}')
    for node in _holder_and_other(c, table):
        for doubled, first, second in (
                ("authorization", f"Bearer {c.token('alice')}", f"Bearer {c.token('bob')}"),
                ("idempotency-key", "first-" + node.name, "second-" + node.name)):
            headers = [("Content-Type", "application/json")]
            if doubled == "authorization":
                headers += [("Authorization", first), ("Authorization", second),
                            ("Idempotency-Key", f"auth-{node.name}")]
            else:
                headers += [("Authorization", f"Bearer {c.token('alice')}"),
                            ("Idempotency-Key", first), ("Idempotency-Key", second)]
            status, raw = _raw(node, "POST", f"/tables/{table}/bets", headers, bet)
            assert status == 400, (node.name, doubled, raw)
            reason = httpx.Response(status, content=raw).json()["error"]["reason"]
            assert reason.startswith(f"header {doubled}:"), reason
    bets = [e for e in c.ledger_events(c.nodes[0], table) if e["type"] == "bet"]
    assert bets == [], "a request refused for a doubled header placed a bet"


@pytest.mark.parametrize("path", [
    "/tables/{t}/../../users",
    "/tables/{t}/%2e%2e/%2e%2e/users",
    "/tables/{t}%2F..%2F..%2Fusers",
    "/tables/{t}/./events",
    "/tables//{t}/events",
])
def test_a_path_not_in_normal_form_is_refused_on_both_nodes(two: Cluster, path: str) -> None:
    c, table = two, "paths"
    if not any(table in n.holds() for n in c.nodes):
        c.new_craps_table(table)
    for node in _holder_and_other(c, table):
        status, raw = _raw(node, "GET", path.format(t=table),
                           [("Authorization", f"Bearer {c.token('admin')}")])
        assert status == 400, (node.name, raw[:200])
        assert b'"path:' in raw and b"alice" not in raw  # no user list, the path named


def test_the_cluster_view_is_for_staff(two: Cluster) -> None:
    c, node = two, two.nodes[0]
    assert httpx.get(node.base + "/cluster", timeout=5).status_code == 401
    r = httpx.get(node.base + "/cluster", headers=c.headers("alice"), timeout=5)
    assert r.status_code == 403
    r = httpx.get(node.base + "/cluster", headers=c.headers("dealer"), timeout=5)
    assert r.status_code == 200 and r.json()["node"] == node.name


def test_no_table_is_looked_up_or_claimed_for_an_unknown_caller(two: Cluster) -> None:
    c, table = two, "unclaimed"
    r = httpx.post(c.nodes[0].base + "/tables", headers=c.headers("admin"), timeout=10,
                   json={"id": table, "game": "craps", "profile": "nj-13-69f"})
    assert r.status_code == 201, r.text
    for node in c.nodes:
        for headers in ({}, {"Authorization": "Bearer not-a-token"}):
            r = httpx.post(node.base + f"/tables/{table}/sit", headers=headers, timeout=10)
            assert r.status_code == 401, r.text
            r = httpx.get(node.base + f"/tables/{table}", headers=headers, timeout=10)
            assert r.status_code == 401, r.text
        # A table that does not exist reads the same to a caller nobody knows.
        r = httpx.get(node.base + "/tables/no-such-table", timeout=10)
        assert r.status_code == 401, r.text
    assert not any(table in n.holds() for n in c.nodes), "claimed for a caller nobody knows"
    # A known caller's request places it.
    c.ok(c.nodes[1], "alice", f"/tables/{table}/buy-in", {"amount": "10"})
    assert [n.name for n in c.nodes if table in n.holds()] == ["n2"]


def _balance(c: Cluster, who: str) -> Decimal:
    return Decimal(c.get(c.nodes[0], "admin", f"/wallets/{who}")["balance"])


def test_one_deposit_key_on_both_nodes_deposits_once(two: Cluster) -> None:
    c = two
    before = _balance(c, "bob")
    rounds = 12
    answers: list[list[httpx.Response]] = []
    for _ in range(rounds):
        key = uuid.uuid4().hex
        start = threading.Barrier(2)
        got: list[httpx.Response] = []

        def send(node: Node, key: str = key, start: threading.Barrier = start,
                 got: list[httpx.Response] = got) -> None:
            start.wait()
            got.append(httpx.post(node.base + "/wallets/bob/deposits", json={"amount": "1.00"},
                                  headers=c.headers("admin", key), timeout=30))

        threads = [threading.Thread(target=send, args=(n,)) for n in c.nodes]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        answers.append(got)
    for got in answers:
        assert sorted(r.status_code for r in got) == [200, 200], [r.text for r in got]
        assert got[0].json() == got[1].json()  # the stored reply, the same balance
        assert sorted(r.headers.get("idempotent-replay", "") for r in got) == ["", "true"]
    assert _balance(c, "bob") == before + rounds  # each key deposited once


def _in_play(c: Cluster, table: str) -> list[str]:
    state = c.get(c.nodes[0], "dealer", f"/tables/{table}")
    serials: list[str] = state["dice_in_play"]
    return serials


def test_a_die_in_play_is_not_returned_through_the_other_node(two: Cluster) -> None:
    c, table = two, "custody"
    c.new_craps_table(table)
    holder, other = _holder_and_other(c, table)
    die = _in_play(c, table)[0]
    for node in (other, holder):
        for step in ("returned", "cancelled"):
            r = c.post(node, "admin", f"/equipment/dice/{die}/custody",
                       {"step": step, "note": "collected from the table"})
            assert r.status_code == 409, (node.name, step, r.text)
    steps = [r["payload"]["step"] for r in c.get(other, "admin",
                                                 f"/equipment/dice/{die}/custody")]
    assert steps == ["received", "issued"]
    c.ok(other, "alice", f"/tables/{table}/bets", BETS[0])
    c.ok(other, "dealer", f"/tables/{table}/roll", {})  # the dice stay in play


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)3")
def test_a_die_out_of_the_cup_by_the_ledger_is_not_thrown(two: Cluster, tmp_path: Path) -> None:
    """A return committed by another writer (as in a race with the holder's selection) is read
    from the ledger when the dice are thrown; other dice are then offered in their place."""
    c, table = two, "thrown"
    c.new_craps_table(table)
    holder, _ = _holder_and_other(c, table)
    die = _in_play(c, table)[0]
    engine = sa.create_engine(c.nodes[0].database)  # the cluster's own schema
    try:
        with engine.begin() as conn:
            equipment_register.custody_step(conn, "admin", equipment_register.CustodyStep(
                die, "returned", None, "collected by another writer"))
    finally:
        engine.dispose()
    rolls = [e for e in c.ledger_events(holder, table) if e["type"] in ("draw", "entered")]
    r = c.post(holder, "dealer", f"/tables/{table}/roll", {})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert die in error["reason"] and "cup" in error["reason"] and error["clause"]
    assert [e for e in c.ledger_events(holder, table)
            if e["type"] in ("draw", "entered")] == rolls  # nothing drawn
    # Two more dice into the cup; five are offered in place of the pair, and play goes on.
    from croupier.service.equipment import passing_record

    fresh = [f"{table}-d{i}" for i in (6, 7)]
    for serial in fresh:
        for path, body in (("/equipment/dice", {"serial": serial, "set_name": table,
                                                 "table_id": table}),
                           (f"/equipment/dice/{serial}/inspections", passing_record())):
            assert c.post(holder, "admin", path, body).status_code == 201
    cup = [f"{table}-d{i}" for i in range(1, 8) if f"{table}-d{i}" != die][:5]
    c.ok(holder, "dealer", f"/tables/{table}/dice/offer", {"serials": cup})
    c.ok(holder, "dealer", f"/tables/{table}/dice/select", {"serials": cup[:2]})
    c.ok(holder, "dealer", f"/tables/{table}/roll", {})
