"""``vigil-gateway`` / ``python -m vigil_ingest.gateway``: serve the gateway with uvicorn."""

from __future__ import annotations

import uvicorn

from vigil_ingest.common.cli import parse_args
from vigil_ingest.common.config import Settings
from vigil_ingest.common.logs import setup_logging

DESCRIPTION = """\
Vigil's ingest gateway: takes metrics from agents (InfluxDB line protocol on
/v1/write/metric, /write and /api/v2/write; Prometheus remote_write on /api/v1/write;
OTLP/HTTP on /v1/metrics), authenticates the workspace's ingest key, enforces the
workspace's limits, validates the batch and answers 204 once Kafka has acknowledged it.
GET /health and GET /metrics (Prometheus) are served on the same address."""

SETTINGS = (
    "host",
    "gateway_port",
    "gateway_workers",
    "database_url",
    "kafka_bootstrap",
    "kafka_partitions",
    "kafka_workspace_partitions",
    "kafka_ack_timeout_seconds",
    "kafka_max_record_bytes",
    "retention",
    "auth_cache_seconds",
    "usage_flush_seconds",
    "retry_after_seconds",
    "shared_rate_limit",
    "internal_token",
    "log_format",
    "home",
)


def main(argv: list[str] | None = None) -> None:
    parse_args("vigil-gateway", DESCRIPTION, SETTINGS, argv)
    settings = Settings()
    setup_logging(settings.log_format)
    uvicorn.run(
        "vigil_ingest.gateway.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.gateway_port,
        workers=settings.gateway_workers,
        log_level="info",
        log_config=None,  # the root handler of setup_logging, in VIGIL_LOG_FORMAT
        access_log=False,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
