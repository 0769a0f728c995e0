"""The log-in throttle's policy, on a virtual clock: the guesses per account per hour it allows
an attacker on 1 and on 100 source addresses (computed by benchmarks/login_throttle.py's
simulation, not timed), and its invariants under any order of guesses (hypothesis)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.service.throttle import LoginThrottle, Policy

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "login_throttle.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("login_throttle_bench", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_guesses_per_hour_meet_the_aims_and_staff_always_get_in() -> None:
    bench = _bench()
    for addresses, aim in ((1, 30), (100, 300)):
        result = bench.attack(bench.Current, addresses, hours=3)
        assert max(result.per_hour) <= aim, (addresses, result.per_hour)
        # Each address has at least its clean guess each hour: the attack really ran.
        assert min(result.per_hour) >= addresses
        assert result.staff_tries > 100 and result.staff_in == result.staff_tries
    # The lock-out it replaced let the staff member in at no moment of the same attack.
    before = bench.attack(bench.Before, 1, hours=1)
    assert before.staff_in == 0


def test_one_address_is_slowed_by_back_off() -> None:
    clock = [0.0]
    policy = Policy()
    t = LoginThrottle(policy, now=lambda: clock[0])
    allowed = [t.reserve("dealer", "a").allowed for _ in range(policy.pair_free + 1)]
    assert allowed == [True] * policy.pair_free + [False]
    waits = []
    for _ in range(4):  # each further failure doubles the wait: 2, 4, 8, 16 s
        verdict = t.reserve("dealer", "a")
        waits.append(verdict.retry_after)
        clock[0] += verdict.retry_after
        assert t.reserve("dealer", "a").allowed
    assert waits == [2.0, 4.0, 8.0, 16.0]
    # The right person at another address, and another account at this one, are let in.
    assert t.reserve("dealer", "b").allowed and t.reserve("admin", "a").allowed


def test_the_account_cap_spares_clean_addresses_and_an_unlock_clears() -> None:
    clock = [0.0]
    policy = Policy()
    t = LoginThrottle(policy, now=lambda: clock[0])
    for i in range(policy.account_cap):
        assert t.reserve("admin", f"10.0.0.{i}").allowed
    refused = t.reserve("admin", "10.0.0.1")  # failed here before: the account is guarded
    assert not refused.allowed and refused.retry_after == policy.guard(0)
    assert "right password still logs in" in refused.reason
    assert t.reserve("admin", "10.0.9.9").allowed  # clean: checked at once
    failures, guarded_for, guards = t.state("admin")
    assert failures == policy.account_cap + 1 and guarded_for == policy.guard(0) and guards == 1
    t.clear("admin")
    assert t.state("admin") == (0, None, 0) and t.reserve("admin", "10.0.0.1").allowed


def test_a_success_cleans_its_pair_but_leaves_the_account_count() -> None:
    t = LoginThrottle(Policy(), now=lambda: 0.0)
    for _ in range(3):
        t.reserve("alice", "a")
    t.reserve("alice", "a")
    t.succeeded("alice", "a")
    assert t.state("alice")[0] == 3  # the right guess given back, the three wrong kept


guesses = st.lists(st.tuples(st.sampled_from(["admin", "dealer", "nobody"]),
                             st.integers(0, 5), st.floats(0, 400)), max_size=120)


@settings(max_examples=150, deadline=None)
@given(guesses)
def test_clean_pairs_are_always_checked_and_back_off_holds(seq: list[tuple[str, int, float]],
                                                            ) -> None:
    policy = Policy(pair_free=2, pair_base=5.0, pair_max=60.0, forget=300.0, account_cap=4,
                    guard_base=30.0, guard_max=120.0)
    clock = [0.0]
    t = LoginThrottle(policy, now=lambda: clock[0])
    history: dict[tuple[str, str], list[float]] = {}
    for account, n, step in seq:
        clock[0] += step
        address = f"a{n}"
        past = [x for x in history.get((account, address), []) if clock[0] - x < policy.forget]
        fresh = all(clock[0] - x >= policy.forget for x in history.get((account, address), []))
        verdict = t.reserve(account, address)
        if fresh:  # no failure in the last `forget` seconds: always checked
            assert verdict.allowed
        if verdict.allowed and past and len(past) >= policy.pair_free:
            # Back-off: never sooner after the last failure than the wait it earned.
            assert clock[0] - past[-1] >= policy.pair_wait(len(past)) - 1e-9
        if verdict.allowed:
            history.setdefault((account, address), []).append(clock[0])
        else:
            assert verdict.retry_after > 0
