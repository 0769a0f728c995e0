"""Every operation the server's ``/openapi.json`` lists says what its success answer is: a 2xx
response with a schema that names its fields, so ``/docs`` shows what each route answers (a
route that declares no response model, or returns a bare ``Response``, has none; one that
answers a ``dict[str, Any]`` has a schema that is only "an object")."""

from __future__ import annotations

from typing import Any

from .appkit import App

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


def _resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return _resolved(spec, spec["components"]["schemas"][name])
    return schema


def names_fields(spec: dict[str, Any], schema: dict[str, Any]) -> bool:
    """Whether a success schema names its fields: an object with properties, or an array
    whose items are one (a text or file answer, not an object, needs none)."""
    schema = _resolved(spec, schema)
    if schema.get("type") == "array":
        return names_fields(spec, schema.get("items", {}))
    if "anyOf" in schema or "oneOf" in schema:
        return all(names_fields(spec, s) for s in schema.get("anyOf", schema.get("oneOf")))
    return schema.get("type") != "object" or bool(schema.get("properties"))


def without_named_fields(spec: dict[str, Any]) -> list[str]:
    """The operations a 2xx answer of which is an object (or a list of them) naming no field."""
    bare = []
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if method not in METHODS:
                continue
            schemas = [m["schema"] for code, r in op["responses"].items()
                       if str(code).startswith("2")
                       for m in r.get("content", {}).values() if m.get("schema")]
            if not all(names_fields(spec, s) for s in schemas):
                bare.append(f"{method.upper()} {path}")
    return bare


def test_every_operation_has_a_success_schema(sqlite_app: App) -> None:
    spec = sqlite_app.client.get("/openapi.json").json()
    assert len(spec["paths"]) > 50
    assert without_success_schema(spec) == []
    assert without_named_fields(spec) == []


def test_an_operation_without_one_is_found() -> None:
    spec = {"paths": {"/a": {"post": {"responses": {"200": {"description": "OK", "content": {
        "application/json": {"schema": {}}}}, "422": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/E"}}}}}},
        "parameters": []},
        "/b": {"get": {"responses": {"201": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/B"}}}}}}}}}
    assert without_success_schema(spec) == ["POST /a"]


def test_an_operation_answering_an_object_with_no_field_is_found() -> None:
    named = {"type": "object", "properties": {"id": {"type": "string"}}}
    spec = {"components": {"schemas": {"Named": named, "Bare": {
        "type": "object", "additionalProperties": True}}},
        "paths": {"/a": {"get": {"responses": {"200": {"content": {"application/json": {
            "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Bare"}}}}}}}},
            "/b": {"post": {"responses": {"201": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Named"}}}}}}},
            "/c": {"get": {"responses": {"200": {"content": {"text/plain": {
                "schema": {"type": "string"}}}}}}},
            "/d": {"get": {"responses": {"200": {"content": {"application/json": {
                "schema": {"type": "object", "additionalProperties": True}}}}}}}}}
    assert without_named_fields(spec) == ["GET /a", "GET /d"]
