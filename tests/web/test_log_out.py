"""Log in and out in Chromium: the page keeps no password once logged in; the tab forgets the
token the moment Log out is pressed, and the server ends it; a session the server ends leaves
nothing on the screen.

The log-in form, hidden once logged in, kept the password typed into it for the whole session:
anyone at the terminal (the browser's developer tools) read the password itself, not only a
session, and could change it and keep the account.

The page used to forget its token only once the server had answered the log-out. On a slow
network the log-in form was already showing while the tab still held the token: a reload then
(the next person at the terminal pressing F5) logged straight back in as the player, and a tab
closed meanwhile left the session alive at the server for its twelve hours."""

from __future__ import annotations

import time
from typing import Any

import httpx

from .conftest import Server

TOKEN = "() => sessionStorage.getItem('croupier.token')"


def test_no_password_stays_in_the_page_once_logged_in(login: Any) -> None:
    page = login("alice", "craps-1")
    assert page.locator("#login").is_hidden()
    assert page.input_value("#login-pass") == ""
    assert page.input_value("#login-user") == "alice"  # the name is no secret


def test_the_tab_forgets_the_token_before_the_server_answers(login: Any) -> None:
    page = login("alice", "craps-1")
    held: list[Any] = []
    page.route("**/auth/logout", lambda route: held.append(route))  # a slow answer
    page.click("#logout-btn")
    page.wait_for_selector("#login-form", state="visible")
    assert held, "the log-out was sent"
    assert page.evaluate(TOKEN) is None
    page.reload()
    page.wait_for_selector("#login-form", state="visible")
    assert page.locator("#whoami").count() == 0  # not logged back in as alice


def test_nothing_the_session_showed_stays_in_the_page_after_log_out(login: Any) -> None:
    """The organiser's console (every account, the cage, the night's report) and the table
    (the players' chips, the payouts) were only hidden at log-out: still in the page for anyone
    at the terminal to read. A fresh page holds none of it; the log-in form comes back."""
    admin = login("admin", "craps-1")
    admin.wait_for_selector("#admin-users tr[data-user='bob']")
    assert "bob" in admin.text_content("#admin")
    admin.click("#logout-btn")
    admin.wait_for_selector("#login-form", state="visible")
    admin.wait_for_load_state()
    for section in ("#admin", "#table", "#side"):
        shown = admin.text_content(section) or ""
        assert "bob" not in shown and "alice" not in shown, (section, shown[:200])
    assert admin.locator("#admin > *").count() == 0


def test_the_server_ends_the_token_on_log_out(server: Server, login: Any) -> None:
    page = login("bob", "craps-1")
    token = page.evaluate(TOKEN)
    me = f"{server.url}/auth/me"
    assert httpx.get(me, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    page.click("#logout-btn")
    page.wait_for_selector("#login-form", state="visible")
    # The log-out is sent as the page starts afresh (kept alive past it): the server ends the
    # token within moments, not at its expiry.
    deadline = time.monotonic() + 10
    while httpx.get(me, headers={"Authorization": f"Bearer {token}"}).status_code != 401:
        assert time.monotonic() < deadline, "the token still works after the log-out"
        time.sleep(0.2)


def test_a_session_the_server_ends_leaves_nothing_on_the_screen(server: Server,
                                                                 login: Any) -> None:
    """The organiser locks the dealer while their console shows the table: the page goes back
    to the log-in form, saying why, without waiting for the dealer to press anything (it used
    to keep the console, the payouts and the players' names on the screen, and the dead token
    in the tab, only marked "offline")."""
    page = login("dealer", "craps-1")
    page.wait_for_selector("#dealer-console", state="visible")
    server.post("admin", "/users/dealer/lock")
    try:
        page.wait_for_selector("#login-form", state="visible", timeout=10000)
        assert page.locator("#dealer-console").is_hidden()
        assert page.locator("#table").is_hidden()
        assert "session" in page.text_content("#login-note")
        assert page.evaluate(TOKEN) is None
    finally:
        server.post("admin", "/users/dealer/unlock")
        server.tokens.pop("dealer", None)  # its sessions ended with the lock


def test_the_console_lets_go_of_a_new_accounts_password(login: Any) -> None:
    """The organiser registers a player: the password they chose for the account does not stay
    in the console's form for anyone at it to read (nor go to the next account by mistake)."""
    admin = login("admin", "craps-1")
    admin.fill("#new-user", "erin")
    admin.fill("#new-pass", "erin-first-password")
    admin.select_option("#new-role", "player")
    admin.click("#user-btn")
    admin.wait_for_selector("#users-msg.ok")
    assert admin.input_value("#new-pass") == ""
