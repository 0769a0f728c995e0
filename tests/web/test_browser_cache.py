"""What the browser keeps of a session after it ends, and who holds a window of the table, in
Chromium.

* A player logs out: nothing of their money is left in the browser's cache for the next person
  at the terminal. Before the API's answers said ``Cache-Control: no-store``, the wallet (its
  balance and every entry) and the table's state were still there, answered from the cache
  to the page after the log-out.
* A page of another site that opened the table in a window (``window.open``) has no hold on
  it once it loads (``Cross-Origin-Opener-Policy: same-origin``): it can neither read whether
  it is open nor send it elsewhere, to a look-alike log-in form say."""

from __future__ import annotations

from typing import Any

from .conftest import Server

CACHED = """async (path) => {
  try {
    const r = await fetch(path, { cache: "only-if-cached", mode: "same-origin" });
    return `${r.status} ${await r.text()}`;
  } catch (err) { return "not in the cache"; }
}"""


def test_nothing_of_a_players_money_stays_in_the_browser_after_log_out(login: Any) -> None:
    page = login("alice", "craps-1")
    page.wait_for_function(
        "document.getElementById('bankroll-wallet').textContent !== 'not loaded'")
    assert page.text_content("#bankroll-wallet") == "1000.00"  # the wallet was fetched
    page.click("#logout-btn")
    page.wait_for_selector("#login-form", state="visible")
    page.wait_for_function("sessionStorage.getItem('croupier.token') === null")
    for path in ("/wallets/alice", "/tables/craps-1", "/auth/me", "/tables"):
        assert page.evaluate(CACHED, path) == "not in the cache", path


def test_another_sites_window_has_no_hold_on_the_table(server: Server, browser: Any) -> None:
    context = browser.new_context()
    try:
        # Another site: a page of its own at an origin that is not the server's.
        context.route("http://elsewhere.test/**", lambda route: route.fulfill(
            status=200, content_type="text/html", body="<!doctype html><title>elsewhere</title>"))
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto("http://elsewhere.test/")
        with context.expect_page() as opened:
            page.evaluate("(url) => { window.table = window.open(url); }", f"{server.url}/")
        table = opened.value
        table.wait_for_selector("#login-form", state="visible")
        # The opener's handle on the window is severed: to it the window is closed.
        assert page.evaluate("() => window.table.closed") is True
        assert table.evaluate("() => window.opener") is None
    finally:
        context.close()
