"""Every operation the server's ``/openapi.json`` lists says what its success answer is: a 2xx
response with a schema, so ``/docs`` shows what each route answers (a route that declares no
response model, or returns a bare ``Response``, has none)."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import Server

METHODS = ("get", "put", "post", "delete", "patch")


def without_success_schema(spec: dict[str, Any]) -> list[str]:
    """The operations none of whose 2xx answers has a non-empty schema."""
    missing = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            ok = [r for code, r in op["responses"].items() if str(code).startswith("2")]
            if not any(m.get("schema") for r in ok for m in r.get("content", {}).values()):
                missing.append(f"{method.upper()} {path}")
    return missing


def test_every_operation_has_a_success_schema(sqlite_server: Server) -> None:
    spec = httpx.get(sqlite_server.base + "/openapi.json", timeout=30).json()
    assert len(spec["paths"]) > 50
    assert without_success_schema(spec) == []


def test_an_operation_without_one_is_found() -> None:
    spec = {"paths": {"/a": {"post": {"responses": {"200": {"description": "OK", "content": {
        "application/json": {"schema": {}}}}, "422": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/E"}}}}}},
        "parameters": []},
        "/b": {"get": {"responses": {"201": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/B"}}}}}}}}}
    assert without_success_schema(spec) == ["POST /a"]
