"""``vigil-gateway`` / ``python -m vigil_ingest.gateway``: serve the gateway with uvicorn."""

from __future__ import annotations

import logging

import uvicorn

from vigil_ingest.common.config import Settings


def main() -> None:
    settings = Settings()
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    uvicorn.run(
        "vigil_ingest.gateway.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.gateway_port,
        workers=settings.gateway_workers,
        log_level="info",
        access_log=False,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
