"""What the server tests and the cluster tests share: free ports, an empty PostgreSQL schema,
and the PostgreSQL URL the tests run on (skipped without one, failed without one in CI)."""

from __future__ import annotations

import os
import socket

import pytest

PG_ENV = "CROUPIER_TEST_POSTGRES_URL"


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def reset_postgres(url: str) -> None:
    """An empty ``public`` schema in the test database."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    engine.dispose()


def postgres_url(why: str) -> str:
    """The test PostgreSQL's URL; the test is skipped without one (saying ``why`` it needs
    it), and fails in CI, which always sets it."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set in CI (.ci/services/postgres.sh sets it)")
        pytest.skip(f"{PG_ENV} is not set{why}")
    return url
