"""An admin cannot lock or delete their own account (in process): the demo ledger's only admin
doing so would leave nobody to manage users and tables, and a deleted account cannot be
recovered with ``croupier users``. Another admin can."""

from __future__ import annotations

from .appkit import App


def test_an_admin_cannot_lock_or_delete_themselves(sqlite_app: App) -> None:
    s = sqlite_app
    for verb in ("lock", "delete"):
        r = (s.post("admin", "/users/admin/lock", None, key=None) if verb == "lock" else
             s.client.delete("/users/admin", headers=s.headers("admin")))
        assert r.status_code == 409, r.text
        assert r.json()["error"]["code"] == "refused"
        assert "their own account" in r.json()["error"]["reason"]
    # still an admin with a working session
    assert s.get("admin", "/auth/me").json()["role"] == "admin"
    assert s.post("admin", "/users/bob/lock", None, key=None).status_code == 200
