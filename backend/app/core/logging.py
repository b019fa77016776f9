"""Logging setup: one line per record, key facts first, and never a credential.

Nothing Vigil logs on purpose carries a key, token or invitation code; ``RedactSecrets`` is the
net under that rule. It rewrites every record before it is written (uvicorn's access and error
logs included, should an operator turn them on): API keys, refresh tokens, email-link tokens
and invitation codes by their prefixes, JWTs by their shape, and the value of any ``token=``,
``code=``, ``p=`` or ``password=`` query parameter.
"""

from __future__ import annotations

import logging
import re

_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"

SECRET_PATTERNS = (
    # vgi_ ingest keys, vgq_ query keys, vgr_ refresh tokens, vge_ email links, vginv_ invitations
    re.compile(r"\b(vgi|vgq|vgr|vge|vginv)_[A-Za-z0-9_-]{6,}"),
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


def setup_logging(level: int = logging.INFO) -> None:
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(level=level, format=_FORMAT)
    else:
        root.setLevel(level)
    # kafka-python logs every refused connection at ERROR; /api/health reports them instead.
    logging.getLogger("kafka").setLevel(logging.CRITICAL)
    # httpx logs every request it sends at INFO: a line per query to storage, formatted,
    # redacted and written on the event loop. Failures reach the caller as 502/504 instead.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    install_redaction()
