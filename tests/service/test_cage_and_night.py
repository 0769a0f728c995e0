"""The cage both ways and the night's money reconciled, in process on SQLite and
PostgreSQL: a cash-out at the cage, asked by the player and paid by an admin, pays once per
Idempotency-Key, never more than the wallet holds nor above the cage's limit; the end-of-night
report accounts for every cent."""

from __future__ import annotations

import uuid
from decimal import Decimal

from .appkit import App


def test_a_cage_cash_out_pays_once_within_the_wallet(app_ledger: App) -> None:
    s = app_ledger
    key = uuid.uuid4().hex
    asked = s.post("bob", "/wallets/bob/cash-outs", {"amount": "250.00"})
    assert asked.status_code == 202, asked.text  # asked: paid only by a second person
    pay = f"/wallets/bob/cash-outs/{asked.json()['cash_out']}/pay"
    first = s.post("admin", pay, key=key)
    again = s.post("admin", pay, key=key)
    assert first.status_code == again.status_code == 200, first.text
    assert first.json() == again.json() == {"player": "bob", "paid": "250.00",
                                            "balance": "750.00",
                                            "cash_out": asked.json()["cash_out"]}
    assert s.get("admin", "/wallets/bob").json()["balance"] == "750.00"
    # More than the wallet holds: refused, nothing moves.
    over = s.post("bob", "/wallets/bob/cash-outs", {"amount": "750.01"})
    assert over.status_code == 409 and "holds 750.00" in over.text
    assert over.json()["error"]["clause"] == "the house's cage controls (internal controls)"
    # Only the organiser pays out at the cage (never the player); a key is required.
    assert s.post("bob", pay).status_code == 403
    assert s.post("alice", "/wallets/bob/cash-outs", {"amount": "1"}).status_code == 403
    assert s.post("bob", "/wallets/bob/cash-outs", {"amount": "1"}, key=None).status_code == 428
    assert s.get("admin", "/wallets/bob").json()["balance"] == "750.00"
    # The audit's sum still closes: the cage's cash-out is money that left.
    report = s.get("auditor", "/audit/verify").json()
    assert report["ok"], report["problems"]
    _delete_only_once_nothing_is_held(s)


def _delete_only_once_nothing_is_held(s: App) -> None:
    """An account that holds money (in its wallet, or chips at a table) is not deleted: the
    refusal names what it holds; once it is all cashed out, it is. (On the ledger of the test above.)"""
    s.ok("bob", "/tables/roulette-1/buy-in", {"amount": "50"})
    refused = s.client.delete("/users/bob", headers=s.headers("admin"))
    assert refused.status_code == 409, refused.text
    reason = refused.json()["error"]["reason"]
    assert "bob holds 700.00 in the wallet" in reason, reason
    assert "50.00 in chips and 0.00 in wagers at table roulette-1" in reason, reason
    assert s.get("bob", "/auth/me").status_code == 200  # refused: nothing changed
    s.ok("bob", "/tables/roulette-1/cash-out", {})
    s.cage_cash_out("bob", "750.00")
    gone = s.client.delete("/users/bob", headers=s.headers("admin"))
    assert gone.status_code == 200, gone.text
    assert s.get("bob", "/auth/me").status_code == 401


def test_the_night_reconciles_to_the_cent(app_ledger: App) -> None:
    s = app_ledger
    s.ok("admin", "/wallets/alice/deposits", {"amount": "123.45"})
    s.cage_cash_out("bob", "99.99")
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "300"})
    s.ok("bob", "/tables/roulette-1/buy-in", {"amount": "40.50"})
    s.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "7"})
    s.ok("bob", "/tables/roulette-1/bets", {"wager": "red", "amount": "5"})
    s.ready_dice()
    s.ok("dealer", "/tables/craps-1/roll", {})
    s.ok("dealer", "/tables/roulette-1/no-more-bets")
    s.ok("dealer", "/tables/roulette-1/spin", {})
    s.ok("alice", "/tables/craps-1/cash-out", {"amount": "100"})
    night = s.get("admin", "/reports/event").json()
    cash = {k: Decimal(v) if k != "adds_up" else v for k, v in night["cash"].items()}
    # Worked out by hand: the demo's two wallets of 1000.00, a deposit, a cage cash-out.
    assert cash["deposits"] == Decimal("2123.45")
    assert cash["cage_cash_outs"] == Decimal("99.99")
    assert cash["net_in"] == Decimal("2023.46")
    assert cash["bought"] == Decimal("340.50") and cash["returned"] == Decimal("100.00")
    assert cash["wallets"] == Decimal("1000.00") + Decimal("123.45") - 300 + 100 + \
        Decimal("1000.00") - Decimal("99.99") - Decimal("40.50")
    seats = {t: s.get("auditor", f"/tables/{t}").json()["players"] for t in ("craps-1", "roulette-1")}
    chips = sum(Decimal(p["chips"]) + Decimal(p["on_table"]) for ps in seats.values()
                for p in ps.values())
    assert cash["chips_at_tables"] == chips
    assert cash["house_win"] == Decimal(night["event"]["win"])  # the house's ledger, the events
    assert cash["wallets"] + cash["chips_at_tables"] + cash["house_win"] == cash["net_in"]
    assert cash["difference"] == 0 and cash["adds_up"] is True
    page = s.get("admin", "/reports/event?format=html").text
    assert "Adds up: yes, to the cent." in page and "Made 20" in page
    assert "chips bought at the tables" in page  # the casino term's plain meaning
