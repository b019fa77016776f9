"""Errors under the Prometheus-compatible prefixes, in Prometheus' envelope.

Grafana and other Prometheus clients read ``{"status": "error", "errorType": …, "error": …}``
(``Response`` in Prometheus' ``web/api/v1/api.go``); FastAPI's ``{"detail": …}`` would reach
their users as "unknown error". Every error the backend itself answers on
``/prometheus/…`` and ``/api/v1/workspaces/{id}/prometheus/…`` — credentials, parameters,
limits, storage that cannot be reached — is rewritten here, by the app's error handlers and
the body size limit. Storage's own answers already have this shape and pass through as-is.
"""

from __future__ import annotations

import json
import re

from starlette.responses import JSONResponse, Response

PATH = re.compile(r"^(/prometheus/|/api/v1/workspaces/[^/]+/prometheus/)")

# errorType per status: Prometheus' own where it has one (bad_data, not_found, timeout,
# unavailable, internal), otherwise the names vigil-storage uses for the same statuses.
ERROR_TYPES = {
    400: "bad_data",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "limit_exceeded",
    500: "internal",
    502: "unavailable",
    503: "unavailable",
}
# stable codes that say more than their status
CODE_TYPES = {"storage_timeout": (503, "timeout")}


def is_prometheus_path(path: str) -> bool:
    return PATH.match(path) is not None


def body(error_type: str, message: str) -> dict[str, str]:
    return {"status": "error", "errorType": error_type, "error": message}


def error_response(
    status: int, message: str, *, code: str | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The envelope for an error of ``status``. A request Prometheus would call bad (422 here,
    a field that fails validation) is 400 ``bad_data`` there."""
    if code in CODE_TYPES:
        status, error_type = CODE_TYPES[code]
    else:
        status = 400 if status == 422 else status
        error_type = ERROR_TYPES.get(status, "internal" if status >= 500 else "bad_data")
    return JSONResponse(body(error_type, message), status_code=status, headers=headers)


def rewrite(response: Response) -> Response:
    """``response``, an error body of the app's own shape (``detail``, ``code``), in
    Prometheus' envelope with the same headers (``Retry-After``, ``WWW-Authenticate``)."""
    raw = bytes(response.body)
    try:
        data = json.loads(raw)
    except ValueError:
        data = {"detail": raw.decode(errors="replace")}
    detail = data.get("detail", "") if isinstance(data, dict) else ""
    code = data.get("code") if isinstance(data, dict) else None
    headers = {
        k: v
        for k, v in response.headers.items()
        if k.lower() not in ("content-length", "content-type")
    }
    return error_response(
        response.status_code, str(detail), code=str(code) if code else None, headers=headers
    )
