"""Found by an attack on the live server (attack42; in process: the app over a demo ledger).

* A JSON body in UTF-16 or UTF-32 (which Python's parser takes from bytes, as the framework
  reads a body) passed the request guard's NUL and lone-surrogate checks, which look for the
  escape's bytes in UTF-8: a table option named by a lone surrogate failed with 500 (its
  refusal could not be written as UTF-8), and a NUL in any text (a log-in's name included)
  reached the database, which on PostgreSQL fails with 500."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack42")) as made:
        yield made


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
@pytest.mark.parametrize(("who", "path", "text"), [
    ("admin", "/tables", '{"id": "sur-1", "game": "craps", "profile": "nj-13-69f", '
     '"options": {"\\ud800": 1}}'),
    (None, "/auth/login", '{"username": "ad\\u0000min", "password": "x"}'),
    ("supervisor", "/coupons", '{"player": "al\\u0000ice", "face_value": "5"}'),
])
def test_a_body_not_in_utf8_is_refused_as_such(app: App, encoding: str, who: str | None,
                                               path: str, text: str) -> None:
    headers = app.headers(who, uuid.uuid4().hex) if who is not None else {}
    r = app.client.post(path, content=text.encode(encoding),
                        headers={**headers, "Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    # Without a byte order mark UTF-16's bytes may be UTF-8 too (NUL bytes), but not JSON.
    assert r.json()["error"]["reason"].startswith(("body: not UTF-8 text",
                                                   "body: not valid JSON")), r.text
    assert app.get("auditor", "/tables").status_code == 200

