"""The live server's commands: ``serve``, ``init``, ``recall``, ``users`` and ``audit``.

``croupier init`` makes a ledger (and its signing key) on purpose; ``croupier serve`` only
ever serves one that exists, checked before it serves (see ``preflight`` and ``audit``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    Sub = argparse._SubParsersAction[argparse.ArgumentParser]

HOST = "127.0.0.1"
PORT = 8000


def _where(p: argparse.ArgumentParser, key: bool = True) -> None:
    p.add_argument("--data-dir", default="./data", type=Path,
                   help="folder of the embedded SQLite ledger (default ./data)")
    p.add_argument("--database", default=os.environ.get("CROUPIER_DATABASE_URL") or None,
                   help="a database URL instead, e.g. postgresql+psycopg://user:pw@host/db")
    if key:
        p.add_argument("--key-file", type=Path, default=None,
                       help="the ledger's signing key, its pin beside it (default "
                            "CROUPIER_LEDGER_KEY, else DATA_DIR-anchors/ledger.key: outside "
                            "the data folder)")


def register(sub: Sub) -> None:
    _register_serve(sub)
    _register_init(sub)
    rec = sub.add_parser("recall", help="print a round, or a player's last ten rounds",
                         epilog="exit status: 0 printed, 1 no such round or player, 2 no "
                                "ledger, or neither TABLE ROUND nor --player")
    rec.add_argument("table", nargs="?", help="the table id")
    rec.add_argument("round", nargs="?", type=int, help="the round number")
    rec.add_argument("--player", help="a player's last ten rounds instead")
    rec.add_argument("--json", action="store_true",
                     help="the records as JSON (times as seconds since the epoch) instead of "
                          "tables with ISO-8601 times")
    _where(rec, key=False)
    rec.set_defaults(func=_recall)
    _register_users(sub)
    _register_audit(sub)
    _register_backup(sub)


def _register_serve(sub: Sub) -> None:
    from croupier.service.audit.canonical import money
    from croupier.service.limits import DEFAULTS as LIMITS
    from croupier.service.limits import HELP as LIMITS_HELP

    serve = sub.add_parser("serve", help="run the live tables (HTTP API on 127.0.0.1:8000)")
    serve.add_argument("--host", default=HOST, help=f"address to listen on (default {HOST})")
    serve.add_argument("--port", type=port_number, default=PORT,
                       help=f"port, 1 to 65535 (default {PORT}); bound before anything else")
    serve.add_argument("--access-log", choices=("on", "off"), default="on",
                       help="one line per request on standard error: time, request id, "
                            "method, path (no query secrets), status, duration (default on)")
    _where(serve)
    serve.add_argument("--demo", action="store_true",
                       help="when there is no ledger yet, make a DEMO one first (croupier init "
                            "--demo); never on an existing ledger")
    serve.add_argument("--demo-password", default=os.environ.get("CROUPIER_DEMO_PASSWORD"),
                       help="with --demo: the demo users' password (default: generated)")
    serve.add_argument("--checkpoint-within", type=_seconds, default=5.0, metavar="SECONDS",
                       help="sign a checkpoint at most this long after any event not yet "
                            "signed (default 5)")
    serve.add_argument("--insecure-test-rng-seed", type=int, default=None, metavar="N",
                       help="TESTS ONLY: predictable dice from a seeded generator (needs "
                            "--test-mode, and a test ledger: croupier init --test-mode)")
    serve.add_argument("--test-mode", action="store_true",
                       help="allow test-only options; with --demo, a ledger made now is a "
                            "test ledger; never on a live casino floor")
    serve.add_argument("--trusted-proxy", action="append", metavar="ADDRESS",
                       default=[p for p in os.environ.get("CROUPIER_TRUSTED_PROXIES", "")
                                .split(",") if p.strip()],
                       help="a reverse proxy (address or network, e.g. 10.0.0.5 or "
                            "10.0.0.0/8; repeat for more; or CROUPIER_TRUSTED_PROXIES, comma "
                            "separated) whose X-Forwarded-For names the client; default none: "
                            "the header is believed from no one, 127.0.0.1 included")
    for name, says in LIMITS_HELP.items():
        serve.add_argument(f"--{name.replace('_', '-')}", default=None, metavar="DOLLARS",
                           help=f"{says} (default {money(LIMITS[name])})")
    _cluster_options(serve)
    serve.set_defaults(func=_serve)


def _seconds_in(text: str, low: float, high: float, *, low_too: bool) -> float:
    """A number of seconds above ``low`` (or at it, ``low_too``) and at most ``high``; an
    ``ArgumentTypeError`` (argparse's usage error) for anything else, NaN included."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    above = value >= low if low_too else value > low
    if not (above and value <= high):  # nan fails every comparison
        raise argparse.ArgumentTypeError(f"{text} is not between {low:g} and {high:g} seconds")
    return value


def _seconds(text: str) -> float:
    """``--checkpoint-within``: a number of seconds above 0 and at most an hour."""
    return _seconds_in(text, 0, 3600, low_too=False)


def _lease_ttl(text: str) -> float:
    """``--lease-ttl``: 1 to 3600 seconds. A node counts a lease as its own until 0.5 s before
    it lapses and renews it every third of it: below 1 s it took tables it never counted as
    held, and kept them from every other node by renewing them (503 everywhere); a value
    PostgreSQL cannot add to a time (nan, inf, 1e300) failed every take; above an hour, a node
    that stalls keeps its tables from the others longer than any operator would wait."""
    return _seconds_in(text, 1, 3600, low_too=True)


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535 (argparse reports anything else as a usage error)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: use 1 to 65535")
    return port


def _cluster_options(serve: argparse.ArgumentParser) -> None:
    cluster = serve.add_argument_group(
        "cluster", "several nodes on one PostgreSQL (multi-node mode needs --database "
        "postgresql+psycopg://...; SQLite serves one node only)")
    cluster.add_argument("--node-id", default=os.environ.get("CROUPIER_NODE_ID"),
                         help="run as this node of a cluster: tables are leased, requests for "
                              "another node's table forwarded to it (docs/cluster.md)")
    cluster.add_argument("--advertise", default=None,
                         help="this node's address for the others (default http://HOST:PORT)")
    cluster.add_argument("--lease-ttl", type=_lease_ttl, default=3.0,
                         help="seconds a table's lease lasts unless renewed, 1 to 3600 "
                              "(default 3)")


def _register_init(sub: Sub) -> None:
    init = sub.add_parser("init", help="make a new ledger: database, signing key, first admin")
    _where(init)
    init.add_argument("--admin", default="admin",
                      help="the first admin's name (default admin): a lower-case letter, then "
                           "1 to 31 lower-case letters, digits, _ or -")
    init.add_argument("--admin-password", default=os.environ.get("CROUPIER_ADMIN_PASSWORD"),
                      help="its password (at least 12 characters; default: generated, printed "
                           "once)")
    init.add_argument("--demo", action="store_true",
                      help="a DEMO ledger: staff, players with $1000, craps-1, roulette-1, dice")
    init.add_argument("--demo-password", default=os.environ.get("CROUPIER_DEMO_PASSWORD"),
                      help="with --demo: every demo user's password (default: generated)")
    init.add_argument("--test-mode", action="store_true",
                      help="TESTS ONLY: a test ledger, which serve --insecure-test-rng-seed "
                           "may serve; set when the ledger is made, never afterwards")
    init.set_defaults(func=_init)


def _register_users(sub: Sub) -> None:
    users = sub.add_parser("users", help="recover accounts directly on the ledger's data")
    verbs = users.add_subparsers(dest="verb", required=True, help="what to do")
    unlock = verbs.add_parser("unlock", help="unlock an account")
    unlock.add_argument("name", help="the user name")
    _where(unlock, key=False)
    unlock.set_defaults(func=_users_unlock)
    reset = verbs.add_parser("reset-password", help="a new password; unlocks, ends sessions")
    reset.add_argument("name", help="the user name")
    reset.add_argument("--password", default=os.environ.get("CROUPIER_NEW_PASSWORD"),
                       help="the new password (default: generated, printed once)")
    _where(reset, key=False)
    reset.set_defaults(func=_users_reset)
    restore = verbs.add_parser("restore", help="bring back a deleted account (unlocked)")
    restore.add_argument("name", help="the user name")
    _where(restore, key=False)
    restore.set_defaults(func=_users_restore)
    add = verbs.add_parser("add", help="a new account made by whoever holds the data (an "
                           "independent person for the two-person rules)")
    add.add_argument("name", help="the user name")
    add.add_argument("--role", required=True,
                     choices=("player", "dealer", "supervisor", "cashier", "auditor", "admin"))
    add.add_argument("--password", default=os.environ.get("CROUPIER_NEW_PASSWORD"),
                     help="the password (default: generated, printed once)")
    _where(add, key=False)
    add.set_defaults(func=_users_add)


def _register_audit(sub: Sub) -> None:
    audit = sub.add_parser("audit", help="verify the ledger, export or check a signed bundle")
    verbs = audit.add_subparsers(dest="verb", required=True, help="what to do")
    verify = verbs.add_parser("verify", help="chains, signed checkpoints, the engine replayed")
    _where(verify)
    verify.add_argument("--json", action="store_true", help="the whole report as JSON")
    verify.add_argument("--anchor", type=Path, default=None, metavar="BUNDLE",
                        help="an earlier bundle: the ledger must extend exactly what it signed")
    verify.set_defaults(func=_audit_verify)
    export = verbs.add_parser("export", help="write a signed bundle for offline verification")
    export.add_argument("file", type=Path, help="the bundle to write (JSON)")
    _where(export)
    export.set_defaults(func=_audit_export)
    check = verbs.add_parser("verify-bundle", help="verify a bundle offline (nothing else needed)")
    check.add_argument("file", type=Path, help="the bundle to check")
    check.add_argument("--public-key", default=None,
                       help="the house's registered public key (hex); default: the bundle's")
    check.add_argument("--json", action="store_true", help="the whole report as JSON")
    check.add_argument("--since", type=Path, default=None, metavar="OLDER",
                       help="an earlier bundle: this one must extend exactly what it signed")
    check.set_defaults(func=_audit_bundle)
    rotate = verbs.add_parser("rotate-key", help="a new signing key, introduced by the old one")
    _where(rotate)
    rotate.set_defaults(func=_audit_rotate)


def _register_backup(sub: Sub) -> None:
    backup = sub.add_parser("backup", help="a consistent copy of the live ledger, with its "
                                           "signed head (SQLite; PostgreSQL: pg_dump)",
                            epilog="exit status: 0 copied, 1 the ledger does not reach its pin, or "
                                   "another process holds the checkpoint writers' turn, 2 no "
                                   "ledger, no key, or DEST exists")
    backup.add_argument("dest", type=Path, help="the copy to write (DEST and DEST.head)")
    _where(backup)
    backup.set_defaults(func=_backup)
    restore = sub.add_parser("restore", help="verify a copy, then install it (server stopped)",
                             epilog="exit status: 0 installed, 1 refused (the reasons are "
                                    "printed), 2 no key or no copy")
    restore.add_argument("src", type=Path, help="the copy croupier backup wrote (and SRC.head)")
    restore.add_argument("--declare-recovery", default=None, metavar="REASON",
                         help="install a copy older than the anchor, recording the loss (the "
                              "gap, per chain) as an event with this reason")
    _where(restore)
    restore.set_defaults(func=_restore)


def _fail(command: str, message: object, code: int = 2) -> int:
    print(f"croupier {command}: {message}", file=sys.stderr)
    return code


# --- serve --------------------------------------------------------------------------------

def _serve(args: argparse.Namespace) -> int:
    """Check the options, bind the port, and only then touch the ledger or print anything:
    a port in use or a bad option fails before any side effect."""
    from croupier.service import install, preflight
    from croupier.service.api.clients import networks
    from croupier.service.audit import keys, seeding
    from croupier.service.limits import ENV, parse_limit
    from croupier.service.listen import CannotListen, listen
    from croupier.service.rng import DrawSource, InsecureRng, make_rng
    from croupier.service.throttle import Policy

    try:
        rng = make_rng(args.insecure_test_rng_seed, args.test_mode)
        networks(args.trusted_proxy)  # a bad address is refused before anything starts
        Policy.from_text(os.environ.get("CROUPIER_LOGIN_THROTTLE", ""))
        for name in ENV:
            value = getattr(args, name)
            if value is not None:
                parse_limit(value, "--" + name.replace("_", "-"))
    except (InsecureRng, ValueError) as exc:
        return _fail("serve", exc)
    try:
        sock = listen(args.host, args.port)
    except CannotListen as exc:
        return _fail("serve", exc, 1)
    with sock:
        preflight.private_files()
        for name, env in ENV.items():
            if getattr(args, name) is not None:
                os.environ[env] = getattr(args, name)
        try:
            with _startup(args):
                if args.demo and not _ledger_exists(args):
                    demo = install.FirstUsers(demo=True, demo_password=args.demo_password)
                    _print_init(install.init(args.data_dir, args.database, args.key_file,
                                             demo, args.test_mode), args)
                engine = preflight.open_ledger(args.data_dir, args.database)
            signer = keys.load_key(keys.key_path(args.data_dir, args.key_file))
            if rng.source is not DrawSource.OS:
                # Before anything is served (each node of a cluster at its own start): a
                # seeded generator draws only on a ledger made a test ledger.
                seeding.require(engine, signer)
        except (ValueError, preflight.NotReady, keys.KeyError_, install.InitError) as exc:
            return _fail("serve", exc)
        return _serve_alone(args, engine, signer, rng, sock)


def _serve_alone(args: argparse.Namespace, engine: Any, signer: Any, rng: Any,
                 sock: Any) -> int:
    """Serve, holding a SQLite ledger for this process alone (preflight.held): a second
    server, or a restore, on the same file is refused while it runs."""
    from croupier.service import preflight

    served = preflight.served_file(engine)
    with contextlib.ExitStack() as alone:
        if served is not None:
            try:
                alone.enter_context(preflight.held(served))
            except preflight.NotReady as exc:
                engine.dispose()
                return _fail("serve", exc)
        return _run_server(args, engine, signer, rng, sock)


@contextlib.contextmanager
def _startup(args: argparse.Namespace) -> Iterator[None]:
    """A cluster node (``--node-id``) starts under the cluster's start-up lock, so nodes
    starting together initialise (``--demo``) and migrate one at a time; NotPostgres (a
    ValueError) when its database is not PostgreSQL. A single node needs nothing."""
    if not args.node_id:
        yield
        return
    from croupier.service import cluster, store

    engine = cluster.make_engine(store.database_url(args.data_dir, args.database))
    try:
        with cluster.startup(engine):
            yield
    finally:
        engine.dispose()


def _ledger_exists(args: argparse.Namespace) -> bool:
    from croupier.service import preflight, store

    if args.database is None:
        return bool((args.data_dir / preflight.DB_NAME).exists())
    engine = store.make_engine(args.database)
    try:
        return bool(preflight.initialised(engine))
    finally:
        engine.dispose()


def _run_server(args: argparse.Namespace, engine: Any, signer: Any, rng: Any,
                sock: Any) -> int:
    from croupier.service import install, store
    from croupier.service.audit import keys, verify
    from croupier.service.checkpoints import WalCheckpoints

    key_path = keys.key_path(args.data_dir, args.key_file)
    verify.configure(signer, install.pin_path(key_path))
    checkpoints = WalCheckpoints(engine).start() if store.is_sqlite(engine) else None
    _leave_on_sigterm()
    try:
        return _serve_app(args, engine, signer, rng, sock)
    finally:
        if checkpoints is not None:
            checkpoints.close()


def _leave_on_sigterm() -> None:
    """SIGTERM ends the process through its ``finally`` blocks (the last WAL checkpoint, a
    node's leases handed over). uvicorn answers the requests in flight, then raises the signal
    again under the handler it found; Python's default for SIGTERM would kill the process
    right there, before any of them ran."""
    import signal
    import threading

    def leave(signum: int, _frame: Any) -> None:
        raise SystemExit(0)

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, leave)


def _serve_app(args: argparse.Namespace, engine: Any, signer: Any, rng: Any,
               sock: Any) -> int:
    import gc

    import uvicorn

    from croupier.service.app import create_app
    from croupier.service.audit.seeding import NotATestLedger
    from croupier.service.rng import DrawSource

    try:
        app = create_app(engine, rng, trusted_proxies=args.trusted_proxy)
    except NotATestLedger as exc:  # asked before too (_serve): here only if it changed since
        return _fail("serve", exc)
    except RuntimeError as exc:  # the start-up audit found the ledger changed
        return _fail("serve", f"refusing to serve: {exc}", 3)
    node = None
    if args.node_id:  # cluster hook: croupier.service.cluster (PostgreSQL only)
        from croupier.service import cluster

        node = cluster.attach(app, args.node_id,
                              args.advertise or f"http://{args.host}:{args.port}", args.lease_ttl)
        print(f"croupier: node {args.node_id} of a cluster (tables leased for "
              f"{args.lease_ttl:g} s)", flush=True)
    # The tables were rebuilt from the ledger: move what start-up built out of the collector's
    # way, and collect the oldest generation less often, so no long pause hits a bet.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    where = engine.url.render_as_string(hide_password=True)
    print(f"croupier: ledger {where} (verified; signing key {signer.key_id})", flush=True)
    if rng.source is not DrawSource.OS:
        print("croupier: TEST MODE: a seeded RNG, every roll predictable; never a live table",
              flush=True)
    print(f"croupier: serving on http://{args.host}:{args.port}  "
          f"(browser table at /, API docs at /docs)", flush=True)
    print(f"croupier: log in with POST http://{args.host}:{args.port}/auth/login "
          '{"username": "...", "password": "..."}', flush=True)
    from croupier.service.api.clients import Proxies
    from croupier.service.listen import (
        KEEP_ALIVE_SECONDS,
        WEBSOCKET_MAX_BYTES,
        WEBSOCKET_QUEUE,
        access_log_to_stderr,
        http_protocol,
        open_files_limit,
        per_address,
    )

    if args.access_log == "on":
        access_log_to_stderr()
    # proxy_headers off: uvicorn would otherwise believe X-Forwarded-For from 127.0.0.1; the
    # app reads it only from the proxies the operator names (api/clients.py).
    # A connection that keeps the server waiting is closed (service/listen.py): idle after a
    # response, or slow to send a request's headers; a slow body is answered 408 (api/guard.py).
    # A WebSocket's client sends one small message, and no more is held of it.
    # One client address holds a share of the connections the process may open (a trusted
    # proxy's carry everyone's, so it is not held to one client's).
    protocol = http_protocol(cap=per_address(open_files_limit()),
                             exempt=Proxies(args.trusted_proxy).trusts)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            access_log=False, proxy_headers=False, http=protocol,
                            timeout_keep_alive=KEEP_ALIVE_SECONDS,
                            ws_max_size=WEBSOCKET_MAX_BYTES, ws_max_queue=WEBSOCKET_QUEUE)
    ticker = _ticker(app, engine, signer, args.checkpoint_within)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        ticker.close()  # signs what the last requests wrote (a clean shutdown)
        if node is not None:
            node.close()  # hand the tables over at once rather than after their leases expire
    return 0


def _ticker(app: Any, engine: Any, signer: Any, within: float) -> Any:
    """The thread that signs a checkpoint at most ``within`` seconds after any event."""
    from croupier.service.audit import verify
    from croupier.service.audit.ticker import Ticker

    ledger = app.state.services.ledger
    return Ticker(verify.writer(engine, signer), within, ledger.sqlite_lock).start()


# --- init ---------------------------------------------------------------------------------

def _init(args: argparse.Namespace) -> int:
    from croupier.service import install, preflight
    from croupier.service.audit import keys

    try:
        done = install.init(args.data_dir, args.database, args.key_file, install.FirstUsers(
            args.admin, args.admin_password, args.demo, args.demo_password), args.test_mode)
    except (install.InitError, preflight.NotReady, keys.KeyError_) as exc:
        return _fail("init", exc)
    _print_init(done, args)
    return 0


def _print_init(done: Any, args: argparse.Namespace) -> None:
    state = "created" if done.created else "already initialised: upgraded and checked"
    print(f"croupier init: ledger {state}", flush=True)
    made = "created" if done.key_created else "kept"
    print(f"croupier init: signing key {done.key_id} {made} at {done.key_path}, its pin beside "
          "it (mode 0600; keep a copy offline; `croupier audit rotate-key` replaces it)",
          flush=True)
    if done.key_inside:
        print("croupier init: the key and pin are INSIDE the data folder, as asked: whoever "
              "reads the folder can re-sign the ledger (fine for a demo, never for a casino)",
              flush=True)
    if done.created and done.test:
        print("croupier init: THIS IS A TEST LEDGER: a seeded RNG (serve "
              "--insecure-test-rng-seed N --test-mode) may serve it; never a casino floor's",
              flush=True)
    if done.created and done.demo:
        print("croupier init: THIS IS A DEMO LEDGER: demo tables craps-1 (nj-13-69f) and "
              "roulette-1 (nj-casino-night), players with $1000 of demo money", flush=True)
    if done.logins:
        print("croupier init: logins (shown once):", flush=True)
        for name, password in done.logins.items():
            print(f"  {name:<11} {password}", flush=True)
        if args.database is None and done.demo:
            path = args.data_dir / "demo-logins.txt"
            path.write_text("".join(f"{n} {p}\n" for n, p in done.logins.items()),
                            encoding="utf-8")
            path.chmod(0o600)


# --- recall, users ------------------------------------------------------------------------

def _recall(args: argparse.Namespace) -> int:
    """A round or a player's rounds: tables with ISO times, or ``--json``. Exit 1 for an
    unknown round or player, 2 for no ledger or no question."""
    from croupier.service import recall, recall_text, store

    if not args.player and (not args.table or args.round is None):
        return _fail("recall", "give TABLE ROUND, or --player NAME")
    url = store.database_url(args.data_dir, args.database)
    if args.database is None and not (args.data_dir / "croupier.db").exists():
        return _fail("recall", f"no ledger in {args.data_dir} (croupier init makes one)")
    engine = store.make_engine(url)
    with engine.connect() as conn:
        if args.player:
            rounds = recall.player_rounds(conn, args.player)
            if not rounds and not _user_exists(conn, args.player):
                hint = _nearest(conn, "users", args.player)
                return _fail("recall", f"there is no player {args.player!r}{hint}", 1)
            result: object = rounds
            text = recall_text.player_text(args.player, rounds)
        else:
            record = recall.round_record(conn, args.table, args.round)
            if record is None:
                hint = _nearest(conn, "tables", args.table)
                return _fail("recall", f"no round {args.round} at table {args.table}{hint}", 1)
            result, text = record, recall_text.round_text(record)
    sys.stdout.write((json.dumps(result, indent=2) if args.json else text) + "\n")
    return 0


def _user_exists(conn: Any, name: str) -> bool:
    import sqlalchemy as sa

    from croupier.service import store

    return conn.execute(sa.select(store.users.c.id).where(
        store.users.c.username == name)).first() is not None


def _nearest(conn: Any, kind: str, name: str) -> str:
    """``; did you mean "x"?`` for the user name or table id nearest ``name``, when ``name``
    is none of them (the same rule as every other name the command line reads)."""
    import sqlalchemy as sa

    from croupier.reading import did_you_mean
    from croupier.service import store

    column = store.users.c.username if kind == "users" else store.tables.c.id
    known = [row[0] for row in conn.execute(sa.select(column))]
    return "" if name in known else did_you_mean(name, known)


def _no_user(command: str, engine: Any, name: str) -> int:
    with engine.connect() as conn:
        hint = _nearest(conn, "users", name)
    return _fail(command, f"there is no user {name!r}{hint}", 1)


def _open(command: str, args: argparse.Namespace) -> Any:
    from croupier.service import preflight

    try:
        return preflight.open_ledger(args.data_dir, args.database)
    except preflight.NotReady as exc:
        _fail(command, exc)
        return None


def _account_change(command: str, args: argparse.Namespace,
                    change: Callable[[Any, str], bool]) -> int | None:
    """``change(engine, name)`` on the account ``args.name`` at the command line: None when it
    was made, else the exit code, with what stood in the way said (no ledger, no such user,
    or a change refused: a deleted account unlocked, the last admin)."""
    from croupier.errors import Refusal

    engine = _open(command, args)
    if engine is None:
        return 2
    try:
        found = change(engine, args.name)
    except Refusal as exc:
        return _fail(command, exc.reason, 1)
    if not found:
        return _no_user(command, engine, args.name)
    return None


def _users_unlock(args: argparse.Namespace) -> int:
    from croupier.service import recovery

    failed = _account_change("users unlock", args, recovery.unlock)
    if failed is not None:
        return failed
    print(f"croupier users unlock: {args.name} unlocked")
    return 0


def _users_reset(args: argparse.Namespace) -> int:
    from croupier.service import install, recovery
    from croupier.service.auth import new_password

    password = args.password or new_password()
    problem = install.password_problem(args.name, password)
    if problem:
        return _fail("users reset-password", problem)
    failed = _account_change("users reset-password", args, lambda engine, name:
                             recovery.reset_password(engine, name, password))
    if failed is not None:
        return failed
    shown = f": {password} (shown once)" if args.password is None else ""
    print(f"croupier users reset-password: {args.name} has a new password{shown}; unlocked, "
          "every session ended")
    return 0


def _users_restore(args: argparse.Namespace) -> int:
    from croupier.service import recovery

    failed = _account_change("users restore", args, recovery.restore)
    if failed is not None:
        return failed
    print(f"croupier users restore: {args.name} restored and unlocked, with the password it "
          "had (recorded in the users' chain)")
    return 0


def _users_add(args: argparse.Namespace) -> int:
    from croupier.errors import Refusal
    from croupier.service import install, recovery
    from croupier.service.auth import new_password

    problem = install.name_problem(args.name)
    if problem:
        return _fail("users add", problem)
    password = args.password or new_password()
    problem = install.password_problem(args.name, password)
    if problem:
        return _fail("users add", problem)
    engine = _open("users add", args)
    if engine is None:
        return 2
    try:
        recovery.add(engine, args.name, password, args.role)
    except Refusal as exc:
        return _fail("users add", exc.reason, 1)
    shown = f"; password: {password} (shown once)" if args.password is None else ""
    print(f"croupier users add: {args.name} made {args.role} at the command line{shown}")
    return 0


# --- audit --------------------------------------------------------------------------------

def _keyed(command: str, args: argparse.Namespace, need_key: bool) -> tuple[Any, Any] | None:
    """The ledger's engine and its signer (None when there is no key and none is needed)."""
    from croupier.service import install
    from croupier.service.audit import keys, verify

    engine = _open(command, args)
    if engine is None:
        return None
    path = keys.key_path(args.data_dir, args.key_file)
    try:
        signer = keys.load_key(path)
    except keys.KeyError_ as exc:
        if need_key or path.exists():
            _fail(command, exc)
            return None
        signer = None
    verify.configure(signer, install.pin_path(path))
    return engine, signer


def _print_report(command: str, report: dict[str, Any], as_json: bool) -> int:
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        verdict = "OK" if report["ok"] else f"{len(report['problems'])} PROBLEMS"
        print(f"croupier {command}: {verdict}: {report['events']} events; deposits "
              f"{report['deposits']} = wallets {report['wallets']} + tables {report['tables']}")
        for note in report["notes"]:
            print(f"  note: {note}")
        for problem in report["problems"]:
            print(f"  {problem}")
    return 0 if report["ok"] else 1


def _audit_verify(args: argparse.Namespace) -> int:
    from croupier.service.audit import bundle
    from croupier.service.audit.verify import verify_ledger
    from croupier.service.ledger import Ledger
    from croupier.service.tables import Tables

    opened = _keyed("audit verify", args, need_key=False)
    if opened is None:
        return 2
    earlier = None
    if args.anchor is not None:
        earlier, problems = bundle.earlier(args.anchor, None)
        if earlier is None:
            return _print_report("audit verify", _refused(problems), args.json)
    # Against an anchor nothing is signed: a failing comparison must leave the ledger as it is.
    report = verify_ledger(Tables(Ledger(opened[0])), checkpoint=args.anchor is None,
                           earlier=earlier)
    return _print_report("audit verify", report, args.json)


def _refused(problems: list[Any]) -> dict[str, Any]:
    from croupier.service.audit.verify import Report

    return Report(findings=list(problems)).json()


def _audit_export(args: argparse.Namespace) -> int:
    from croupier.service import install
    from croupier.service.audit import bundle, chain, keys

    opened = _keyed("audit export", args, need_key=True)
    if opened is None:
        return 2
    pin = install.pin_path(keys.key_path(args.data_dir, args.key_file))
    try:
        info = bundle.export(opened[0], opened[1], pin, args.file)
    except (chain.BehindPin, chain.WriterBusy) as exc:  # a ledger cut short; a stopped writer
        return _fail("audit export", exc, 1)
    print(f"croupier audit export: {args.file}: {info['events']} events, checkpoint "
          f"{info['checkpoint']}, signed by key {info['key_id']} ({info['bytes']} bytes)")
    return 0


def _audit_bundle(args: argparse.Namespace) -> int:
    from croupier.service.audit import bundle

    since = None
    if args.since is not None:
        since, problems = bundle.earlier(args.since, args.public_key)
        if since is None:
            return _print_report("audit verify-bundle", _refused(problems), args.json)
    report, body = bundle.verify_bundle(args.file, args.public_key, since)
    if body.get("key_id"):
        report.notes.insert(0, f"signed by key {body['key_id']} (public key "
                               f"{body.get('public_key')}): compare it with the one registered")
    return _print_report("audit verify-bundle", report.json(), args.json)


def _audit_rotate(args: argparse.Namespace) -> int:
    from croupier.service.audit import chain, keys, rotation

    opened = _keyed("audit rotate-key", args, need_key=True)
    if opened is None:
        return 2
    path = keys.key_path(args.data_dir, args.key_file)
    retired = keys.anchors_dir(args.data_dir) if keys.inside(path, args.data_dir) else None
    try:
        old, new, kept = rotation.rotate(opened[0], opened[1], path, retired)
    except (chain.BehindPin, chain.WriterBusy) as exc:  # nothing was rotated
        return _fail("audit rotate-key", exc, 1)
    print(f"croupier audit rotate-key: key {new.key_id} now signs (introduced by {old.key_id}, "
          f"signed by both); the old key is kept at {kept}: copy it offline, then destroy it")
    return 0


# --- backup, restore ----------------------------------------------------------------------

def _backup(args: argparse.Namespace) -> int:
    from croupier.service import backup, install
    from croupier.service.audit import chain, keys

    opened = _keyed("backup", args, need_key=True)
    if opened is None:
        return 2
    pin = install.pin_path(keys.key_path(args.data_dir, args.key_file))
    try:
        info = backup.backup(opened[0], opened[1], pin, args.dest)
    except backup.BackupError as exc:
        return _fail("backup", exc)
    except (chain.BehindPin, chain.WriterBusy) as exc:  # a ledger cut short; a stopped writer
        return _fail("backup", exc, 1)
    print(f"croupier backup: {args.dest} ({info['bytes']} bytes) and its signed head "
          f"{backup.head_path(args.dest).name}: checkpoint {info['checkpoint']}, key "
          f"{info['key_id']}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from croupier.service import backup, install
    from croupier.service.audit import chain, keys

    if args.database is not None:
        return _fail("restore", "croupier restore installs a SQLite copy; on PostgreSQL use "
                                "pg_restore into a new database (docs/ledger.md)")
    path = keys.key_path(args.data_dir, args.key_file)
    try:
        signer = keys.load_key(path)
        done = backup.restore(args.src, args.data_dir, signer, install.pin_path(path),
                              args.declare_recovery)
    except (keys.KeyError_, backup.BackupError) as exc:
        return _fail("restore", exc)
    except chain.WriterBusy as exc:  # taken before anything is installed
        return _fail("restore", f"{exc}: nothing was installed; run it again once that "
                                "process is done", 1)
    if not done.installed:
        for problem in done.problems:
            print(f"  {problem}", file=sys.stderr)
        return _fail("restore", f"refused: {args.src} was not installed", 1)
    if args.declare_recovery is not None and done.gap:
        print("croupier restore: a declared recovery, recorded in the house's chain; the "
              "gap: " + json.dumps(done.gap, sort_keys=True))
    kept = f"; the database it replaced is kept at {done.kept}" if done.kept else ""
    print(f"croupier restore: {args.src} verified and installed (checkpoint "
          f"{done.checkpoint} signed){kept}")
    return 0
