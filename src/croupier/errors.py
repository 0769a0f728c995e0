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
class Refusal(Exception):
    """An action the rules refuse: the reason in the regulation's terms, and the clause."""

    reason: str
    clause: str = ""

    def __str__(self) -> str:
        return f"{self.reason} ({self.clause})" if self.clause else self.reason
