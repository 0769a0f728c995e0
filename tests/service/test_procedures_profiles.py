"""In process, the server's procedures follow the table's own
profile (late bets, who confirms them, match play coupons, the dice and the places), and each
refusal cites a clause of that profile's text or the reading that stands in for one."""

from __future__ import annotations

from typing import Any

import pytest

from .appkit import App

TABLES = {"cn-1": "nj-casino-night", "ac-1": "nj-19-47"}
PROCEDURES = "replay contract: Table procedures"


def _open(s: App, table: str, profile: str, game: str = "craps", **extra: Any) -> None:
    s.ok("admin", "/tables", {"id": table, "game": game, "profile": profile, **extra}, key=None)


def _balances(s: App, table: str) -> dict[str, dict[str, str]]:
    return dict(s.get("auditor", f"/tables/{table}").json()["players"])



def _closing(reply: dict[str, Any]) -> dict[str, Any]:
    """The event of "no more bets" in a reply (a dealer's first act at a table records them
    on duty first)."""
    found: dict[str, Any] = next(e for e in reply["events"] if e["type"] == "no_more_bets")
    return found

@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1", "N.J.A.C. 19:47-1.2(a)", "N.J.A.C. 13:69F-1.3(a)")
def test_late_bets_only_where_the_profile_provides_for_them(sqlite_app: App) -> None:
    s = sqlite_app
    want = {"cn-1": "N.J.A.C. 13:47-20.25(h)1", "ac-1": "N.J.A.C. 19:47-1.2(a)"}
    for table, profile in TABLES.items():
        _open(s, table, profile)
        s.ok("alice", f"/tables/{table}/buy-in", {"amount": "50"})
        closed = s.ok("dealer", f"/tables/{table}/no-more-bets")
        assert _closing(closed)["clause"] == want[table]
        before = _balances(s, table)
        r = s.post("alice", f"/tables/{table}/bets", {"wager": "field", "amount": "5"})
        assert r.status_code == 409, r.text
        assert r.json()["error"]["clause"] == want[table]
        assert "no late bets" in r.json()["error"]["reason"]
        assert _balances(s, table) == before
        assert s.get("auditor", f"/tables/{table}").json()["late_bets"] == []
    # Under 13:69F the same wager waits for its confirmations (202).
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    closed = s.ok("dealer", "/tables/craps-1/no-more-bets")
    assert _closing(closed)["clause"] == "N.J.A.C. 13:69F-1.3(a)"
    late = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    assert late.status_code == 202, late.text


def _late_bet(s: App, table: str) -> int:
    s.ok("dealer", f"/tables/{table}/no-more-bets")
    late = s.post("alice", f"/tables/{table}/bets", {"wager": "field", "amount": "5"})
    assert late.status_code == 202, late.text
    return int(late.json()["late_bet"])


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)1", "N.J.A.C. 13:69F-1.3(a)2")
def test_late_bet_confirmations_record_who_and_the_role_of_the_game(sqlite_app: App,
                                                                    ) -> None:
    s = sqlite_app
    _open(s, "mini-1", "nj-13-69f", "mini-craps")
    s.ok("alice", "/tables/mini-1/buy-in", {"amount": "50"})
    s.ok("alice", "/tables/mini-1/sit")
    late_id = _late_bet(s, "mini-1")
    asked = s.get("auditor", "/tables/mini-1").json()["late_bets"]
    assert [b["id"] for b in asked] == [late_id]
    first = s.ok("supervisor", f"/tables/mini-1/late-bets/{late_id}/confirm")
    assert first["events"][0] == {**first["events"][0], "by": "supervisor", "role": "floorperson"}
    again = s.post("supervisor", f"/tables/mini-1/late-bets/{late_id}/confirm")
    assert again.status_code == 409
    assert again.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.3(a)2"
    assert "floorperson" in again.json()["error"]["reason"]
    second = s.ok("dealer", f"/tables/mini-1/late-bets/{late_id}/confirm")
    assert second["events"][0]["role"] == "dealer"
    assert _balances(s, "mini-1")["alice"] == {"chips": "45.00", "on_table": "5.00"}
    # At craps the supervisor confirms as the boxperson (13:69F-1.3(a)1).
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    late_id = _late_bet(s, "craps-1")
    confirmed = s.ok("supervisor", f"/tables/craps-1/late-bets/{late_id}/confirm")
    assert confirmed["events"][0]["role"] == "boxperson"
    waiting = s.get("auditor", "/tables/craps-1").json()["late_bets"]
    assert waiting[0]["confirmed_by"] == {"boxperson": "supervisor"}


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)", "N.J.A.C. 19:47-1.2(b)")
def test_a_coupon_at_an_atlantic_city_table_cites_its_own_text(sqlite_app: App) -> None:
    s = sqlite_app
    _open(s, "ac-1", "nj-19-47")
    s.ok("alice", "/tables/ac-1/buy-in", {"amount": "50"})
    serial = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "10"})["serial"]
    r = s.post("alice", "/tables/ac-1/bets", {"wager": "pass", "amount": "10", "coupon": serial})
    assert r.status_code == 409
    assert r.json()["error"]["clause"] == "N.J.A.C. 19:47-1.2(b)"
    assert s.get("supervisor", f"/coupons/{serial}").json()["status"] == "issued"
    assert _balances(s, "ac-1")["alice"] == {"chips": "50.00", "on_table": "0.00"}


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)3", "N.J.A.C. 13:47-20.25(f)", PROCEDURES)
def test_dice_and_places_cite_the_table_s_own_profile(sqlite_app: App) -> None:
    s = sqlite_app
    want = {"cn-1": ("N.J.A.C. 13:47-20.25(e)3", "N.J.A.C. 13:47-20.25(f)"),
            "ac-1": (PROCEDURES, PROCEDURES), "craps-1": (PROCEDURES, PROCEDURES)}
    for table, profile in TABLES.items():
        _open(s, table, profile, capacity=1)
    for table, (offer, room) in want.items():
        four = [f"NJ-{i:04d}" for i in range(1, 5)]
        r = s.post("dealer", f"/tables/{table}/dice/offer", {"serials": four})
        assert r.status_code == 409 and r.json()["error"]["clause"] == offer, r.text
        if table != "craps-1":  # craps-1 has sixteen places
            s.ok("alice", f"/tables/{table}/buy-in", {"amount": "20"})
            r = s.post("bob", f"/tables/{table}/buy-in", {"amount": "20"})
            assert r.status_code == 409 and r.json()["error"]["clause"] == room, r.text
            assert s.get("bob", "/wallets/bob").json()["balance"] == "1000.00"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)", "N.J.A.C. 13:47-20.25(h)", "N.J.A.C. 13:47-20.32(e)")
def test_a_coupon_is_not_issued_for_a_table_that_takes_none(sqlite_app: App) -> None:
    s = sqlite_app
    _open(s, "cn-1", "nj-casino-night")
    want = {"cn-1": "N.J.A.C. 13:47-20.25(h)", "roulette-1": "N.J.A.C. 13:47-20.32(e)"}
    for table, clause in want.items():
        r = s.post("supervisor", "/coupons", {"player": "alice", "face_value": "10",
                                              "table": table})
        assert r.status_code == 409 and r.json()["error"]["clause"] == clause, r.text
    assert s.get("supervisor", "/coupons").json() == []
    issued = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "10",
                                             "table": "craps-1"})
    assert issued["status"] == "issued" and issued["clause"] == "N.J.A.C. 13:69F-1.3(b)"
    # Put down at roulette, the coupon is refused under roulette's own list of wagers.
    s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "20"})
    r = s.post("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": "10",
                                                    "coupon": issued["serial"]})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.32(e)"
    assert s.get("supervisor", f"/coupons/{issued['serial']}").json()["status"] == "issued"


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 13:47-20.25(i)2")
def test_a_table_pays_what_the_house_pays_at_its_game_and_profile(sqlite_app: App) -> None:
    s = sqlite_app
    # craps-1 (nj-13-69f) pays the profile's table: a second craps table paying more on the
    # field's 12 would not be uniform within the casino.
    r = s.post("admin", "/tables", {"id": "craps-2", "game": "craps", "profile": "nj-13-69f",
                                    "options": {"pays": {"field:12": "3 to 1"}}}, key=None)
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.4(b)"
    assert "craps-2" not in [t["id"] for t in s.get("auditor", "/tables").json()]
    _open(s, "craps-3", "nj-13-69f")  # the same pay table: opened
    # Under another profile with no table yet, the first table does not set the house's pay
    # table on one admin's word: pays above the profile's are refused (a change two people
    # approve sets them); the profile's own pays, written out, open it.
    r = s.post("admin", "/tables", {"id": "cn-1", "game": "craps", "profile": "nj-casino-night",
                                    "options": {"pays": {"field:12": "3 to 1"}}}, key=None)
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.25(i)2"
    _open(s, "cn-1", "nj-casino-night", options={"pays": {"field:12": "2 to 1"}})
    # A table opened without pays takes the house's; one asking for other pays is refused.
    made = s.ok("admin", "/tables", {"id": "cn-3", "game": "craps",
                                     "profile": "nj-casino-night"}, key=None)
    assert made["options"]["pays"] == {"field:12": "2 to 1"}
    r = s.post("admin", "/tables", {"id": "cn-4", "game": "craps", "profile": "nj-casino-night",
                                    "options": {"pays": {"field:12": "3 to 1"}}}, key=None)
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.25(i)2"
