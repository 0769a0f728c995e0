"""The browser table under its own Content-Security-Policy: logged in,
at a table, its event stream connected (the token sent in the stream's first message, not the
URL), and not one CSP violation reported by the browser."""

from __future__ import annotations

from typing import Any

from .conftest import PASSWORD, Server


def test_page_runs_under_its_csp(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        messages: list[str] = []
        page.on("console", lambda m: messages.append(m.text))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{server.url}/#table=craps-1")
        page.fill("#login-user", "auditor")
        page.fill("#login-pass", PASSWORD)
        page.click("#login-btn")
        page.wait_for_selector("#tables button[data-table='craps-1'][aria-current='true']")
        page.wait_for_selector("#live.up")  # the stream accepted the first-message token
        assert sockets and all("token" not in url for url in sockets)
        assert not [m for m in messages if "Content Security Policy" in m], messages
    finally:
        context.close()
