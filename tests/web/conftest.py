"""A real server on a free loopback port (seeded RNG, demo users) and Debian's Chromium."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
PASSWORD = "web-test-password"
SEED = 42
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"

if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
    if os.environ.get("CI"):
        # CI installs Chromium (.ci/services/chromium.sh): a missing browser there is a failure.
        raise RuntimeError(f"Chromium is not installed at {CHROMIUM} in CI")
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (.ci/services/chromium.sh installs it)",
                allow_module_level=True)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    tokens: dict[str, str]
    log: Path | None = None  # the server's standard output and error (the access log)

    def token(self, user: str) -> str:
        if user not in self.tokens:
            r = httpx.post(f"{self.url}/auth/login", json={"username": user, "password": PASSWORD})
            r.raise_for_status()
            self.tokens[user] = r.json()["token"]
        return self.tokens[user]

    def get(self, user: str, path: str) -> Any:
        r = httpx.get(f"{self.url}{path}", headers={"Authorization": f"Bearer {self.token(user)}"})
        r.raise_for_status()
        return r.json()

    def post(self, user: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token(user)}",
                   "Idempotency-Key": f"test-{time.monotonic_ns()}"}
        r = httpx.post(f"{self.url}{path}", json=body or {}, headers=headers)
        if r.is_error:  # the server's reason, not only the status
            raise AssertionError(f"POST {path} {body}: {r.status_code} {r.text}")
        return r.json()


@contextlib.contextmanager
def serving(data: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """``croupier serve`` on a free port with a fresh demo ledger in ``data`` (``env``: the
    server process's environment, None for this one's), stopped on leaving."""
    port = _free_port()
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--data-dir", str(data),
         "--insecure-test-rng-seed", str(SEED), "--test-mode", "--demo", "--demo-password", PASSWORD],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError("the server exited: " + (data / "server.log").read_text())
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start within 60 s")
            time.sleep(0.2)
        yield Server(url, {}, data / "server.log")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")  # a fresh ledger per file: no file leans on another's play
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("web-ledger")) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def login(server: Server, browser: Any) -> Iterator[Any]:
    """``login(user, table, width=1400)``: a page of its own, logged in at that table
    (``touch=True``: a phone's touch screen, tapped with ``locator.tap()``)."""
    contexts: list[Any] = []

    def open_page(user: str, table: str, width: int = 1400, height: int = 1000,
                  touch: bool = False) -> Any:
        # The tests' own probes (wait_for_function) evaluate strings, which the page's
        # Content-Security-Policy rightly forbids; test_csp.py checks the page under it.
        context = browser.new_context(viewport={"width": width, "height": height},
                                      bypass_csp=True, has_touch=touch)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{server.url}/#table={table}")
        page.fill("#login-user", user)
        page.fill("#login-pass", PASSWORD)
        page.click("#login-btn")
        page.wait_for_selector(f"#tables button[data-table='{table}'][aria-current='true']")
        page.wait_for_selector("#live.up")
        page.wait_for_selector("body[data-replayed]", state="attached")  # calls on/off known
        return page

    yield open_page
    for context in contexts:
        context.close()
