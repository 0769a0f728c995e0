"""``croupier serve`` (the live table server) and ``croupier recall`` (a round from the ledger)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HOST = "127.0.0.1"
PORT = 8000


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the live tables (HTTP API on 127.0.0.1:8000)")
    serve.add_argument("--host", default=HOST, help=f"address to listen on (default {HOST})")
    serve.add_argument("--port", type=int, default=PORT, help=f"port (default {PORT})")
    serve.add_argument("--data-dir", default="./data", type=Path,
                       help="folder of the embedded SQLite ledger (default ./data)")
    serve.add_argument("--database", default=os.environ.get("CROUPIER_DATABASE_URL"),
                       help="a database URL instead, e.g. postgresql+psycopg://user:pw@host/db")
    serve.add_argument("--rng-seed", type=int, default=None,
                       help="TEST MODE ONLY: a seeded RNG instead of the OS's (or "
                            "CROUPIER_RNG_SEED)")
    serve.add_argument("--demo-password", default=os.environ.get("CROUPIER_DEMO_PASSWORD"),
                       help="the demo users' password on first start (default: random, printed)")
    cluster = serve.add_argument_group(
        "cluster", "several nodes on one PostgreSQL (multi-node mode needs --database "
        "postgresql+psycopg://...; SQLite serves one node only)")
    cluster.add_argument("--node-id", default=os.environ.get("CROUPIER_NODE_ID"),
                         help="run as this node of a cluster: tables are leased, requests for "
                              "another node's table forwarded to it (docs/cluster.md)")
    cluster.add_argument("--advertise", default=None,
                         help="this node's address for the others (default http://HOST:PORT)")
    cluster.add_argument("--lease-ttl", type=float, default=3.0,
                         help="seconds a table's lease lasts unless renewed (default 3)")
    serve.set_defaults(func=_serve)

    rec = sub.add_parser("recall", help="print a round, or a player's last ten rounds, as JSON")
    rec.add_argument("table", nargs="?", help="the table id")
    rec.add_argument("round", nargs="?", type=int, help="the round number")
    rec.add_argument("--player", help="a player's last ten rounds instead")
    rec.add_argument("--data-dir", default="./data", type=Path,
                     help="folder of the SQLite ledger (default ./data)")
    rec.add_argument("--database", default=os.environ.get("CROUPIER_DATABASE_URL"),
                     help="a database URL instead")
    rec.set_defaults(func=_recall)


def _serve(args: argparse.Namespace) -> int:
    import gc

    import uvicorn

    from croupier.service import demo, store
    from croupier.service.app import create_app
    from croupier.service.rng import make_rng

    url = store.database_url(args.data_dir, args.database)
    node = None
    if args.node_id:  # cluster hook: croupier.service.cluster (PostgreSQL only)
        from croupier.service import cluster

        try:
            engine = cluster.make_engine(url)
        except cluster.NotPostgres as exc:
            print(f"croupier serve: {exc}", file=sys.stderr)
            return 2
        with cluster.startup(engine):
            store.upgrade(engine)
            logins = demo.seed(engine, args.demo_password)
    else:
        engine = store.make_engine(url)
        store.upgrade(engine)
        logins = demo.seed(engine, args.demo_password)
    rng = make_rng(args.rng_seed)
    app = create_app(engine, rng)
    if args.node_id:
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
    print(f"croupier: ledger {where}", flush=True)
    if rng.source != "os":
        print(f"croupier: TEST MODE: {rng.source} random numbers, not the OS generator",
              flush=True)
    print(f"croupier: serving on http://{args.host}:{args.port}  "
          f"(browser table at /, API docs at /docs)", flush=True)
    if logins is not None:
        print("croupier: demo tables craps-1 (nj-13-69f) and roulette-1 (nj-casino-night); "
              "demo logins (shown once):", flush=True)
        for name, password in logins.items():
            print(f"  {name:<11} {password}", flush=True)
        if args.database is None:
            path = args.data_dir / "demo-logins.txt"
            path.write_text("".join(f"{n} {p}\n" for n, p in logins.items()), encoding="utf-8")
            path.chmod(0o600)
    print(f"croupier: log in with POST http://{args.host}:{args.port}/auth/login "
          '{"username": "...", "password": "..."}', flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    if node is not None:
        node.close()  # hand the tables over at once rather than after their leases expire
    return 0


def _recall(args: argparse.Namespace) -> int:
    from croupier.service import recall, store

    url = store.database_url(args.data_dir, args.database)
    if args.database is None and not (args.data_dir / "croupier.db").exists():
        print(f"croupier recall: no ledger in {args.data_dir}", file=sys.stderr)
        return 2
    engine = store.make_engine(url)
    with engine.connect() as conn:
        if args.player:
            result: object = recall.player_rounds(conn, args.player)
        elif args.table and args.round is not None:
            result = recall.round_record(conn, args.table, args.round)
            if result is None:
                print(f"croupier recall: no round {args.round} at table {args.table}",
                      file=sys.stderr)
                return 1
        else:
            print("croupier recall: give TABLE ROUND, or --player NAME", file=sys.stderr)
            return 2
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0
