"""Access decided from what is chained or sealed, never from a row anyone who can write the
database could have written (docs/ledger.md, "What each table is to its trust").

Three rows used to decide who may act on their own: the ``users`` row a log-in read (a password
or role written into it, used, and written back before any audit, left no trace), the ``tokens``
row every request reads (a row inserted for an admin's id was a session as the admin, every
act of it chained under the admin's name and passing the audit), and the role the token's
account row names at each request. Each is tampered here through SQL and must open nothing.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import auth
from serverkit import PASSWORD

from .appkit import App, demo_app

PLANTED = "a password planted in the row"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("access-chained")) as made:
        yield made


def _engine(app: App) -> sa.Engine:
    served: Any = app.client.app
    engine: sa.Engine = served.state.services.engine
    return engine


def _stored(app: App, token: str) -> str:
    """What the app stores ``token`` as (sealed under its session key)."""
    served: Any = app.client.app
    stored: str = served.state.services.auth.token_hash(token)
    return stored


def _sql(app: App, text: str, **params: Any) -> Any:
    with _engine(app).begin() as conn:
        result = conn.execute(sa.text(text), params)
        return result.first() if result.returns_rows else None


def _login(app: App, who: str, password: str) -> int:
    return app.post_login({"username": who, "password": password}).status_code


def _users_as(app: App, token: str) -> int:
    """The status of ``GET /users`` (admins and auditors only) under ``token``."""
    return app.client.get("/users", headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_password_written_into_the_users_row_logs_no_one_in(app: App) -> None:
    real = _sql(app, "SELECT password_hash FROM users WHERE username = 'admin'").password_hash
    _sql(app, "UPDATE users SET password_hash = :h WHERE username = 'admin'",
         h=auth.hash_password(PLANTED))
    try:
        # The row says the planted password; the users' chain records the admin's own.
        assert _login(app, "admin", PLANTED) == 401
    finally:
        _sql(app, "UPDATE users SET password_hash = :h WHERE username = 'admin'", h=real)
    assert _login(app, "admin", PASSWORD) == 200  # put back: the chain's account again


def test_a_role_written_into_the_users_row_widens_no_session_and_opens_none(app: App) -> None:
    token = app.token("dealer")
    assert _users_as(app, token) == 403
    _sql(app, "UPDATE users SET role = 'admin' WHERE username = 'dealer'")
    try:
        assert _users_as(app, token) == 401  # the token was issued to a dealer
        assert _login(app, "dealer", PASSWORD) == 401  # the chain says dealer
    finally:
        _sql(app, "UPDATE users SET role = 'dealer' WHERE username = 'dealer'")
    assert _users_as(app, token) == 403  # a dealer's session again, a dealer's rights


def test_a_token_row_written_into_the_database_is_no_session(app: App) -> None:
    admin_id = _sql(app, "SELECT id FROM users WHERE username = 'admin'").id
    expires = int(time.time()) + 3600
    forged = [f"{admin_id}.admin.{expires}.forged", "forged"]
    for token in forged:  # stored as the plain SHA-256 a token once was
        _sql(app, "INSERT INTO tokens (token_hash, user_id, expires_at) VALUES (:h, :u, :e)",
             h=hashlib.sha256(token.encode()).hexdigest(), u=admin_id, e=float(expires))
    assert [_users_as(app, t) for t in forged] == [401, 401]


def test_a_token_row_moved_to_another_account_is_no_session(app: App) -> None:
    token = app.token("supervisor")
    assert _users_as(app, token) == 403
    admin_id = _sql(app, "SELECT id FROM users WHERE username = 'admin'").id
    mine = _sql(app, "SELECT id FROM users WHERE username = 'supervisor'").id
    moved = "UPDATE tokens SET user_id = :u WHERE token_hash = :h"
    _sql(app, moved, u=admin_id, h=_stored(app, token))
    try:
        assert _users_as(app, token) == 401  # not the admin's: the token names the supervisor
    finally:
        _sql(app, moved, u=mine, h=_stored(app, token))
    assert _users_as(app, token) == 403


def test_a_token_row_made_to_outlive_its_token_ends_with_it(app: App) -> None:
    token = app.token("auditor")
    assert _users_as(app, token) == 200
    _sql(app, "UPDATE tokens SET expires_at = :e WHERE token_hash = :h",
         e=time.time() + 10 * 365 * 86400, h=_stored(app, token))
    issued, past = token.split(".", 3), int(time.time()) - 1  # [id, role, expiry, name.secret]
    stale = ".".join([issued[0], issued[1], str(past), issued[3]])
    # A token naming an expiry already past is refused whatever its row says.
    _sql(app, "INSERT INTO tokens (token_hash, user_id, expires_at) "
         "SELECT :h, user_id, expires_at FROM tokens WHERE token_hash = :t",
         h=_stored(app, stale), t=_stored(app, token))
    assert _users_as(app, stale) == 401
    assert _users_as(app, token) == 200


def _me(app: App, token: str) -> tuple[int, str | None]:
    r = app.client.get("/auth/me", headers={"Authorization": f"Bearer {token}"})
    return r.status_code, r.json().get("username") if r.status_code == 200 else None


def _rename(app: App, pairs: list[tuple[str, str]]) -> None:
    """Rename accounts' rows in one transaction (through a name no one holds, so two can
    swap under the unique constraint)."""
    with _engine(app).begin() as conn:
        for old, new in pairs:
            conn.execute(sa.text("UPDATE users SET username = :n WHERE username = :o"),
                         {"o": old, "n": new})


def test_two_account_rows_swapping_names_swap_no_sessions(app: App) -> None:
    # The token names the account's id, and the id's row names the account: two supervisors'
    # rows swapping their names made one person's session act under the other's name, a
    # second person to every request of the first (and back again before the audit).
    token = app.token("supervisor")
    assert _me(app, token) == (200, "supervisor")
    swap = [("supervisor", "swapping"), ("floor", "supervisor"), ("swapping", "floor")]
    _rename(app, swap)
    try:
        assert _me(app, token) == (401, None)
    finally:
        _rename(app, swap)
    assert _me(app, token) == (200, "supervisor")


def test_a_name_written_into_the_users_row_is_no_session(app: App) -> None:
    # A name the users' chain knows nobody by is independent of everyone: a session acting
    # under it would be a second person to its own holder.
    token = app.token("supervisor")
    _rename(app, [("supervisor", "nobody-at-all")])
    try:
        assert _me(app, token) == (401, None)
    finally:
        _rename(app, [("nobody-at-all", "supervisor")])
    assert _me(app, token) == (200, "supervisor")


@pytest.mark.parametrize("name", ["josé", "ops.lead", "night desk"])
def test_a_token_names_any_account_name_in_what_a_header_carries(app: App, name: str) -> None:
    # ``croupier init --admin`` takes any name (and an older ledger may hold one), and the
    # token names it: written into the token as it is, a name beyond ASCII made a token no
    # HTTP client sends (a header is Latin-1 at most, ASCII to most clients), so the account
    # logged in and could not use its token. A dot or a space in a name is carried too.
    from croupier.service import recovery

    recovery.add(_engine(app), name, PASSWORD, "auditor")
    r = app.post_login({"username": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert token.isascii() and " " not in token, token
    assert _me(app, token) == (200, name)
    # The name it carries is still the account's: another account's row given it is refused.
    _rename(app, [(name, f"{name}-x")])
    try:
        assert _me(app, token) == (401, None)
    finally:
        _rename(app, [(f"{name}-x", name)])


def test_a_log_in_as_an_unknown_name_reads_the_users_chain_as_a_known_one_does(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    # A log-in as a known name reads and checks the whole users' chain (people.trusted), one
    # as an unknown name did not: with thousands of accounts that is a tenth of a second more,
    # which tells anyone which names are accounts (the unknown name's password is checked
    # against a dummy hash for the same reason).
    from croupier.service import people

    real, reads = people.trusted, []

    def counted(conn: sa.Connection) -> list[dict[str, Any]]:
        reads.append(1)
        return real(conn)

    monkeypatch.setattr(people, "trusted", counted)
    for name in ("dealer", "nobody-by-this-name"):
        reads.clear()
        r = app.post_login({"username": name, "password": "not the password"})
        assert r.status_code == 401, r.text
        assert reads == [1], name
