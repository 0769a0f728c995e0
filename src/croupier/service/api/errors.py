"""Errors into HTTP answers: the one place a domain error becomes a status code and a body.

Every refusal is ``{"error": {"code", "reason", "clause"}}``: a :class:`~croupier.errors.Refusal`
is 409 with the regulation's reason and clause, :class:`~croupier.errors.Malformed` input and
request validation are 422 naming the place, and anything unexpected is a 500 that says nothing
changed, never a stack trace.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from croupier.errors import Malformed, Refusal
from croupier.service import store
from croupier.service.errors import ApiError
from croupier.service.plans import Reply, refusal_body

log = logging.getLogger("croupier.service")

_HTTP_CODES = {401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed"}


def error(status: int, code: str, reason: str, clause: str = "") -> Response:
    """A structured error answer."""
    return JSONResponse({"error": {"code": code, "reason": reason, "clause": clause}},
                        status_code=status)


def reply(answer: Reply) -> Response:
    """The ledger's reply as an HTTP response (marked when it is a stored idempotent replay)."""
    headers = {"Idempotent-Replay": "true"} if answer.replayed else {}
    if answer.text is not None:  # encoded once, as the ledger stored it
        return Response(answer.text, status_code=answer.status, headers=headers,
                        media_type="application/json")
    return JSONResponse(answer.body, status_code=answer.status, headers=headers)


def answer(exc: Exception) -> Response | None:
    """The structured answer to a domain error (a refusal, malformed input, an API error);
    None for anything else. The app's handlers and the express lane both answer with it."""
    if isinstance(exc, ApiError):
        return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers or None)
    if isinstance(exc, Malformed):
        return error(422, "malformed", str(exc))
    if isinstance(exc, Refusal):
        return JSONResponse(refusal_body(exc), status_code=409)
    if isinstance(exc, RecursionError):
        return error(422, "malformed", "the request is nested too deeply")
    if isinstance(exc, sa.exc.DBAPIError) and store.transient(exc):
        return JSONResponse({"error": {"code": "busy", "clause": "", "reason": _busy(exc)}},
                            status_code=503, headers={"Retry-After": "1"})
    return None


def _busy(exc: sa.exc.DBAPIError) -> str:
    """Why the database ended a request's transaction, in words, and that asking again is
    safe (nothing of it stands)."""
    again = "nothing was changed; ask again (with the same Idempotency-Key)"
    state = store.sqlstate(exc)
    if state == store.LOCK_NOT_AVAILABLE:
        return (f"what this request needs was held by another request for over "
                f"{store.LOCK_WAIT_MS // 1000} s (a server may have stopped while holding it): "
                f"{again}")
    if state == store.IDLE_ENDED:
        return ("the database ended this request's transaction after it sat idle holding "
                f"locks others wait on (this server was paused): {again}")
    return ("the database ended this request's transaction to let another go on (two "
            f"requests waited on each other): {again}")



DOMAIN_ERRORS = (ApiError, Malformed, Refusal, RecursionError)


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into its structured answer."""

    async def _domain(request: Request, exc: Exception) -> Response:
        found = answer(exc)
        assert found is not None  # registered only for the kinds answer() knows
        return found

    for kind in DOMAIN_ERRORS:
        app.add_exception_handler(kind, _domain)

    @app.exception_handler(sa.exc.DBAPIError)
    async def _database(request: Request, exc: sa.exc.DBAPIError) -> Response:
        found = answer(exc)
        if found is not None:
            log.warning("%s %s: the database ended its transaction: %s", request.method,
                        request.url.path, exc.orig)
            return found
        return await _internal(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error(422, "malformed", f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error(500, "internal", "internal error; nothing was changed by this request")
