"""A real ``croupier serve`` in a subprocess on a free loopback port, on SQLite or PostgreSQL
(``server``, ``sqlite_server``); for tests that need the routes but no process, the app in
process over a demo ledger of its own (``app_ledger``, ``sqlite_app``).

PostgreSQL cases run when CROUPIER_TEST_POSTGRES_URL is set (CI always sets it) and are
skipped otherwise; each server gets an empty schema.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from serverkit import PASSWORD as PASSWORD  # re-exported too
from serverkit import PG_ENV as PG_ENV  # re-exported for the tests that import it here
from serverkit import Asks, free_port, fresh_schema, postgres_url
from serverkit import reset_postgres as reset_postgres  # re-exported as well

if TYPE_CHECKING:  # loaded by its path too (tests/fixtures): no package to import from
    from .appkit import App

STAFF = ("admin", "dealer", "supervisor", "auditor")


class Server(Asks):
    """One server process; ``kill`` (SIGKILL) and ``start`` again on the same ledger."""

    def __init__(self, data_dir: Path, database: str | None, seed: int | None = 1) -> None:
        self.data_dir = data_dir
        self.database = database
        self.seed = seed
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.tokens: dict[str, str] = {}
        self.env: dict[str, str] | None = None  # the server's environment (None: this one's)

    def start(self) -> None:
        # --demo --test-mode: a demo test ledger is made on the first start only (croupier init
        # --demo --test-mode), which the seeded RNG may serve. ``seed`` None: the OS's RNG, for
        # a ledger made otherwise (an old release's, a production one).
        cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(self.port),
               "--data-dir", str(self.data_dir), "--test-mode", "--demo", "--demo-password",
               PASSWORD]
        if self.seed is not None:
            cmd += ["--insecure-test-rng-seed", str(self.seed)]
        if self.database:
            cmd += ["--database", self.database]
        log = open(self.data_dir / "server.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 120  # a loaded shared machine starts slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: " + (self.data_dir / "server.log").read_text())
            try:
                if httpx.get(self.base + "/health", timeout=1).status_code == 200:
                    self.tokens.clear()
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    # --- a small client --------------------------------------------------------------

    def login_base(self) -> str:
        return self.base

    def post(self, who: str, path: str, body: Any = None, key: str | None = "auto",
             ) -> httpx.Response:
        if key == "auto":
            key = uuid.uuid4().hex
        return httpx.post(self.base + path, json=body, headers=self.headers(who, key), timeout=30)

    def get(self, who: str, path: str) -> httpx.Response:
        return httpx.get(self.base + path, headers=self.headers(who), timeout=30)

    @contextlib.contextmanager
    def stream(self, table: str, who: str, since: int = 0) -> Iterator[Any]:
        """A WebSocket on the table's stream, logged in by its first message (the token is
        never in the URL); events after ``since`` are replayed first."""
        from websockets.sync.client import connect

        with connect(self.base.replace("http", "ws") + f"/tables/{table}/stream") as ws:
            ws.send(json.dumps({"token": self.token(who), "since": since}))
            yield ws


BACKENDS = ["sqlite", "postgresql"]


def make_server(backend: str, tmp_path: Path, seed: int = 1) -> Server:
    database = None
    if backend == "postgresql":
        database = fresh_schema(postgres_url(""))
    return Server(tmp_path, database, seed)


@contextlib.contextmanager
def running(srv: Server) -> Iterator[Server]:
    """``srv`` started for the block, stopped after it."""
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def limit_files(monkeypatch: pytest.MonkeyPatch, files: int, *args: str) -> None:
    """Server processes started from here on in the test may open ``files`` files at most
    (soft and hard limit, whatever this machine's) and take ``args`` after their command."""
    import resource

    real = subprocess.Popen

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    def popen(cmd: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        return real([*cmd, *args], preexec_fn=limited, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", popen)


@pytest.fixture(params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    with running(make_server(request.param, tmp_path)) as srv:
        yield srv


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    with running(make_server("sqlite", tmp_path)) as srv:
        yield srv


@pytest.fixture(params=BACKENDS)
def app_ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[App]:
    """The app in process over a fresh demo ledger on SQLite or PostgreSQL (an empty schema):
    for tests of what the routes answer and write, which need no server process."""
    from .appkit import demo_app

    database = fresh_schema(postgres_url("")) if request.param == "postgresql" else None
    with demo_app(tmp_path, database=database) as app:
        yield app


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[App]:
    """The app in process over a fresh demo ledger on SQLite."""
    from .appkit import demo_app

    with demo_app(tmp_path) as app:
        yield app
