"""Rotating the signing key: the new key is introduced by a record both keys sign.

The record names the last checkpoint the old key signed; a checkpoint after it signed with the
old key is a finding. Rotate with the server stopped (a server still running holds the old
key in memory): start it again with the new key. A cluster's node left running through a
rotation finds it recorded and signs nothing more with the old key (``chain.retired_by``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import store
from croupier.service.audit import chain, keys
from croupier.service.audit.keys import Signer

log = logging.getLogger("croupier.checkpoints")


def rotate(engine: Engine, old: Signer, path: Path, retired_dir: Path | None = None,
           ) -> tuple[Signer, Signer, Path]:
    """Make a new key, record its introduction (signed by the old and the new key), move the
    old key file aside (``ledger.key.<old id>``, in ``retired_dir`` when given: a key kept in
    the data folder retires out of it), put the new one in its place and sign a checkpoint
    with it. The old key, the new key and where the old file went."""
    # Under the checkpoint writers' turn, taken before any key is made: a running node
    # numbering a checkpoint meanwhile either signs before the rotation names its last
    # checkpoint, or reads the rotation and signs nothing (chain.retired_by). A ledger cut
    # short is refused there too (the new key's checkpoint would be signed past the pin,
    # chain.BehindPin), and so is a turn held too long (chain.WriterBusy): either way no key is
    # made or moved, and no staged key is left behind to refuse the next rotation.
    pin = path.with_name(path.name + ".pin")
    staged = path.with_name(path.name + ".new")
    made = False
    with chain.Checkpointer(engine, old, pin).one_writer():
        try:
            with engine.begin() as conn:
                chain.reaches_pin(conn, pin)
                new = keys.create_key(staged)
                made = True
                last = conn.execute(sa.select(sa.func.max(store.checkpoints.c.id))).scalar()
                conn.execute(store.ledger_keys.insert().values(
                    **keys.introduction(new, old, store.now(), int(last or 0))))
        except BaseException:
            if made:  # made here and never introduced (its record rolled back)
                staged.unlink(missing_ok=True)
            raise
    kept = path.with_name(f"{path.name}.{old.key_id}")
    if retired_dir is not None:
        retired_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        kept = retired_dir / kept.name
    os.replace(path, kept)
    os.replace(staged, path)
    try:
        chain.Checkpointer(engine, new, pin).write("rotate")
    except chain.WriterBusy as exc:  # rotated: the new key's next checkpoint signs the same
        log.warning("the rotation is recorded; its checkpoint was not signed: %s", exc)
    return old, new, kept
