"""On the command line, whoever holds the server's data recovers accounts
when every admin is locked out: ``croupier users unlock NAME`` and ``croupier users
reset-password NAME`` on ``--data-dir`` or ``--database``."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx

from .conftest import PASSWORD, Server


def users(s: Server, *args: str) -> subprocess.CompletedProcess[str]:
    where = ["--database", s.database] if s.database else ["--data-dir", str(s.data_dir)]
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "croupier", "users", *args, *where],
                          capture_output=True, text=True, timeout=120, env=env)


def login(s: Server, who: str, password: str) -> int:
    return httpx.post(s.base + "/auth/login", json={"username": who, "password": password},
                      timeout=30).status_code


def test_locked_out_admin_recovered_from_the_command_line(server: Server) -> None:
    s = server
    # Wrong guesses lock no one out (docs/login.md); an admin's lock does: a second admin
    # locked the first.
    s.ok("admin", "/users", {"username": "admin2", "password": PASSWORD, "role": "admin"},
         key=None)
    s.ok("admin2", "/users/admin/lock", None, key=None)
    assert login(s, "admin", PASSWORD) == 401  # the admin is locked out
    done = users(s, "unlock", "admin")
    assert done.returncode == 0, done.stderr
    assert login(s, "admin", PASSWORD) == 200
    assert users(s, "unlock", "nobody-here").returncode == 1
    misspelt = users(s, "unlock", "admn")
    assert misspelt.returncode == 1
    assert misspelt.stderr == "croupier users unlock: there is no user 'admn'; did you mean \"admin\"?\n"


def test_reset_password_unlocks_and_applies_the_policy(server: Server) -> None:
    s = server
    for _ in range(3):
        login(s, "alice", "wrong password!")
    weak = users(s, "reset-password", "alice", "--password", "short")
    assert weak.returncode == 2 and "at least 12 characters" in weak.stderr
    done = users(s, "reset-password", "alice", "--password", "a-new-long-password")
    assert done.returncode == 0, done.stderr
    assert login(s, "alice", "a-new-long-password") == 200
    assert login(s, "alice", PASSWORD) == 401
    generated = users(s, "reset-password", "bob")
    assert generated.returncode == 0
    new = generated.stdout.split("new password: ")[1].split()[0]
    assert len(new) >= 12 and login(s, "bob", new) == 200


def test_new_users_passwords_meet_the_policy(server: Server) -> None:
    s = server
    for password, why in (("eleven-char", "at least 12 characters"),
                          ("carol-player", "not the user name")):
        r = s.post("admin", "/users", {"username": "carol-player", "password": password,
                                       "role": "player"}, key=None)
        assert r.status_code == 422 and why in r.json()["error"]["reason"], r.text
    r = s.post("admin", "/users", {"username": "carol-player", "password": "a long passphrase",
                                   "role": "player"}, key=None)
    assert r.status_code == 201
