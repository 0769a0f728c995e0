"""The browser's Idempotency-Keys come from the browser's cryptographic generator in every
context: over plain HTTP, where ``crypto.randomUUID`` does not exist, they were made of the
clock and ``Math.random``, which a page can predict (checked in Chromium)."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Server

# Run in the page: the keys api.js makes with randomUUID taken away (as over plain HTTP) and
# the clock and Math.random held still, so a key made of them would repeat.
KEYS_WITHOUT_RANDOM_UUID = """async () => {
  const { newKey } = await import("/static/api.js");
  const uuid = crypto.randomUUID, random = Math.random, now = Date.now;
  crypto.randomUUID = undefined; Math.random = () => 0.5; Date.now = () => 0;
  try { return [newKey(), newKey(), newKey()]; }
  finally { crypto.randomUUID = uuid; Math.random = random; Date.now = now; }
}"""


def test_keys_outside_a_secure_context_are_unguessable(server: Server, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        keys = page.evaluate(KEYS_WITHOUT_RANDOM_UUID)
        assert len(set(keys)) == 3, f"keys repeated with the clock and Math.random held: {keys}"
        assert all(re.fullmatch(r"k-[0-9a-f]{32}", k) for k in keys), keys
        assert re.fullmatch(r"[0-9a-f-]{36}", page.evaluate(
            'async () => (await import("/static/api.js")).newKey()'))
    finally:
        context.close()
