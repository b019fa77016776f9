"""Grouping polled records into storage writes."""

from __future__ import annotations

from dataclasses import dataclass, field

import cramjam

from vigil_ingest.common.kafka import Batch
from vigil_ingest.consumer.batcher import group_records


@dataclass
class Rec:
    topic: str
    partition: int
    offset: int
    value: bytes
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    key: bytes | None = None


def rec(
    offset: int, ws: str, value: bytes, fmt: str = "line", precision: str = "ns", points: int = 1
) -> Rec:
    b = Batch(
        workspace=ws,
        format=fmt,
        value=value,
        points=points,
        received_at_ms=1,  # type: ignore[arg-type]
        precision=precision if fmt == "line" else None,
    )  # type: ignore[arg-type]
    return Rec(b.topic, 0, offset, value, b.headers(), ws.encode())


def test_groups_by_workspace_format_and_precision() -> None:
    records = [
        rec(0, "a", b"cpu v=1\n"),
        rec(1, "b", b"cpu v=2\n"),
        rec(2, "a", b"cpu v=3"),  # no trailing newline: one is added when joining
        rec(3, "a", b"cpu v=4\n", precision="s"),
        rec(4, "a", b"\x00", fmt="promrw"),
    ]
    g = group_records(records, max_bytes=1 << 20)
    assert g.invalid == []
    shape = [
        (x.workspace, x.format, x.precision, [i.record.offset for i in x.items]) for x in g.groups
    ]
    assert shape == [
        ("a", "line", "ns", [0, 2]),
        ("b", "line", "ns", [1]),
        ("a", "line", "s", [3]),
        ("a", "promrw", None, [4]),
    ]
    assert g.groups[0].body() == b"cpu v=1\ncpu v=3\n"
    assert g.groups[0].points == 2


def test_splits_at_max_bytes() -> None:
    records = [rec(i, "a", b"cpu v=1\n") for i in range(10)]
    g = group_records(records, max_bytes=24)
    assert [len(x.items) for x in g.groups] == [3, 3, 3, 1]


def test_invalid_headers_are_set_aside() -> None:
    bad = Rec("vigil.metrics.line", 0, 7, b"cpu v=1\n", [("vigil-format", b"line")])
    g = group_records([bad, rec(8, "a", b"cpu v=1\n")], max_bytes=1 << 20)
    assert [(r.offset, why) for r, why in g.invalid] == [
        (7, "invalid record headers: record has no vigil-workspace header")
    ]
    assert len(g.groups) == 1


def test_promrw_bodies_merge_into_one_write_request() -> None:
    m1, m2 = b"\x0a\x03abc", b"\x0a\x02de"
    records = [
        rec(0, "a", bytes(cramjam.snappy.compress_raw(m1)), fmt="promrw"),
        rec(1, "a", bytes(cramjam.snappy.compress_raw(m2)), fmt="promrw"),
    ]
    [g] = group_records(records, max_bytes=1 << 20).groups
    assert bytes(cramjam.snappy.decompress_raw(g.body())) == m1 + m2


def test_otlp_bodies_concatenate_into_one_export() -> None:
    from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
        ExportMetricsServiceRequest,
    )

    reqs = [ExportMetricsServiceRequest() for _ in range(2)]
    for i, r in enumerate(reqs):
        r.resource_metrics.add().scope_metrics.add().metrics.add().name = f"m{i}"
    records = [rec(i, "a", r.SerializeToString(), fmt="otlp") for i, r in enumerate(reqs)]
    [g] = group_records(records, max_bytes=1 << 20).groups
    merged = ExportMetricsServiceRequest.FromString(g.body())
    names = [rm.scope_metrics[0].metrics[0].name for rm in merged.resource_metrics]
    assert names == ["m0", "m1"]
