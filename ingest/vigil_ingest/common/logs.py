"""Logging of the gateway and the consumer: text lines, or one JSON object per line
(``VIGIL_LOG_FORMAT=json``) with ``time``, ``level``, ``logger`` and ``message``."""

from __future__ import annotations

import logging
from typing import Literal

from pythonjsonlogger.json import JsonFormatter

LogFormat = Literal["text", "json"]

_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
_RENAME = {"asctime": "time", "levelname": "level", "name": "logger"}


def formatter(fmt: LogFormat) -> logging.Formatter:
    if fmt == "json":
        return JsonFormatter(_FIELDS, rename_fields=_RENAME, datefmt="%Y-%m-%dT%H:%M:%S%z")
    return logging.Formatter(_TEXT)


def setup_logging(fmt: LogFormat, level: int = logging.INFO) -> None:
    """Send every record through one root handler in ``fmt``. uvicorn's own loggers, when it
    configured them, get the same formatter, so their lines are JSON too."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    root.setLevel(level)
    chosen = formatter(fmt)
    for name in ("", "uvicorn", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(chosen)
