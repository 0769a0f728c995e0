"""The ledger's signing key: Ed25519, kept in a file outside the database and its folder.

``croupier init`` makes the key (mode 0600) in the ledger's *anchors folder*: a sibling of the
data folder named ``<data folder>-anchors`` (``./data-anchors/ledger.key`` for ``./data``), or
the file named by ``--key-file`` / ``CROUPIER_LEDGER_KEY``. Whoever can read the data folder
(a backup, a copy, a process that only needs the database) therefore does not hold the key
that signs it. A ledger made by an earlier release keeps ``ledger.key`` inside the data
folder; it is still found there, and ``croupier init`` moves it (and its pin) out.

The key's public half is recorded in the ledger's ``ledger_keys`` table, signed by itself.
``croupier audit rotate-key`` makes a new key and records it with a rotation record signed by
BOTH the old and the new key, naming the last checkpoint the old key signed; the old file is
kept beside the new one (``ledger.key.<key id>``, in the anchors folder) until the operator
destroys it. A verifier trusts the key in the key file (or the public key a regulator was
given) and, through the rotation records, every key before it, each only for the checkpoints
before its rotation; a key written into the database by anyone else is not trusted.

>>> key_path(Path("/srv/casino/data"), None, env={})
PosixPath('/srv/casino/data-anchors/ledger.key')
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from croupier.service.audit.canonical import canonical

KEY_ENV = "CROUPIER_LEDGER_KEY"
KEY_NAME = "ledger.key"
ANCHORS_SUFFIX = "-anchors"


class KeyError_(Exception):
    """The key file is missing, unreadable, not a key, or readable by others."""


def anchors_dir(data_dir: Path) -> Path:
    """The default folder of the key and the pin: a sibling of the data folder."""
    resolved = data_dir.resolve()
    return resolved.with_name(resolved.name + ANCHORS_SUFFIX)


def legacy_key_path(data_dir: Path) -> Path:
    """Where an earlier release kept the key: inside the data folder."""
    return data_dir / KEY_NAME


def key_path(data_dir: Path, given: Path | None = None,
             env: Mapping[str, str] | None = None) -> Path:
    """Where the key lives: the path given, ``CROUPIER_LEDGER_KEY``, the anchors folder's, or
    (a ledger an earlier release made, not yet moved) the data folder's."""
    env = os.environ if env is None else env
    if given is not None:
        return given
    if env.get(KEY_ENV):
        return Path(env[KEY_ENV])
    outside = anchors_dir(data_dir) / KEY_NAME
    legacy = legacy_key_path(data_dir)
    if not outside.exists() and legacy.exists():
        return legacy
    return outside


def inside(path: Path, data_dir: Path) -> bool:
    """Whether ``path`` is in the data folder (a key or pin there travels with every copy)."""
    return path.resolve().is_relative_to(data_dir.resolve())


def key_id(public_hex: str) -> str:
    """A short name for a public key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


def check_signature(public_hex: str, message: str, signature_hex: str) -> bool:
    """Whether ``signature_hex`` is the key's Ed25519 signature of ``message``."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex)).verify(
            bytes.fromhex(signature_hex), message.encode())
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Signer:
    """A private key in memory."""

    private: Ed25519PrivateKey

    @property
    def public_hex(self) -> str:
        return self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    @property
    def key_id(self) -> str:
        return key_id(self.public_hex)

    def sign(self, message: str) -> str:
        return self.private.sign(message.encode()).hex()

    def derive(self, purpose: str) -> bytes:
        """A secret for ``purpose`` derived from the private key (HMAC-SHA256 keyed by its raw
        bytes): it lives where the key lives, outside the database, and changes with it."""
        raw = self.private.private_bytes(serialization.Encoding.Raw,
                                         serialization.PrivateFormat.Raw,
                                         serialization.NoEncryption())
        return hmac.new(raw, purpose.encode(), hashlib.sha256).digest()


def write_private(path: Path, data: bytes) -> None:
    """Write a new file readable and writable by its owner only (never replaces one)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def create_key(path: Path) -> Signer:
    """A new key written to ``path`` (mode 0600); refuses to overwrite an existing file."""
    signer = Signer(Ed25519PrivateKey.generate())
    write_private(path, signer.private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    return signer


def load_key(path: Path) -> Signer:
    """The key in ``path``; KeyError_ saying what is wrong if it cannot be used."""
    try:
        info = path.stat()
        data = path.read_bytes()
    except OSError as exc:
        raise KeyError_(f"the ledger's signing key {path} cannot be read: {exc.strerror}") from None
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise KeyError_(f"the ledger's signing key {path} is readable by other users "
                        f"(mode {stat.S_IMODE(info.st_mode):o}): chmod 600 it")
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise KeyError_(f"{path} is not a PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyError_(f"{path} is not an Ed25519 key")
    return Signer(private)


def introduction(new: Signer, old: Signer | None, at: float,
                 retires_after: int | None = None) -> dict[str, Any]:
    """The record that brings a key into the ledger: signed by the new key and, on a
    rotation, by the old one (so only the holder of the old key can rotate it away). A
    rotation names the last checkpoint the old key signed (``retires_after``): the old key is
    trusted for no checkpoint after it."""
    fields: dict[str, Any] = {"key_id": new.key_id, "public_key": new.public_hex, "at": at,
                              "previous": old.key_id if old is not None else None}
    if old is not None and retires_after is not None:
        fields["retires_after"] = retires_after
    record = canonical(fields)
    signatures = {"new": new.sign(record), "old": old.sign(record) if old is not None else None}
    return {"key_id": new.key_id, "public_key": new.public_hex, "created_at": at,
            "record": record, "signatures": json.dumps(signatures, sort_keys=True)}


def trusted_keys(rows: list[dict[str, Any]], anchor_hex: str) -> tuple[dict[str, str], list[str]]:
    """The keys (id -> public hex) trusted from ``anchor_hex`` back through the rotation
    records in ``rows`` (the ``ledger_keys`` table), and any problem found on the way."""
    by_id = {r["key_id"]: r for r in rows}
    trusted: dict[str, str] = {}
    problems: list[str] = []
    current: str | None = key_id(anchor_hex)
    public = anchor_hex
    while current is not None:
        row = by_id.get(current)
        if row is None:
            if not trusted:
                problems.append(f"the signing key {current} is not recorded in the ledger")
            else:
                problems.append(f"key {current}, named by a rotation record, is not recorded")
            break
        record = json.loads(row["record"])
        signatures = json.loads(row["signatures"])
        if row["public_key"] != public or record.get("public_key") != public:
            problems.append(f"key {current}: the recorded public key differs from the trusted one")
            break
        if not check_signature(public, row["record"], signatures.get("new") or ""):
            problems.append(f"key {current}: its introduction is not signed by itself")
            break
        trusted[current] = public
        previous = record.get("previous")
        if previous is None:
            break
        prev_row = by_id.get(previous)
        if prev_row is None or not check_signature(prev_row["public_key"], row["record"],
                                                   signatures.get("old") or ""):
            problems.append(f"key {current}: its rotation is not signed by the previous key "
                            f"{previous}")
            break
        current, public = previous, prev_row["public_key"]
    return trusted, problems


@dataclass(frozen=True)
class Retired:
    """A key rotated away: trusted only for checkpoints up to ``last_checkpoint`` (recorded
    by the rotation) or, for a rotation an earlier release recorded, signed before ``at``."""

    by: str
    at: float
    last_checkpoint: int | None

    def covers(self, checkpoint_id: int, signed_at: float) -> bool:
        """Whether a checkpoint with this id, signed at this time, predates the rotation."""
        if self.last_checkpoint is not None:
            return checkpoint_id <= self.last_checkpoint
        return signed_at <= self.at


def retirements(rows: list[dict[str, Any]], trusted: dict[str, str]) -> dict[str, Retired]:
    """Each trusted key that a trusted rotation record retired, and when."""
    out: dict[str, Retired] = {}
    for row in rows:
        if row["key_id"] not in trusted:
            continue
        record = json.loads(row["record"])
        previous = record.get("previous")
        if previous is None:
            continue
        last = record.get("retires_after")
        out[previous] = Retired(row["key_id"], float(record.get("at", 0.0)),
                                int(last) if last is not None else None)
    return out
