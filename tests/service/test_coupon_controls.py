"""Match play coupons under the house's controls, found missing by an attack on the live
server (one cashier issued any number of coupons of any value, alone):

* a coupon over the limit one person issues alone (``--max-coupon-alone``, 100.00 by default)
  is asked for (202, ``pending``), redeems nothing, and is issued only when a second person
  approves it, counted as people, not accounts (docs/two-person-rules.md);
* no person issues more than ``--max-coupons-daily`` (1,000.00 by default) in 24 hours,
  approved or pending, counting every account that is one person with them: past it the coupon
  is refused (409, citing 13:69F-1.3(b) as every coupon refusal does), and nothing is written;
* the asking and the approval are records of the house's chain, and the audit still verifies;
* ``GET /coupons`` lists a page at a time (``limit``, ``after``), naming a malformed parameter.

In-process (the app over a demo ledger, no server process)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from serverkit import PASSWORD

from .appkit import App, demo_app

CLAUSE = "N.J.A.C. 13:69F-1.3(b)"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("coupon-controls")) as made:
        for name in ("cash", "till", "desk"):  # each made at the command line: a person apart
            made.add_user(name, "cashier")
        for name in ("api1", "api2"):  # both made by the admin through the API: one person
            made.ok("admin", "/users", {"username": name, "password": PASSWORD,
                                        "role": "cashier"}, key=None)
        made.ok("alice", "/tables/craps-1/buy-in", {"amount": "300"})
        made.ready_dice()
        yield made


def _issue(app: App, who: str, face: str, player: str = "alice") -> tuple[int, dict[str, str]]:
    r = app.post(who, "/coupons", {"player": player, "face_value": face})
    return r.status_code, r.json()


def _records(app: App) -> int:
    return len(app.get("auditor", "/house/records").json())


def _chips(app: App) -> dict[str, str]:
    return dict(app.get("auditor", "/tables/craps-1").json()["players"]["alice"])


@pytest.mark.clause(CLAUSE)
def test_a_coupon_over_the_limit_waits_for_a_second_person(app: App) -> None:
    status, at_limit = _issue(app, "cash", "100.00")
    assert status == 201 and at_limit["status"] == "issued" and at_limit["approved_by"] is None
    status, big = _issue(app, "cash", "101.00")
    assert status == 202 and big["status"] == "pending", big
    serial = big["serial"]
    # Pending, it redeems nothing: the bet is refused and alice's chips stay as they were.
    before = _chips(app)
    r = app.post("alice", "/tables/craps-1/bets",
                 {"wager": "pass", "amount": "101.00", "coupon": serial})
    assert r.status_code == 409 and "pending" in r.json()["error"]["reason"], r.text
    assert r.json()["error"]["clause"] == CLAUSE and _chips(app) == before
    # Its asker approves nothing; nor does a player or the auditor.
    records = _records(app)
    r = app.post("cash", f"/coupons/{serial}/approve", key=None)
    assert r.status_code == 409 and "a second person approves" in r.json()["error"]["reason"]
    assert r.json()["error"]["clause"] == CLAUSE
    for who in ("alice", "auditor"):
        assert app.post(who, f"/coupons/{serial}/approve", key=None).status_code == 403
    assert _records(app) == records
    assert app.get("cash", f"/coupons/{serial}").json()["status"] == "pending"
    # A second person, independent of the first, approves it: issued, and on record.
    approved = app.ok("till", f"/coupons/{serial}/approve", key=None)
    assert (approved["status"], approved["approved_by"]) == ("issued", "till")
    assert app.get("alice", f"/coupons/{serial}").json()["approved_by"] == "till"
    again = app.post("till", f"/coupons/{serial}/approve", key=None)
    assert again.status_code == 409 and "only a pending coupon" in again.json()["error"]["reason"]
    chained = [r for r in app.get("auditor", "/house/records").json()
               if r["subject"] == f"coupon:{serial}"]
    assert [r["kind"] for r in chained] == ["coupon_asked", "coupon_approved"]
    assert chained[0]["payload"]["limits"] == {"alone": "100.00", "daily": "1000.00",
                                               "issued_in_day": "100.00"}
    assert chained[1]["actor"] == "till"
    app.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "101.00",
                                             "coupon": serial})
    assert app.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause(CLAUSE)
def test_the_second_person_is_a_person_not_an_account(app: App) -> None:
    status, big = _issue(app, "api1", "150.00")
    assert status == 202
    serial = big["serial"]
    r = app.post("api2", f"/coupons/{serial}/approve", key=None)
    assert r.status_code == 409 and "both came from admin" in r.json()["error"]["reason"], r.text
    assert app.get("api1", f"/coupons/{serial}").json()["status"] == "pending"
    assert app.ok("supervisor", f"/coupons/{serial}/approve", key=None)["status"] == "issued"


@pytest.mark.clause(CLAUSE)
def test_no_person_issues_past_the_daily_limit(app: App) -> None:
    status, pending = _issue(app, "desk", "900.00")  # pending coupons count: it may be approved
    assert status == 202
    assert _issue(app, "desk", "100.00")[0] == 201  # 1,000.00: the limit, not past it
    records, listed = _records(app), len(app.get("auditor", "/coupons?limit=500").json())
    status, refused = _issue(app, "desk", "0.01")
    assert status == 409, refused
    error = refused["error"]
    assert "desk has issued 1000.00" in error["reason"] and "1000.00 a person a day" in (
        error["reason"]) and error["clause"] == CLAUSE
    assert _records(app) == records
    assert len(app.get("auditor", "/coupons?limit=500").json()) == listed
    # A voided coupon hands out nothing: it no longer counts.
    app.ok("desk", f"/coupons/{pending['serial']}/void", {"reason": "asked in error"}, key=None)
    assert _issue(app, "desk", "50.00")[0] == 201
    # Another person has a day of their own; two accounts of one person share one.
    assert _issue(app, "till", "60.00")[0] == 201
    assert _issue(app, "api1", "800.00")[0] == 202  # with its 150.00 above: 950.00
    status, refused = _issue(app, "api2", "60.00")
    assert status == 409 and "api2 has issued 950.00" in refused["error"]["reason"]
    assert app.get("auditor", "/audit/verify").json()["ok"]


def test_the_coupons_are_listed_a_page_at_a_time(app: App) -> None:
    for face in ("1", "2", "3"):
        _issue(app, "till", face, player="bob")
    everything = app.get("auditor", "/coupons?limit=500").json()
    assert len(everything) >= 10
    pages: list[list[str]] = []
    after = ""
    while True:
        page = app.get("auditor", f"/coupons?limit=3{after}").json()
        pages.append([c["serial"] for c in page])
        if len(page) < 3:
            break
        after = f"&after={page[-1]['serial']}"
    assert all(len(p) == 3 for p in pages[:-1]) and len(pages) > 2
    assert [s for p in pages for s in p] == [c["serial"] for c in everything]
    assert len(app.get("auditor", "/coupons").json()) == len(everything)  # 100 by default
    # A player pages through their own; another's serial is no place in their listing.
    own = app.get("alice", "/coupons?limit=500").json()
    assert own and {c["player"] for c in own} == {"alice"}
    bobs = next(c["serial"] for c in everything if c["player"] == "bob")
    r = app.get("alice", f"/coupons?after={bobs}")
    assert r.status_code == 422 and r.json()["error"]["reason"].startswith("query.after")
    assert app.get("alice", "/coupons?player=bob").status_code == 403
    assert {c["player"] for c in app.get("till", "/coupons?player=bob").json()} == {"bob"}


@pytest.mark.parametrize(("query", "place"), [
    ("limit=0", "query.limit"), ("limit=501", "query.limit"), ("limit=ten", "query.limit"),
    ("after=MP-000000000000", "query.after"), ("after=" + "A" * 33, "query.after"),
    ("cursor=MP-1", "query.cursor"), ("player=alice&player=bob", "query.player"),
    ("limit=1&limit=2", "query.limit"),
])
def test_a_malformed_page_is_named(app: App, query: str, place: str) -> None:
    r = app.get("auditor", f"/coupons?{query}")
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "malformed"
    assert r.json()["error"]["reason"].startswith(place + ":"), r.text
