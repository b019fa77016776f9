"""Logging setup: one line per record, key facts first, and never a credential; or, with
``VIGIL_LOG_FORMAT=json``, one JSON object per line with ``time``, ``level``, ``logger`` and
``message`` (python-json-logger).

Nothing Vigil logs on purpose carries a key, token or invitation code; ``RedactSecrets`` is the
net under that rule. It rewrites every record before it is written (uvicorn's access and error
logs included, should an operator turn them on): API keys and service tokens, refresh tokens,
email-link tokens and invitation codes by their prefixes, JWTs by their shape, and the value of
any ``token=``, ``code=``, ``p=`` or ``password=`` query parameter. The JSON formatter applies
the same redaction to every value it writes (``extra`` fields and tracebacks included).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pythonjsonlogger.json import JsonEncoder, JsonFormatter

from app.core.config import settings
from app.core.keys import KEY_PREFIXES

_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
_JSON_RENAME = {"asctime": "time", "levelname": "level", "name": "logger"}

# Every API key's prefix (vgi_ ingest, vgq_ query, vgs_ service tokens: app.core.keys), and
# vgr_ refresh tokens, vge_ email links, vginv_ invitation codes.
_PREFIXES = sorted({p.rstrip("_") for p in KEY_PREFIXES} | {"vgr", "vge", "vginv"})
SECRET_PATTERNS = (
    re.compile(r"\b(" + "|".join(_PREFIXES) + r")_[A-Za-z0-9_-]{6,}"),
    # a JWT: three base64url parts, the first two JSON objects ("eyJ")
    re.compile(r"\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*"),
)
SECRET_PARAMS = re.compile(r"(?i)([?&](?:token|code|p|password)=)[^&\s\"']+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` without anything that looks like a credential."""
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(lambda m: f"{m.group(1)}_{REDACTED}" if m.lastindex else REDACTED, text)
    return SECRET_PARAMS.sub(lambda m: m.group(1) + REDACTED, text)


class RedactSecrets(logging.Filter):
    """Rewrites each record's message (arguments merged in) without credentials."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is logged as it is
            return True
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            # format the traceback now, so its text can be cleaned too
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_filter = RedactSecrets()


def install_redaction() -> None:
    """Put the filter on every handler of the root logger and on uvicorn's own loggers (which
    write through handlers of their own)."""
    for handler in logging.getLogger().handlers:
        if _filter not in handler.filters:
            handler.addFilter(_filter)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if _filter not in logger.filters:
            logger.addFilter(_filter)
        for handler in logger.handlers:
            if _filter not in handler.filters:
                handler.addFilter(_filter)


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redacted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted(v) for v in value]
    return value


class _RedactingEncoder(JsonEncoder):
    """Objects JSON has no type for are written as text: redacted like any other."""

    def default(self, o: Any) -> Any:
        return _redacted(super().default(o))


class RedactingJsonFormatter(JsonFormatter):
    """python-json-logger's formatter, every value redacted before it is serialized: the
    formatter reads ``extra`` fields, a dict message and the traceback itself, past the
    filter's reach."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, json_encoder=_RedactingEncoder, **kwargs)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        redacted: dict[str, Any] = _redacted(super().process_log_record(log_data))
        return redacted


def log_formatter(fmt: str) -> logging.Formatter:
    if fmt == "json":
        return RedactingJsonFormatter(
            _FORMAT, rename_fields=_JSON_RENAME, datefmt="%Y-%m-%dT%H:%M:%S%z"
        )
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
    # httpx logs every request it sends at INFO: a line per query to storage, formatted,
    # redacted and written on the event loop. Failures reach the caller as 502/504 instead.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    install_redaction()
