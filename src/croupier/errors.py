"""The two ways an input can fail: malformed (the input itself is wrong) or refused (the rules say no)."""

from __future__ import annotations

from dataclasses import dataclass


class Malformed(ValueError):
    """An input that is not well formed; ``where`` names the place, as ``actions[3].amount``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message

    def under(self, prefix: str) -> Malformed:
        """The same error, located under ``prefix`` (``options`` + ``vig`` -> ``options.vig``)."""
        if not self.where:
            return Malformed(prefix, self.message)
        sep = "" if self.where.startswith("[") else "."
        return Malformed(f"{prefix}{sep}{self.where}", self.message)


@dataclass(frozen=True)
class _RefusalFields(Exception):
    reason: str
    clause: str = ""


class Refusal(_RefusalFields):
    """An action the rules refuse: the reason in the regulation's terms, and the clause.

    Its fields are frozen; the exception's own bookkeeping (``__traceback__``, ``__context__``,
    ...) is not, because web frameworks clear a handled exception's traceback by assignment.

    >>> r = Refusal("no fire bet at automated craps", "N.J.A.C. 13:69F-1.2(a)")
    >>> r.__traceback__ = None
    >>> str(r)
    'no fire bet at automated craps (N.J.A.C. 13:69F-1.2(a))'
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name.startswith("__") and name.endswith("__"):
            object.__setattr__(self, name, value)
        else:
            super().__setattr__(name, value)

    def __str__(self) -> str:
        return f"{self.reason} ({self.clause})" if self.clause else self.reason


class Unsettleable(ArithmeticError):
    """A decided wager the table cannot settle exactly (its winnings are not a whole amount
    of money at the odds it holds): the decision stands, the settlement waits for a person.

    >>> str(Unsettleable("alice", "place_win:6", "12.00 at 10 to 7 is not an exact amount"))
    "alice's place_win:6: 12.00 at 10 to 7 is not an exact amount"
    """

    def __init__(self, player: str, wager: str, reason: str) -> None:
        super().__init__(f"{player}'s {wager}: {reason}")
        self.player = player
        self.wager = wager
        self.reason = reason
