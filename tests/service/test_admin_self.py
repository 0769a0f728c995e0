"""An admin cannot lock or delete their own account (real HTTP): the demo ledger's only admin
doing so would leave nobody to manage users and tables, and a deleted account cannot be
recovered with ``croupier users``. Another admin can."""

from __future__ import annotations

import httpx

from .conftest import Server


def test_an_admin_cannot_lock_or_delete_themselves(sqlite_server: Server) -> None:
    s = sqlite_server
    for verb in ("lock", "delete"):
        r = (s.post("admin", "/users/admin/lock", None, key=None) if verb == "lock" else
             httpx.delete(s.base + "/users/admin", headers=s.headers("admin"),
                                        timeout=30))
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "refused"
        assert "their own account" in r.json()["error"]["reason"]
    # still an admin with a working session
    assert s.get("admin", "/auth/me").json()["role"] == "admin"
    assert s.post("admin", "/users/bob/lock", None, key=None).status_code == 200
