"""The access log's cost per request: the server's middleware stack (guard, then the access log
with its request id and one log line) around a trivial ASGI app, called in process, against the
guard alone. The difference is what the access log adds to every request's CPU; compare it
with the server's CPU per bet (about 1.2 ms, docs/capacity.md).

    .venv/bin/python benchmarks/access_log.py [--requests 20000] [--repeat 7]

Prints the median microseconds per request of each stack, their difference and ratio, and the
load average before the run. A measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import time
from typing import Any

from croupier.service.api.access import AccessLog
from croupier.service.api.guard import Guard
from croupier.service.listen import access_log_to_stderr


async def _app(scope: Any, receive: Any, send: Any) -> None:
    body = b'{"error": {"code": "refused", "reason": "no more bets", "clause": ""}}'
    status = 409 if scope["path"] == "/refused" else 200
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _run(app: Any, n: int, path: str) -> float:
    scope = {"type": "http", "method": "POST", "path": path, "query_string": b"limit=5",
             "headers": [(b"content-length", b"2")]}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Any) -> None:
        return None

    start = time.process_time()
    for _ in range(n):
        await app(dict(scope), receive, send)
    return (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    access_log_to_stderr()
    handler = logging.getLogger("croupier.access").handlers[-1]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(open(os.devnull, "w"))  # noqa: SIM115  (the line is formatted, then dropped)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    stacks = {"guard": Guard(_app), "guard + access log": AccessLog(Guard(_app))}
    for path in ("/ok", "/refused"):
        medians = {name: statistics.median(asyncio.run(_run(app, args.requests, path))
                                           for _ in range(args.repeat))
                   for name, app in stacks.items()}
        base, logged = medians["guard"], medians["guard + access log"]
        print(f"{path:9s} guard {base:7.1f} us/request; with the access log {logged:7.1f} "
              f"us/request: +{logged - base:.1f} us ({logged / base:.2f}x)")


if __name__ == "__main__":
    main()
