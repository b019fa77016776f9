"""Serving the built single-page UI, with a fallback to index.html for client-side routes."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from app.core.encoding import accepts
from app.core.errors import NotFound

RESERVED_PREFIXES = ("api", "v1", "prometheus", "metrics")

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vigil</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 4em auto">
<h1>Vigil</h1>
<p>The web UI is not built. Run <code>make -C frontend build</code> (or
<code>npm run build</code> in <code>frontend/</code>), or point
<code>VIGIL_UI_DIR</code> at a built UI.</p>
<p>The API is up: <a href="/api/docs">/api/docs</a>.</p>
</body></html>
"""


# The UI build writes a Brotli and a gzip copy beside each asset (frontend/vite.config.ts);
# the smallest one the browser accepts is sent, and the uncompressed file to the others.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))
IMMUTABLE = "public, max-age=31536000, immutable"


def asset_response(path: Path, accept_encoding: str) -> Response:
    headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding"}
    for coding, suffix in PRECOMPRESSED:
        compressed = path.with_name(path.name + suffix)
        if accepts(accept_encoding, coding) and compressed.is_file():
            media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            headers["Content-Encoding"] = coding
            return FileResponse(compressed, media_type=media_type, headers=headers)
    return FileResponse(path, headers=headers)


def mount_ui(app: FastAPI, ui_dir: Path) -> None:
    router = APIRouter(include_in_schema=False)
    root = ui_dir.resolve()

    @router.get("/{path:path}")
    def serve_ui(path: str, request: Request) -> Response:
        first = path.split("/", 1)[0]
        if first in RESERVED_PREFIXES:
            raise NotFound(f"No such endpoint: /{path}")
        index = root / "index.html"
        if not index.is_file():
            return HTMLResponse(NOT_BUILT)
        if path:
            candidate = (root / path).resolve()
            if candidate.is_relative_to(root) and candidate.is_file():
                if path.startswith("assets/"):
                    return asset_response(candidate, request.headers.get("accept-encoding", ""))
                return FileResponse(candidate, headers={"Cache-Control": "no-cache"})
            if "." in path.rsplit("/", 1)[-1]:
                raise NotFound(f"No such file: /{path}")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.include_router(router)
