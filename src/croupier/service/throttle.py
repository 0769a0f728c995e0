"""Log-in throttling that slows a guesser without locking the right person out.

Guesses are counted per *pair* (the account named, the client's address) and per account across
every address; nothing locks an account for everyone. The rules (:class:`Policy` holds the
numbers; docs/login.md gives the attacker model they answer):

* A pair with no failure in the last :attr:`Policy.forget` seconds is **clean**: its guess is
  always checked, whatever else is going on at the account. So the right person, from an
  address that has not failed at their account lately, logs in at once during any attack.
* A pair's first :attr:`Policy.pair_free` failures cost nothing; after that each failure makes
  the pair wait before its next guess, :attr:`Policy.pair_base` seconds doubling to at most
  :attr:`Policy.pair_max` (back-off). A guess made too early is refused unchecked.
* The account's failures from every address are counted; at :attr:`Policy.account_cap` of them
  the account is *guarded* for :attr:`Policy.guard_base` seconds, doubling with each guard to
  at most :attr:`Policy.guard_max`: meanwhile only clean pairs are checked. When the guard ends,
  the count starts again.
* A success clears its pair (not the account's count: the right person logging in does not
  hand an attacker a fresh set of guesses). An admin's unlock clears the account and its pairs.
* Unknown names are counted exactly as accounts are, so throttling tells no one which names
  exist.

Every guess is *reserved* (counted as a failure) before its password is checked and given back
if it was right, so guesses arriving together never get past a limit. The counts live in this
process's memory, bounded (:attr:`Policy.max_pairs`, :attr:`Policy.max_accounts`; the entries
failed longest ago go first).

>>> clock = [0.0]
>>> t = LoginThrottle(Policy(), now=lambda: clock[0])
>>> [t.reserve("admin", "10.0.0.9").allowed for _ in range(6)]
[True, True, True, True, True, False]
>>> t.reserve("admin", "10.0.0.9").retry_after
2.0
>>> t.reserve("admin", "10.0.0.7").allowed   # another address: clean, checked at once
True
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Policy:
    """The numbers of the throttle (the defaults are the server's)."""

    pair_free: int = 5
    """Failures from one address at one account before it has to wait."""
    pair_base: float = 2.0
    """The first wait (seconds) after the free failures; it doubles with each failure."""
    pair_max: float = 900.0
    """The longest wait between two guesses of one pair."""
    forget: float = 3600.0
    """A pair (or an account) with no failure for this long starts afresh: it is clean."""
    account_cap: int = 10
    """Failures at one account, from every address, before it is guarded."""
    guard_base: float = 60.0
    """The first guard (seconds); it doubles with each guard of the account."""
    guard_max: float = 3600.0
    """The longest guard."""
    max_pairs: int = 200_000
    max_accounts: int = 20_000

    @classmethod
    def from_text(cls, text: str, where: str = "CROUPIER_LOGIN_THROTTLE") -> Policy:
        """The defaults with some numbers set, as ``name=value,...`` (the server reads this from
        ``CROUPIER_LOGIN_THROTTLE``); ValueError naming a bad one.

        >>> Policy.from_text("pair_base=10, account_cap=20").pair_base
        10.0
        """
        values: dict[str, float | int] = {}
        names = {f.name: f.type for f in fields(cls)}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            name = name.strip()
            if name not in names:
                raise ValueError(f"{where}: unknown setting {name!r}; expected one of "
                                 f"{', '.join(names)}")
            try:
                number = int(value) if names[name] == "int" else float(value)
            except ValueError:
                raise ValueError(f"{where}: {name}={value.strip()!r} is not a number") from None
            if number <= 0:
                raise ValueError(f"{where}: {name} must be above 0")
            values[name] = number
        return cls(**values)  # type: ignore[arg-type]

    def pair_wait(self, failures: int) -> float:
        """How long a pair waits after its ``failures``-th failure.

        >>> [Policy().pair_wait(n) for n in (1, 4, 5, 6, 20)]
        [0.0, 0.0, 2.0, 4.0, 900.0]
        """
        if failures < self.pair_free:
            return 0.0
        return float(min(self.pair_base * 2 ** min(failures - self.pair_free, 30),
                         self.pair_max))

    def guard(self, guards: int) -> float:
        """How long the account's ``guards + 1``-th guard lasts.

        >>> [Policy().guard(n) for n in (0, 1, 5, 6, 40)]
        [60.0, 120.0, 1920.0, 3600.0, 3600.0]
        """
        return float(min(self.guard_base * 2 ** min(guards, 30), self.guard_max))


@dataclass
class _Pair:
    failures: int = 0
    last: float = 0.0


@dataclass
class _Account:
    failures: int = 0
    guards: int = 0
    guarded_until: float = 0.0
    last: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """Whether a guess may be checked; if not, why and for how long (seconds)."""

    allowed: bool
    clean: bool = False
    retry_after: float = 0.0
    reason: str = ""


@dataclass
class LoginThrottle:
    """The counts of :class:`Policy` for one process; every method is thread-safe."""

    policy: Policy = field(default_factory=Policy)
    now: Callable[[], float] = time.monotonic
    _pairs: OrderedDict[tuple[str, str], _Pair] = field(default_factory=OrderedDict)
    _accounts: OrderedDict[str, _Account] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def reserve(self, account: str, address: str) -> Verdict:
        """May ``address`` have a guess at ``account`` now? If so, the guess is counted as a
        failure until :meth:`succeeded` gives it back."""
        with self._lock:
            now = self.now()
            pair = self._pair(account, address, now)
            acct = self._account(account, now)
            clean = pair.failures == 0
            if not clean:
                wait = pair.last + self.policy.pair_wait(pair.failures) - now
                if wait > 0:
                    return Verdict(False, retry_after=_up(wait), reason=(
                        "too many failed log-ins at this account from this address"))
                if acct.guarded_until > now:
                    return Verdict(False, retry_after=_up(acct.guarded_until - now), reason=(
                        "too many failed log-ins at this account; from an address with no "
                        "recent failure the right password still logs in"))
            self._fail(account, address, pair, acct, now)
            return Verdict(True, clean=clean)

    def succeeded(self, account: str, address: str) -> None:
        """The reserved guess was right: its pair is clean again, its failure given back."""
        with self._lock:
            self._pairs.pop((account, address), None)
            acct = self._accounts.get(account)
            if acct is not None and acct.failures > 0:
                acct.failures -= 1

    def clear(self, account: str) -> None:
        """Forget every count of ``account`` (an admin's unlock)."""
        with self._lock:
            self._accounts.pop(account, None)
            for key in [k for k in self._pairs if k[0] == account]:
                del self._pairs[key]

    def state(self, account: str) -> tuple[int, float | None, int]:
        """The account's counted failures, how long it stays guarded (None: not guarded) and
        how many guards it has had."""
        with self._lock:
            now = self.now()
            acct = self._accounts.get(account)
            if acct is None or now - acct.last >= self.policy.forget:
                return 0, None, 0
            left = acct.guarded_until - now
            return acct.failures, (left if left > 0 else None), acct.guards

    # --- the counts ----------------------------------------------------------------------

    def _pair(self, account: str, address: str, now: float) -> _Pair:
        pair = self._pairs.get((account, address))
        if pair is None or now - pair.last >= self.policy.forget:
            return _Pair()
        return pair

    def _account(self, account: str, now: float) -> _Account:
        acct = self._accounts.get(account)
        if acct is None or now - acct.last >= self.policy.forget:
            return _Account()
        if acct.failures >= self.policy.account_cap and acct.guarded_until <= now:
            acct.failures = 0  # a guard is over: the count starts again
        return acct

    def _fail(self, account: str, address: str, pair: _Pair, acct: _Account,
              now: float) -> None:
        pair.failures += 1
        pair.last = now
        acct.failures += 1
        acct.last = now
        if acct.failures >= self.policy.account_cap and acct.guarded_until <= now:
            acct.guarded_until = now + self.policy.guard(acct.guards)
            acct.guards += 1
        _keep(self._pairs, (account, address), pair, self.policy.max_pairs)
        _keep(self._accounts, account, acct, self.policy.max_accounts)


def _keep(entries: OrderedDict[K, V], key: K, value: V, limit: int) -> None:
    """Store ``value`` as the most recent entry; past ``limit``, drop the oldest."""
    entries[key] = value
    entries.move_to_end(key)
    while len(entries) > limit:
        entries.popitem(last=False)


def _up(seconds: float) -> float:
    """Seconds rounded up to a tenth (what a Retry-After is told)."""
    return float(-(-round(seconds * 10, 6) // 1) / 10)
