"""Upload of a result document to the backend: ``POST /api/v1/workspaces/{id}/benchmarks``.

The request body is the result document itself (:class:`vigil_bench.schema.BenchmarkRun`,
``schema_version`` 1), sent as JSON with ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from .schema import BenchmarkRun

_WORKSPACE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class UploadError(RuntimeError):
    """The backend refused or could not be reached; the message says which and why."""


def benchmarks_url(backend: str, workspace: str) -> str:
    if not _WORKSPACE_RE.match(workspace):
        raise UploadError(f"invalid workspace id {workspace!r}")
    if not backend.startswith(("http://", "https://")):
        raise UploadError(f"--backend must be an http(s) URL, got {backend!r}")
    return f"{backend.rstrip('/')}/api/v1/workspaces/{workspace}/benchmarks"


def _detail(r: httpx.Response) -> str:
    """The backend's own sentence (``detail``) when it sent one, else the start of the body."""
    try:
        body = r.json()
    except json.JSONDecodeError:
        return r.text[:500]
    detail = body.get("detail") if isinstance(body, dict) else None
    return detail if isinstance(detail, str) else r.text[:500]


def upload(
    run: BenchmarkRun,
    *,
    backend: str,
    token: str,
    workspace: str,
    transport: httpx.BaseTransport | None = None,
) -> dict[str, Any]:
    url = benchmarks_url(backend, workspace)
    body = run.model_dump_json().encode()
    try:
        with httpx.Client(timeout=60, transport=transport) as c:
            r = c.post(
                url,
                content=body,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
    except httpx.HTTPError as e:
        raise UploadError(f"cannot reach {url}: {e}") from e
    if r.status_code == 404:
        raise UploadError(
            f"{url}: 404 — unknown workspace, or this backend has no benchmarks route yet: {r.text[:300]}"
        )
    if r.status_code in (401, 403):
        raise UploadError(
            f"{url}: {r.status_code} — the token is not allowed to add benchmark runs to this "
            f"workspace: {_detail(r)}"
        )
    if r.status_code == 409:
        raise UploadError(f"{url}: 409 — {_detail(r)}")
    if r.status_code >= 400:
        raise UploadError(f"{url}: HTTP {r.status_code}: {_detail(r)}")
    try:
        out = r.json()
    except json.JSONDecodeError:
        out = {"status": r.status_code}
    return out if isinstance(out, dict) else {"result": out}


def upload_to_demo(
    run: BenchmarkRun,
    *,
    demo_env: dict[str, str],
    backend: str,
    transport: httpx.BaseTransport | None = None,
) -> str:
    """Signs in as the demo user of the running stack and uploads ``run`` to its workspace.

    ``demo_env`` is ``$VIGIL_HOME/demo.env`` as written by ``vigil-admin demo`` (``make up``).
    Returns the address of the run's report in the UI.
    """
    email = demo_env.get("VIGIL_DEMO_EMAIL", "")
    password = demo_env.get("VIGIL_DEMO_PASSWORD", "")
    workspace = demo_env.get("VIGIL_DEMO_WORKSPACE", "")
    if not (email and password and workspace):
        raise UploadError(
            "demo.env lacks VIGIL_DEMO_EMAIL, VIGIL_DEMO_PASSWORD or VIGIL_DEMO_WORKSPACE"
        )
    url = f"{backend.rstrip('/')}/api/v1/auth/login"
    try:
        with httpx.Client(timeout=30, transport=transport) as c:
            r = c.post(url, json={"email": email, "password": password})
    except httpx.HTTPError as e:
        raise UploadError(f"cannot reach {url}: {e}") from e
    if r.status_code != 200:
        raise UploadError(f"{url}: HTTP {r.status_code}: {_detail(r)}")
    token = r.json().get("access_token", "")
    created = upload(run, backend=backend, token=token, workspace=workspace, transport=transport)
    return f"{backend.rstrip('/')}/w/{workspace}/benchmarks/{created.get('id', '')}"
