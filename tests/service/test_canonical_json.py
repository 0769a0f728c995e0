"""The ledger's JSON texts are the standard library's, character for character, whichever
encoder writes them: a stored payload, a request's digest and every chained record's
canonical form are hashed, so one character more or less would break every chain after it
(and the chains already written by earlier releases)."""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from croupier.events import BetMade
from croupier.service import codec
from croupier.service.audit.canonical import compact, entry_text, event_text, sorted_text

COMPACT = {"separators": (",", ":")}
SORTED = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}

# Every character a str can hold, the lone surrogates, DEL and the controls included.
TEXT = st.text(st.characters(codec="utf-8") | st.characters(min_codepoint=0xD800,
                                                            max_codepoint=0xDFFF)
               | st.sampled_from(["\x00", "\x1f", "\x7f", "\u2028", "\U0001f3b2"]))
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12)


@given(PLAIN)
def test_compact_is_json_dumps_compact(value: Any) -> None:
    assert compact(value) == json.dumps(value, **COMPACT)


@given(PLAIN)
def test_sorted_text_is_the_canonical_encoder(value: Any) -> None:
    assert sorted_text(value) == json.dumps(value, **SORTED)


def test_every_ascii_character_is_written_alike() -> None:
    for code in range(128):
        text = f"a{chr(code)}b"
        assert compact({text: [text]}) == json.dumps({text: [text]}, **COMPACT), code
        assert sorted_text({text: text}) == json.dumps({text: text}, **SORTED), code


def test_what_json_refuses_is_refused_as_before() -> None:
    for value in ({"at": Decimal(1)}, [object()]):
        for write in (compact, sorted_text):
            try:
                write(value)
            except TypeError:
                continue
            raise AssertionError(f"{write.__name__} wrote {value!r}")


def test_a_subclass_of_str_is_written_as_its_text() -> None:
    class Name(str):
        pass

    assert compact([Name("ann")]) == '["ann"]'
    assert sorted_text({"p": Name("josé")}) == '{"p":"josé"}'


@given(player=TEXT, wager=TEXT, request=st.none() | st.text("0123456789abcdef", min_size=64,
                                                             max_size=64))
def test_an_event_and_its_rows_hash_as_the_standard_library_writes_them(
        player: str, wager: str, request: str | None) -> None:
    event = BetMade(player, wager, wager, Decimal("5.25"), qualifier=(1, 3),
                    commission=Decimal(0), pays=((wager, "1 to 1"),))
    payload = codec.encode(event, request)
    tagged = json.loads(payload)
    assert payload == json.dumps(tagged, **COMPACT)
    assert codec.decode("craps", payload) == event
    row = {"table_id": "craps-1", "seq": 7, "round": 2, "kind": "bet", "player": player,
           "payload": payload, "actor": player, "at": 1764504000.123}
    assert event_text(row) == json.dumps({
        "table": "craps-1", "seq": 7, "round": 2, "kind": "bet", "player": player,
        "payload": payload, "actor": player, "at": "1764504000.123"}, **SORTED)
    entry = {"player": player, "amount_cents": -525, "kind": "bet", "table_id": "craps-1",
             "seq": 7, "balance_after_cents": 100, "actor": player, "at": 1764504000.5,
             "request": request}
    assert entry_text(entry) == json.dumps({
        "player": player, "amount": "-5.25", "kind": "bet", "table": "craps-1", "seq": 7,
        "balance_after": "1.00", "actor": player, "at": "1764504000.5",
        **({} if request is None else {"request": request})}, **SORTED)
    assert codec.request_digest(3, wager, "f" * 64) == hashlib.sha256(
        json.dumps([3, wager, "f" * 64], **COMPACT).encode()).hexdigest()
