"""Alembic's environment: runs the migrations on the connection ``store.upgrade`` passes in."""

from __future__ import annotations

from alembic import context


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


# Importing this file outside Alembic (doctest collection) must do nothing.
if getattr(context, "_proxy", None) is not None:
    run()
