"""``/docs``: the OpenAPI documentation page, served with Swagger UI's files from the installed
``swagger-ui-bundle`` package: no script comes from anywhere but this server, and none inline."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

router = APIRouter(include_in_schema=False)

ASSETS = {"swagger-ui.css": "text/css; charset=utf-8",
          "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
          "favicon-32x32.png": "image/png"}
# Swagger UI sets style attributes as it draws; scripts stay restricted to this server's files.
DOCS_CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            "object-src 'none'")

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>croupier - API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>
"""
INIT = ('window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", '
        'deepLinking: true, presets: [SwaggerUIBundle.presets.apis]});\n')


def _folder() -> Path:
    import swagger_ui_bundle  # type: ignore[import-untyped]

    return Path(swagger_ui_bundle.swagger_ui_path)


@router.get("/docs")
def page() -> Response:
    return Response(PAGE, media_type="text/html; charset=utf-8",
                    headers={"Content-Security-Policy": DOCS_CSP})


@router.get("/docs/init.js")
def init() -> Response:
    return Response(INIT, media_type="text/javascript; charset=utf-8")


@router.get("/docs/assets/{name}")
def asset(name: str) -> Response:
    if name not in ASSETS:  # only these files, by name: no path reaches the file system
        return JSONResponse({"error": {"code": "not_found", "reason": f"no asset {name!r}",
                                       "clause": ""}}, status_code=404)
    return Response((_folder() / name).read_bytes(), media_type=ASSETS[name],
                    headers={"Cache-Control": "max-age=3600"})
