"""The sizes of one series that vigil-storage refuses, so that the gateway refuses them first.

Mirrors the defaults of vigil-storage's ``-ingest.maxLabelNameLen``,
``-ingest.maxLabelValueLen`` and ``-ingest.maxLabelsPerSeries`` (``storage/app/ingest``), which
are the one definition; a test checks that both sides agree and that infra does not override
them. A batch the gateway accepted but storage refuses ends on the dead-letter topic, so every
limit here must be exactly storage's: lengths are in bytes after unescaping, as storage counts.

- a tag or label name longer than ``MAX_NAME_BYTES``;
- a tag or label value longer than ``MAX_VALUE_BYTES``, and so a remote_write metric name, or
  ``<measurement>:<field>`` of a numeric line-protocol field (the series' ``__name__``);
- more than ``MAX_LABELS`` tags on a line, or labels on a remote_write series (``__name__``
  included, the labels storage adds not).
"""

from __future__ import annotations

MAX_NAME_BYTES = 256
MAX_VALUE_BYTES = 4096
MAX_LABELS = 64


def name_too_long(what: str, name: bytes) -> str | None:
    """Why a tag or label name is refused for its length, or None."""
    if len(name) <= MAX_NAME_BYTES:
        return None
    return (
        f"{what} name {quote_head(name)} is {len(name)} bytes long, "
        f"over the limit of {MAX_NAME_BYTES}"
    )


def value_too_long(what: str, value: bytes) -> str | None:
    """Why a value (``what`` says of which tag or label) is refused for its length, or None."""
    if len(value) <= MAX_VALUE_BYTES:
        return None
    return f"{what} is {len(value)} bytes long, over the limit of {MAX_VALUE_BYTES}"


def too_many(what: str, n: int) -> str | None:
    """Why ``n`` tags or labels on one series are refused, or None."""
    if n <= MAX_LABELS:
        return None
    return f"{n} {what} on one series, over the limit of {MAX_LABELS}"


def quote_head(b: bytes) -> str:
    """A name quoted for a message, cut to its first 40 bytes when longer."""
    text = b[:40].decode("utf-8", errors="replace")
    return repr(text + "…" if len(b) > 40 else text)
