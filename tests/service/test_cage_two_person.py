"""Money at the cage and adjustments under the two-person / own-request rule, found missing on
the live server (an admin alone paid a player's wallet out in cash: one person could pocket a
player's money):

* a cash-out at the cage is asked (202, ``pending``; by the player on their own wallet, or an
  admin) and paid only by an admin who is a second person: independent of the one who asked
  and not one person with the player; a refusal cites the cage's control and moves nothing;
* meanwhile the amount is held: not bought in chips at a table, nor asked again; the asker may
  withdraw it, another admin decline it; every step is a record of the house's chain and the
  audit checks the payments against the wallets' chains;
* a pending adjustment is withdrawn by its asker or declined by another supervisor (events of
  the table's chain; the audit rebuilds the pending rows), and the chips it held are free.

In-process (the app over a demo ledger, no server process)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.errors import Refusal
from croupier.service import cage, cashier
from serverkit import PASSWORD

from .appkit import App, demo_app

CLAUSE = cage.CLAUSE
ADJUSTMENT_CLAUSE = "N.J.A.C. 13:69F-1.1"  # craps-1 (nj-13-69f): the boxperson answers disputes


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("cage-two-person")) as made:
        made.add_user("teller", "admin")  # made at the command line: a person apart
        # Made by the admin through the API: one person with the admin, password and all.
        made.ok("admin", "/users", {"username": "deputy", "password": PASSWORD,
                                    "role": "admin"}, key=None)
        made.ok("admin", "/users", {"username": "puppet", "password": PASSWORD,
                                    "role": "player"}, key=None)
        made.ok("admin", "/wallets/puppet/deposits", {"amount": "100"})
        yield made


def _balance(app: App, player: str) -> str:
    balance: str = app.get("admin", f"/wallets/{player}").json()["balance"]
    return balance


def _records(app: App) -> int:
    return len(app.get("auditor", "/house/records?limit=1000").json())


def _ask(app: App, who: str, player: str, amount: str) -> int:
    r = app.post(who, f"/wallets/{player}/cash-outs", {"amount": amount})
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["status"] == "pending" and body["requested_by"] == who, body
    number: int = body["cash_out"]
    return number


def _path(player: str, number: int, verb: str) -> str:
    return f"/wallets/{player}/cash-outs/{number}/{verb}"


@pytest.mark.clause(CLAUSE)
def test_the_players_request_is_paid_by_an_admin_once(app: App) -> None:
    before = _balance(app, "bob")
    key = "bob-asks-once"
    first = app.post("bob", "/wallets/bob/cash-outs", {"amount": "250.00"}, key=key)
    again = app.post("bob", "/wallets/bob/cash-outs", {"amount": "250.00"}, key=key)
    assert first.status_code == again.status_code == 202, first.text
    assert first.json() == again.json()  # one request, kept under its key
    number = first.json()["cash_out"]
    assert _balance(app, "bob") == before  # asked: nothing has moved yet
    # The player does not pay themselves, nor may anyone but the player or an admin ask.
    assert app.post("bob", _path("bob", number, "pay")).status_code == 403
    assert app.post("alice", "/wallets/bob/cash-outs", {"amount": "1"}).status_code == 403
    paid = app.post("admin", _path("bob", number, "pay"), key="pay-bob")
    replay = app.post("admin", _path("bob", number, "pay"), key="pay-bob")
    assert paid.status_code == replay.status_code == 200, paid.text
    assert paid.json() == replay.json() == {"player": "bob", "paid": "250.00",
                                            "balance": "750.00", "cash_out": number}
    twice = app.refused("teller", _path("bob", number, "pay"))
    assert twice["clause"] == CLAUSE and "already paid (by admin)" in twice["reason"]
    assert _balance(app, "bob") == "750.00"
    listed = app.get("bob", "/wallets/bob/cash-outs").json()
    assert listed[0]["cash_out"] == number and listed[0]["status"] == "paid"
    assert app.audit()["ok"], app.audit()["findings"]


@pytest.mark.clause(CLAUSE)
def test_an_admin_alone_never_pays_out_a_players_wallet(app: App) -> None:
    """The attack: an admin asks a cash-out of alice's wallet and pays it themselves, or
    through an account they made; refused, nothing moves. A second person pays it."""
    before, records = _balance(app, "alice"), _records(app)
    number = _ask(app, "admin", "alice", "300.00")
    for payer, why in (("admin", "admin asked for it"), ("deputy", "came from admin")):
        refused = app.refused(payer, _path("alice", number, "pay"))
        assert refused["clause"] == CLAUSE and why in refused["reason"], refused
    assert _balance(app, "alice") == before and _records(app) == records + 1
    assert [c["cash_out"] for c in app.get("auditor", "/cage/cash-outs").json()] == [number]
    paid = app.ok("teller", _path("alice", number, "pay"))
    assert paid["paid"] == "300.00" and app.get("auditor", "/cage/cash-outs").json() == []


@pytest.mark.clause(CLAUSE)
def test_cash_is_not_paid_into_the_hand_of_one_person_with_the_player(app: App) -> None:
    """puppet's account (and password) came from admin: admin is one person with puppet, so
    puppet's request paid by admin would be admin's alone."""
    number = _ask(app, "puppet", "puppet", "40.00")
    refused = app.refused("admin", _path("puppet", number, "pay"))
    assert refused["clause"] == CLAUSE and "one person" in refused["reason"]
    assert _balance(app, "puppet") == "100.00"
    assert app.ok("teller", _path("puppet", number, "pay"))["balance"] == "60.00"


@pytest.mark.clause(CLAUSE)
def test_held_money_is_not_spent_until_the_request_is_decided(app: App) -> None:
    start = _balance(app, "alice")  # 700.00 after the test above
    number = _ask(app, "alice", "alice", "600.00")
    buy = app.refused("alice", "/tables/roulette-1/buy-in", {"amount": "100.01"})
    assert buy["clause"] == CLAUSE and "600.00 of alice's wallet is held" in buy["reason"]
    more = app.refused("alice", "/wallets/alice/cash-outs", {"amount": "100.01"})
    assert more["clause"] == CLAUSE and "holds 100.00" in more["reason"]
    assert _balance(app, "alice") == start
    # Only the asker withdraws; the asker does not decline their own (they withdraw it).
    assert app.refused("admin", _path("alice", number, "withdraw"))["clause"] == CLAUSE
    assert app.post("bob", _path("alice", number, "withdraw")).status_code == 403
    withdrawn = app.ok("alice", _path("alice", number, "withdraw"))
    assert withdrawn["status"] == "withdrawn" and withdrawn["decided_by"] == "alice"
    assert app.refused("teller", _path("alice", number, "pay"))["reason"].startswith(
        f"cash-out {number} is already withdrawn")
    app.ok("alice", "/tables/roulette-1/buy-in", {"amount": "100.01"})  # free again
    app.ok("alice", "/tables/roulette-1/cash-out", {})
    asked = _ask(app, "admin", "alice", "10.00")
    assert app.refused("admin", _path("alice", asked, "decline"),
                       {"reason": "asked in error"})["clause"] == CLAUSE
    declined = app.ok("teller", _path("alice", asked, "decline"), {"reason": "no ID shown"})
    assert declined["status"] == "declined" and declined["reason"] == "no ID shown"
    assert _balance(app, "alice") == start
    report = app.audit()
    assert report["ok"], report["findings"]


def _chips(app: App, player: str) -> str:
    chips: str = app.get("auditor", "/tables/craps-1").json()["players"][player]["chips"]
    return chips


@pytest.mark.clause(ADJUSTMENT_CLAUSE)
def test_a_pending_adjustment_is_withdrawn_or_declined_and_its_chips_freed(app: App) -> None:
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "300"})
    base = "/tables/craps-1/adjustments"
    asked = app.ok("supervisor", base, {"player": "bob", "amount": "-150.00",
                                        "reason": "overpaid a place bet"})
    number = asked["pending_adjustment"]
    held = app.refused("bob", "/tables/craps-1/cash-out", {})
    assert held["clause"] == ADJUSTMENT_CLAUSE and "held" in held["reason"]
    # 150.00 of bob's 300.00 are held: a wager may put down 150.00 and not a dollar more.
    over = app.refused("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "151"})
    assert over["clause"] == ADJUSTMENT_CLAUSE and "can be wagered" in over["reason"]
    assert _chips(app, "bob") == "300.00"
    app.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "150"})
    app.ok("bob", "/tables/craps-1/bets/take-down", {"wager": "field"})
    live = app.client.app.state.services.tables.find("craps-1")  # type: ignore[attr-defined]
    with pytest.raises(Refusal) as wager:
        cashier.require_unheld_chips(live, "bob", Decimal("150.01"))
    assert wager.value.clause == ADJUSTMENT_CLAUSE
    other = app.refused("floor", f"{base}/{number}/withdraw")
    assert other["clause"] == ADJUSTMENT_CLAUSE and "only they withdraw" in other["reason"]
    own = app.refused("supervisor", f"{base}/{number}/decline", {"reason": "changed my mind"})
    assert own["clause"] == ADJUSTMENT_CLAUSE and "they withdraw it" in own["reason"]
    done = app.ok("supervisor", f"{base}/{number}/withdraw")
    assert done["withdrawn_adjustment"] == number
    assert [e["type"] for e in done["events"]] == ["adjustment_withdrawn"]
    late = app.refused("floor", f"{base}/{number}/approve")
    assert "already withdrawn" in late["reason"] and _chips(app, "bob") == "300.00"
    again = app.ok("supervisor", base, {"player": "bob", "amount": "-150.00",
                                        "reason": "overpaid a place bet"})
    declined = app.ok("floor", f"{base}/{again['pending_adjustment']}/decline",
                      {"reason": "the video shows the payout was right"})
    assert declined["declined_adjustment"] == again["pending_adjustment"]
    assert _chips(app, "bob") == "300.00"
    app.ok("bob", "/tables/craps-1/cash-out", {})  # nothing held any more
    report = app.audit()
    assert report["ok"], report["findings"]


@pytest.mark.clause(CLAUSE)
def test_the_audit_names_a_payment_no_second_person_made() -> None:
    """The audit's check of the cash-outs against the wallets (``cage.check``), on rows as a
    forger would leave them once the chains are re-hashed: a payment by its asker, one that
    names no wallet entry, an entry no payment names."""
    def record(seq: int, kind: str, actor: str, **payload: Any) -> dict[str, Any]:
        import json
        return {"seq": seq, "kind": kind, "actor": actor, "at": float(seq),
                "subject": "cash-out:bob", "payload": json.dumps({"player": "bob", **payload})}

    entry = {"id": 7, "player": "bob", "kind": cage.KIND, "table_id": None,
             "amount_cents": -500, "hash": "h7", "at": 3.0}
    ok = [record(1, cage.ASKED, "bob", amount="5.00"),
          record(2, cage.PAID, "admin", cash_out=1, amount="5.00", entry="h7")]
    assert cage.check(ok, {"bob": [entry]}) == ([], [])
    by_asker = [ok[0], record(2, cage.PAID, "bob", cash_out=1, amount="5.00", entry="h7")]
    found, _ = cage.check(by_asker, {"bob": [entry]})
    assert "paid by bob, who asked it" in found[0].what
    assert "no paid request" in found[1].what  # so its entry is named by none
    found, _ = cage.check(ok, {"bob": [entry, {**entry, "id": 8, "hash": "h8"}]})
    assert len(found) == 1 and found[0].seq == 8
    earlier = {**entry, "id": 1, "hash": "h1", "at": 0.5}  # an earlier release's: noted
    found, notes = cage.check(ok, {"bob": [earlier, entry]})
    assert found == [] and "1 cage cash-outs were paid before" in notes[0]


ACTS = st.sampled_from(["ask", "pay", "withdraw", "decline"])
WHO = st.sampled_from(["admin", "deputy", "bob", "alice", "auditor"])
AMOUNT = st.sampled_from(["0", "-1", "0.001", "1000000", "99999999.99", "5000"])


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(act=ACTS, who=WHO, amount=AMOUNT)
@pytest.mark.clause(CLAUSE)
def test_a_refused_request_at_the_cage_changes_nothing(app: App, act: str, who: str,
                                                       amount: str) -> None:
    """Whatever is refused (a bad amount, more than the wallet holds, the wrong person, a
    decision twice): no balance, no record, no pending request changes."""
    number = _ask(app, "alice", "alice", "1.00") if act != "ask" else 0
    before = (_balance(app, "alice"), _records(app),
              app.get("auditor", "/cage/cash-outs").json())
    if act == "ask":
        r = app.post(who, "/wallets/alice/cash-outs", {"amount": amount})
    elif act == "decline":
        r = app.post(who, _path("alice", number, act), {"reason": "no reason at all"})
    else:
        r = app.post(who, _path("alice", number, act))
    if r.status_code >= 400:  # a request done (a second person paid, say) is not judged
        after = (_balance(app, "alice"), _records(app),
                 app.get("auditor", "/cage/cash-outs").json())
        assert after == before, r.text
        if r.status_code == 409:
            assert r.json()["error"]["clause"] == CLAUSE
    if number and app.get("auditor", "/cage/cash-outs").json():
        app.ok("alice", _path("alice", number, "withdraw"))


@pytest.mark.clause(ADJUSTMENT_CLAUSE)
def test_a_wagers_commission_paid_when_made_counts_against_the_chips_held(
        tmp_path: Path) -> None:
    """A buy bet pays its commission from the hand when it is made: the stake and the
    commission together are what it puts down, so with 150.00 of 300.00 held, a buy of
    150.00 (7.50 commission) would leave 142.50 in hand and is refused; nothing moves. A buy
    of 140.00 (7.00) leaves 153.00 and is taken."""
    with demo_app(tmp_path) as fresh:
        fresh.ok("bob", "/tables/craps-1/buy-in", {"amount": "300"})
        fresh.ok("supervisor", "/tables/craps-1/adjustments",
                 {"player": "bob", "amount": "-150.00", "reason": "overpaid a place bet"})
        over = fresh.refused("bob", "/tables/craps-1/bets",
                             {"wager": "buy", "number": 4, "amount": "150"})
        assert over["clause"] == ADJUSTMENT_CLAUSE and "can be wagered" in over["reason"]
        assert _chips(fresh, "bob") == "300.00"
        fresh.ok("bob", "/tables/craps-1/bets", {"wager": "buy", "number": 4, "amount": "140"})
        assert _chips(fresh, "bob") == "153.00"


@pytest.mark.clause(CLAUSE)
def test_a_player_asks_a_bounded_number_of_cash_outs_a_day(tmp_path: Path) -> None:
    """Each cash-out asked is a record of the house's chain that the player's every buy-in and
    cash-out reads: asked and withdrawn in a loop they grew without end. The cage takes at most
    ``cage.ASKS_A_DAY`` in 24 hours for one player, whoever asks and whatever became of them;
    the next is 429 with ``Retry-After``, citing the cage's control, and records nothing."""
    with demo_app(tmp_path) as fresh:
        for _ in range(cage.ASKS_A_DAY):
            number = _ask(fresh, "bob", "bob", "1.00")
            fresh.ok("bob", _path("bob", number, "withdraw"))
        records = _records(fresh)
        for who in ("bob", "admin"):
            over = fresh.post(who, "/wallets/bob/cash-outs", {"amount": "1.00"})
            assert over.status_code == 429, over.text
            assert 0 < int(over.headers["Retry-After"]) <= cage.ASKS_SECONDS
            assert over.json()["error"]["clause"] == CLAUSE
        assert _records(fresh) == records
        assert _ask(fresh, "alice", "alice", "1.00")  # another player's are counted apart
