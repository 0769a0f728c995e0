"""One reading of a request: no header the server reads as one value comes twice, and the path
is in normal form.

Two readers of one request must not disagree about it. When a header that carries one value
(the bearer token, the Idempotency-Key, the body's type and length, the host) comes twice, one
reader may keep the first and another the last: a cluster node forwarding a request kept the
last ``Authorization`` and the holder the first, so one request bet as one player through one
node and as another through the other. When a path holds ``.``, ``..``, an empty segment or a
percent-encoded dot, slash or backslash, an HTTP client may resolve it where the server does
not: ``/tables/craps-1/../../users`` went to the holder as ``/users``. Such a request is
refused (400, naming the header or the path) before anything reads it, on every node alike, so
whatever is served or forwarded is read the same way everywhere.

>>> duplicate_header([(b"authorization", b"Bearer a"), (b"authorization", b"Bearer b")])
'authorization'
>>> duplicate_header([(b"accept", b"text/html"), (b"accept", b"application/json")]) is None
True
>>> path_problem("/tables/craps-1/bets", b"/tables/craps-1/bets") is None
True
>>> path_problem("/tables/craps-1/../../users", b"/tables/craps-1/../../users")
"path: the segment '..' is not in normal form (a path names each segment plainly)"
>>> path_problem("/tables/a/b", b"/tables/a%2Fb")
'path: a percent-encoded slash is not in normal form (%2F)'

No name the server holds (of a user, a table, a coupon, a die) has a NUL character, and
PostgreSQL takes none in a query's text (the request failed with 500 there): one in the path,
a query parameter or a body's text is refused (400 for the path, 422 for the others) naming
its place.

>>> query_problem(b"player=alice&after=MP-%00")
'query.after: a NUL character (U+0000) is in no name or text the server holds'
>>> text_place({"player": "al" + chr(0) + "ice"}, "body")
'body.player'
>>> text_place({"numbers": [1, "a" + chr(0)]}, "body")
'body.numbers[1]'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

SINGLE_VALUED = frozenset({
    b"authorization", b"idempotency-key", b"content-type", b"content-length", b"host",
    b"transfer-encoding", b"x-request-id", b"x-croupier-forwarded-by"})
"""Headers the server reads as one value: each may come at most once."""

_ENCODED = re.compile(rb"%(2e|2f|5c)", re.IGNORECASE)
_NAMES = {b"2e": "dot", b"2f": "slash", b"5c": "backslash"}
_CONTROL = re.compile(rb"[\x00-\x1f\x7f]")
NUL = "a NUL character (U+0000) is in no name or text the server holds"
SURROGATE = ("half of a UTF-16 surrogate pair alone (\\ud800 to \\udfff) is no character: no "
             "text holds it")


def duplicate_header(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The first single-valued header (lower case, as the server receives names) that comes
    more than once, or None."""
    seen: set[bytes] = set()
    for name, _ in headers:
        if name in SINGLE_VALUED:
            if name in seen:
                return name.decode("latin-1")
            seen.add(name)
    return None


def key_problem(headers: list[tuple[bytes, bytes]]) -> str | None:
    """Why an Idempotency-Key cannot be read one way, or None: spaces or tabs around it (not
    part of a header's value, so a client or proxy that trims them would send another key
    for the same request, and the money would move twice) or a control character in it."""
    for name, value in headers:
        if name == b"idempotency-key" and (value != value.strip(b" \t")
                                           or _CONTROL.search(value) is not None):
            return ("header idempotency-key: spaces, tabs or control characters around or in "
                    "the key; send the key alone")
    return None


def charset_problem(headers: list[tuple[bytes, bytes]]) -> str | None:
    """Why a body's declared character set cannot be read as sent, or None.

    Bodies are JSON in UTF-8; a body declared in another charset would be read as UTF-8 anyway,
    so its text would not be what the client meant. Such a request is refused.

    >>> charset_problem([(b"content-type", b"application/json; charset=utf-8")]) is None
    True
    >>> charset_problem([(b"content-type", b"application/json; charset=latin-1")])
    "header content-type: charset 'latin-1'; a body is UTF-8 JSON (send charset=utf-8 or none)"
    """
    for name, value in headers:
        if name != b"content-type":
            continue
        for parameter in value.split(b";")[1:]:
            key, _, given = parameter.partition(b"=")
            if key.strip().lower() != b"charset":
                continue
            charset = given.strip().strip(b'"').decode("latin-1")
            if charset.lower() not in ("utf-8", "utf8"):
                return (f"header content-type: charset {charset!r}; a body is UTF-8 JSON "
                        "(send charset=utf-8 or none)")
    return None


def path_problem(path: str, raw_path: bytes | None) -> str | None:
    """What keeps a path from normal form (its place and why), or None.

    ``path`` is the path as decoded, ``raw_path`` as it came on the wire (None when the server
    did not keep it). A single trailing slash is allowed (it names a resource of its own)."""
    if not path.startswith("/"):
        return "path: a path begins with '/'"
    if raw_path is not None:
        encoded = _ENCODED.search(raw_path)
        if encoded is not None:
            code = encoded.group(1)
            return (f"path: a percent-encoded {_NAMES[code.lower()]} is not in normal form "
                    f"(%{code.decode('ascii').upper()})")
    if "\x00" in path:
        return f"path: {NUL}"
    if "\\" in path:
        return "path: a backslash is not in normal form (a path separates segments with '/')"
    segments = path[1:].split("/")
    for i, segment in enumerate(segments):
        if segment in (".", ".."):
            return (f"path: the segment {segment!r} is not in normal form (a path names each "
                    "segment plainly)")
        if segment == "" and i < len(segments) - 1:
            return "path: an empty segment ('//') is not in normal form"
    return None


def query_problem(query: bytes) -> str | None:
    """The place and why of a NUL character in the query's names or values, or None."""
    if b"%00" not in query:
        return None
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if "\x00" in name or "\x00" in value:
            shown = name.replace("\x00", "%00")[:32]
            return f"query.{shown}: {NUL}"
    return None


def has_nul(text: str) -> bool:
    return "\x00" in text


def has_lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds half of a UTF-16 pair alone (JSON's ``\\ud800``): no character,
    and no UTF-8 text can hold it, so every reply, report and recall that showed it failed."""
    return any("\ud800" <= char <= "\udfff" for char in text)


def text_place(value: Any, where: str, bad: Callable[[str], bool] = has_nul) -> str | None:
    """The place (``where``, then ``.key`` and ``[i]`` steps) of the first string of a parsed
    JSON ``value`` (a key included) that is ``bad`` (by default: holds a NUL character), or
    None. Walked without recursion: a body nested as deeply as the parser allows is walked
    too."""
    todo: list[tuple[Any, str]] = [(value, where)]
    while todo:
        item, place = todo.pop()
        if isinstance(item, str):
            if bad(item):
                return place
        elif isinstance(item, dict):
            for key, inner in reversed(item.items()):
                if bad(key):
                    return place
                todo.append((inner, f"{place}.{key}"))
        elif isinstance(item, list):
            todo.extend((inner, f"{place}[{i}]") for i, inner in reversed(list(enumerate(item))))
    return None
