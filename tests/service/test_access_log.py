"""The access log and request id, on a small app behind the server's own guard and access log:
one line per request (time, id, method, path without query secrets, status, duration), the id
in ``X-Request-ID`` on every answer and in every JSON error body, a 500 included."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from croupier.service.api import access, errors, guard
from croupier.service.errors import ApiError

LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) ([A-Za-z0-9._-]+) (\S+) (\S+) "
                  r"(\d{3}) (\d+\.\d)ms$")


def _app() -> FastAPI:
    app = FastAPI()
    errors.install(app)
    guard.install(app)
    access.install(app)

    @app.get("/ok")
    def ok() -> dict[str, str]:
        return {"ok": "yes"}

    @app.get("/refused")
    def refused() -> None:
        raise ApiError(409, "refused", "no more bets", "N.J.A.C. 13:47-20.32(c)")

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    @app.post("/echo")
    def echo(body: dict[str, int]) -> dict[str, int]:
        return body

    return app


@pytest.fixture
def client() -> TestClient:
    return TestClient(_app(), raise_server_exceptions=False)


def _lines(caplog: pytest.LogCaptureFixture) -> list[re.Match[str]]:
    found = [LINE.match(r.getMessage()) for r in caplog.records if r.name == "croupier.access"]
    assert all(found), [r.getMessage() for r in caplog.records]
    return [m for m in found if m is not None]


def test_one_line_per_request_with_the_id_the_answer_carries(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "croupier.access")
    first = client.get("/ok")
    second = client.get("/ok")
    assert first.status_code == 200 and first.json() == {"ok": "yes"}
    ids = [first.headers["x-request-id"], second.headers["x-request-id"]]
    assert ids[0] != ids[1] and all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)
    lines = _lines(caplog)
    assert [(m[2], m[3], m[4], m[5]) for m in lines] == [
        (ids[0], "GET", "/ok", "200"), (ids[1], "GET", "/ok", "200")]
    assert first.headers["x-frame-options"] == "DENY"  # the guard's headers stay


def test_every_error_body_carries_the_id(client: TestClient,
                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "croupier.access")
    answers = [client.get("/refused"), client.get("/nowhere"), client.post("/echo", json=[1]),
               client.post("/echo", content=b"x" * (guard.MAX_BODY + 1)), client.get("/boom")]
    assert [a.status_code for a in answers] == [409, 404, 422, 413, 500]
    for answer in answers:
        rid = answer.headers["x-request-id"]
        assert answer.json()["error"]["request_id"] == rid
        assert int(answer.headers["content-length"]) == len(answer.content)
    assert answers[0].json()["error"]["clause"] == "N.J.A.C. 13:47-20.32(c)"
    assert answers[4].json()["error"]["reason"] == ("internal error; nothing was changed by "
                                                    "this request")
    assert "a bug" not in answers[4].text  # never the exception itself
    logged = {m[2]: m[5] for m in _lines(caplog)}
    assert logged == {a.headers["x-request-id"]: str(a.status_code) for a in answers}


def test_query_secrets_stay_out_of_the_log(client: TestClient,
                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "croupier.access")
    client.get("/ok?token=abc123&limit=5&Password=hunter2&api_key=k9")
    (line,) = _lines(caplog)
    assert line[4] == "/ok?token=***&limit=5&Password=***&api_key=***"
    text = caplog.text
    assert "abc123" not in text and "hunter2" not in text and "k9" not in text


def test_a_clients_own_request_id_is_kept_when_it_is_a_plain_token(client: TestClient) -> None:
    kept = client.get("/nowhere", headers={"X-Request-ID": "trace-0001-abcd"})
    assert kept.headers["x-request-id"] == "trace-0001-abcd"
    assert kept.json()["error"]["request_id"] == "trace-0001-abcd"
    for bad in ("short", "has space in it", "x" * 65, "evil\u00e9id-123"):
        answer = client.get("/ok", headers={"X-Request-ID": bad.encode("utf-8")})
        assert re.fullmatch(r"[0-9a-f]{16}", answer.headers["x-request-id"]), bad


def test_an_error_half_written_when_the_app_fails_becomes_a_500_with_the_id() -> None:
    async def failing(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 409,
                    "headers": [(b"content-type", b"application/json")]})
        raise RuntimeError("after the start of an error answer, before its body")

    answer = TestClient(access.AccessLog(failing), raise_server_exceptions=False).get("/x")
    assert answer.status_code == 500
    assert answer.json()["error"]["request_id"] == answer.headers["x-request-id"]
    assert answer.json()["error"]["code"] == "internal"
