"""Multi-node mode is PostgreSQL only, and says so; one node on SQLite stays the default."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .conftest import free_port


def test_node_id_on_sqlite_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "croupier", "serve", "--node-id", "n1", "--port",
         str(free_port()), "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "PostgreSQL" in result.stderr or "postgresql" in result.stderr
    assert "SQLite serves one node only" in result.stderr
    assert not (tmp_path / "croupier.db").exists()  # refused before touching any ledger
