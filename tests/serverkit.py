"""What the server tests and the cluster tests share: free ports, an empty PostgreSQL schema,
the PostgreSQL URL the tests run on (skipped without one, failed without one in CI), the demo
password and the log-ins of a small HTTP client."""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import httpx
import pytest

T = TypeVar("T")

PG_ENV = "CROUPIER_TEST_POSTGRES_URL"
PASSWORD = "demo-pass-123"  # every demo user's, given to serve/init with --demo-password


class Logins:
    """Log-ins cached per user (at :meth:`login_base`) and the headers their requests carry."""

    tokens: dict[str, str]

    def login_base(self) -> str:
        """The base URL a log-in is sent to."""
        raise NotImplementedError

    def post_login(self, body: dict[str, str]) -> httpx.Response:
        """A log-in request (over HTTP to :meth:`login_base`)."""
        return httpx.post(self.login_base() + "/auth/login", json=body, timeout=10)

    def token(self, who: str) -> str:
        if who not in self.tokens:
            r = self.post_login({"username": who, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self.tokens[who] = r.json()["token"]
        return self.tokens[who]

    def headers(self, who: str, key: str | None = None) -> dict[str, str]:
        h = {"Authorization": f"Bearer {self.token(who)}"}
        if key is not None:
            h["Idempotency-Key"] = key
        return h


class Asks(Logins):
    """What a test asks of a server through :meth:`post` and :meth:`get` (over real HTTP, or
    in process): an answer asserted ordinary, the audit's report, dice ready at a table."""

    def post(self, who: str, path: str, body: Any = None, key: str | None = "auto",
             ) -> httpx.Response:
        raise NotImplementedError

    def get(self, who: str, path: str) -> httpx.Response:
        raise NotImplementedError

    def ok(self, who: str, path: str, body: Any = None, key: str | None = "auto",
           ) -> dict[str, Any]:
        r = self.post(who, path, body, key)
        assert r.status_code in (200, 201, 202), f"{path}: {r.status_code} {r.text}"
        result: dict[str, Any] = r.json()
        return result

    def audit(self) -> dict[str, Any]:
        """The auditor's ``GET /audit/verify`` report (asserting it was answered)."""
        r = self.get("auditor", "/audit/verify")
        assert r.status_code == 200, r.text
        report: dict[str, Any] = r.json()
        return report

    def events(self, table: str = "craps-1") -> list[dict[str, Any]]:
        """The auditor's list of a table's events (asserting it was answered)."""
        r = self.get("auditor", f"/tables/{table}/events")
        assert r.status_code == 200, r.text
        events: list[dict[str, Any]] = r.json()
        return events

    def rng_void(self, base: str, asker: str, approver: str) -> list[dict[str, Any]]:
        """At the table ``base`` (``/tables/ID``) with a physical wheel: an RNG spin, its void
        asked by ``asker`` and approved by ``approver``; the alerts the approval raised."""
        self.ok("dealer", base + "/no-more-bets")
        self.ok("dealer", base + "/spin", {})
        assert self.post(asker, base + "/void", {"reason": "the wheel jammed"}).status_code == 202
        approved = self.ok(approver, base + "/void/approve")
        return [e for e in approved["events"] if e["type"] == "integrity_alert"]

    def cage_cash_out(self, player: str, amount: str, payer: str = "admin",
                      ) -> dict[str, Any]:
        """A cash-out at the cage as two people make it: asked by ``player`` on their own
        wallet (202, pending) and paid by ``payer``; the payment's reply."""
        asked = self.post(player, f"/wallets/{player}/cash-outs", {"amount": amount})
        assert asked.status_code == 202, asked.text
        return self.ok(payer, f"/wallets/{player}/cash-outs/{asked.json()['cash_out']}/pay")

    def dice_in_play(self, table: str, player: str = "alice") -> None:
        """Five inspected dice (R-1 to R-5) registered to ``table``'s cup, ``player`` bought
        in for 50.00 there, the five offered and R-1 and R-2 selected."""
        from croupier.service.equipment import passing_record

        serials = [f"R-{i}" for i in range(1, 6)]
        for serial in serials:
            self.ok("admin", "/equipment/dice", {"serial": serial, "set_name": "r",
                                                 "table_id": table}, key=None)
            self.ok("admin", f"/equipment/dice/{serial}/inspections", passing_record(),
                    key=None)
        self.ok(player, f"/tables/{table}/buy-in", {"amount": "50"})
        self.ok("dealer", f"/tables/{table}/dice/offer", {"serials": serials})
        self.ok("dealer", f"/tables/{table}/dice/select", {"serials": serials[:2]})

    def ready_dice(self, table: str = "craps-1") -> None:
        """Offer five demo dice and have the dealer select two."""
        self.ok("dealer", f"/tables/{table}/dice/offer",
                {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]})
        self.ok("dealer", f"/tables/{table}/dice/select", {"serials": ["NJ-0001", "NJ-0002"]})


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


def fresh_schema(url: str) -> str:
    """A new empty schema of its own in the test database; a URL whose connections work in it.
    Each server gets one, so a server a module keeps running never shares its tables (or
    the checkpoints it signs) with a server a test starts beside it."""
    import uuid

    import sqlalchemy as sa

    schema = f"croupier_t_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    engine.dispose()
    return url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def own_schema(url: str, schema: str) -> Iterator[str]:
    """An empty schema ``schema`` in the test database for the block, dropped after it; yields
    a URL whose connections work in it (their ``search_path``)."""
    import sqlalchemy as sa

    admin = sa.create_engine(url)
    with admin.begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.dispose()


def postgres_url(why: str) -> str:
    """The test PostgreSQL's URL; the test is skipped without one (saying ``why`` it needs
    it), and fails in CI, which always sets it."""
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set in CI (.ci/services/postgres.sh sets it)")
        pytest.skip(f"{PG_ENV} is not set{why}")
    return url


def run_coroutine(coro: Any) -> Any:
    """``asyncio.run(coro)`` on a thread of its own: a test file run earlier in the same worker
    (the browser tests' Playwright) may have left an event loop running on this one."""
    import asyncio
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def run_apart(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end in an event loop of its own thread: a browser test earlier on
    the same worker leaves Playwright's loop running in this one, where ``asyncio.run`` fails."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def ended_by_the_database(conn: Any) -> None:
    """A stopped holder's transaction was ended by PostgreSQL, and its locks with it: what
    the holder hears when it wakes and sends its next statement."""
    import sqlalchemy as sa

    from croupier.service import store

    with pytest.raises(sa.exc.DBAPIError) as caught:
        conn.exec_driver_sql("SELECT 1")
    assert store.sqlstate(caught.value) == store.IDLE_ENDED


def room_for_connections(count: int) -> None:
    """Let this test process hold ``count`` sockets and 64 files more (raising its open-files
    limit as far as it may); the test is skipped, saying why, where it may not."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= count + 64:
        return
    if hard != resource.RLIM_INFINITY and hard < count + 64:
        pytest.skip(f"this process may open {hard} files; the test holds {count}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (count + 64, hard))
