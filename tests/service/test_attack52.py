"""Attacks on a bet's new path (the table folds and answers it as it checks it) and on the
ledger's orjson texts, over a real ``croupier serve`` on SQLite and PostgreSQL.

Many players' bets on one table committed together, mixed with refused, malformed, over-limit
and repeated ones (the same Idempotency-Key with the same and another body), racing rolls,
spins, cash-outs, adjustments that hold chips, voids, late bets after "no more bets", mini-craps
seats and match play coupons, kept every chip, every retry byte-identical and the server's
memory equal to the ledger across a restart; the express lane answered every hostile body as
the route does. What broke is below.

Found: the end-of-night report counted a lost match play coupon's face value as the house's
win. A coupon wager's stake is the player's chips and the coupon's value, which the house puts
down (``coupon_in``: from the house to the player's hand, as the table folds it); a lost one
is ``taken`` whole, so ``GET /reports/tables/{id}`` added the coupon's value too, although the
house only got its own value back. Alice and bob bought 100.00 each, put 10.00 on the pass and
the don't pass with a 10.00 coupon each, and the dice decided them: the players were 10.00
down and the house up 10.00, but the report said 20.00 (every chip in the players' hands and
wallets plus the report's win came to 10.00 more than was deposited, and the same report's
reconciliation, which reads the house's result the table keeps, said 10.00). The report now counts a
coupon's value as the house's money moving, as it counts an adjustment: out with
``coupon_in``, back with ``coupon_out``.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from .conftest import Server

CLAUSE = "N.J.A.C. 13:69F-1.3(b)"


def _coupon(s: Server, player: str, wager: str) -> str:
    made = s.ok("supervisor", "/coupons", {"player": player, "face_value": "10.00",
                                           "wagers": [wager], "table": "craps-1"})
    serial: str = made["serial"]
    return serial


def _chips(s: Server) -> Decimal:
    players = s.get("auditor", "/tables/craps-1").json()["players"]
    return sum((Decimal(p["chips"]) + Decimal(p["on_table"]) for p in players.values()),
               Decimal(0))


@pytest.mark.clause(CLAUSE)
def test_a_lost_coupons_value_is_not_the_houses_win(server: Server) -> None:
    """(N.J.A.C. 13:69F-1.3(b)) Two coupon wagers the dice decide, one lost: the report's win
    is what the players' chips lost, every chip and the win adding up to what was deposited."""
    s = server
    for player in ("alice", "bob"):
        s.ok(player, "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    for player, wager in (("alice", "pass"), ("bob", "dont_pass")):
        made = s.ok(player, "/tables/craps-1/bets", {"wager": wager, "amount": "10",
                                                     "coupon": _coupon(s, player, wager)})
        assert made["you"] == {"chips": "90.00", "on_table": "20.00"}
    for _ in range(100):  # the line wagers stand until the dice decide them
        if not s.get("auditor", "/tables/craps-1").json()["layout"]:
            break
        s.ok("dealer", "/tables/craps-1/roll", {})
    else:
        pytest.fail("the dice decided neither line wager in 100 rolls")
    kinds = [(e["type"], e.get("result")) for e in s.events() if e["type"] == "coupon_out"]
    assert ("coupon_out", "lose") in kinds, kinds  # a coupon wager lost: the case in point
    lost = Decimal(200) - _chips(s)
    win = Decimal(s.get("auditor", "/reports/tables/craps-1").json()["tables"][0]["win"])
    assert win == lost, f"the report's win {win} is not what the players lost ({lost})"
    report = s.audit()
    wallets = sum((Decimal(s.get("admin", f"/wallets/{p}").json()["balance"])
                   for p in ("alice", "bob")), Decimal(0))
    assert report["ok"], report["findings"]
    assert wallets + _chips(s) + win == Decimal(report["deposits"])
    # The same page's reconciliation reads the house's result the table keeps: one figure.
    night = s.get("auditor", "/reports/event").json()
    assert night["cash"]["adds_up"] and Decimal(night["cash"]["house_win"]) == win
    assert Decimal(night["event"]["win"]) == win
