"""The live table over real HTTP, on SQLite and PostgreSQL: ledger, refusals, recall, procedures."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

import httpx
import pytest

from .conftest import Server


def _balances(server: Server, table: str) -> dict[str, dict[str, str]]:
    return dict(server.get("auditor", f"/tables/{table}").json()["players"])


def test_craps_round_ledger_and_recall(server: Server) -> None:
    s = server
    assert s.ok("alice", "/tables/craps-1/buy-in", {"amount": "200"})["you"]["chips"] == "200.00"
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    assert s.get("alice", "/wallets/alice").json()["balance"] == "800.00"
    # No roll before the dice are offered and selected: 13:69F is silent, so the house's
    # procedure (casino night's 13:47-20.25(e)3) is cited as the reading it is.
    r = s.post("dealer", "/tables/craps-1/roll", {})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "replay contract: Table procedures"
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "dont_pass", "amount": "10"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 3]})
    # A refusal in the regulation's terms, with its clause, changes nothing.
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    assert r.status_code == 409
    assert r.json()["error"] == {"code": "refused", "clause": "N.J.A.C. 13:69F-1.2(a)1",
                                 "reason": "a Pass Bet is made only immediately prior to a come "
                                           "out roll; the point is 6",
                                 "request_id": r.headers["X-Request-ID"]}
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass_odds", "amount": "50"})
    done = s.ok("dealer", "/tables/craps-1/roll", {"dice": [4, 2]})
    kinds = [e["type"] for e in done["events"]]
    assert kinds[:2] == ["entered", "roll"] and kinds.count("settle") == 3
    assert _balances(s, "craps-1") == {"alice": {"chips": "270.00", "on_table": "0.00"},
                                       "bob": {"chips": "90.00", "on_table": "0.00"}}
    # Recall: the round's wagers, outcome, settlements, balances before and after.
    rec = s.get("auditor", "/tables/craps-1/rounds/2").json()
    assert rec["outcome"]["dice"] == [4, 2] and rec["outcome"]["point_before"] == 6
    assert {w["wager"] for w in rec["wagers_in_action"]} == {"pass", "pass_odds", "dont_pass"}
    assert [e["wager"] for e in rec["bets"]] == ["pass_odds"]
    assert len(rec["settlements"]) == 3
    assert rec["balances"]["before"]["alice"] == {"chips": "140.00", "on_table": "60.00"}
    assert rec["balances"]["after"]["alice"] == {"chips": "270.00", "on_table": "0.00"}
    mine = s.get("alice", "/players/alice/rounds").json()
    assert [m["round"] for m in mine] == [2, 1]
    assert mine[0]["balance_after"] == {"chips": "270.00", "on_table": "0.00"}
    # The RNG's raw draw is recorded with a roll it makes.
    rolled = s.ok("dealer", "/tables/craps-1/roll", {})
    draw = s.get("auditor", f"/tables/craps-1/rounds/{rolled['round']}").json()["draw"]
    assert draw["source"] == "insecure-test-seeded" and len(draw["raw"]) >= 2 and len(draw["outcome"]) == 2
    # Cash out everything: the wallet has it back; the ledger balances.
    before = s.get("alice", "/wallets/alice").json()["balance"]
    chips = _balances(s, "craps-1")["alice"]["chips"]
    out = s.ok("alice", "/tables/craps-1/cash-out", {})
    assert out["left"] is True
    after = s.get("alice", "/wallets/alice").json()["balance"]
    assert float(after) - float(before) == float(chips)
    report = s.get("auditor", "/audit/verify").json()
    assert report["ok"], report["problems"]
    assert report["deposits"] == "2000.00"


def test_idempotency_and_structured_errors(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    key = uuid.uuid4().hex
    first = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"}, key=key)
    again = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"}, key=key)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and again.headers.get("Idempotent-Replay") == "true"
    assert _balances(s, "craps-1")["alice"] == {"chips": "95.00", "on_table": "5.00"}
    other = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "6"}, key=key)
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    missing = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"}, key=None)
    assert missing.status_code == 428
    # Malformed input, unknown routes, bad JSON: structured errors, never a stack trace.
    for r in (s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "0"}),
              s.post("alice", "/tables/craps-1/bets", {"wager": "nope", "amount": "5"}),
              s.post("alice", "/tables/craps-1/bets", {"wager": "place_win", "number": 7,
                                                       "amount": "5"}),
              s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": 5.5}),
              httpx.post(s.base + "/tables/craps-1/bets", content=b"{not json",
                         headers=s.headers("alice", "k1")),
              s.get("alice", "/no/such/route"),
              s.get("alice", "/tables/nope")):
        assert r.status_code in (404, 422), r.text
        body = r.json()
        assert set(body["error"]) == {"code", "reason", "clause", "request_id"}
        assert body["error"]["request_id"] == r.headers["X-Request-ID"]
        assert "Traceback" not in r.text
    assert _balances(s, "craps-1")["alice"] == {"chips": "95.00", "on_table": "5.00"}


def test_roles(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    # A player cannot roll, void, confirm late bets or create tables.
    for path, body in (("/tables/craps-1/roll", {}), ("/tables/craps-1/void", {"reason": "x"*5}),
                       ("/tables/craps-1/no-more-bets", None), ("/users", {
                           "username": "eve", "password": "p" * 10, "role": "admin"})):
        r = s.post("alice", path, body)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["error"]["code"] == "forbidden"
    # A player acts only on their own wagers: there is no naming another player.
    r = s.post("alice", "/tables/craps-1/bets/take-down", {"wager": "field", "player": "bob"})
    assert r.status_code == 422
    r = s.post("alice", "/tables/craps-1/bets/take-down", {"wager": "field"})
    assert r.status_code == 409 and "alice has no Field" in r.json()["error"]["reason"]
    # Only a player bets; a dealer cannot void; an auditor reads but changes nothing.
    assert s.post("dealer", "/tables/craps-1/bets", {"wager": "field", "amount": "5"}).status_code == 403
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 1]})
    assert s.post("dealer", "/tables/craps-1/void", {"reason": "wrong"}).status_code == 403
    for path in ("/tables/craps-1/roll", "/tables/craps-1/buy-in", "/wallets/alice/deposits"):
        assert s.post("auditor", path, {"amount": "1"}).status_code in (403, 422)
    assert s.get("auditor", "/tables/craps-1/rounds/1").status_code == 200
    assert s.get("auditor", "/audit/verify").json()["ok"]
    # A player's recall is their own.
    assert s.get("alice", "/players/bob/rounds").status_code == 403
    assert s.get("bob", "/players/bob/rounds").status_code == 200
    # Wrong passwords lock no account (they are throttled, docs/login.md): after three, the
    # right one still logs in.
    for _ in range(3):
        r = httpx.post(s.base + "/auth/login", json={"username": "bob", "password": "wrong"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = httpx.post(s.base + "/auth/login", json={"username": "bob", "password": "demo-pass-123"})
    assert r.status_code == 200
    # An admin's lock ends the account's sessions; an unlock does not bring them back.
    assert s.post("admin", "/users/bob/lock", None, key=None).status_code == 200
    assert httpx.get(s.base + "/auth/me", headers=s.headers("bob")).status_code == 401
    assert s.post("admin", "/users/bob/unlock", None, key=None).status_code == 200
    assert httpx.get(s.base + "/auth/me", headers=s.headers("bob")).status_code == 401
    r = httpx.post(s.base + "/auth/login", json={"username": "bob", "password": "demo-pass-123"})
    assert r.status_code == 200
    # Admin: users and tables.
    r = s.post("admin", "/users", {"username": "carol", "password": "carol-pass-1",
                                   "role": "player"}, key=None)
    assert r.status_code == 201
    r = s.post("admin", "/tables", {"id": "mini-1", "game": "mini-craps",
                                    "profile": "nj-13-69f", "capacity": 2}, key=None)
    assert r.status_code == 201, r.text
    bad = s.post("admin", "/tables", {"id": "bad-1", "game": "craps", "profile": "nj-13-69f",
                                      "options": {"vig": "0.06"}}, key=None)
    assert bad.status_code == 422 and "five percent" in bad.json()["error"]["reason"]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(d)", "N.J.A.C. 13:69F-1.3(a)1")
def test_void_late_bets_and_restart(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    before = _balances(s, "craps-1")
    decided = s.ok("dealer", "/tables/craps-1/roll", {"dice": [6, 5]})
    assert _balances(s, "craps-1")["alice"]["chips"] == "110.00"
    # Only a supervisor voids, with a reason: a compensating entry, history kept.
    voided = s.ok("supervisor", "/tables/craps-1/void", {"reason": "dice left the table"})
    assert voided["voided_round"] == decided["round"]
    assert _balances(s, "craps-1") == before
    rec = s.get("auditor", f"/tables/craps-1/rounds/{decided['round']}").json()
    assert rec["voided"] == {"reason": "dice left the table", "by": "supervisor"}
    assert any(e["type"] == "settle" for e in rec["events"])  # history is not edited
    assert s.post("supervisor", "/tables/craps-1/void", {"reason": "again"}).status_code == 409
    # The dice are at rest: betting stays closed until what they showed is entered (a 6).
    assert s.get("auditor", "/tables/craps-1").json()["betting_open"] is False
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 3]})
    # Late bets: while the dice are in the air, a wager waits for dealer and boxperson.
    s.ok("dealer", "/tables/craps-1/no-more-bets")
    late = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    assert late.status_code == 202, late.text
    late_id = late.json()["late_bet"]
    # A late bet waiting is its player's wager: the staff see it, another player does not.
    assert [b["id"] for b in s.get("dealer", "/tables/craps-1").json()["late_bets"]] == [late_id]
    assert [b["player"] for b in s.get("alice", "/tables/craps-1").json()["late_bets"]] == [
        "alice"]
    assert s.get("bob", "/tables/craps-1").json()["late_bets"] == []
    s.ok("dealer", f"/tables/craps-1/late-bets/{late_id}/confirm")
    assert s.post("dealer", f"/tables/craps-1/late-bets/{late_id}/confirm").status_code == 409
    assert _balances(s, "craps-1")["alice"]["on_table"] == "10.00"
    s.ok("supervisor", f"/tables/craps-1/late-bets/{late_id}/confirm")
    assert _balances(s, "craps-1")["alice"]["on_table"] == "15.00"
    unconfirmed = s.post("alice", "/tables/craps-1/bets", {"wager": "any_seven", "amount": "5"})
    assert unconfirmed.status_code == 202
    rolled = s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 1]})
    assert rolled["events"][0]["type"] == "late_bet_lapsed"
    state = s.get("auditor", "/tables/craps-1").json()
    # Restart: the tables are rebuilt from the event log, nothing lost.
    s.stop()
    s.start()
    assert s.get("auditor", "/tables/craps-1").json() == state
    assert s.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(b)2",
                    "N.J.A.C. 13:47-20.25(e)3",
                    "N.J.A.C. 13:47-20.25(g)7",
                    "N.J.A.C. 13:47-20.25(g)8",
                    "N.J.A.C. 13:69F-1.3(b)",
                    "replay contract: Table procedures")
def test_dice_equipment_and_shooters(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    serials = [f"NJ-{i:04d}" for i in range(1, 6)]
    r = s.post("dealer", "/tables/craps-1/dice/offer", {"serials": serials[:4]})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "replay contract: Table procedures"
    # An out-of-spec die cannot be put in play.
    assert s.post("supervisor", "/equipment/dice", {"serial": "BAD-1", "set_name": "b",
                                                     "table_id": "craps-1"}, key=None).status_code == 201
    record = {"sides_inch": ["0.740", "0.760", "0.760"],
              "opposite_faces": [[1, 6], [2, 5], [3, 4]], "spot_depths_inch": ["0.02"],
              "transparent_cellulose": True, "sides_flat_spots_flush": True,
              "edges_square": True, "texture_identical": True, "weight_balanced": True,
              "spots_white_equal_diameter": True, "provider_name_imprinted": True}
    ins = s.post("supervisor", "/equipment/dice/BAD-1/inspections", record, key=None).json()
    assert ins["passed"] is False and "0.750" in ins["failures"][0]
    r = s.post("dealer", "/tables/craps-1/dice/offer", {"serials": [*serials[:4], "BAD-1"]})
    # A die whose inspection failed is never issued to the cup (the house's chain records no
    # issue of it), so it is refused as a die not in this table's cup.
    assert r.status_code == 409 and "BAD-1 is not in this table's dice cup" in r.json()[
        "error"]["reason"]
    # A player may refuse to shoot: the dice go clockwise to the next.
    assert s.get("auditor", "/tables/craps-1").json()["shooter"] == "alice"
    s.ok("alice", "/tables/craps-1/dice/refuse")
    assert s.get("auditor", "/tables/craps-1").json()["shooter"] == "bob"
    assert s.post("alice", "/tables/craps-1/dice/select", {"serials": serials[:2]}).status_code in (403, 409)
    s.ok("dealer", "/tables/craps-1/dice/offer", {"serials": serials})
    s.ok("bob", "/tables/craps-1/dice/select", {"serials": serials[1:3]})
    # A change of dice takes place immediately after the next decision.
    s.ok("alice", "/tables/craps-1/dice/change")
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 2]})  # a point: no decision yet
    assert s.get("auditor", "/tables/craps-1").json()["dice_in_play"] == serials[1:3]
    done = s.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 3]})  # the point made
    assert done["events"][-1]["type"] == "dice_changed"
    assert s.get("auditor", "/tables/craps-1").json()["dice_in_play"] == []
    # Match play coupons only on Pass and Don't Pass (13:69F-1.3(b)), issued by the house.
    serial = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "5"})["serial"]
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5",
                                                 "coupon": serial})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.3(b)"
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5", "coupon": serial})
    assert _balances(s, "craps-1")["alice"] == {"chips": "95.00", "on_table": "10.00"}
    assert s.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)2", "N.J.A.C. 13:47-20.32(m)2", "N.J.A.C. 13:47-20.32(c)1")
def test_roulette_and_streaming(server: Server) -> None:
    s = server
    with s.stream("roulette-1", "auditor") as ws:
        s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "100"})
        s.ok("alice", "/tables/roulette-1/bets", {"wager": "split", "numbers": [0, "00"],
                                                  "amount": "5"})
        s.ok("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": "10"})
        # The spin comes after "No more bets" (13:47-20.32(j)2), and then no wager is taken.
        r = s.post("dealer", "/tables/roulette-1/spin", {"number": 5})
        assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.32(j)2"
        s.ok("dealer", "/tables/roulette-1/no-more-bets")
        r = s.post("alice", "/tables/roulette-1/bets", {"wager": "black", "amount": "10"})
        assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.32(j)2"
        # An irregular spin is "no spin": every wager stays.
        nospin = s.ok("dealer", "/tables/roulette-1/spin", {"number": 5, "revolutions": 3})
        # The ball spun with its revolutions counted is recorded first (13:47-20.32(j)1).
        assert [e["type"] for e in nospin["events"]] == ["procedure", "entered", "spin_declared",
                                                         "no_spin"]
        assert nospin["events"][3]["clause"] == "N.J.A.C. 13:47-20.32(m)2"
        s.ok("dealer", "/tables/roulette-1/no-more-bets")
        spun = s.ok("dealer", "/tables/roulette-1/spin", {"number": "00"})
        assert [e["type"] for e in spun["events"]][:3] == ["procedure", "entered", "crown"]
        assert _balances(s, "roulette-1")["alice"] == {"chips": "175.00", "on_table": "0.00"}
        s.ok("alice", "/tables/roulette-1/bets", {"wager": "straight", "numbers": [17],
                                                  "amount": "1"})
        s.ok("dealer", "/tables/roulette-1/no-more-bets")
        drawn = s.ok("dealer", "/tables/roulette-1/spin", {})
        assert drawn["events"][0]["type"] == "draw"
        seen = []
        while len(seen) < 6:
            seen.append(json.loads(ws.recv(timeout=10)))
        assert seen[0]["type"] == "chips_in" and seen[0]["seq"] == 1
        assert [e["seq"] for e in seen] == list(range(1, 7))
    assert s.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_craps_seating(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("admin", "/tables", {"id": "mini-1", "game": "mini-craps", "profile": "nj-13-69f",
                              "capacity": 1}, key=None)
    s.ok("alice", "/tables/mini-1/buy-in", {"amount": "50"})
    s.ok("bob", "/tables/mini-1/buy-in", {"amount": "50"})
    r = s.post("alice", "/tables/mini-1/bets", {"wager": "pass", "amount": "5"})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.3(f)"
    s.ok("alice", "/tables/mini-1/sit")
    assert s.post("bob", "/tables/mini-1/sit").status_code == 409  # one seat
    s.ok("alice", "/tables/mini-1/bets", {"wager": "pass", "amount": "5"})
    r = s.post("alice", "/tables/mini-1/stand")
    assert r.status_code == 409 and "must remain seated" in r.json()["error"]["reason"]


def test_recall_command(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    run = [sys.executable, "-m", "croupier", "recall", "--json", "--data-dir", str(s.data_dir)]
    out = subprocess.run([*run, "craps-1", "1"], capture_output=True, text=True, check=True)
    record = json.loads(out.stdout)
    assert record["outcome"]["total"] == 7 and record["settlements"][0]["result"] == "win"
    assert record["balances"]["after"]["alice"] == {"chips": "55.00", "on_table": "0.00"}
    out = subprocess.run([*run, "--player", "alice"], capture_output=True, text=True, check=True)
    assert [r["round"] for r in json.loads(out.stdout)] == [1]
    missing = subprocess.run([*run, "craps-1", "99"], capture_output=True, text=True)
    assert missing.returncode == 1
