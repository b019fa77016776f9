"""The record contract: headers written by the gateway read back by the consumer."""

from __future__ import annotations

import time
import uuid
from collections import Counter

import pytest
from kafka.admin import ConfigResource
from kafka.partitioner import DefaultPartitioner, murmur2

from vigil_ingest.common.kafka import (
    HEADER_FORMAT,
    HEADER_MAX_ACTIVE_SERIES,
    HEADER_POINTS,
    HEADER_PRECISION,
    HEADER_RECEIVED_AT,
    HEADER_WORKSPACE,
    TOPIC_LINE,
    TOPIC_MAX_MESSAGE_BYTES,
    TOPIC_PROMRW,
    Batch,
    HeaderError,
    SpreadPartitioner,
    ensure_topics,
)


def test_line_headers_roundtrip() -> None:
    b = Batch(
        workspace="ws-1",
        format="line",
        value=b"cpu v=1\n",
        points=1,
        received_at_ms=1700000000123,
        precision="ms",
    )
    assert b.topic == TOPIC_LINE
    assert b.key == b"ws-1"
    assert b.headers() == [
        (HEADER_WORKSPACE, b"ws-1"),
        (HEADER_FORMAT, b"line"),
        (HEADER_PRECISION, b"ms"),
        (HEADER_RECEIVED_AT, b"1700000000123"),
        (HEADER_POINTS, b"1"),
    ]
    assert Batch.from_record(b.value, b.headers()) == b


def test_promrw_has_no_precision() -> None:
    b = Batch(workspace="ws", format="promrw", value=b"\x00", points=3, received_at_ms=1)
    assert b.topic == TOPIC_PROMRW
    assert HEADER_PRECISION not in dict(b.headers())
    assert Batch.from_record(b.value, b.headers()) == b


def test_the_workspace_series_limit_travels_with_the_batch() -> None:
    b = Batch(
        workspace="ws",
        format="promrw",
        value=b"\x00",
        points=3,
        received_at_ms=1,
        max_active_series=500_000,
    )
    assert (HEADER_MAX_ACTIVE_SERIES, b"500000") in b.headers()
    assert Batch.from_record(b.value, b.headers()) == b
    # records written before the limit travelled have none: no limit
    old = [h for h in b.headers() if h[0] != HEADER_MAX_ACTIVE_SERIES]
    assert Batch.from_record(b.value, old).max_active_series == 0


def test_header_names_match_docs() -> None:
    assert [
        HEADER_WORKSPACE,
        HEADER_FORMAT,
        HEADER_PRECISION,
        HEADER_RECEIVED_AT,
        HEADER_POINTS,
        HEADER_MAX_ACTIVE_SERIES,
    ] == [
        "vigil-workspace",
        "vigil-format",
        "vigil-precision",
        "vigil-received-at",
        "vigil-points",
        "vigil-max-active-series",
    ]


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([], "record has no vigil-workspace header"),
        ([("vigil-workspace", b"w")], "record has no vigil-format header"),
        ([("vigil-workspace", b""), ("vigil-format", b"line")], "empty vigil-workspace header"),
        ([("vigil-workspace", b"w"), ("vigil-format", b"json")], "unknown vigil-format 'json'"),
        (
            [("vigil-workspace", b"w"), ("vigil-format", b"line"), ("vigil-precision", b"h")],
            "unknown vigil-precision 'h'",
        ),
        (
            [("vigil-workspace", b"w"), ("vigil-format", b"line"), ("vigil-points", b"x")],
            "non-numeric header",
        ),
        (
            [
                ("vigil-workspace", b"w"),
                ("vigil-format", b"line"),
                ("vigil-max-active-series", b"x"),
            ],
            "non-numeric header",
        ),
        ([("vigil-workspace", b"\xff"), ("vigil-format", b"line")], "header is not UTF-8"),
    ],
)
def test_broken_headers(headers, message) -> None:
    with pytest.raises(HeaderError, match=message):
        Batch.from_record(b"x", headers)


class Cluster:
    """What a partitioner asks of kafka-python's ClusterMetadata."""

    def __init__(self, partitions: int, down: frozenset[int] = frozenset()) -> None:
        self.all = set(range(partitions))
        self.down = down

    def topics(self) -> set[str]:
        return {TOPIC_LINE}

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        return set(self.all) if topic == TOPIC_LINE else None

    def available_partitions_for_topic(self, topic: str) -> set[int] | None:
        return self.all - self.down if topic == TOPIC_LINE else None


def place(p: SpreadPartitioner, key: bytes | None, n: int, cluster: Cluster) -> list[int]:
    return [p.partition(TOPIC_LINE, key, key, b"v", b"v", cluster) for _ in range(n)]


def test_one_workspace_goes_round_robin_over_every_partition() -> None:
    p, cluster = SpreadPartitioner(), Cluster(12)
    got = place(p, b"ws-1", 24, cluster)
    home = (murmur2(b"ws-1") & 0x7FFFFFFF) % 12
    assert got[0] == home  # starts where Kafka's default layout puts the workspace
    assert got == [(home + i) % 12 for i in range(24)]
    assert Counter(got) == {i: 2 for i in range(12)}


def test_each_workspace_has_its_own_turn() -> None:
    p, cluster = SpreadPartitioner(), Cluster(8)
    a = [p.partition(TOPIC_LINE, None, b"ws-a", b"", b"", cluster) for _ in range(3)]
    b = [p.partition(TOPIC_LINE, None, b"ws-b", b"", b"", cluster) for _ in range(5)]
    a += place(p, b"ws-a", 5, cluster)
    assert len(set(a)) == 8  # a's 8 records on the 8 partitions
    assert len(set(b)) == 5


def test_width_one_is_kafkas_default_layout() -> None:
    cluster = Cluster(8)
    default = DefaultPartitioner()
    for ws in (b"ws-1", b"ws-2", b"0b7f1d2e-5c3a-4f7e-9a41-1f2e3d4c5b6a"):
        want = default.partition(TOPIC_LINE, ws, ws, b"", b"", cluster)
        assert place(SpreadPartitioner(1), ws, 5, cluster) == [want] * 5


def test_width_bounds_the_spread_to_neighbouring_partitions() -> None:
    p, cluster = SpreadPartitioner(3), Cluster(8)
    home = (murmur2(b"ws") & 0x7FFFFFFF) % 8
    assert place(p, b"ws", 6, cluster) == [(home + i % 3) % 8 for i in range(6)]
    # wider than the topic: every partition, once each
    assert sorted(place(SpreadPartitioner(50), b"ws", 8, cluster)) == list(range(8))


def test_partitions_without_a_leader_are_skipped() -> None:
    got = place(SpreadPartitioner(), b"ws", 40, Cluster(4, down=frozenset({1, 2})))
    assert set(got) == {0, 3}
    assert Counter(got)[0] + Counter(got)[3] == 40
    # no leader known anywhere: the send waits for one on the partition whose turn it is
    assert len(set(place(SpreadPartitioner(), b"ws", 4, Cluster(4, frozenset(range(4)))))) == 4


def test_a_single_partition_topic_still_takes_everything() -> None:
    assert place(SpreadPartitioner(), b"ws", 5, Cluster(1)) == [0] * 5


def test_records_without_a_key_go_to_a_partition_with_a_leader() -> None:
    got = place(SpreadPartitioner(), None, 50, Cluster(4, down=frozenset({0})))
    assert set(got) <= {1, 2, 3}


def test_an_unknown_topic_is_refused() -> None:
    with pytest.raises(ValueError, match="Topic other not found"):
        SpreadPartitioner().partition("other", b"k", b"k", b"", b"", Cluster(2))


@pytest.mark.integration
def test_ensure_topics_creates_the_missing_and_grows_the_smaller(kafka_bootstrap: str) -> None:
    """A topic with fewer partitions than asked gets more (existing deployments spread over
    the new ones at once); one with more keeps them; a missing one is created with the
    record size limit."""
    from kafka.admin import KafkaAdminClient, NewTopic

    base = f"vigil.test.{uuid.uuid4().hex[:10]}"
    small, large, missing = f"{base}.small", f"{base}.large", f"{base}.missing"
    admin = KafkaAdminClient(bootstrap_servers=[kafka_bootstrap])
    admin.create_topics([NewTopic(small, 2, 1), NewTopic(large, 6, 1)])
    try:
        created = ensure_topics([kafka_bootstrap], 4, topics=[small, large, missing])
        assert created == [missing]
        want = {small: 4, large: 6, missing: 4}
        deadline = time.monotonic() + 15
        while True:  # the broker's metadata follows the change within moments
            described = admin.describe_topics([small, large, missing])
            counts = {t["name"]: len(t["partitions"]) for t in described}
            if counts == want or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert counts == want
        configs = admin.describe_configs([ConfigResource("TOPIC", missing)])
        limit = configs["topic"][missing]["max.message.bytes"]["value"]
        assert limit == str(TOPIC_MAX_MESSAGE_BYTES)
        # twice is harmless
        assert ensure_topics([kafka_bootstrap], 4, topics=[small, large, missing]) == []
    finally:
        admin.delete_topics([small, large, missing])
        admin.close()
