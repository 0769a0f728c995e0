"""The capacity model (docs/capacity.md): the CPU a roll costs and what a stream subscriber
costs, apart, so that a house can size its nodes for its tables and its watchers.

* **A roll**, in-process on SQLite (the route's work without HTTP): 12 players each make a $1
  field bet (one group commit, as the server batches them), then the dealer rolls, settling
  the 12 wagers in the roll's one transaction. Median CPU per roll and per bet of the batch.
* **A stream subscriber**, over real sockets: one SQLite server under the same paced load
  (``--rate`` bets/s, the dealer rolling every 0.25 s) twice, without and with ``--watchers``
  WebSocket watchers spread over its tables; the server's extra CPU divided by the events the
  watchers received is the cost of one event sent to one watcher.

    .venv/bin/python benchmarks/serve_costs.py                 # about two minutes

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

PLAYERS = 12  # a demo craps table seats 16


def roll_cost(rounds: int) -> tuple[float, float, int]:
    """Median CPU seconds per roll (settling PLAYERS field bets) and per bet of a batch, and
    the events a roll writes."""
    # Imported here, not at the top: the client processes of the other half re-import this
    # module, and must start within the seconds before their window opens.
    sys.path.insert(0, str(ROOT / "src"))
    from croupier.service import cashier, install, outcomes, store, wagers
    from croupier.service.auth import Auth, User
    from croupier.service.plans import Job
    from croupier.service.rng import SeededRng
    from croupier.service.runner import Runner

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # A test ledger: the audit names a seeded draw on any other.
        install.init(folder, None, None, install.FirstUsers(demo=True, demo_password="bench-pass-1234"),
                     test_mode=True)
        engine = store.make_engine(f"sqlite:///{folder / 'croupier.db'}")
        led = Runner.over(engine)
        auth = Auth(engine)
        with engine.begin() as conn:
            players = [auth.create_user(conn, f"p{i:02d}", "bench-pass-1234", "player")
                       for i in range(PLAYERS)]
        with engine.connect() as conn:
            row = conn.execute(store.users.select().where(
                store.users.c.username == "dealer")).one()
        dealer = User(row.id, row.username, row.role)
        craps, rng = led.tables.all["craps-1"], SeededRng(1)

        def run(who: Any, plan: Any) -> Any:
            reply = led.run(Job(who, craps, uuid.uuid4().hex, uuid.uuid4().hex, plan))
            assert reply.status in (200, 202), reply.body
            return reply

        for p in players:
            led.ledger.deposit(User(1, "admin", "admin"), None, "x", p.username, Decimal(100))
            run(p, cashier.buy_in(led.ledger, p, craps, Decimal(100)))
        run(dealer, craps.procedures.dice.offer([f"NJ-{i:04d}" for i in range(1, 6)]))
        run(dealer, craps.procedures.dice.select(dealer, ["NJ-0001", "NJ-0002"], by_shooter=False))
        rolls, bets, events = [], [], []
        for _ in range(rounds):
            jobs = [Job(p, craps, uuid.uuid4().hex, uuid.uuid4().hex, wagers.bet(
                p, craps, {"wager": "field"}, Decimal(1), False)) for p in players]
            start = time.process_time()
            led.run_batch(jobs)
            bets.append((time.process_time() - start) / PLAYERS)
            start = time.process_time()
            reply = led.run_outcome(Job(
                dealer, craps, uuid.uuid4().hex, uuid.uuid4().hex,
                outcomes.record(dealer, craps, rng, None), "outcome",
                outcomes.settle(dealer, craps)))
            rolls.append(time.process_time() - start)
            events.append(len(reply.body["events"]))
        engine.dispose()
    return statistics.median(rolls), statistics.median(bets), int(statistics.median(events))


def subscriber_cost(rate: float, watchers: int, seconds: float, players: int) -> dict[str, Any]:
    """The server's CPU per event sent to one watcher (see the module's docstring)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import serve

    quiet = serve.measure(None, serve.Load(players, seconds, 1, rate))
    watched = serve.measure(None, serve.Load(players, seconds, 1, rate, watchers=watchers))
    delivered = watched["delivered"]
    extra = (watched["server_cpu"] - quiet["server_cpu"]) * seconds
    return {"quiet_cpu": quiet["server_cpu"], "watched_cpu": watched["server_cpu"],
            "delivered": delivered, "watchers": watchers,
            "us_per_event_per_watcher": round(1e6 * extra / delivered, 1) if delivered else None,
            "load": watched["load_before"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--players", type=int, default=20)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    result = subscriber_cost(args.rate, args.watchers, args.seconds, args.players)
    print(json.dumps(result))
    print(f"a stream subscriber: {result['us_per_event_per_watcher']} us of server CPU per "
          f"event sent to one watcher ({result['delivered']} events to {args.watchers} "
          f"watchers; server CPU {result['quiet_cpu']} -> {result['watched_cpu']} cores)")
    roll, bet, events = roll_cost(args.rounds)
    print(f"a roll settling {PLAYERS} field bets ({events} events): {roll * 1e3:.2f} ms CPU; "
          f"a bet in a batch of {PLAYERS}: {bet * 1e3:.3f} ms CPU (in-process, no HTTP)",
          flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
