"""Shared pytest configuration (append only: several engineers extend this file)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

PG_ENV = "CROUPIER_TEST_POSTGRES_URL"


def pytest_configure(config: pytest.Config) -> None:
    # ``@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1")``: the regulation clause a test checks.
    # ``croupier trace`` reads these markers by parsing the test files (it never runs them).
    config.addinivalue_line(
        "markers", "clause(text): the regulation clause(s) the test checks, read by croupier trace"
    )
    _own_postgres_database_per_worker()


def _own_postgres_database_per_worker() -> None:
    """Give each pytest-xdist worker its own PostgreSQL database.

    The service and cluster tests drop and recreate the schema of the database they are given;
    two workers sharing one would wipe each other's ledgers mid-test. Each worker therefore
    points the variable at ``<database>_<worker>``, created on first use (the test role has
    CREATEDB). Without xdist, or without PostgreSQL, nothing changes.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    url = os.environ.get(PG_ENV)
    if not worker or not url or not re.fullmatch(r"gw[0-9]+", worker):
        return
    base, _, rest = url.rpartition("/")
    name, mark, query = rest.partition("?")
    own = f"{name}_{worker}"
    import sqlalchemy as sa

    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            exists = conn.exec_driver_sql(
                "SELECT 1 FROM pg_database WHERE datname = %(name)s", {"name": own}
            ).first()
            if exists is None:
                conn.exec_driver_sql(f'CREATE DATABASE "{own}"')
    finally:
        engine.dispose()
    os.environ[PG_ENV] = f"{base}/{own}{mark}{query}"


@pytest.fixture(autouse=True)
def _audit_key_restored() -> Any:
    """Each test leaves the process's audit key (``verify.configure``) as it found it: a test
    that gives the process a ledger's key must not have the next test in the same worker sign
    and pin its ledger's checkpoints with it."""
    import sys

    def trust() -> Any:
        module = sys.modules.get("croupier.service.audit.verify")
        return None if module is None else module.TRUST

    before = trust()
    saved = None if before is None else dict(vars(before))
    yield
    after = trust()
    if after is not None:
        for name in ("signer", "pin_path", "checkpoint_every"):
            if saved is not None and name in saved:
                setattr(after, name, saved[name])
            else:
                after.__dict__.pop(name, None)  # back to the class's default


@pytest.fixture(autouse=True, scope="module")
def _audit_key_cleared_after_module() -> Any:
    """A module-scoped fixture may give the process a key for the whole module (it is set up
    before the per-test guard above looks): each module ends with the process holding none."""
    import sys

    yield
    module = sys.modules.get("croupier.service.audit.verify")
    if module is not None:
        for name in ("signer", "pin_path", "checkpoint_every"):
            module.TRUST.__dict__.pop(name, None)
