"""The HTTP API: FastAPI over the ledger. ``create_app`` builds it; ``croupier serve`` runs it.

Every refusal is ``{"error": {"code", "reason", "clause"}}`` with the regulation's reason; no
stack trace ever reaches a client. Money is a decimal string ("10.00"), never a float.
Money-moving requests need an ``Idempotency-Key`` header: a retry with the same key gets the
same response and moves nothing twice. The routes are in :mod:`croupier.service.api`, one
module per resource.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import sqlalchemy as sa
from fastapi import FastAPI

from croupier.service import api, people, store
from croupier.service.api import access, errors, express, guard
from croupier.service.api.clients import Proxies
from croupier.service.api.deps import Services
from croupier.service.audit import seeding
from croupier.service.audit.verify import TRUST, verify_ledger
from croupier.service.auth import Auth, session_key
from croupier.service.commit import Committer
from croupier.service.ledger import Ledger
from croupier.service.rng import DrawSource, Rng
from croupier.service.runner import Runner
from croupier.service.streaming import Hub
from croupier.service.tables import Tables
from croupier.service.throttle import LoginThrottle, Policy

DESCRIPTION = ("Live craps and roulette tables under New Jersey's regulations: a real "
               "ledger, roles, RNG, recall and equipment. Refusals are "
               '`{"error": {"code", "reason", "clause"}}`.')


def start_ledger(engine: sa.Engine) -> Tables:
    """Start-up: rebuild every table from its events and refuse a ledger that does not balance."""
    tables = Tables(Ledger(engine))
    tables.load()
    report = verify_ledger(tables)
    if not report["ok"]:
        raise RuntimeError("the ledger does not balance: " + "; ".join(report["problems"]))
    return tables


def create_app(engine: sa.Engine, rng: Rng, express_lane: bool = True,
               trusted_proxies: Sequence[str] = ()) -> FastAPI:
    """The app over a migrated database; tables are rebuilt from their events.

    The start-up steps, in order: load and verify the ledger, wire the event stream, build
    the services, then the error answers, the express lane for bets (``express_lane``; off,
    every bet goes through its route), the request guard (size limit, security headers), the
    access log, the routes and the browser table. ``trusted_proxies``: the addresses or
    networks whose ``X-Forwarded-For`` is believed (:mod:`.api.clients`; none by default).
    The log-in throttle's numbers are the defaults of :class:`.throttle.Policy`, or as
    ``CROUPIER_LOGIN_THROTTLE`` sets them (``name=value,...``). A seeded ``rng`` is refused
    (:class:`~.audit.seeding.NotATestLedger`) on a ledger that is not a test ledger."""
    if rng.source is not DrawSource.OS:
        # croupier serve asked before; asked again here, for whatever else builds the app.
        seeding.require(engine, TRUST.signer)
    tables = start_ledger(engine)
    ledger = tables.ledger
    hub = Hub()
    ledger.listeners.append(hub.publish)
    runner = Runner(ledger, tables)
    committer = Committer(runner, single_writer=store.is_sqlite(engine))
    auth = Auth(engine, session_key(TRUST.signer))
    people.anchor(engine, TRUST.pin_path)  # who counts as a second person: checked
    auth.revoked.append(hub.end_user)  # a locked or deleted user's streams close at once
    policy = Policy.from_text(os.environ.get("CROUPIER_LOGIN_THROTTLE", ""))
    svc = Services(engine, ledger, auth, rng, hub, committer, LoginThrottle(policy), tables,
                   runner, Proxies(trusted_proxies))
    # No OpenTelemetry: its per-request check for a configured provider is off the bet's path.
    app = FastAPI(title="croupier", version="0.1.0", description=DESCRIPTION, docs_url=None,
                  redoc_url=None, telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.services = svc
    errors.install(app)
    if express_lane:
        express.install(app)  # inside the guard and the access log: they apply to bets too
    guard.install(app)
    access.install(app)  # outside the guard: its refusals carry the request id too
    api.include(app)
    # The browser table (``/`` and ``/static``) ships in the package, served by the same app.
    from croupier.web import mount

    mount(app)
    return app

