"""Every table of the ledger's schema is a hash chain, a projection the audit rebuilds and
compares (by a named function), or a cache no decision trusts (with the reason): the schema is
read from the store's metadata and from a database the migrations made, and a table that is
none of these fails (``croupier.service.schema.TABLES``)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import sqlalchemy as sa

from croupier.service import auth, controls, coupons, schema, store  # noqa: F401  (their tables)
from croupier.service.cluster import leases


def _migrated(tmp_path: Path) -> set[str]:
    engine = store.make_engine(f"sqlite:///{tmp_path / 'schema.db'}")
    try:
        store.upgrade(engine)
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _resolve(dotted: str) -> object:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_every_table_is_classified(tmp_path: Path) -> None:
    found = set(store.metadata.tables) | _migrated(tmp_path)
    found |= set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", leases.DDL))
    unclassified = sorted(found - set(schema.TABLES))
    assert not unclassified, f"tables neither chained, projected nor a cache: {unclassified}"
    stale = sorted(set(schema.TABLES) - found)
    assert not stale, f"classified tables the schema no longer has: {stale}"


def test_the_metadata_and_the_migrations_make_the_same_tables(tmp_path: Path) -> None:
    assert set(store.metadata.tables) == _migrated(tmp_path) - {"alembic_version"}


def test_each_named_check_exists_and_each_cache_says_why() -> None:
    for name, kind in schema.TABLES.items():
        if isinstance(kind, (schema.Chain, schema.Projection)):
            assert callable(_resolve(kind.check)), name
        else:
            assert isinstance(kind, schema.Cache) and len(kind.why) > 20, name
    assert set(schema.OPEN) <= set(schema.TABLES)
