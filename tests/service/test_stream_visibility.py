"""What each role sees of a table on its WebSocket stream, in the event list and in recall:
one rule for all three (a player sees the table's public events and their own part, never
another player's chips, wagers or settlements nor a supervisor's adjustment of someone else),
over real HTTP and WebSockets. Also: a log-out closes the token's streams at once, and a
stream resumes from ``?since=N`` in its URL."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import PASSWORD, Server

STAFF = ("admin", "dealer", "supervisor", "auditor")
SHOOTERS_ACTS = ("dice_selected", "shoot_refused")  # in everyone's sight at the table
PRIVATE = ("chips_in", "chips_out", "bet", "take_down", "settle", "adjust", "coupon_in",
           "coupon_out", "left")


def _public(e: dict[str, Any]) -> bool:
    return "player" not in e or e["type"] in SHOOTERS_ACTS
SECRET = "comp for the spilt drink at seat 4"  # the adjustment's reason, bob's business only


def _play_a_round(s: Server) -> None:
    """alice and bob buy in and bet; a supervisor adjusts bob's chips; the dealer rolls a 7
    (a Pass Bet wins even money and a Field Bet loses on 7, 13:69F-1.2(a)1 and (h))."""
    s.ok("admin", "/users", {"username": "cash", "password": PASSWORD, "role": "cashier"},
         key=None)
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    s.ok("supervisor", "/tables/craps-1/adjustments",
         {"player": "bob", "amount": "7.00", "reason": SECRET})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})


def _read(ws: Any, last_seq: int) -> list[dict[str, Any]]:
    """The stream's messages until one at or past ``last_seq``, or 2 s of silence after."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            got.append(json.loads(ws.recv(timeout=2)))
        except TimeoutError:
            break
        if got[-1]["seq"] >= last_seq:
            # Nothing the reader may see comes after it: wait a little for strays anyway.
            try:
                got.append(json.loads(ws.recv(timeout=0.5)))
            except TimeoutError:
                break
    return got


def _bare(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without who sent the request and when (the event list adds them)."""
    return [{k: v for k, v in e.items() if k not in ("actor", "at")} for e in events]


def test_each_role_sees_on_the_stream_what_the_event_list_and_recall_show(
        server: Server) -> None:
    s = server
    _play_a_round(s)
    every = s.get("auditor", "/tables/craps-1/events?limit=1000").json()
    last = every[-1]["seq"]
    kinds = {e["type"] for e in every}
    assert {"chips_in", "bet", "adjust", "roll", "settle"} <= kinds
    streamed: dict[str, list[dict[str, Any]]] = {}
    for who in (*STAFF, "alice", "bob", "cash"):
        with s.stream("craps-1", who) as ws:
            streamed[who] = _read(ws, last)
    # The staff see every event, on the stream as in the event list.
    for who in STAFF:
        listed = s.get(who, "/tables/craps-1/events?limit=1000").json()
        assert _bare(listed) == _bare(every), who
        assert streamed[who] == _bare(every), who
    # A player sees the table's public events and their own part, nothing of anyone else's.
    for who, other in (("alice", "bob"), ("bob", "alice")):
        got = streamed[who]
        expected = [e for e in _bare(every) if _public(e) or e["player"] == who]
        assert got == expected, who
        assert not [e for e in got if e["type"] in PRIVATE and e["player"] != who]
        assert [e for e in every if e["type"] in PRIVATE and e["player"] == other]
        assert (SECRET in json.dumps(got)) == (who == "bob")
        assert {e["type"] for e in got if e.get("player") == who} >= {"chips_in", "bet",
                                                                       "settle"}
        assert "roll" in {e["type"] for e in got}
        # The player's event list is refused (staff only) as before; recall of the round
        # shows of its events exactly what the stream showed of them.
        assert s.get(who, "/tables/craps-1/events").status_code == 403
        roll = next(e for e in every if e["type"] == "roll")
        recalled = s.get(who, f"/tables/craps-1/rounds/{roll['round']}").json()["events"]
        assert _bare(recalled) == [{k: v for k, v in e.items() if k != "round"}
                                   for e in got if e["round"] == roll["round"]], who
    assert next(e for e in streamed["bob"] if e["type"] == "adjust")["reason"] == SECRET
    # A cashier takes no part at a table: the public events only.
    assert streamed["cash"] == [e for e in _bare(every) if _public(e)]
    assert streamed["cash"] and SECRET not in json.dumps(streamed["cash"])


def test_a_players_live_stream_carries_no_one_elses_part(sqlite_server: Server) -> None:
    """Events committed while the player watches (not replayed): the same rule."""
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    s.ready_dice()
    with s.stream("craps-1", "alice", since=-1) as ws:
        s.ok("bob", "/tables/craps-1/buy-in", {"amount": "50"})
        s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
        s.ok("supervisor", "/tables/craps-1/adjustments",
             {"player": "bob", "amount": "3.00", "reason": SECRET})
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "20"})
        s.ok("dealer", "/tables/craps-1/roll", {"dice": [5, 6]})
        last = s.get("auditor", "/tables/craps-1/events?limit=1000").json()[-1]["seq"]
        got = _read(ws, last)
    assert [e["type"] for e in got][:1] == ["chips_in"] and got[0]["player"] == "alice"
    assert "roll" in [e["type"] for e in got]
    assert not [e for e in got if e["type"] in PRIVATE and e["player"] != "alice"], got
    assert SECRET not in json.dumps(got)


def _own_login(s: Server, who: str) -> str:
    """A token of its own (not the cached one the other requests use)."""
    r = httpx.post(s.base + "/auth/login", json={"username": who, "password": PASSWORD},
                   timeout=10)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def _open(s: Server, token: str, query: str = "", hello: dict[str, Any] | None = None) -> Any:
    ws = connect(s.base.replace("http", "ws") + "/tables/craps-1/stream" + query)
    with contextlib.suppress(ConnectionClosed):  # refused before it: the close says why
        ws.send(json.dumps({"token": token, **(hello or {})}))
    return ws


def _closed_with(ws: Any, within: float) -> int | None:
    """The close code the server sends within ``within`` seconds (None: still open)."""
    deadline = time.monotonic() + within
    try:
        while time.monotonic() < deadline:
            try:
                ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else -1
    return None


def test_logout_closes_the_tokens_streams_at_once(server: Server) -> None:
    s = server
    first, second = _own_login(s, "alice"), _own_login(s, "alice")
    one, other = _open(s, first), _open(s, second)
    try:
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})  # both streams are live
        assert json.loads(one.recv(timeout=10))["type"] == "chips_in"
        assert json.loads(other.recv(timeout=10))["type"] == "chips_in"
        r = httpx.post(s.base + "/auth/logout", headers={"Authorization": f"Bearer {first}"},
                       timeout=10)
        assert r.status_code == 200
        # At once: well before the stream's periodic check of its token (every 5 s).
        assert _closed_with(one, 1.5) == 4401
        # The same player's stream on another token is not theirs to end.
        assert _closed_with(other, 0.5) is None
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        assert json.loads(other.recv(timeout=10))["type"] == "chips_in"
    finally:
        one.close()
        other.close()


def test_a_stream_resumes_from_since_in_its_url(server: Server) -> None:
    s = server
    for amount in ("10", "20", "30"):
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": amount})
    listed = s.get("auditor", "/tables/craps-1/events").json()
    every = [e for e in listed if e["type"] == "chips_in"]
    assert [e["amount"] for e in every] == ["10.00", "20.00", "30.00"]
    assert listed[-1] == every[-1]
    after_first = _bare(listed[listed.index(every[0]) + 1:])
    token = s.token("auditor")
    # As docs/cluster.md tells a client resuming on another node: ?since=<last seq>.
    ws = _open(s, token, f"?since={every[0]['seq']}")
    try:
        got = [json.loads(ws.recv(timeout=10)) for _ in after_first]
        assert got == after_first
        assert [e["amount"] for e in got if e["type"] == "chips_in"] == ["20.00", "30.00"]
        assert _closed_with(ws, 0.5) is None  # and then live
    finally:
        ws.close()
    # The same in both places is taken; two different ones, or a malformed one, are refused.
    ws = _open(s, token, f"?since={every[1]['seq']}", {"since": every[1]["seq"]})
    try:
        assert json.loads(ws.recv(timeout=10))["amount"] == "30.00"
    finally:
        ws.close()
    for query, hello in ((f"?since={every[1]['seq']}", {"since": 0}), ("?since=ten", {}),
                         ("?since=1&since=2", {}), (f"?token={token}", {})):
        ws = _open(s, token, query, hello)
        try:
            assert _closed_with(ws, 10) == 4422, query
        finally:
            ws.close()


@pytest.mark.parametrize("since", [None, -1])
def test_without_since_a_stream_is_live_only(sqlite_server: Server, since: int | None) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    hello = {} if since is None else {"since": since}
    ws = _open(s, s.token("auditor"), "", hello)
    try:
        assert _closed_with(ws, 1.0) is None  # nothing replayed
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "20"})
        assert json.loads(ws.recv(timeout=10))["amount"] == "20.00"
    finally:
        ws.close()


def test_a_marked_replay_says_where_it_ended_past_events_the_player_may_not_see(
        sqlite_server: Server) -> None:
    """Bob's buy-in, among the table's last events, is not alice's to see: asked to mark it,
    the stream tells her where its replay ended (the browser table waits for that to draw)."""
    s = sqlite_server
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
    last = s.get("auditor", "/tables/craps-1").json()["seq"]
    ws = _open(s, _own_login(s, "alice"), hello={"since": 0, "mark": True})
    try:
        got: list[dict[str, Any]] = []
        while not got or got[-1].get("type") != "replayed":
            got.append(json.loads(ws.recv(timeout=10)))
    finally:
        ws.close()
    assert got[-1] == {"type": "replayed", "through": last}
    seen = {e["seq"] for e in got[:-1]}
    assert seen < set(range(1, last + 1))  # bob's buy-in is not hers to see
    unmarked = _open(s, _own_login(s, "alice"), hello={"since": 0, "mark": "yes"})
    assert _closed_with(unmarked, 10) == 4422  # mark is true or false, nothing else


def test_the_table_and_a_round_show_a_player_or_a_cashier_no_one_elses_part(
        sqlite_server: Server) -> None:
    """GET /tables/{id} and a round's recall follow the stream's rule: alice sees her chips and
    wagers, not bob's; a cashier sees no player's; the staff see all."""
    s = sqlite_server
    s.ok("admin", "/users", {"username": "till", "password": PASSWORD, "role": "cashier"},
         key=None)
    for who in ("alice", "bob"):
        s.ok(who, "/tables/roulette-1/buy-in", {"amount": "20"})
        s.ok(who, "/tables/roulette-1/bets", {"wager": "red", "amount": "5"})
    staff = s.get("auditor", "/tables/roulette-1").json()
    assert {"alice", "bob"} <= set(staff["players"])
    assert {w["player"] for w in staff["layout"]} >= {"alice", "bob"}
    mine = s.get("alice", "/tables/roulette-1").json()
    assert set(mine["players"]) == {"alice"}
    assert {w["player"] for w in mine["layout"]} == {"alice"}
    till = s.get("till", "/tables/roulette-1").json()
    assert till["players"] == {} and till["layout"] == []
    s.ok("dealer", "/tables/roulette-1/no-more-bets")
    spun = s.ok("dealer", "/tables/roulette-1/spin", {})
    round_no = spun["round"]
    recalled = s.get("till", f"/tables/roulette-1/rounds/{round_no}").json()
    assert recalled["bets"] == [] and recalled["settlements"] == []
    assert all(e.get("player") in (None, "till") for e in recalled["events"]
               if e["type"] in ("bet", "settle"))
    assert s.get("supervisor", f"/tables/roulette-1/rounds/{round_no}").json()["bets"]


def test_the_table_names_its_last_decision_to_every_role_and_after_a_restart(
        server: Server) -> None:
    """GET /tables/{id} names the last roll or spin (its event, seq and round) for a page opened
    mid-session, to every role alike (it names no player), and again once the table is
    rebuilt after a restart."""
    s = server
    s.ok("admin", "/users", {"username": "till", "password": PASSWORD, "role": "cashier"},
         key=None)
    s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "20"})
    assert s.get("alice", "/tables/roulette-1").json()["decision"] is None
    spins = []
    for _ in range(2):
        s.ok("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": "5"})
        s.ok("dealer", "/tables/roulette-1/no-more-bets")
        spun = s.ok("dealer", "/tables/roulette-1/spin", {})
        crown = next(e for e in spun["events"] if e["type"] == "crown")
        spins.append({k: crown[k] for k in ("seq", "type", "number", "colour", "clause")}
                     | {"round": spun["round"]})
    s.ok("alice", "/tables/roulette-1/bets", {"wager": "black", "amount": "5"})  # play goes on

    def decisions() -> list[Any]:
        return [s.get(who, "/tables/roulette-1").json()["decision"]
                for who in ("alice", "bob", "till", "dealer", "auditor")]

    assert decisions() == [spins[-1]] * 5
    s.stop()
    s.start()
    assert decisions() == [spins[-1]] * 5
