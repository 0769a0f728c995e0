"""What the hash chain costs per event: the price of a tamper-evident ledger, against the write
it protects.

Three medians, each over repeated batches, on this machine (the load average is printed, as
the machine may be shared):

1. the chain alone: canonical form + SHA-256 of one stored event row (``audit.canonical``),
   next to the codec's encoding of the same event, which every write already paid;
2. a signed checkpoint (Ed25519 over every chain's head), and that cost spread over the
   :data:`~croupier.service.audit.chain.EVERY` events between two checkpoints;
3. whole actions written through the ledger in-process on SQLite (a $1 field bet, and a roll
   that settles it: the route's work without HTTP), with the chain as shipped and with the
   chain's two functions replaced by no-ops, so the ratio is the chain's share of a write.

    .venv/bin/python benchmarks/ledger.py                # about a minute
    .venv/bin/python benchmarks/ledger.py --actions 200 --repeat 3

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from croupier.events import Settled  # noqa: E402
from croupier.service import cashier, codec, install, ledger, outcomes, store, wagers  # noqa: E402
from croupier.service.audit import canonical, chain, keys  # noqa: E402
from croupier.service.auth import User  # noqa: E402
from croupier.service.plans import Job  # noqa: E402
from croupier.service.rng import SeededRng  # noqa: E402
from croupier.service.runner import Runner  # noqa: E402


def per_call(fn: Callable[[], object], n: int, repeat: int) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` batches of ``n`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - start) / n)
    return statistics.median(times)


def chain_alone(repeat: int) -> tuple[float, float]:
    event = Settled("alice", "field", Decimal(1), "win", Decimal(1), Decimal(0), Decimal(1),
                    odds="1 to 1", clause="N.J.A.C. 13:69F-1.4")
    row = {"table_id": "craps-1", "seq": 12345, "round": 4000, "kind": event.kind,
           "player": "alice", "payload": codec.encode(event), "actor": "dealer",
           "at": time.time()}
    head = "0" * 64
    hashing = per_call(lambda: canonical.link(head, canonical.event_text(row)), 20_000, repeat)
    encoding = per_call(lambda: codec.encode(event), 20_000, repeat)
    return hashing, encoding


def _ledger(folder: Path) -> tuple[Runner, dict[str, User]]:
    # A test ledger: its rolls come from a seeded generator, which the audit names on any other.
    install.init(folder, None, None, install.FirstUsers(demo=True, demo_password="bench-pass-1234"),
                 test_mode=True)
    engine = store.make_engine(f"sqlite:///{folder / 'croupier.db'}")
    led = Runner.over(engine)
    import sqlalchemy as sa

    with engine.connect() as conn:
        users = {r.username: User(r.id, r.username, r.role)
                 for r in conn.execute(sa.select(store.users))}
    return led, users


def actions_per_second(folder: Path, n: int, repeat: int) -> tuple[float, int]:
    """Median seconds per action (bets and rolls alternating) and events per action."""
    led, u = _ledger(folder)
    craps = led.tables.all["craps-1"]
    rng = SeededRng(1)

    def run(who: str, plan: wagers.PlanFn) -> None:
        reply = led.run(Job(u[who], craps, uuid.uuid4().hex, uuid.uuid4().hex, plan))
        assert reply.status in (200, 202), reply.body

    run("alice", cashier.buy_in(led.ledger, u["alice"], craps, Decimal(900)))
    run("dealer", craps.procedures.dice.offer([f"NJ-{i:04d}" for i in range(1, 6)]))
    run("dealer", craps.procedures.dice.select(u["dealer"], ["NJ-0001", "NJ-0002"], by_shooter=False))
    times = []
    seq0 = craps.seq
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n // 2):
            run("alice", wagers.bet(u["alice"], craps, {"wager": "field"}, Decimal(1), False))
            led.run_outcome(Job(u["dealer"], craps, uuid.uuid4().hex, uuid.uuid4().hex,
                                       outcomes.record(u["dealer"], craps, rng, None), "outcome",
                                       outcomes.settle(u["dealer"], craps)))
        times.append((time.perf_counter() - start) / (2 * (n // 2)))
    events = (craps.seq - seq0) // (repeat * 2 * (n // 2))
    led.ledger.db.dispose()
    return statistics.median(times), max(events, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400, help="actions per batch")
    parser.add_argument("--repeat", type=int, default=5, help="batches (the median is shown)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    hashing, encoding = chain_alone(args.repeat)
    print(f"chain per event (canonical form + SHA-256): {hashing * 1e6:8.2f} us median "
          f"(the codec's encoding of the same event: {encoding * 1e6:.2f} us)")
    signer = keys.Signer(keys.Ed25519PrivateKey.generate())
    sign = per_call(lambda: signer.sign("x" * 400), 2000, args.repeat)
    print(f"Ed25519 signature of a checkpoint: {sign * 1e6:8.2f} us median; spread over "
          f"{chain.EVERY} events: {sign / chain.EVERY * 1e6:.3f} us per event")
    with tempfile.TemporaryDirectory() as tmp:
        actions_per_second(Path(tmp) / "warm", 40, 1)  # the monitors' one-off calibration
        with_chain, events = actions_per_second(Path(tmp) / "a", args.actions, args.repeat)
        saved = ledger.link, ledger.event_text
        ledger.link = lambda previous, text: "0" * 64  # type: ignore[assignment]
        ledger.event_text = lambda row: ""  # type: ignore[assignment]
        try:
            without, _ = actions_per_second(Path(tmp) / "b", args.actions, args.repeat)
        finally:
            ledger.link, ledger.event_text = saved
    print(f"an action through the ledger (SQLite, in-process, ~{events} events each): "
          f"{with_chain * 1e6:.0f} us with the chain, {without * 1e6:.0f} us without "
          f"(ratio {with_chain / without:.3f})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
