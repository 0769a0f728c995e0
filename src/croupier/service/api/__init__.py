"""The HTTP API as routers, one module per resource.

``deps`` holds what routes need (services, the user, role checks, the idempotency key),
``models`` the request bodies, ``queries`` the SQL, ``errors`` the one place errors become
HTTP answers, ``act`` the path of a table action through the ledger's group commit.
"""

from __future__ import annotations

from fastapi import FastAPI

from croupier.service.api import (
    alerts,
    audit,
    auth,
    bets,
    cage,
    coupons,
    dealing,
    docs,
    equipment,
    health,
    paytable_changes,
    profiles,
    recall,
    register,
    reports,
    rules,
    streams,
    tables,
    users,
    wallets,
)

ROUTERS = (health, auth, users, wallets, coupons, tables, bets, dealing, equipment, recall, audit,
           streams, docs,
           rules, reports,
           register, paytable_changes, cage, alerts, profiles)


def include(app: FastAPI) -> None:
    """Add every resource's routes to ``app``."""
    for module in ROUTERS:
        app.include_router(module.router)
