"""The server in process: a demo ledger (``croupier init --demo``) in a folder and the app over
it, driven through FastAPI's test client with the same small client the subprocess tests use
(``ok``, ``post``, ``get``, ``ready_dice``), for tests that need the routes but not a real
server process (no port, no start-up wait)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from serverkit import PASSWORD, Asks, own_schema, postgres_url


class App(Asks):
    """One app over a demo ledger, and its users' tokens."""

    def __init__(self, client: TestClient, data_dir: Path, database: str | None) -> None:
        self.client = client
        self.tokens: dict[str, str] = {}
        self.data_dir = data_dir
        self.database = database
        """Where the ledger is: its PostgreSQL URL, else ``croupier.db`` in ``data_dir``."""

    def post_login(self, body: dict[str, str]) -> httpx.Response:
        return self.client.post("/auth/login", json=body)

    def post(self, who: str, path: str, body: Any = None, key: str | None = "auto",
             ) -> httpx.Response:
        if key == "auto":
            key = uuid.uuid4().hex
        return self.client.post(path, json=body, headers=self.headers(who, key))

    def get(self, who: str, path: str) -> httpx.Response:
        return self.client.get(path, headers=self.headers(who))

    def refused(self, who: str, path: str, body: Any = None) -> dict[str, Any]:
        """The error of a request the rules refuse (409), asserted so."""
        r = self.post(who, path, body)
        assert r.status_code == 409, f"{path}: {r.status_code} {r.text}"
        error: dict[str, Any] = r.json()["error"]
        assert error["code"] == "refused", error
        return error

    def add_user(self, name: str, role: str) -> None:
        """An account made at the command line (``croupier users add``): a person of their
        own for the two-person rules, logging in with :data:`PASSWORD`."""
        from croupier.service import recovery

        app: Any = self.client.app
        recovery.add(app.state.services.engine, name, PASSWORD, role)


@contextmanager
def demo_app(data: Path, seed: int = 1, database: str | None = None) -> Iterator[App]:
    """The app over a fresh demo test ledger in ``data`` (or in ``database``, a PostgreSQL
    URL, with its key in ``data``), its RNG seeded (tests only)."""
    from croupier.service import install, preflight
    from croupier.service.app import create_app
    from croupier.service.audit import keys, verify
    from croupier.service.rng import make_rng

    # A test ledger (croupier init --test-mode): the app refuses a seeded RNG on any other.
    install.init(data, database, None, install.FirstUsers(demo=True, demo_password=PASSWORD),
                 test_mode=True)
    engine = preflight.open_ledger(data, database)
    key_path = keys.key_path(data, None)
    verify.configure(keys.load_key(key_path), install.pin_path(key_path))
    try:
        with TestClient(create_app(engine, make_rng(seed, True))) as client:
            yield App(client, data, database)
    finally:
        engine.dispose()


@contextmanager
def backend_app(backend: str, data: Path, why: str, seed: int = 1) -> Iterator[App]:
    """:func:`demo_app` on ``backend``: ``sqlite``, or ``postgresql`` in a schema of its own,
    dropped afterwards (``why``: what a run without PostgreSQL skips, in its words)."""
    with ExitStack() as stack:
        database = None
        if backend == "postgresql":
            database = stack.enter_context(own_schema(
                postgres_url(why), f"croupier_app_{uuid.uuid4().hex[:8]}"))
        yield stack.enter_context(demo_app(data, seed=seed, database=database))
