"""Logging setup: one line per record, key facts first; or, with ``VIGIL_LOG_FORMAT=json``,
one JSON object per line with ``time``, ``level``, ``logger`` and ``message``
(python-json-logger)."""

from __future__ import annotations

import logging

from pythonjsonlogger.json import JsonFormatter

from app.core.config import settings

_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
_JSON_RENAME = {"asctime": "time", "levelname": "level", "name": "logger"}


def log_formatter(fmt: str) -> logging.Formatter:
    if fmt == "json":
        return JsonFormatter(_FORMAT, rename_fields=_JSON_RENAME, datefmt="%Y-%m-%dT%H:%M:%S%z")
    return logging.Formatter(_FORMAT)


def setup_logging(level: int = logging.INFO, fmt: str | None = None) -> None:
    """One root handler in ``VIGIL_LOG_FORMAT``; uvicorn's own handlers (when its command
    line configured them) get the same formatter, so its lines match the app's."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    root.setLevel(level)
    formatter = log_formatter(fmt or settings.LOG_FORMAT)
    for name in ("", "uvicorn", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    # kafka-python logs every refused connection at ERROR; /api/health reports them instead.
    logging.getLogger("kafka").setLevel(logging.CRITICAL)
