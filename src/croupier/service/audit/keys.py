"""The ledger's signing key: Ed25519, kept in a file outside the database.

``croupier init`` makes the key (``ledger.key`` in the data folder, mode 0600, or the file
named by ``--key-file`` / ``CROUPIER_LEDGER_KEY``) and records its public half in the ledger's
``ledger_keys`` table, signed by itself. ``croupier audit rotate-key`` makes a new key and
records it with a rotation record signed by BOTH the old and the new key; the old file is kept
beside the new one (``ledger.key.<key id>``) until the operator destroys it. A verifier trusts
the key in the key file (or the public key a regulator was given) and, through the rotation
records, every key before it; a key written into the database by anyone else is not trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from croupier.service.audit.canonical import canonical

KEY_ENV = "CROUPIER_LEDGER_KEY"
KEY_NAME = "ledger.key"


class KeyError_(Exception):
    """The key file is missing, unreadable, not a key, or readable by others."""


def key_path(data_dir: Path, given: Path | None = None) -> Path:
    """Where the key lives: the path given, ``CROUPIER_LEDGER_KEY``, or the data folder's."""
    if given is not None:
        return given
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    return data_dir / KEY_NAME


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


def introduction(new: Signer, old: Signer | None, at: float) -> dict[str, Any]:
    """The record that brings a key into the ledger: signed by the new key and, on a
    rotation, by the old one (so only the holder of the old key can rotate it away)."""
    record = canonical({"key_id": new.key_id, "public_key": new.public_hex, "at": at,
                        "previous": old.key_id if old is not None else None})
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
