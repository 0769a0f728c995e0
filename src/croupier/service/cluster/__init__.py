"""Several ``croupier serve`` nodes on one PostgreSQL (``croupier serve --node-id NAME``).

Each table is owned by one node at a time through a lease with a fencing epoch
(:mod:`.leases`, :mod:`.node`); requests reaching another node are forwarded to the owner
(:mod:`.routing`); WebSocket watchers on every node are fed from the ledger through
LISTEN/NOTIFY (:mod:`.feed`). A single node on SQLite never loads any of this.

The hooks into the single-node server are: ``Ledger.fence`` (called inside every writing
transaction), the app's hub replaced by :class:`~.feed.ClusterHub`, and :class:`~.routing.Router`
in front of the app; :func:`attach` installs them.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI
from starlette.middleware import Middleware

from croupier.service import store
from croupier.service.api.deps import Staff
from croupier.service.api.guard import Guard
from croupier.service.cluster import leases
from croupier.service.cluster.feed import Announcer, ClusterHub, Feed, conninfo
from croupier.service.cluster.node import Node
from croupier.service.cluster.routing import Router

log = logging.getLogger("croupier.cluster")

_STARTUP_LOCK = 0x63726F75  # "crou": one node at a time migrates and seeds the database


class NotPostgres(ValueError):
    """Cluster mode asked for on a database other than PostgreSQL."""


def make_engine(url: str) -> sa.Engine:
    """A PostgreSQL engine for a cluster node (SQLite is refused: one machine, one writer)."""
    if not url.startswith("postgresql"):
        raise NotPostgres("several nodes share one PostgreSQL database: --node-id needs "
                          "--database postgresql+psycopg://...; SQLite serves one node only")
    return store.make_engine(url)


STARTUP_WAIT_SECONDS = 10
"""How long a starting node waits for the start-up lock at a time before it says it waits."""


@contextlib.contextmanager
def startup(engine: sa.Engine) -> Iterator[None]:
    """Hold the cluster's start-up lock (nodes starting together migrate and seed one at a
    time) and create the lease table.

    A node waits for the lock as long as another node holds it while starting (a migration
    may take minutes), saying so every :data:`STARTUP_WAIT_SECONDS`; a node stopped while it
    held it gives it up by itself (:func:`store.held_lock`). As a session's lock, it kept
    every other node from starting for as long as the stop lasted."""
    with contextlib.ExitStack() as held:
        while True:
            try:
                held.enter_context(store.held_lock(engine, _STARTUP_LOCK, STARTUP_WAIT_SECONDS))
                break
            except store.LockBusy:
                log.warning("another node is starting (it holds the cluster's start-up lock): "
                            "waiting for it")
        yield
        with engine.begin() as conn:
            leases.create(conn)


def attach(app: FastAPI, node_id: str, url: str, ttl: float) -> Node:
    """Make the app one node of a cluster: leases, fencing, forwarding and the shared feed."""
    svc = app.state.services
    ledger = svc.ledger
    node = Node(svc.engine, svc.tables, node_id, url, ttl, _address_secret())
    ledger.fence = node.fence
    hub = ClusterHub(svc.engine)
    if svc.hub.publish in ledger.listeners:  # the writer no longer feeds watchers directly
        ledger.listeners.remove(svc.hub.publish)
    if svc.hub.end_user in svc.auth.revoked:  # a revoked user's streams close on this node
        svc.auth.revoked.remove(svc.hub.end_user)
        svc.auth.revoked.append(hub.end_user)
    svc.hub = hub
    feed = Feed(svc.engine, svc.tables, hub)
    announcer = Announcer(conninfo(svc.engine))
    ledger.listeners.append(announcer.committed)
    # Inside the access log and the request guard (so a forwarded request is logged on both
    # nodes under one request id, and its answer carries the security headers), in front of
    # the express lane and the routes (so a bet for another node's table goes there).
    inner = next(i for i, m in enumerate(app.user_middleware) if _named(m, Guard)) + 1
    app.user_middleware.insert(inner, Middleware(Router, node=node, tables=svc.tables,
                                                 auth=svc.auth))
    app.add_api_route("/cluster", _view(node), methods=["GET"], tags=["cluster"])
    node.start()
    announcer.start()
    feed.start()
    return node


def _address_secret() -> bytes | None:
    """The secret that vouches for the nodes' addresses, from the key every node holds
    (``croupier serve`` always holds one; without it nothing is forwarded)."""
    from croupier.service.audit.verify import TRUST

    return None if TRUST.signer is None else TRUST.signer.derive(leases.ADDRESS)


def _view(node: Node) -> Callable[[Staff], dict[str, Any]]:
    """``GET /cluster``: this node's id, its address and the tables it holds with their epochs.
    Staff only: the nodes' addresses and where each table lives are the house's, not a
    player's (a player reaches any table through any node)."""

    def cluster(user: Staff) -> dict[str, Any]:
        return {"node": node.node_id, "url": node.url, "holds": node.held()}

    return cluster


def _named(middleware: Middleware, kind: type) -> bool:
    """Whether ``middleware`` is an instance of ``kind`` waiting to be built."""
    return bool(getattr(middleware, "cls", None) is kind)
