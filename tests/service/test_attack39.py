"""Found by an attack on the live server (attack39; in process: the app over a demo ledger).

* A late bet offered while bob's chips were free was placed, at its second confirmation, over
  chips a pending adjustment asked meanwhile held: bob put them on the layout, lost them, and
  the adjustment taking them back could no longer be approved (a held chip dodged it).
* On PostgreSQL a request kept under its Idempotency-Key by a transaction of its own (a
  cash-out asked or paid at the cage, a coupon) sent twice at once to two nodes (no lock in
  common) was done by both: the second read no reply, acted, and failed on the key's row (a
  500 to a cash-out asked again) or was refused what the first had just done (409 "already
  paid" to the retry of a payment made).
* A pending adjustment taking chips back from a player was declined by a supervisor who is
  one person with the player (accounts of one admin's line): the house's overpayment stayed
  in the player's hand by the player's own hand, and the chips it held were free to cash out
  (approving it so was refused, declining it was not)."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from croupier.service import cage, store
from croupier.service.ledger import Ledger
from croupier.service.plans import Reply
from serverkit import PASSWORD, fresh_schema, postgres_url

from .appkit import App, demo_app
from .ledgerkit import Kit

ADJUSTMENT_CLAUSE = "N.J.A.C. 13:69F-1.1"  # craps-1 (nj-13-69f): the boxperson answers disputes


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack39")) as made:
        yield made


def _chips(app: App, table: str = "craps-1") -> dict[str, Any]:
    return dict(app.get("auditor", f"/tables/{table}").json()["players"])


@pytest.mark.clause(ADJUSTMENT_CLAUSE)
def test_a_late_bet_confirmed_does_not_put_down_held_chips(app: App) -> None:
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "150"})
    app.ready_dice()
    app.ok("dealer", "/tables/craps-1/no-more-bets")
    late = app.post("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "150"})
    assert late.status_code == 202, late.text
    path = f"/tables/craps-1/late-bets/{late.json()['late_bet']}/confirm"
    asked = app.ok("supervisor", "/tables/craps-1/adjustments",
                   {"player": "bob", "amount": "-150.00", "reason": "overpaid a place bet"})
    number = asked["pending_adjustment"]
    app.ok("dealer", path)
    events = len(app.events())
    held = app.refused("floor", path)
    assert held["clause"] == ADJUSTMENT_CLAUSE and "held" in held["reason"], held
    assert _chips(app)["bob"] == {"chips": "150.00", "on_table": "0.00"}
    assert len(app.events()) == events
    app.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})  # the late bet lapses
    app.ok("floor", f"/tables/craps-1/adjustments/{number}/approve")
    assert _chips(app)["bob"]["chips"] == "0.00"
    report = app.audit()
    assert report["ok"], report["findings"]


def _paused(monkeypatch: pytest.MonkeyPatch, name: str, thread: str, inside: threading.Event,
            go: threading.Event) -> None:
    """``cage.<name>`` waits for ``go`` in thread ``thread`` (once ``inside`` is set): that
    request holds its transaction open, acting, while the other is sent."""
    real = getattr(cage, name)

    def wait(*args: Any) -> Any:
        if threading.current_thread().name == thread:
            inside.set()
            go.wait(10)
        return real(*args)

    monkeypatch.setattr(cage, name, wait)


def _both(first: Callable[[], Reply], second: Callable[[], Reply], inside: threading.Event,
          go: threading.Event) -> list[Reply | BaseException]:
    """``first`` (on thread "first", paused while acting) and ``second`` sent meanwhile."""
    out: list[Reply | BaseException] = [RuntimeError("not run")] * 2

    def run(i: int, call: Callable[[], Reply]) -> None:
        try:
            out[i] = call()
        except BaseException as exc:  # what a route would answer with a 500
            out[i] = exc

    one = threading.Thread(target=run, args=(0, first), name="first")
    one.start()
    assert inside.wait(10)
    two = threading.Thread(target=run, args=(1, second), name="second")
    two.start()
    two.join(1.0)  # it waits (fixed) or reaches the key's row (the bug) meanwhile
    go.set()
    one.join(10)
    two.join(10)
    return out


def test_one_key_sent_to_two_nodes_at_once_is_one_request(
        monkeypatch: pytest.MonkeyPatch) -> None:
    url = fresh_schema(postgres_url(": two nodes on one ledger"))
    kit = Kit(Path(tempfile.mkdtemp(prefix="attack39-")), url)
    other = Ledger(store.make_engine(url))  # a second node's ledger: no lock in common
    bob, teller = kit.users["bob"], kit.users["admin"]
    asked = cage.Call(bob, "ask-once", "POST /wallets/bob/cash-outs 10")
    inside, go = threading.Event(), threading.Event()
    _paused(monkeypatch, "held", "first", inside, go)
    out = _both(lambda: cage.ask(kit.ledger, asked, "bob", Decimal("10")),
                lambda: cage.ask(other, asked, "bob", Decimal("10")), inside, go)
    assert isinstance(out[0], Reply) and out[0].status == 202, out
    assert isinstance(out[1], Reply) and out[1].body == out[0].body, out[1]
    number = out[0].body["cash_out"]
    paid = cage.Call(teller, "pay-once", f"POST pay {number}")
    inside.clear()
    go.clear()
    _paused(monkeypatch, "_pending", "first", inside, go)
    out = _both(lambda: cage.pay(kit.ledger, paid, "bob", number),
                lambda: cage.pay(other, paid, "bob", number), inside, go)
    assert isinstance(out[0], Reply) and out[0].status == 200, out
    assert isinstance(out[1], Reply) and out[1].body == out[0].body, out[1]
    with kit.engine.connect() as conn:
        assert [c["status"] for c in cage.listing(conn, "bob")] == ["paid"]
        assert kit.ledger.wallet_balance(conn, "bob") == 1000_00 - 10_00


@pytest.mark.clause(ADJUSTMENT_CLAUSE)
def test_a_pending_adjustment_is_not_declined_by_the_players_own_hand(app: App) -> None:
    """line-sup and line-player were made by admin (one line): line-sup declining what the
    independent supervisor asked of line-player is refused, nothing changes; floor declines."""
    for name, role in (("line-sup", "supervisor"), ("line-player", "player")):
        app.ok("admin", "/users", {"username": name, "password": PASSWORD, "role": role},
               key=None)
    app.ok("admin", "/wallets/line-player/deposits", {"amount": "200"})
    app.ok("line-player", "/tables/craps-1/buy-in", {"amount": "200"})
    base = "/tables/craps-1/adjustments"
    asked = app.ok("supervisor", base, {"player": "line-player", "amount": "-150.00",
                                        "reason": "overpaid a place bet"})
    number = asked["pending_adjustment"]
    before, events = _chips(app), len(app.events())
    own = app.refused("line-sup", f"{base}/{number}/decline", {"reason": "looks right to me"})
    assert own["clause"] == ADJUSTMENT_CLAUSE and "one person" in own["reason"], own
    assert _chips(app) == before and len(app.events()) == events
    assert app.refused("line-player", "/tables/craps-1/cash-out", {})["clause"] == \
        ADJUSTMENT_CLAUSE  # still held
    app.ok("floor", f"{base}/{number}/decline", {"reason": "the video shows it was right"})
    app.ok("line-player", "/tables/craps-1/cash-out", {})
    report = app.audit()
    assert report["ok"], report["findings"]
