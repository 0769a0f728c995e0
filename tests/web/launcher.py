"""Start the live-table server as ``croupier serve`` does, with the browser table mounted.

The end-to-end tests run this in a subprocess::

    python tests/web/launcher.py --port 8123 --data-dir /tmp/d --rng-seed 7 --demo-password pw

It builds the app exactly as ``croupier serve`` (``croupier.service.commands``) does and then
calls :func:`croupier.web.mount`, which does nothing when ``create_app`` already mounted it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--rng-seed", type=int, default=None)
    parser.add_argument("--demo-password", required=True)
    args = parser.parse_args(argv)

    import uvicorn

    from croupier.service import demo, store
    from croupier.service.app import create_app
    from croupier.service.rng import make_rng
    from croupier.web import mount

    engine = store.make_engine(store.database_url(args.data_dir, None))
    store.upgrade(engine)
    demo.seed(engine, args.demo_password)
    app = create_app(engine, make_rng(args.rng_seed))
    mount(app)  # idempotent: a no-op once create_app mounts the page itself
    print(f"launcher: serving on http://{args.host}:{args.port}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
