"""A demo ledger's app served in this process (no server process, no port): the routes, the
guard and the express lane as ``croupier serve`` runs them, through Starlette's test client."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

PASSWORD = "inproc-test-pass-1"


def app_on(data: Path) -> Any:
    """The app over a new demo ledger in ``data`` (every demo user's password :data:`PASSWORD`)."""
    from croupier.service import install, preflight
    from croupier.service.app import create_app
    from croupier.service.audit import keys, verify
    from croupier.service.rng import make_rng

    install.init(data, None, None, install.FirstUsers(demo=True, demo_password=PASSWORD))
    engine = preflight.open_ledger(data, None)
    key_path = keys.key_path(data, None)
    verify.configure(keys.load_key(key_path), install.pin_path(key_path))
    return create_app(engine, make_rng(11, True))


class App:
    """A demo ledger's app and a small client: log-ins cached per user."""

    def __init__(self, data: Path) -> None:
        self.app = app_on(data)
        self.client = TestClient(self.app)
        self.tokens: dict[str, str] = {}

    def token(self, who: str) -> str:
        if who not in self.tokens:
            r = self.client.post("/auth/login", json={"username": who, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self.tokens[who] = r.json()["token"]
        return self.tokens[who]

    def headers(self, who: str, key: str | None = None) -> dict[str, str]:
        head = {"Authorization": f"Bearer {self.token(who)}"}
        if key is not None:
            head["Idempotency-Key"] = key
        return head

    def post(self, who: str, path: str, body: Any = None, key: str | None = "auto",
             ) -> httpx.Response:
        if key == "auto":
            key = uuid.uuid4().hex
        return self.client.post(path, json=body, headers=self.headers(who, key))

    def get(self, who: str, path: str) -> httpx.Response:
        return self.client.get(path, headers=self.headers(who))

    def ok(self, who: str, path: str, body: Any = None, key: str | None = "auto",
           ) -> dict[str, Any]:
        r = self.post(who, path, body, key)
        assert r.status_code in (200, 201, 202), f"{path}: {r.status_code} {r.text}"
        answer: dict[str, Any] = r.json()
        return answer

    def add_user(self, name: str, role: str) -> None:
        """An account made at the command line (``croupier users add``): a person of their
        own for the two-person rules, logging in with :data:`PASSWORD`."""
        from croupier.service import recovery

        recovery.add(self.app.state.services.engine, name, PASSWORD, role)

    def close(self) -> None:
        self.client.close()

