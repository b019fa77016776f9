"""``GET /metrics``: the backend's Prometheus metrics, for loopback (``VIGIL_METRICS_ALLOW``)."""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.core.config import settings
from app.core.errors import Forbidden

router = APIRouter(include_in_schema=False)


def _allowed(host: str | None) -> bool:
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in settings.metrics_allow)


@router.get("/metrics")
def read_metrics(request: Request) -> Response:
    """Prometheus text format. Answered only to the addresses of ``VIGIL_METRICS_ALLOW``
    (loopback by default): the counts by route are for operators, not for API clients."""
    client = request.client.host if request.client else None
    if not _allowed(client):
        raise Forbidden("/metrics is served to the addresses of VIGIL_METRICS_ALLOW only")
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
