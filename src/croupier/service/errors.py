"""The error the API answers with: a status and ``{"error": {"code", "reason", "clause"}}``.

It lives apart from the ledger so that the modules the ledger uses (limits) can raise it too.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error the API returns as ``{"error": {"code", "reason", "clause"}}``."""

    def __init__(self, status: int, code: str, reason: str, clause: str = "",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason
        self.clause = clause
        self.headers = headers or {}
        """Headers the answer carries too (a 429's ``Retry-After``)."""

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "reason": self.reason, "clause": self.clause}}
