"""The bound a bet's request is measured against: a bare ASGI app under the same HTTP server.

It does what any server must for a bet and nothing of croupier's: read the whole body, parse
its JSON, find the bearer token in a dict, and answer a small JSON body. No database, no rules,
no ledger. ``benchmarks/serve.py`` runs it under uvicorn with the settings ``croupier serve``
uses (the same event loop and HTTP parser) and drives it with the same clients, so croupier's
bets per second as a share of this app's requests per second is a ratio that holds from one
machine to another.

    python benchmarks/bare_asgi.py --port 8765 --players 100   # tokens bare-token-0 .. 99
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def token(n: int) -> str:
    """The bearer token of the bare app's player ``n``."""
    return f"bare-token-{n}"


class BareApp:
    """An ASGI app answering any POST that carries a known bearer token and a JSON object,
    and ``GET /health``."""

    def __init__(self, players: int) -> None:
        self.players = {token(n): f"p{n}" for n in range(players)}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if scope["method"] == "GET":
            await _answer(send, 200, {"ok": True})
            return
        auth = dict(scope["headers"]).get(b"authorization", b"").decode()
        player = self.players.get(auth.removeprefix("Bearer "))
        if player is None:
            await _answer(send, 401, {"error": "log in"})
            return
        wager = json.loads(body)
        if not isinstance(wager, dict):
            await _answer(send, 422, {"error": "body"})
            return
        await _answer(send, 200, {"player": player, "wager": wager.get("wager"),
                                  "amount": wager.get("amount"), "events": []})


async def _answer(send: Send, status: int, reply: dict[str, Any]) -> None:
    data = json.dumps(reply).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--players", type=int, default=100)
    args = parser.parse_args()
    # The settings croupier serve gives uvicorn (service/commands.py): its defaults pick uvloop
    # and httptools where installed, as they do for croupier.
    uvicorn.run(BareApp(args.players), host="127.0.0.1", port=args.port, log_level="warning",
                access_log=False)


if __name__ == "__main__":
    main()
