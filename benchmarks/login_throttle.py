"""How many passwords a guesser tries per account per hour, and whether the right person still
gets in, computed from the log-in throttle's policy (no clock is waited on).

The attack is simulated on the server's own :class:`~croupier.service.throttle.LoginThrottle`
driven by a virtual clock: ``N`` source addresses guess one account's password, each address
again the moment the last answer's ``Retry-After`` allows (a guesser who never wastes a turn;
a guess itself is taken to cost no time, which only favours the guesser). Every
``--staff-every`` simulated seconds a staff member logs in to the same account with the right
password from an address that has not failed there (a clean address), and the script counts
whether that log-in was let through at once.

For comparison the same attack runs on the lock-out the server had before (three wrong
passwords lock the account for everyone, 30 s doubling to an hour; 30 failures a minute refuse
an address), modelled here in a few lines, so both are measured in one run.

Printed per policy and number of addresses: guesses checked in the first hour and in the
second (the steady state), each as a ratio to the aim (at most 30 per hour from one address,
300 from a hundred), and the share of the staff member's log-ins let through at once.

    .venv/bin/python benchmarks/login_throttle.py
    .venv/bin/python benchmarks/login_throttle.py --addresses 1 100 1000 --hours 3

This is a measurement, not a test (tests/service/test_throttle.py runs :func:`attack` and
checks the aims).
"""

from __future__ import annotations

import argparse
import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from croupier.service.throttle import LoginThrottle, Policy

ACCOUNT = "admin"
AIMS = {1: 30, 100: 300}
"""Guesses per account per hour the throttle should allow at most, by number of addresses."""


class Throttle(Protocol):
    def reserve(self, account: str, address: str) -> tuple[bool, float]: ...
    def succeeded(self, account: str, address: str) -> None: ...


@dataclass
class Clock:
    t: float = 0.0

    def __call__(self) -> float:
        return self.t


class Current:
    """The server's throttle, as the simulation calls it."""

    def __init__(self, clock: Clock, policy: Policy | None = None) -> None:
        self.inner = LoginThrottle(policy or Policy(), now=clock)

    def reserve(self, account: str, address: str) -> tuple[bool, float]:
        verdict = self.inner.reserve(account, address)
        return verdict.allowed, verdict.retry_after

    def succeeded(self, account: str, address: str) -> None:
        self.inner.succeeded(account, address)


class Before:
    """The lock-out the server had before: three wrong passwords lock the account for
    everyone (30 s, doubling with each lock-out, at most an hour), and an address past 30
    failures in a minute is refused for every account."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.guesses = 0
        self.lockouts = 0
        self.locked_until = 0.0
        self.failures: dict[str, list[float]] = {}

    def reserve(self, account: str, address: str) -> tuple[bool, float]:
        now = self.clock()
        recent = [t for t in self.failures.get(address, []) if t > now - 60]
        self.failures[address] = recent
        if len(recent) >= 30:
            return False, recent[0] + 60 - now
        if self.locked_until > now:
            return False, self.locked_until - now
        if self.locked_until:
            self.locked_until, self.guesses = 0.0, 0
        self.guesses += 1
        recent.append(now)
        if self.guesses >= 3:
            self.locked_until = now + min(30 * 2 ** self.lockouts, 3600)
            self.lockouts += 1
        return True, 0.0

    def succeeded(self, account: str, address: str) -> None:
        self.failures[address].pop()
        self.guesses = 0
        self.lockouts = 0


@dataclass
class Result:
    per_hour: list[int]
    staff_tries: int
    staff_in: int


def attack(make: Callable[[Clock], Throttle], addresses: int, hours: int = 2,
           staff_every: float = 60.0) -> Result:
    """Guesses checked in each hour of an attack from ``addresses`` addresses on one account,
    and the staff member's log-ins (tried, let through at once), one every ``staff_every`` s."""
    clock = Clock()
    throttle = make(clock)
    end = hours * 3600.0
    queue: list[tuple[float, int, str]] = [(0.0, 1, f"10.1.{i // 250}.{i % 250}")
                                           for i in range(addresses)]
    queue += [(k * staff_every, 0, f"staff-{k}") for k in range(1, int(end / staff_every))]
    heapq.heapify(queue)
    per_hour = [0] * hours
    tries = let_in = 0
    while queue:
        at, guesser, address = heapq.heappop(queue)
        if at >= end:
            continue
        clock.t = at
        allowed, wait = throttle.reserve(ACCOUNT, address)
        if not guesser:
            tries += 1
            if allowed:
                let_in += 1
                throttle.succeeded(ACCOUNT, address)
            continue
        if allowed:
            per_hour[int(at // 3600)] += 1
        heapq.heappush(queue, (at if allowed else at + max(wait, 0.001), 1, address))
    return Result(per_hour, tries, let_in)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--addresses", type=int, nargs="+", default=[1, 100])
    parser.add_argument("--hours", type=int, default=2)
    parser.add_argument("--staff-every", type=float, default=60.0)
    args = parser.parse_args()
    print(f"{'policy':8} {'addresses':>9} {'hour 1':>7} {'ratio':>6} {'hour 2':>7} "
          f"{'ratio':>6} {'staff in at once':>17}")
    policies: list[tuple[str, Callable[[Clock], Throttle]]] = [
        ("before", Before), ("now", Current)]
    for name, make in policies:
        for n in args.addresses:
            r = attack(make, n, args.hours, args.staff_every)
            aim = AIMS.get(n, 3 * n)
            print(f"{name:8} {n:>9} {r.per_hour[0]:>7} {r.per_hour[0] / aim:>6.2f} "
                  f"{r.per_hour[-1]:>7} {r.per_hour[-1] / aim:>6.2f} "
                  f"{r.staff_in:>7}/{r.staff_tries:<5} ({r.staff_in / r.staff_tries:.0%})")
    print("ratio: guesses per hour / the aim (30 from one address, 300 from 100; else 3 per "
          "address); below 1 meets it")


if __name__ == "__main__":
    main()
