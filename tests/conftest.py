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


# --- the order files are handed to the xdist workers -----------------------------------------

# The slowest files of the suite (measured with --durations), started first. ``./dev test``
# hands pytest-xdist whole files in collection order (``--no-loadscope-reorder``): by default
# xdist sorts the files by their number of tests, which left the slow one- and two-test files
# (browsers, schemathesis, the roles matrix, the anchors' real processes) for the end, where one
# worker ran them while the other had nothing left to do. A file not named here keeps its place
# after these, in xdist's own order (most tests first). Only the order changes, never a test.
BROWSER = "tests/web/"
"""The files that drive Chromium through Playwright: always handed out after every other."""

SLOW_FIRST: tuple[str, ...] = (
    "tests/service/test_anchors.py",
    "tests/service/test_people.py",
    "tests/sim/test_sameness.py",
    "tests/service/test_api.py",
    "tests/service/test_stream_visibility.py",
    "tests/sim/test_session.py",
    "tests/test_benchmark_shape.py",
    "tests/service/test_races.py",
    "tests/service/test_one_reading.py",
    "tests/service/test_concurrency.py",
    "tests/service/test_login_attacks.py",
    "tests/service/test_procedures_records.py",
    "tests/service/test_ledger_users_cli.py",
    "tests/service/test_ledger_startup.py",
    "tests/service/test_crash.py",
    "tests/cluster/test_nodes.py",
    "tests/service/test_schemathesis.py",
    "tests/service/test_roles_matrix.py",
    "tests/sim/test_roulette_engine_agreement.py",
)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    counts: dict[str, int] = {}
    for item in items:
        counts[item.nodeid.split("::")[0]] = counts.get(item.nodeid.split("::")[0], 0) + 1
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}

    def key(item: pytest.Item) -> tuple[bool, int, int]:
        path = item.nodeid.split("::")[0]
        # The browser's files last, whatever their speed: the session's Playwright (started by
        # the first of them) leaves an event loop running in the worker's thread, and a test
        # after it that runs asyncio.run() in that worker would fail.
        return (path.startswith(BROWSER), rank.get(path, len(rank)),
                -counts[path] if path not in rank else 0)

    items.sort(key=key)  # stable: a file's tests stay together and in their order
