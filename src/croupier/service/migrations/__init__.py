"""Alembic migrations of the ledger schema (run by ``croupier serve`` on start)."""
