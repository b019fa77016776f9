"""``GET /metrics``: the backend's Prometheus metrics, for the internal token's holders and the
addresses of ``VIGIL_METRICS_ALLOW`` (loopback by default)."""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.api.deps import client_ip, has_internal_token
from app.core.config import settings
from app.core.errors import Forbidden

router = APIRouter(include_in_schema=False)


def _allowed_address(host: str | None) -> bool:
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in settings.metrics_allow)


@router.get("/metrics")
def read_metrics(request: Request) -> Response:
    """Prometheus text format. Answered to callers with the internal token and to the client
    addresses of ``VIGIL_METRICS_ALLOW`` (behind ``VIGIL_TRUSTED_PROXIES``, the client they
    name): the counts by route are for operators, not for API clients."""
    if not (has_internal_token(request) or _allowed_address(client_ip(request))):
        raise Forbidden(
            "/metrics needs the internal token (Authorization: Bearer) or a client address "
            "in VIGIL_METRICS_ALLOW"
        )
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
