"""A number in a path or a query is plain decimal digits: ``1_0``, ``1.0``, `` 1`` or another
script's digits are refused naming their place, so one round (or pending request, or page) has
one spelling."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("numbers")) as made:
        yield made


@pytest.mark.parametrize(("who", "request_line", "place"), [
    ("alice", "GET /tables/craps-1/rounds/1.0", "path.round_no"),
    ("alice", "GET /tables/craps-1/rounds/1_0", "path.round_no"),
    ("alice", "GET /tables/craps-1/rounds/007", "path.round_no"),
    ("admin", "GET /tables/craps-1/events?since=-0", "query.since"),
    ("alice", "GET /tables/craps-1/rounds/%201", "path.round_no"),
    ("alice", "GET /tables/craps-1/rounds/%D9%A3", "path.round_no"),
    ("admin", "GET /tables/craps-1/events?since=1_0", "query.since"),
    ("admin", "GET /tables/craps-1/events?limit=+5", "query.limit"),
    ("admin", "GET /house/records?after=1e3", "query.after"),
    ("supervisor", "POST /tables/craps-1/adjustments/0x1/approve", "path.pending_id"),
    ("supervisor", "POST /paytables/changes/1.0/approve", "path.change_id"),
])
def test_a_number_spelt_otherwise_than_in_digits_is_refused(app: App, who: str,
                                                             request_line: str,
                                                             place: str) -> None:
    method, path = request_line.split(" ")
    r = app.client.request(method, path, headers=app.headers(who, "digits-key"))
    assert r.status_code == 422, r.text
    reason = r.json()["error"]["reason"]
    assert reason.startswith(place + ":") and "decimal digits" in reason, r.text


def test_digits_still_name_what_they_named(app: App) -> None:
    """The same requests spelt in digits are read as before (no round 10 yet: 404, not 422)."""
    assert app.client.get("/tables/craps-1/rounds/10",
                          headers=app.headers("admin", None)).status_code == 404
    r = app.client.get("/tables/craps-1/events?since=0&limit=5", headers=app.headers("admin", None))
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("since", ["12%0A", "1_0", "%2012", "%D9%A3"])
def test_a_streams_since_in_its_url_is_plain_digits_too(app: App, since: str) -> None:
    """The stream's ``since`` in the URL is read as the events' ``since`` is: a trailing
    newline (which a pattern's ``$`` lets through) is refused before the first message."""
    from starlette.websockets import WebSocketDisconnect

    with app.client.websocket_connect(f"/tables/craps-1/stream?since={since}") as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    assert closed.value.code == 4422
    assert closed.value.reason.startswith("query.since: "), closed.value.reason
