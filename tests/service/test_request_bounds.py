"""Bounds on what a request may state, in process: a pay table's odds stop at the wager's
true odds, a coupon's face value at the cage's limit per operation, free text takes no control
or bidirectional formatting character; and a coupon is issued once per Idempotency-Key."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import httpx

from .appkit import App

RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it is shown reversed


def _change(s: App, pays: dict[str, str], reason: str = "a better field") -> httpx.Response:
    return s.post("supervisor", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": pays,
        "effective": (datetime.now(UTC) + timedelta(days=30)).isoformat(timespec="seconds"),
        "reason": reason}, key=None)


def test_pay_table_odds_stop_short_of_handing_the_player_the_game(sqlite_app: App,
                                                                  ) -> None:
    s = sqlite_app
    # The field's 12 is one roll in 36: 35 to 1 is its fair pay, and with the 2 at its
    # minimum (13:69F-1.4(b) sets the least each entry pays) 3 to 1 on 12 leaves the house
    # 1/36 (as croupier check reports it).
    r = _change(s, {"field:12": "999999 to 1"})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert "true odds" in error["reason"] and "field:12" in error["reason"]
    assert "more than a quarter" in error["reason"]
    assert error["clause"].startswith("N.J.A.C. 13:69F-1.4")
    assert s.get("auditor", "/paytables/changes").json() == []
    assert _change(s, {"field:12": "3 to 1"}).status_code == 201
    # Place 6 at 10 to 7 pays past its true odds (6 to 5): the player's edge is 8/77 of each
    # wager, short of a quarter, so the house may offer it.
    assert _change(s, {"place_win:6": "10 to 7"}).status_code == 201


def test_a_coupons_face_value_is_bounded_as_a_deposit_is(sqlite_app: App) -> None:
    s = sqlite_app
    for face in ("9999999999999.99", "100000.01"):
        r = s.post("supervisor", "/coupons", {"player": "alice", "face_value": face})
        assert r.status_code == 422 and r.json()["error"]["code"] == "limit", r.text
        assert "100,000.00" in r.json()["error"]["reason"] or "100000.00" in r.text
    assert s.get("auditor", "/coupons").json() == []
    # At the limit it is no longer malformed: it is refused by the house's limit of coupons a
    # person issues in a day (tests/service/test_coupon_controls.py), a refusal, not a 422.
    r = s.post("supervisor", "/coupons", {"player": "alice", "face_value": "100000.00"})
    assert r.status_code == 409 and "a person a day" in r.json()["error"]["reason"], r.text


def test_a_coupon_is_issued_once_per_idempotency_key(app_ledger: App) -> None:
    s = app_ledger
    key = uuid.uuid4().hex
    body = {"player": "alice", "face_value": "25.00"}
    first = s.post("supervisor", "/coupons", body, key=key)
    again = s.post("supervisor", "/coupons", body, key=key)
    assert first.status_code == again.status_code == 201, (first.text, again.text)
    assert again.json() == first.json() and again.headers.get("Idempotent-Replay") == "true"
    assert [c["serial"] for c in s.get("auditor", "/coupons").json()] == [first.json()["serial"]]
    # The key sent with another request is refused, as every money request's is.
    r = s.post("supervisor", "/coupons", {**body, "face_value": "50.00"}, key=key)
    assert r.status_code == 422 and r.json()["error"]["code"] == "idempotency_key_reused"
    # Without a key, as any request that hands out money: 428.
    r = s.post("supervisor", "/coupons", body, key=None)
    assert r.status_code == 428 and r.json()["error"]["code"] == "idempotency_key_required"
    assert len(s.get("auditor", "/coupons").json()) == 1


def test_free_text_refuses_control_and_bidi_characters(sqlite_app: App) -> None:
    s = sqlite_app
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    before = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]
    events = len(s.get("auditor", "/tables/craps-1/events").json())
    for text in (f"short paid {RLO}00.5$", "short\x00paid", "line one\nline two",
                 "paid \u2066isolated\u2069", "dealer\u200berror", "\ufeffdealer error",
                 "dealer\u2060error", "     ", "\u00a0\u00a0\u00a0"):
        r = s.post("supervisor", "/tables/craps-1/adjustments",
                   {"player": "alice", "amount": "5.00", "reason": text})
        assert r.status_code == 422, (text, r.text)
        assert r.json()["error"]["reason"].startswith("body.reason: "), r.text
        assert ("U+" in r.json()["error"]["reason"]) != text.isspace(), r.text
    r = _change(s, {"field:12": "3 to 1"}, reason=f"better {RLO}field")
    assert r.status_code == 422 and "body.reason" in r.json()["error"]["reason"]
    r = s.post("supervisor", "/tables/craps-1/void", {"reason": f"misroll {RLO}x"})
    assert r.status_code == 422 and "body.reason" in r.json()["error"]["reason"]
    serial = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "5"})["serial"]
    r = s.post("supervisor", f"/coupons/{serial}/void", {"reason": f"wrong {RLO}player"},
               key=None)
    assert r.status_code == 422 and "body.reason" in r.json()["error"]["reason"]
    # Refused, nothing changed; the same words without the override are taken.
    assert s.get("auditor", "/tables/craps-1").json()["players"]["alice"] == before
    assert len(s.get("auditor", "/tables/craps-1/events").json()) == events
    assert s.get("auditor", f"/coupons/{serial}").json()["status"] == "issued"
    s.ok("supervisor", "/tables/craps-1/adjustments",
         {"player": "alice", "amount": "5.00", "reason": "short paid on the field"})
