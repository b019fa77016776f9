"""Logging setup: one line per record, key facts first."""

from __future__ import annotations

import logging

_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


def setup_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=level, format=_FORMAT)
    else:
        root.setLevel(level)
    # kafka-python logs every refused connection at ERROR; /api/health reports them instead.
    logging.getLogger("kafka").setLevel(logging.CRITICAL)
