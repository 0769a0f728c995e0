"""Errors into HTTP answers: the one place a domain error becomes a status code and a body.

Every refusal is ``{"error": {"code", "reason", "clause"}}``: a :class:`~croupier.errors.Refusal`
is 409 with the regulation's reason and clause, :class:`~croupier.errors.Malformed` input and
request validation are 422 naming the place, and anything unexpected is a 500 that says nothing
changed, never a stack trace.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from croupier.errors import Malformed, Refusal
from croupier.service.coupons import CouponRefused
from croupier.service.ledger import ApiError, Reply, refusal_body

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


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into its structured answer."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(Malformed)
    async def _malformed(request: Request, exc: Malformed) -> Response:
        return error(422, "malformed", str(exc))

    @app.exception_handler(Refusal)
    async def _refusal(request: Request, exc: Refusal) -> Response:
        return JSONResponse(refusal_body(exc), status_code=409)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error(422, "malformed", f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(CouponRefused)
    async def _coupon(request: Request, exc: CouponRefused) -> Response:
        return error(409, "refused", exc.reason, exc.clause)

    @app.exception_handler(RecursionError)
    async def _too_deep(request: Request, exc: RecursionError) -> Response:
        return error(422, "malformed", "the request is nested too deeply")

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error(500, "internal", "internal error; nothing was changed by this request")
