"""A ledger is made only by ``croupier init``; ``croupier
serve`` refuses an absent, empty, unreadable, damaged or read-only ledger and an uninitialised
database, saying what to run; a production ledger has no demo data and private files; the
seeded RNG needs an explicit test mode and is never disclosed."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

import croupier as croupier_package
from croupier.service.audit import keys

from .conftest import PG_ENV, Server, free_port, reset_postgres

ADMIN_PASSWORD = "a-long-admin-passphrase"


def croupier(*args: str, user: int | None = None, env: dict[str, str] | None = None,
             ) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "croupier", *args]
    if user is not None:
        cmd = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *cmd]
    environ = {k: v for k, v in os.environ.items() if k != "CROUPIER_DATABASE_URL"}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                          env={**environ, **(env or {})})


def serve(data_dir: Path, *extra: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """A start that must not get as far as serving (it would block): refused at once."""
    return croupier("serve", "--port", str(free_port()), "--data-dir", str(data_dir), *extra,
                    **kw)  # type: ignore[arg-type]


def init(data_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    done = croupier("init", "--data-dir", str(data_dir), "--admin-password", ADMIN_PASSWORD,
                    *extra)
    assert done.returncode == 0, done.stderr
    return done


def users_in(data_dir: Path) -> list[str]:
    engine = sa.create_engine(f"sqlite:///{data_dir / 'croupier.db'}")
    with engine.connect() as conn:
        names = [r[0] for r in conn.execute(sa.text("SELECT username FROM users"))]
    engine.dispose()
    return names


def test_serve_refuses_without_a_ledger(tmp_path: Path) -> None:
    done = serve(tmp_path / "nothing")
    assert done.returncode == 2 and "croupier init --data-dir" in done.stderr
    assert not (tmp_path / "nothing").exists()  # nothing was created


def test_serve_refuses_an_empty_truncated_ledger(tmp_path: Path) -> None:
    init(tmp_path)
    (tmp_path / "croupier.db").write_bytes(b"")
    done = serve(tmp_path, "--demo")
    assert done.returncode == 2 and "empty (0 bytes)" in done.stderr
    assert (tmp_path / "croupier.db").stat().st_size == 0  # no fresh ledger, no demo users
    again = croupier("init", "--data-dir", str(tmp_path))
    assert again.returncode == 2 and "empty (0 bytes)" in again.stderr


def test_serve_refuses_an_unreadable_or_damaged_ledger(tmp_path: Path) -> None:
    (tmp_path / "croupier.db").mkdir()
    done = serve(tmp_path)
    assert done.returncode == 2 and "cannot be read" in done.stderr
    (tmp_path / "croupier.db").rmdir()
    (tmp_path / "croupier.db").write_bytes(b"not a database at all, just text" * 100)
    done = serve(tmp_path)
    assert done.returncode == 2 and "not an SQLite database" in done.stderr


def test_integrity_check_at_start(tmp_path: Path) -> None:
    init(tmp_path, "--demo")
    path = tmp_path / "croupier.db"
    data = bytearray(path.read_bytes())
    page = 4096
    for i in range(2 * page + 16, len(data) - page, page):  # every page's header after the 2nd
        data[i:i + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))
    done = serve(tmp_path)
    assert done.returncode == 2 and ("integrity check" in done.stderr
                                     or "damaged" in done.stderr), done.stderr


@contextlib.contextmanager
def _enterable_by_others(path: Path) -> Iterator[None]:
    """Every folder on the way to ``path`` that a user other than its owner cannot enter (a
    checkout in a private temporary folder, which ``mktemp -d`` makes) opened to be entered,
    not listed, for the block, and closed again after it."""
    closed = [(f, f.stat().st_mode) for f in [*reversed(path.parents), path]
              if not f.stat().st_mode & stat.S_IXOTH]
    for folder, mode in closed:
        folder.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)
    try:
        yield
    finally:
        for folder, mode in closed:
            folder.chmod(stat.S_IMODE(mode))


def test_read_only_data_folder_refused() -> None:
    if os.geteuid() != 0:
        pytest.fail("this test runs the server as another user (nobody) and needs root")
    # Readable by the server's user (nobody) but not writable: a read-only data folder. The
    # server runs the checkout's code and environment, which nobody must reach.
    top = Path(tempfile.mkdtemp(prefix="croupier-ro-"))
    code = Path(croupier_package.__file__).resolve().parent
    try:
        top.chmod(0o755)
        data = top / "data"
        init(data, "--demo")
        data.chmod(0o755)
        for f in data.iterdir():
            f.chmod(0o644)
        with _enterable_by_others(code), _enterable_by_others(Path(sys.executable).parent):
            done = serve(data, user=65534)
        assert done.returncode == 2 and "not writable" in done.stderr, done.stderr
    finally:
        shutil.rmtree(top)


def test_init_refuses_a_first_admin_name_the_api_would_refuse(tmp_path: Path) -> None:
    # Found by a review: ``croupier init --admin`` took any name, while the API's routes
    # (``/users/{username}/...``) and ``croupier users add`` take only NAME's: an admin named
    # "Ops Lead" could be locked, reset or given a role by no route. Refused before anything
    # is made, with what a name is.
    data = tmp_path / "data"
    for name in ("Ops Lead", "josé", "a", "ops.lead", "x" * 33):
        refused = croupier("init", "--data-dir", str(data), "--admin", name,
                           "--admin-password", ADMIN_PASSWORD)
        assert refused.returncode == 2, (name, refused.stdout)
        assert f"{name!r}: a user name is a lower-case letter, then 1 to 31" in refused.stderr
        assert "--admin" in refused.stderr, refused.stderr
        assert not (data / "croupier.db").exists()
    done = croupier("init", "--data-dir", str(data), "--admin", "ops-lead",
                    "--admin-password", ADMIN_PASSWORD)
    assert done.returncode == 0, done.stderr
    assert users_in(data) == ["ops-lead"]


def test_init_upgrading_a_ledger_does_not_judge_the_admin_name(tmp_path: Path) -> None:
    # Found by a review: the name given with --admin was refused even when init only
    # upgraded a ledger that has its users (no admin is created then), so an older command
    # run again failed. It is judged only where the admin is made: a new ledger.
    data = tmp_path / "data"
    init(data)
    again = croupier("init", "--data-dir", str(data), "--admin", "Ops Lead",
                     "--admin-password", ADMIN_PASSWORD)
    assert again.returncode == 0, again.stderr
    assert users_in(data) == ["admin"]  # nothing was created under the name
    fresh = croupier("init", "--data-dir", str(tmp_path / "new"), "--admin", "Ops Lead",
                     "--admin-password", ADMIN_PASSWORD)
    assert fresh.returncode == 2 and "the name given for the first admin" in fresh.stderr
    assert not (tmp_path / "new" / "croupier.db").exists()


def test_production_init_has_no_demo_and_private_files(tmp_path: Path) -> None:
    data = tmp_path / "data"
    weak = croupier("init", "--data-dir", str(data), "--admin-password", "x")
    assert weak.returncode == 2 and "at least 12 characters" in weak.stderr
    assert not (data / "croupier.db").exists()
    named = croupier("init", "--data-dir", str(data), "--admin", "boss",
                     "--admin-password", "boss")
    assert named.returncode == 2
    done = croupier("init", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    generated = [line.split()[-1] for line in done.stdout.splitlines()
                 if line.strip().startswith("admin ")]
    assert len(generated) == 1 and len(generated[0]) >= 12  # printed once
    assert "DEMO" not in done.stdout
    assert users_in(data) == ["admin"]
    engine = sa.create_engine(f"sqlite:///{data / 'croupier.db'}")
    with engine.connect() as conn:
        for table in ("tables", "wallets", "dice"):
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() == 0
    engine.dispose()
    # A second init changes nothing (no second admin, no new password).
    again = croupier("init", "--data-dir", str(data))
    assert again.returncode == 0 and "already initialised" in again.stdout
    assert users_in(data) == ["admin"]
    weak_demo = croupier("init", "--data-dir", str(tmp_path / "d2"), "--demo",
                         "--demo-password", "x")
    assert weak_demo.returncode == 2 and "at least 12 characters" in weak_demo.stderr


def test_served_files_are_private(tmp_path: Path) -> None:
    srv = Server(tmp_path, None)
    srv.start()
    try:
        assert srv.get("auditor", "/audit/verify").json()["ok"]
    finally:
        srv.stop()
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o700
    for name in ("croupier.db", "demo-logins.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    anchors = keys.anchors_dir(tmp_path)  # the key and its pin, outside the data folder
    assert stat.S_IMODE(anchors.stat().st_mode) == 0o700
    for name in ("ledger.key", "ledger.key.pin"):
        assert stat.S_IMODE((anchors / name).stat().st_mode) == 0o600, name
        assert not (tmp_path / name).exists(), name
    for name in ("croupier.db-wal", "croupier.db-shm"):
        if (tmp_path / name).exists():
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


def test_postgres_uninitialised_refused_and_production_has_no_demo(tmp_path: Path) -> None:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set in CI")
        pytest.skip(f"{PG_ENV} is not set")
    reset_postgres(url)
    done = serve(tmp_path, "--database", url)
    assert done.returncode == 2 and "croupier init --database" in done.stderr
    engine = sa.create_engine(url)
    assert "users" not in sa.inspect(engine).get_table_names()  # nothing was created
    made = croupier("init", "--database", url, "--data-dir", str(tmp_path),
                    "--admin-password", ADMIN_PASSWORD)
    assert made.returncode == 0, made.stderr
    with engine.connect() as conn:
        assert [r[0] for r in conn.execute(sa.text("SELECT username FROM users"))] == ["admin"]
        assert conn.execute(sa.text("SELECT count(*) FROM tables")).scalar() == 0
    engine.dispose()


def test_seeded_rng_needs_test_mode_and_is_never_disclosed(tmp_path: Path) -> None:
    init(tmp_path, "--demo", "--test-mode")
    alone = serve(tmp_path, "--insecure-test-rng-seed", "424242")
    assert alone.returncode == 2 and "--test-mode" in alone.stderr
    env = serve(tmp_path, env={"CROUPIER_RNG_SEED": "424242"})
    assert env.returncode == 2 and "CROUPIER_RNG_SEED" in env.stderr
    old = serve(tmp_path, "--rng-seed", "424242")
    assert old.returncode == 2  # the old option is gone
    srv = Server(tmp_path, None, seed=424242)
    srv.start()
    try:
        for path in ("/health", "/", "/openapi.json"):
            r = httpx.get(srv.base + path, timeout=10)
            assert "424242" not in r.text, path
        assert httpx.get(srv.base + "/health", timeout=10).json()["rng"] != "os"
    finally:
        srv.stop()
    assert "424242" not in (tmp_path / "server.log").read_text()
