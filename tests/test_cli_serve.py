"""``croupier serve`` before it serves: the port is checked and bound before any side effect.

In-process: each case fails before the server would run, so no process is started.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.cli import main


@pytest.fixture(autouse=True)
def _keep_umask() -> Iterator[None]:
    """serve sets a private umask once past the port check; the test process keeps its own."""
    mask = os.umask(0o022)
    os.umask(mask)
    yield
    os.umask(mask)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["serve", *argv])
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("port", ["99999", "0", "-1", "http"])
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              port: str) -> None:
    data = tmp_path / "data"
    code, out, err = _run(capsys, "--port", port, "--data-dir", str(data), "--demo")
    assert code == 2
    assert "--port" in err and ("1 to 65535" in err or "not a port number" in err)
    assert out == "" and not data.exists()


def test_a_port_in_use_fails_before_any_side_effect(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code, out, err = _run(capsys, "--port", str(port), "--data-dir", str(data), "--demo",
                              "--demo-password", "a-demo-password-1")
    assert code == 1
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in err
    # Nothing announced, no demo logins printed, no ledger made.
    assert out == "" and "serving" not in err and "a-demo-password-1" not in out + err
    assert not data.exists()


def test_an_address_not_of_this_machine_is_named(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "--host", "192.0.2.1", "--port", "8000", "--data-dir",
                          str(tmp_path / "data"))
    assert code == 1 and out == ""
    assert "cannot listen on 192.0.2.1:8000" in err and "not an address of this machine" in err


def test_a_missing_ledger_still_says_what_to_run_and_frees_the_port(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, err = _run(capsys, "--port", str(port), "--data-dir", str(tmp_path / "none"))
    assert code == 2 and "croupier init" in err and "serving" not in out
    with socket.socket() as again:  # the refused start released its socket
        again.bind(("127.0.0.1", port))


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_a_ledger_in_memory_is_refused_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              url: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    code, _, err = _run(capsys, "--port", port, "--data-dir", str(tmp_path / "d"), "--database",
                        url, "--demo")
    assert code == 2
    assert "vanish with the process" in err and "internal error" not in err
    code = main(["init", "--data-dir", str(tmp_path / "d"), "--database", url])
    assert code == 2 and "vanish with the process" in capsys.readouterr().err
