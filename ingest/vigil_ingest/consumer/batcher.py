"""Grouping polled records into storage writes.

Records of one poll are grouped by (format, workspace, precision, the workspace's active series
limit they carry); each group becomes one
storage request (split further at ``max_bytes``). Line protocol is concatenated; remote_write
bodies are decoded, concatenated (serialised protobuf messages merge by concatenation:
``timeseries`` is a repeated field) and snappy-encoded again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cramjam

from vigil_ingest.common.kafka import Batch, HeaderError


class Record(Protocol):
    """What the batcher needs of a Kafka record (kafka-python's ConsumerRecord has it)."""

    topic: str
    partition: int
    offset: int
    value: bytes
    headers: Sequence[tuple[str, bytes]]


@dataclass
class Item:
    record: Record
    batch: Batch


@dataclass
class WriteGroup:
    """Records bound for one storage request."""

    workspace: str
    format: str
    precision: str | None
    items: list[Item] = field(default_factory=list)
    size: int = 0
    max_active_series: int = 0  # the workspace's limit, as its newest batch carries it

    @property
    def points(self) -> int:
        return sum(i.batch.points for i in self.items)

    def body(self) -> bytes:
        """The request body for storage."""
        values = [i.batch.value for i in self.items]
        if self.format == "line":
            return b"".join(v if v.endswith(b"\n") else v + b"\n" for v in values)
        if len(values) == 1:
            return values[0]
        if self.format == "otlp":
            # serialized ExportMetricsServiceRequests concatenate into one (repeated field)
            return b"".join(values)
        merged = b"".join(bytes(cramjam.snappy.decompress_raw(v)) for v in values)
        return bytes(cramjam.snappy.compress_raw(merged))


@dataclass
class Grouped:
    groups: list[WriteGroup]
    invalid: list[tuple[Record, str]]  # records whose headers break the contract, with why


def group_records(records: Iterable[Record], *, max_bytes: int) -> Grouped:
    """Group records per (format, workspace, precision, limit) in arrival order."""
    open_groups: dict[tuple[str, str, str | None, int], WriteGroup] = {}
    groups: list[WriteGroup] = []
    invalid: list[tuple[Record, str]] = []
    for rec in records:
        try:
            batch = Batch.from_record(rec.value or b"", rec.headers or [])
        except HeaderError as e:
            invalid.append((rec, f"invalid record headers: {e}"))
            continue
        key = (batch.format, batch.workspace, batch.precision, batch.max_active_series)
        g = open_groups.get(key)
        if g is None or (g.items and g.size + len(batch.value) > max_bytes):
            g = WriteGroup(
                workspace=batch.workspace,
                format=batch.format,
                precision=batch.precision,
                max_active_series=batch.max_active_series,
            )
            open_groups[key] = g
            groups.append(g)
        g.items.append(Item(rec, batch))
        g.size += len(batch.value)
    return Grouped(groups, invalid)
