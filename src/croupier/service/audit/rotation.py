"""Rotating the signing key: the new key is introduced by a record both keys sign."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import Engine

from croupier.service import store
from croupier.service.audit import chain, keys
from croupier.service.audit.keys import Signer


def rotate(engine: Engine, old: Signer, path: Path) -> tuple[Signer, Signer, Path]:
    """Make a new key, record its introduction (signed by the old and the new key), move the
    old key file aside (``ledger.key.<old id>``), put the new one in its place and sign a
    checkpoint with it. The old key, the new key and where the old file went."""
    staged = path.with_name(path.name + ".new")
    new = keys.create_key(staged)
    with engine.begin() as conn:
        conn.execute(store.ledger_keys.insert().values(
            **keys.introduction(new, old, store.now())))
    kept = path.with_name(f"{path.name}.{old.key_id}")
    os.replace(path, kept)
    os.replace(staged, path)
    chain.Checkpointer(engine, new, path.with_name(path.name + ".pin")).write("rotate")
    return old, new, kept
