"""``croupier audit export`` writes a signed bundle that ``croupier audit
verify-bundle`` checks offline with nothing else, and that fails after any one-byte edit; the
signing key is rotated by a record both keys sign, and a key that is not the ledger's fails."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.service.audit import bundle, keys

from .ledgerkit import Kit


def croupier(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "croupier", *args], capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Kit, Path]]:
    kit = Kit(tmp_path_factory.mktemp("bundle") / "data")
    kit.play(30, 10)
    kit.engine.dispose()
    out = kit.data_dir.parent / "bundle.json"
    done = croupier("audit", "export", str(out), "--data-dir", str(kit.data_dir))
    assert done.returncode == 0, done.stderr
    yield kit, out


def test_bundle_verifies_offline_with_the_command_alone(exported: tuple[Kit, Path],
                                                        tmp_path: Path) -> None:
    _, out = exported
    elsewhere = tmp_path / "regulator" / "bundle.json"  # no ledger, no key file near it
    elsewhere.parent.mkdir()
    elsewhere.write_bytes(out.read_bytes())
    done = croupier("audit", "verify-bundle", str(elsewhere))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK" in done.stdout and "pay table nj-13-69f: the same as" in done.stdout
    report, body = bundle.verify_bundle(elsewhere)
    assert not report.findings and report.events > 100
    assert {"tables", "events", "wallets", "entries", "checkpoints", "keys"} <= set(body["ledger"])
    assert body["equipment"]["dice"] and body["equipment"]["inspections"]
    assert set(body["pay_tables"]) == {"nj-13-69f", "nj-casino-night"}


def test_any_one_byte_edit_fails(exported: tuple[Kit, Path], tmp_path: Path) -> None:
    _, out = exported
    data = out.read_bytes()
    edited = tmp_path / "edited.json"
    positions = sorted({(i * len(data)) // 400 for i in range(400)} | {0, len(data) - 1})
    for pos in positions:
        changed = bytearray(data)
        changed[pos] = ord("7") if data[pos] != ord("7") else ord("3")
        edited.write_bytes(bytes(changed))
        report, _ = bundle.verify_bundle(edited)
        assert report.findings, f"an edit at byte {pos} went unnoticed"
    done = croupier("audit", "verify-bundle", str(edited))
    assert done.returncode == 1 and "PROBLEMS" in done.stdout


def test_wrong_public_key_fails(exported: tuple[Kit, Path], tmp_path: Path) -> None:
    _, out = exported
    other = keys.create_key(tmp_path / "other.key")
    report, _ = bundle.verify_bundle(out, other.public_hex)
    assert report.findings and "signature does not verify" in str(report.findings[0])


def test_rotation_and_a_foreign_key(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    kit.play(5, 2)
    kit.engine.dispose()
    anchors = keys.anchors_dir(tmp_path / "data")
    old = keys.load_key(anchors / "ledger.key")
    done = croupier("audit", "rotate-key", "--data-dir", str(kit.data_dir))
    assert done.returncode == 0, done.stderr
    new = keys.load_key(anchors / "ledger.key")
    assert new.key_id != old.key_id
    assert (anchors / f"ledger.key.{old.key_id}").exists()
    assert not list((tmp_path / "data").glob("ledger.key*"))  # none in the data folder
    # Checkpoints signed by the old key still verify, through the rotation record.
    verified = croupier("audit", "verify", "--data-dir", str(kit.data_dir))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # A key that is not the ledger's (put in the key file's place) is not trusted.
    (anchors / "ledger.key").unlink()
    keys.create_key(anchors / "ledger.key")
    foreign = croupier("audit", "verify", "--data-dir", str(kit.data_dir))
    assert foreign.returncode == 1 and "is not recorded in the ledger" in foreign.stdout
