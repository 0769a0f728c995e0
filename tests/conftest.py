"""Shared pytest configuration (append only: several engineers extend this file)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # ``@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1")``: the regulation clause a test checks.
    # ``croupier trace`` reads these markers by parsing the test files (it never runs them).
    config.addinivalue_line(
        "markers", "clause(text): the regulation clause(s) the test checks, read by croupier trace"
    )
