"""``croupier backup`` and ``croupier restore``: a consistent copy of a live ledger, with its
signed head, and a restore that verifies before it installs.

Backup (SQLite): a checkpoint is signed on the live ledger, then SQLite's online backup copies
the database in one step from one read snapshot (the server goes on committing: in WAL mode a
reader neither waits for nor blocks the writer). Beside the copy ``DEST`` goes its signed head,
``DEST.head``: every chain's head in the copy and its latest checkpoint, signed with the
ledger's key, so the events the copy holds after that checkpoint are signed too.

Restore: the copy is staged inside the data folder, verified by itself (chains, checkpoints,
the replay, its signed head), then compared with the anchor, the pin kept outside the data
folder. A copy that holds the pinned checkpoint unchanged extends the anchor and is installed.
A copy older than the anchor (without the pinned checkpoint, or behind it) is refused unless
the operator declares a recovery (``--declare-recovery REASON``): it is then installed and the
house's chain records a ``recovery_declared`` event naming the gap, per chain the sequence
numbers and hashes between the copy's head and the anchor's. A copy that holds the pinned
checkpoint with other contents was rewritten, and is always refused. The database it replaces
is kept beside it (``croupier.db.before-restore-<time>``), never deleted. The installed copy
keeps none of the sessions it held (a token logged out since the backup would work again):
everyone logs in again.

On PostgreSQL the server's own tools copy the database (``pg_dump`` while serving, into a new
database with ``pg_restore``): see docs/ledger.md.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import preflight, register, store
from croupier.service.audit import chain, objects, projections, requests
from croupier.service.audit.canonical import canonical
from croupier.service.audit.keys import Signer, check_signature
from croupier.service.audit.snapshot import Snapshot, read
from croupier.service.audit.verify import verify_snapshot

HEAD_FORMAT = "croupier-backup-head/1"


class BackupError(Exception):
    """The copy cannot be made, or restored; the message says why."""


def head_path(copy: Path) -> Path:
    """Where a copy's signed head is kept: beside it."""
    return copy.with_name(copy.name + ".head")


# --- backup -------------------------------------------------------------------------------

def backup(engine: Engine, signer: Signer, pin_path: Path | None, dest: Path) -> dict[str, Any]:
    """Copy the live SQLite ledger of ``engine`` to ``dest`` with its signed head."""
    source = _sqlite_file(engine)
    if dest.exists() or head_path(dest).exists():
        raise BackupError(f"{dest} exists: a backup never replaces a file")
    chain.Checkpointer(engine, signer, pin_path).write("backup")
    dest.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    _copy(source, dest)
    copied = store.make_engine(f"sqlite:///{dest.resolve()}")
    try:
        with copied.connect() as conn:
            head = signed_head(signer, chain.heads(conn), _latest(conn))
    finally:
        copied.dispose()
    _write_private(head_path(dest), canonical(head))
    return {"checkpoint": head["body"]["checkpoint"]["id"], "key_id": signer.key_id,
            "bytes": dest.stat().st_size}


def _sqlite_file(engine: Engine) -> Path:
    if not store.is_sqlite(engine) or not engine.url.database:
        raise BackupError("croupier backup copies a SQLite ledger; on PostgreSQL use the "
                          "server's own pg_dump (docs/ledger.md, 'Backup and restore')")
    return Path(engine.url.database)


def _copy(source: Path, dest: Path) -> None:
    """SQLite's online backup, all pages in one step: one consistent read snapshot."""
    src = sqlite3.connect(source, timeout=30)
    out = sqlite3.connect(dest)
    try:
        src.backup(out, pages=-1)
        out.execute("PRAGMA journal_mode=DELETE")  # one file: the copy carries no -wal
    finally:
        out.close()
        src.close()
    os.chmod(dest, 0o600)


def _latest(conn: Any) -> dict[str, Any]:
    import sqlalchemy as sa

    row = conn.execute(sa.select(store.checkpoints).order_by(
        store.checkpoints.c.id.desc()).limit(1)).first()
    if row is None:
        raise BackupError("the ledger has no signed checkpoint (croupier init signs the first)")
    out: dict[str, Any] = json.loads(chain.pin_text(dict(row._mapping)))
    return out


def signed_head(signer: Signer, heads: dict[str, Any], latest: dict[str, Any]) -> dict[str, Any]:
    """A copy's head: its chains' heads and its latest checkpoint, signed."""
    body = {"format": HEAD_FORMAT, "heads": heads, "checkpoint": latest,
            "key_id": signer.key_id, "public_key": signer.public_hex, "at": store.now()}
    return {"body": body, "signature": signer.sign(canonical(body))}


def _write_private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


# --- restore ------------------------------------------------------------------------------

@dataclass
class Restored:
    """What ``restore`` found and did."""

    installed: bool = False
    problems: list[str] = field(default_factory=list)
    gap: dict[str, Any] = field(default_factory=dict)
    kept: Path | None = None
    checkpoint: int | None = None


def restore(src: Path, data_dir: Path, signer: Signer, pin_path: Path,
            recovery: str | None) -> Restored:
    """Verify the copy ``src`` and install it as ``data_dir``'s ledger (see the module's text).
    The server must be stopped."""
    if not src.exists() or not head_path(src).exists():
        raise BackupError(f"{src} and its signed head {head_path(src).name} are both needed")
    if recovery is not None:
        _reason(recovery)
    target = data_dir / preflight.DB_NAME
    try:
        with preflight.held(target):
            return _restore(src, target, signer, pin_path, recovery)
    except preflight.NotReady as exc:
        raise BackupError(f"{exc}: stop the server first") from None


def _reason(text: str) -> None:
    """A declared recovery's reason is kept in the house's chain and shown in every report of
    it: held to what any reason the server records is held to (3 to 500 characters of plain
    text; a right-to-left override would show it reversed), as the server's own."""
    from croupier.service.api.models import plain_text

    if not 3 <= len(text) <= 500:
        raise BackupError("--declare-recovery: the reason is 3 to 500 characters")
    try:
        plain_text(text)
    except ValueError as exc:
        raise BackupError(f"--declare-recovery: {exc}") from None


def _restore(src: Path, target: Path, signer: Signer, pin_path: Path,
             recovery: str | None) -> Restored:
    """``restore``, the ledger held by this process."""
    stage = target.with_name(preflight.DB_NAME + ".restoring")
    stage.unlink(missing_ok=True)
    _copy(src, stage)
    done = Restored()
    try:
        engine = store.make_engine(f"sqlite:///{stage.resolve()}")
        try:
            with engine.connect() as conn:
                snap = read(conn)
                now_heads = chain.heads(conn)
                # What the audit reads beside the snapshot, as verify_ledger does (the
                # start-up audit would refuse the installed copy over any of them): the
                # projections of the house's chain, the stored replies, and the schema, which
                # the signed head (the chains' rows) does not cover.
                beside = [*projections.check(conn, snap.records), *requests.check(conn, snap),
                          *objects.check(conn)]
            done.problems = _check_copy(snap, now_heads, head_path(src), signer)
            done.problems.extend(f"the copy: {f}" for f in beside)
            pinned = _pin_bytes(pin_path)  # compared again under the writers' turn
            if not done.problems:
                done.problems, done.gap = _against_anchor(snap, now_heads, pin_path, recovery)
            if not done.problems:
                done.problems = _against_current(target, snap, now_heads, recovery, done.gap)
            if done.problems:
                return done
            with engine.begin() as conn:
                # The copy's sessions are those live when it was taken: one logged out (or
                # ended by a password change) since would be live again. Sessions are a
                # cache no decision trusts (schema.py): every user logs in again.
                conn.execute(store.tokens.delete())
                if recovery is not None:
                    register.append(conn, "recovery_declared", "ledger", {
                        "reason": recovery, "copy": src.name, "gap": done.gap}, "operator")
        finally:
            engine.dispose()
        live = store.make_engine(f"sqlite:///{target.resolve()}")  # it connects when it signs
        try:
            writer = chain.Checkpointer(live, signer, pin_path)
            # The writers' turn is taken before the copy is installed and kept until it is
            # signed: another process holding it past the bounded wait (a croupier audit verify
            # stopped while it signed) leaves nothing installed, where it left the copy
            # installed and unsigned, and a declared gap past the pin unsigned for good.
            with writer.holding():
                # The pin was compared before the turn was taken: a croupier audit verify or
                # backup that signed the ledger in place meanwhile moved it onto a checkpoint
                # the copy may lack, and the copy, installed, could not be signed. Compared
                # again under the turn, where no one moves it: a moved pin installs nothing.
                if _pin_bytes(pin_path) != pinned:
                    done.problems = [
                        f"the pin ({pin_path}) moved while the copy was checked: another "
                        "process (croupier audit verify, backup) signed a checkpoint of the "
                        "ledger in place meanwhile; run croupier restore again"]
                    return done
                done.kept = _install(stage, target)
                # A declared gap ends before the pin (checked above): signed past it.
                done.checkpoint = int(writer.write("restore", past_pin=bool(done.gap))["id"])
        finally:
            live.dispose()
        done.installed = True
        return done
    finally:
        for name in (stage, Path(f"{stage}-wal"), Path(f"{stage}-shm")):
            name.unlink(missing_ok=True)


def _pin_bytes(pin_path: Path) -> bytes | None:
    """The pin file as it stands (None when there is none or it cannot be read)."""
    try:
        return pin_path.read_bytes()
    except OSError:
        return None


def _check_copy(snap: Snapshot, now_heads: dict[str, Any], head_file: Path,
                signer: Signer) -> list[str]:
    """The copy verified by itself, against its signed head."""
    try:
        head = json.loads(head_file.read_text(encoding="utf-8"))
        body, signature = head["body"], head["signature"]
        ok = body["format"] == HEAD_FORMAT and check_signature(
            signer.public_hex, canonical(body), signature)
    except (OSError, ValueError, KeyError, TypeError):
        return [f"{head_file.name} is not a signed head croupier backup wrote"]
    if not ok:
        return [f"{head_file.name} is not signed by this ledger's key {signer.key_id}"]
    problems = []
    if canonical(body["heads"]) != canonical(now_heads):
        problems.append("the copy's chains are not where its signed head says: it was changed "
                        "after the backup")
    report = verify_snapshot(snap, signer.public_hex, body["checkpoint"])
    problems.extend(f"the copy: {f}" for f in report.findings)
    return problems


def _against_anchor(snap: Snapshot, now_heads: dict[str, Any], pin_path: Path,
                    recovery: str | None) -> tuple[list[str], dict[str, Any]]:
    """Whether the copy reaches the pinned checkpoint; the gap when it does not."""
    try:
        pin = chain.read_pin(pin_path)
    except chain.PinError as exc:
        return [f"{exc}: the copy cannot be compared with the anchor"], {}
    if pin is None:
        return [f"no pin at {pin_path}: the copy cannot be compared with the anchor (put "
                "the pin back from its copy)"], {}
    mine = {int(c["id"]): chain.checkpoint_hash(c) for c in snap.checkpoints}
    pinned = mine.get(int(pin["id"]))
    if pinned == pin["hash"]:
        return [], {}
    if pinned is not None:
        return [f"the copy holds checkpoint {pin['id']} with other contents than the one "
                "pinned: it is a rewritten ledger, never restored"], {}
    gap = _gap(now_heads, pin)
    if recovery is None:
        return [f"the copy ends before the anchor (checkpoint {pin['id']}, pinned outside "
                f"the data folder): restoring it would lose {_summary(gap)}; if that loss is "
                "known and accepted, declare it: --declare-recovery REASON"], gap
    return [], gap


def _against_current(target: Path, snap: Snapshot, now_heads: dict[str, Any],
                     recovery: str | None, gap: dict[str, Any]) -> list[str]:
    """Whether the copy holds everything the ledger it would replace holds. The pin is only as
    new as the last checkpoint: the events of the last seconds before a crash (or every event
    of a ledger whose checkpoints stopped) are acknowledged and unsigned, and a copy that
    reaches the pin but not them would drop them without a word. So each chain's head in the
    current ledger must be in the copy's chain at the same place with the same hash; what is
    not is a loss, refused unless a recovery is declared (then recorded in ``gap``)."""
    if not target.exists():
        return []
    try:
        current = _current_heads(target)
    except sa.exc.SQLAlchemyError as exc:
        # A damaged ledger is what a restore is for, but what it held after the pin cannot
        # be told: a loss nobody can name, so a recovery to declare.
        why = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        gap["current"] = f"unreadable: {why}"
        if recovery is not None:
            return []
        return [f"the ledger this copy would replace cannot be read ({why}): "
                "what it held after the anchor cannot be compared with the copy; if that loss "
                "is accepted, declare it: --declare-recovery REASON"]
    lost = _lost(current, chain.recompute(snap), now_heads)
    if not lost:
        return []
    gap["current"] = lost
    if recovery is not None:
        return []
    return [f"the ledger this copy would replace holds what the copy does not: restoring it "
            f"would lose {_summary({'chains': lost})} (acknowledged, and not yet signed when "
            "the anchor was pinned); if that loss is known and accepted, declare it: "
            "--declare-recovery REASON"]


def _current_heads(target: Path) -> dict[str, Any]:
    """The chains' heads of the ledger at ``target``, read without writing to it (the file is
    kept beside the restored one as it was); SQLAlchemyError when it cannot be read."""
    uri = f"file:{target.resolve()}?mode=ro"
    engine = sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True),
                              poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return chain.heads(conn)
    finally:
        engine.dispose()


def _lost(current: dict[str, Any], copy: chain.Chains, copy_heads: dict[str, Any],
          ) -> dict[str, Any]:
    """Per chain, the current ledger's head the copy's recomputed chain does not hold."""
    lost: dict[str, Any] = {}
    for table_id, (seq, digest) in sorted(current.get("tables", {}).items()):
        if copy.tables.get(table_id, {}).get(int(seq)) != digest:
            lost[f"table {table_id}"] = _span(copy_heads.get("tables", {}).get(table_id),
                                              [seq, digest])
    for player, digest in sorted(current.get("wallets", {}).items()):
        if digest not in copy.wallets.get(player, set()):
            lost[f"wallet {player}"] = {"copy": copy_heads.get("wallets", {}).get(player),
                                        "current": digest}
    for name, mine in (("records", copy.records), ("users", copy.users)):
        head = current.get(name)
        if head is not None and mine.get(int(head[0])) != head[1]:
            where = "house records" if name == "records" else "user records"
            lost[where] = _span(copy_heads.get(name), head)
    return lost


def _span(have: list[Any] | None, current: list[Any]) -> dict[str, Any]:
    """A chain's loss: the copy's head, the current one, and the sequence numbers missing
    when the copy ends before it (a copy that went another way has none to name)."""
    out: dict[str, Any] = {"copy": have, "current": current}
    start = (have or [0])[0] + 1
    if start <= current[0]:
        out["missing_seq"] = [start, current[0]]
    return out


def _gap(copy: dict[str, Any], pin: dict[str, Any]) -> dict[str, Any]:
    """Per chain, from the copy's head to the anchor's: sequence numbers and hashes."""
    signed = pin.get("checkpoint")
    if not isinstance(signed, dict):
        return {"anchor": {"checkpoint": pin["id"], "hash": pin["hash"]},
                "chains": "unknown: the pin predates pins that carry their heads"}
    anchor = json.loads(signed["heads"])
    gap: dict[str, Any] = {}
    for table_id, (seq, digest) in sorted(anchor.get("tables", {}).items()):
        have = copy.get("tables", {}).get(table_id)
        if have != [seq, digest]:
            gap[f"table {table_id}"] = {"copy": have, "anchor": [seq, digest],
                                        "missing_seq": [(have or [0])[0] + 1, seq]}
    for player, digest in sorted(anchor.get("wallets", {}).items()):
        have = copy.get("wallets", {}).get(player)
        if have != digest:
            gap[f"wallet {player}"] = {"copy": have, "anchor": digest}
    if anchor.get("records") and copy.get("records") != anchor["records"]:
        have = copy.get("records")
        gap["house records"] = {"copy": have, "anchor": anchor["records"],
                                "missing_seq": [(have or [0])[0] + 1, anchor["records"][0]]}
    return {"anchor": {"checkpoint": pin["id"], "hash": pin["hash"]}, "chains": gap}


def _summary(gap: dict[str, Any]) -> str:
    chains = gap.get("chains")
    if not isinstance(chains, dict):
        return "what was signed after it (the pin names no heads)"
    parts = []
    for name, what in chains.items():
        span = what.get("missing_seq")
        parts.append(f"{name} {span[0]}..{span[1]}" if span else name)
    return ", ".join(parts) or "nothing a chain records"


def _install(stage: Path, target: Path) -> Path | None:
    """The staged copy in place of the ledger; the replaced database kept beside it."""
    kept = None
    if target.exists():
        # A name no earlier restore's kept file has (with its -wal, -shm): a second restore
        # within the same second (one stopped before it signed, run again at once) replaced
        # the first one's, and with it the only ledger holding what the copy lacks.
        stamp, n = int(time.time()), 0
        while True:
            kept = target.with_name(f"{target.name}.before-restore-{stamp}"
                                    + (f"-{n}" if n else ""))
            if not any(Path(f"{kept}{tail}").exists() for tail in ("", "-wal", "-shm")):
                break
            n += 1
        os.replace(target, kept)
    for extra in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        if extra.exists() and kept is not None:
            os.replace(extra, Path(f"{kept}{str(extra)[len(str(target)):]}"))
    os.replace(stage, target)
    return kept
