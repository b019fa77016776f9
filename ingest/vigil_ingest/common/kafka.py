"""Kafka names (topics, header keys, consumer group) and the record shape, defined once.

See docs/internals.md, "Kafka". Values are line protocol (uncompressed), remote_write
bodies as received, or OTLP ExportMetricsServiceRequest protobuf (JSON converted); the key
is the workspace id; headers are UTF-8. ``SpreadPartitioner`` spreads each workspace's
records over the topic's partitions, so that any number of consumers share one workspace.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kafka.partitioner import Partitioner, murmur2

log = logging.getLogger(__name__)

TOPIC_LINE = "vigil.metrics.line"
TOPIC_PROMRW = "vigil.metrics.promrw"
TOPIC_OTLP = "vigil.metrics.otlp"
TOPIC_DEADLETTER = "vigil.metrics.deadletter"
CONSUMER_GROUP = "vigil-consumer"

HEADER_WORKSPACE = "vigil-workspace"
HEADER_FORMAT = "vigil-format"
HEADER_PRECISION = "vigil-precision"
HEADER_RECEIVED_AT = "vigil-received-at"
HEADER_POINTS = "vigil-points"
# the workspace's limit of active series, which storage applies to the batch's new series
HEADER_MAX_ACTIVE_SERIES = "vigil-max-active-series"
HEADER_ERROR = "vigil-error"
HEADER_SOURCE_TOPIC = "vigil-source-topic"

Format = Literal["line", "promrw", "otlp"]
Precision = Literal["ns", "us", "ms", "s"]
PRECISIONS: tuple[Precision, ...] = ("ns", "us", "ms", "s")

TOPIC_BY_FORMAT: dict[str, str] = {"line": TOPIC_LINE, "promrw": TOPIC_PROMRW, "otlp": TOPIC_OTLP}

# Topic-level record size limit we ask for when we create the topics; the gateway splits
# line protocol into smaller records anyway, remote_write bodies travel whole.
TOPIC_MAX_MESSAGE_BYTES = 16 * 1024 * 1024

Headers = list[tuple[str, bytes]]


class HeaderError(ValueError):
    """A record's headers do not follow the contract."""


@dataclass(frozen=True, slots=True)
class Batch:
    """One Kafka record of the metrics topics: a workspace's batch and its headers."""

    workspace: str
    format: Format
    value: bytes
    points: int
    received_at_ms: int
    precision: Precision | None = None  # line protocol only
    max_active_series: int = 0  # the workspace's limit when the batch was accepted; 0: none

    @property
    def topic(self) -> str:
        return TOPIC_BY_FORMAT[self.format]

    @property
    def key(self) -> bytes:
        return self.workspace.encode()

    def headers(self) -> Headers:
        h: Headers = [
            (HEADER_WORKSPACE, self.workspace.encode()),
            (HEADER_FORMAT, self.format.encode()),
        ]
        if self.format == "line":
            h.append((HEADER_PRECISION, (self.precision or "ns").encode()))
        h.append((HEADER_RECEIVED_AT, str(self.received_at_ms).encode()))
        h.append((HEADER_POINTS, str(self.points).encode()))
        if self.max_active_series > 0:
            h.append((HEADER_MAX_ACTIVE_SERIES, str(self.max_active_series).encode()))
        return h

    @classmethod
    def from_record(cls, value: bytes, headers: Sequence[tuple[str, bytes]]) -> Batch:
        """Rebuild a batch from a consumed record; raises HeaderError on a broken contract."""
        h = {k: v for k, v in headers}
        try:
            workspace = h[HEADER_WORKSPACE].decode()
            fmt = h[HEADER_FORMAT].decode()
        except KeyError as e:
            raise HeaderError(f"record has no {e.args[0]} header") from None
        except UnicodeDecodeError as e:
            raise HeaderError(f"header is not UTF-8: {e}") from None
        if not workspace:
            raise HeaderError(f"empty {HEADER_WORKSPACE} header")
        if fmt not in TOPIC_BY_FORMAT:
            raise HeaderError(f"unknown {HEADER_FORMAT} {fmt!r}")
        precision: Precision | None = None
        if fmt == "line":
            p = h.get(HEADER_PRECISION, b"ns").decode(errors="replace")
            if p not in PRECISIONS:
                raise HeaderError(f"unknown {HEADER_PRECISION} {p!r}")
            precision = p
        try:
            points = int(h.get(HEADER_POINTS, b"0"))
            received = int(h.get(HEADER_RECEIVED_AT, b"0"))
            max_active_series = int(h.get(HEADER_MAX_ACTIVE_SERIES, b"0"))
        except ValueError as e:
            raise HeaderError(f"non-numeric header: {e}") from None
        return cls(
            workspace=workspace,
            format=fmt,  # type: ignore[arg-type]
            value=value,
            points=points,
            received_at_ms=received,
            precision=precision,
            max_active_series=max(0, max_active_series),
        )


# workspaces whose next partition a producer remembers; past it, they start over (harmless)
MAX_SPREAD_KEYS = 100_000


class SpreadPartitioner(Partitioner):  # type: ignore[misc]
    """Sends each workspace's records round-robin over ``width`` partitions of the topic (0:
    all of them), starting from the one its key (the workspace id) hashes to, and skips a
    partition without a leader while another one of them has one.

    Storage does not care in which order a workspace's batches arrive (deduplication makes
    replays harmless), and the consumer holds back a workspace, not a partition, so nothing
    ties a workspace to one partition: spread, one workspace is written by every consumer of
    the group. Round-robin rather than a random or hashed suffix: the partitions get equal
    shares from the first records on (hashed suffixes collide; random shares even out only
    over many records). ``width`` 1 is Kafka's default layout, one partition per workspace
    (murmur2 of the key, as the Java client and kafka-python's DefaultPartitioner place it).
    """

    def __init__(self, width: int = 0) -> None:
        self._width = width
        self._lock = threading.Lock()
        self._next: dict[tuple[str, bytes], int] = {}
        self._home: dict[bytes, int] = {}

    def partition(
        self,
        topic: str,
        key: Any,
        serialized_key: bytes | None,
        value: Any,
        serialized_value: bytes | None,
        cluster: Any,
    ) -> int:
        parts: set[int] | None = cluster.partitions_for_topic(topic)
        if not parts:
            raise ValueError(f"Topic {topic} not found in ClusterMetadata")
        ordered = sorted(parts)
        available: set[int] = cluster.available_partitions_for_topic(topic) or set()
        if serialized_key is None:
            return random.choice(sorted(available) or ordered)
        n = len(ordered)
        width = n if self._width <= 0 else min(self._width, n)
        with self._lock:
            h = self._home.get(serialized_key)
            if h is None:
                if len(self._home) >= MAX_SPREAD_KEYS:
                    self._home.clear()
                h = self._home[serialized_key] = murmur2(serialized_key) & 0x7FFFFFFF
            k = (topic, serialized_key)
            i = self._next.get(k, 0) % width
            if k not in self._next and len(self._next) >= MAX_SPREAD_KEYS:
                self._next.clear()
            self._next[k] = (i + 1) % width
        home = h % n
        for step in range(width):
            p = ordered[(home + (i + step) % width) % n]
            if p in available:
                return p
        return ordered[(home + i) % n]  # no leader known for any: the send waits for one


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def ensure_topics(
    bootstrap: Iterable[str],
    partitions: int,
    *,
    timeout_s: float = 10.0,
    topics: Sequence[str] = (TOPIC_LINE, TOPIC_PROMRW, TOPIC_OTLP, TOPIC_DEADLETTER),
) -> list[str]:
    """Create the metrics and dead-letter topics when missing, and add partitions to those
    that have fewer than ``partitions``; returns the names created.

    Growing is safe here because nothing ties a workspace to a partition: a workspace's
    records spread over whatever partitions the topic has (``SpreadPartitioner``), and the
    consumers read a new partition from its start. Kafka cannot remove partitions: a topic
    with more keeps them. Raises kafka.errors.KafkaError when Kafka cannot be reached within
    ``timeout_s``.
    """
    from kafka.admin import KafkaAdminClient, NewTopic
    from kafka.errors import InvalidPartitionsError, TopicAlreadyExistsError

    admin = KafkaAdminClient(
        bootstrap_servers=list(bootstrap),
        client_id="vigil-ingest-admin",
        request_timeout_ms=int(timeout_s * 1000),
        bootstrap_timeout_ms=int(timeout_s * 1000),
    )
    try:
        wanted = list(topics)
        existing = _partition_counts(admin, wanted)
        created: list[str] = []
        raced: list[str] = []  # created meanwhile by another process, or not in metadata yet
        for name in [t for t in wanted if t not in existing]:
            try:
                admin.create_topics(
                    [
                        NewTopic(
                            name=name,
                            num_partitions=partitions,
                            replication_factor=1,
                            topic_configs={"max.message.bytes": str(TOPIC_MAX_MESSAGE_BYTES)},
                        )
                    ]
                )
                created.append(name)
            except TopicAlreadyExistsError:
                raced.append(name)
        if created:
            log.info("created kafka topics %s with %d partitions", created, partitions)
        if raced:
            existing.update(_partition_counts(admin, raced))
        for name, have in existing.items():
            if have >= partitions:
                continue
            try:
                admin.create_partitions({name: partitions})
            except InvalidPartitionsError:
                continue  # another process grew it first
            log.info("kafka topic %s grown from %d to %d partitions", name, have, partitions)
        return created
    finally:
        admin.close()


def _partition_counts(admin: Any, topics: Sequence[str]) -> dict[str, int]:
    """The number of partitions of each of ``topics`` that exists."""
    return {
        t["name"]: len(t.get("partitions") or ())
        for t in admin.describe_topics(list(topics))
        if not t.get("error_code")
    }
