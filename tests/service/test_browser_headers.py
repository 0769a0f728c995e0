"""Headers that decide what a browser keeps of the API's answers and who may hold the page
(in process: the app over a demo ledger).

* An answer showing money or a person's records (a wallet and its entries, a table's chips, a
  round's recall, the night's report in HTML and CSV, the log-in's token) is never written to
  the browser's cache: without ``Cache-Control: no-store`` the browser kept a player's wallet
  after they logged out, readable on that machine by the next person at the terminal
  (tests/web/test_browser_cache.py shows it in Chromium). Errors and refusals likewise.
* The page's own files, which hold no one's data, keep their revalidated caching.
* Every answer says ``Cross-Origin-Opener-Policy: same-origin``: a page of another site that
  opened the table in a window keeps no hold on it (it could send the logged-in window
  elsewhere, to a look-alike log-in form)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .appkit import App, demo_app

PRIVATE = ["/wallets/alice", "/tables/craps-1", "/auth/me", "/tables", "/coupons",
           "/players/alice/rounds", "/tables/craps-1/rounds/1"]
STAFF_PRIVATE = ["/reports/event?format=html", "/reports/event?format=csv",
                 "/reports/tables/craps-1?format=html", "/users", "/tables/craps-1/events"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("browser-headers")) as made:
        made.ok("alice", "/tables/craps-1/buy-in", {"amount": "25"})
        yield made


def _kept_by_no_one(r: httpx.Response, what: str) -> None:
    assert r.headers.get("cache-control") == "no-store", (what, r.status_code, r.headers)


def test_answers_with_money_or_records_are_never_stored(app: App) -> None:
    for path in PRIVATE:
        r = app.get("alice", path)
        assert r.status_code == 200, (path, r.text)
        _kept_by_no_one(r, path)
    assert "balance" in app.get("alice", "/wallets/alice").json()
    for path in STAFF_PRIVATE:
        r = app.get("admin", path)
        assert r.status_code == 200, (path, r.text)
        _kept_by_no_one(r, path)


def test_the_log_in_token_bets_and_refusals_are_never_stored(app: App) -> None:
    from serverkit import PASSWORD

    login = app.post_login({"username": "bob", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["token"]
    _kept_by_no_one(login, "login")
    _kept_by_no_one(app.get("alice", "/wallets/bob"), "403")  # another player's wallet
    _kept_by_no_one(app.client.get("/wallets/alice"), "401")  # no token
    _kept_by_no_one(app.client.get("/no-such-page"), "404")
    placed = app.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
    assert placed.status_code == 200 and "you" in placed.json(), placed.text  # her chips
    _kept_by_no_one(placed, "bet")
    refused = app.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "99999"})
    assert refused.status_code in (409, 422), refused.text
    _kept_by_no_one(refused, "refusal")


def test_the_pages_own_files_keep_their_caching(app: App) -> None:
    """The page and its scripts hold nobody's data: revalidated (``no-cache``), as before;
    Swagger UI's files an hour."""
    for path in ("/", "/static/app.js", "/static/style.css"):
        assert app.client.get(path).headers["cache-control"] == "no-cache", path
    assert app.client.get("/docs/assets/swagger-ui.css").headers["cache-control"] == (
        "max-age=3600")


def test_no_other_site_keeps_a_hold_on_a_window_of_the_table(app: App) -> None:
    for r in (app.client.get("/"), app.client.get("/docs"), app.client.get("/static/app.js"),
              app.get("alice", "/wallets/alice"), app.client.get("/no-such-page")):
        assert r.headers.get("cross-origin-opener-policy") == "same-origin", r.url
