"""Found by an attack on the live server (attack47; real ``croupier serve`` processes over
HTTP, the ``croupier backup`` and ``restore`` commands run as an operator runs them).

* A restore put back the sessions the copy held: a token logged out after the backup (a
  stolen one its owner ended, say) was a live session again once the copy was installed.
  Logging out is not a record of any chain, so the copy still verified and was installed
  without a declaration, and the server took the token again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from .conftest import Server


def _croupier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", *args], capture_output=True,
                          text=True, timeout=300)


def test_a_restore_revives_no_session_ended_after_the_backup(tmp_path: Path) -> None:
    """Logging out ends the token's session at once (README, Log-in): a copy taken while it
    was live, restored afterwards, does not start it again. Sessions are a cache no decision
    trusts (service/schema.py: a lost row is a 401 and the user logs in again), so a restore
    ends every session the copy holds; the ledger's own records are unchanged."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    srv = Server(data, None)
    srv.start()
    copy = tmp_path / "copy.db"
    try:
        srv.ok("bob", "/tables/craps-1/buy-in", {"amount": "25"})
        stolen = srv.token("bob")
        made = _croupier("backup", str(copy), "--data-dir", str(data))
        assert made.returncode == 0, made.stderr
        bearer = {"Authorization": f"Bearer {stolen}"}
        assert httpx.post(srv.base + "/auth/logout", headers=bearer, timeout=10).status_code == 200
        assert httpx.get(srv.base + "/auth/me", headers=bearer, timeout=10).status_code == 401
    finally:
        srv.stop()
    restored = _croupier("restore", str(copy), "--data-dir", str(data))
    assert restored.returncode == 0, restored.stdout + restored.stderr
    srv.start()
    try:
        me = httpx.get(srv.base + "/auth/me", headers=bearer, timeout=10)
        assert me.status_code == 401, f"a logged-out token works again after a restore: {me.text}"
        # The restored ledger is whole: bob logs in again and finds his chips where they were.
        table = srv.get("bob", "/tables/craps-1").json()
        assert table["players"]["bob"]["chips"] == "25.00"
        assert srv.audit()["ok"]
    finally:
        srv.stop()
