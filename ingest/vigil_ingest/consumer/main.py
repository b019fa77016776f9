"""The consume loop.

    poll → group per (format, workspace, precision) → write each group to storage
         → commit, per partition, up to the first record not yet written

Groups are written ``VIGIL_CONSUMER_WRITE_CONCURRENCY`` at a time (storage is the slow
side). A workspace's records are spread over every partition (``common/kafka.py``), so
trouble is handled per workspace, not per partition: when storage cannot take a group now
(5xx, 429, connection errors), its workspace is *held*: the group waits for its next attempt
(capped exponential backoff), the workspace's groups polled meanwhile wait behind it without
being tried, and nothing is committed past their records, while the loop goes on polling and
writing every other workspace's records, from the same partitions too. Only the oldest
group of a held workspace is tried again; once storage takes it, the others follow at once.
Past ``VIGIL_CONSUMER_MAX_HELD_BYTES`` of held groups the partitions they came from are
paused (memory stays bounded; that can delay other workspaces of those partitions). When
storage keeps refusing a workspace for ``VIGIL_CONSUMER_PARK_AFTER_SECONDS`` while it
acknowledged other workspaces' writes meanwhile, its held groups are parked: their records go
to the dead-letter topic with the reason, the workspace's count of parked batches and the
last reason go to PostgreSQL (its usage shows them), and the partitions move on. While
storage refuses everyone (down), nothing is parked and the retries go on, committing nothing
past them. Storage refuses a group (400): it is bisected until the records refused on their
own are found; those go to the dead-letter topic with storage's reason. Storage refuses a
group because its workspace was deleted (410): the group is dropped and counted, as the
owner asked. Kafka unreachable (a poll or a commit fails): the poll is repeated and the
commit retried with backoff, the consumer stays up. Anything else is a bug or a
misconfiguration and stops the process.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from kafka import ConsumerRebalanceListener, KafkaConsumer, KafkaProducer
from kafka.errors import CommitFailedError, KafkaError
from kafka.structs import OffsetAndMetadata, TopicPartition
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from vigil_ingest import __version__
from vigil_ingest.common.cli import parse_args
from vigil_ingest.common.config import Settings
from vigil_ingest.common.errors import IngestError, Poison, Retryable, WorkspaceDeleted
from vigil_ingest.common.kafka import (
    TOPIC_DEADLETTER,
    TOPIC_LINE,
    TOPIC_OTLP,
    TOPIC_PROMRW,
    ensure_topics,
)
from vigil_ingest.common.logs import setup_logging
from vigil_ingest.consumer.batcher import Record, WriteGroup, group_records
from vigil_ingest.consumer.deadletter import DeadLetter
from vigil_ingest.consumer.parked import ParkedRecorder
from vigil_ingest.consumer.storage_client import StorageClient
from vigil_ingest.gateway.produce import producer_config

log = logging.getLogger(__name__)

LAG_INTERVAL_S = 5.0
# Bound on each offsets request of the lag update, which runs in the consume loop: while
# Kafka is away kafka-python would otherwise wait request_timeout_ms (30 s) before failing.
LAG_TIMEOUT_MS = 2000


class Metrics:
    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.lag = Gauge(
            "vigil_consumer_lag",
            "Records not yet committed, per partition",
            ["topic", "partition"],
            registry=r,
        )
        self.batches = Counter(
            "vigil_consumer_batches", "Storage writes that succeeded", ["format"], registry=r
        )
        self.points = Counter(
            "vigil_consumer_points", "Points written to storage", ["format"], registry=r
        )
        self.retries = Counter(
            "vigil_consumer_retries",
            "Storage or Kafka attempts that failed and were retried",
            registry=r,
        )
        self.deadletters = Counter(
            "vigil_consumer_deadletters", "Records sent to the dead-letter topic", registry=r
        )
        self.parked = Counter(
            "vigil_consumer_parked_records",
            "Records parked (sent to the dead-letter topic) because storage kept refusing "
            "their workspace while it took other workspaces' writes",
            registry=r,
        )
        self.retrying_groups = Gauge(
            "vigil_consumer_retrying_groups",
            "Storage writes waiting while storage cannot take their workspace's writes",
            registry=r,
        )
        self.deleted_points = Counter(
            "vigil_consumer_deleted_workspace_points",
            "Points dropped because their workspace had been deleted",
            registry=r,
        )
        self.series_limit_dropped_points = Counter(
            "vigil_consumer_series_limit_dropped_points",
            "Points storage left out because their series were new while the workspace had "
            "its limit of active series",
            registry=r,
        )
        self.held_bytes = Gauge(
            "vigil_consumer_held_bytes",
            "Bytes of the groups waiting while storage cannot take their workspace's writes",
            registry=r,
        )
        self.write_seconds = Histogram(
            "vigil_consumer_storage_write_seconds",
            "Duration of successful storage writes",
            registry=r,
        )


class _Rebalance(ConsumerRebalanceListener):  # type: ignore[misc]
    def __init__(self, consumer: Consumer) -> None:
        self._c = consumer

    def on_partitions_revoked(self, revoked: Any) -> None:
        if revoked:
            log.info(
                "partitions revoked: %s", sorted(f"{tp.topic}/{tp.partition}" for tp in revoked)
            )
        for tp in revoked:
            self._c._forget(tp)

    def on_partitions_assigned(self, assigned: Any) -> None:
        if assigned:
            log.info(
                "partitions assigned: %s", sorted(f"{tp.topic}/{tp.partition}" for tp in assigned)
            )
        self._c._next_lag = 0.0


@dataclass
class _Hold:
    """A workspace storage cannot take now: its groups, oldest first, wait for the next
    attempt, which tries the oldest one only."""

    workspace: str
    groups: list[WriteGroup]
    first_failed: float  # monotonic
    next_at: float
    delay: float
    attempts: int = 0
    error: str = ""

    @property
    def size(self) -> int:
        return sum(g.size for g in self.groups)


def _tp(rec: Record) -> TopicPartition:
    return TopicPartition(rec.topic, rec.partition)


class Consumer:
    """One consumer process of the group. ``run()`` until ``stop()``."""

    def __init__(
        self,
        settings: Settings,
        *,
        storage: StorageClient | None = None,
        topics: Sequence[str] = (TOPIC_LINE, TOPIC_PROMRW, TOPIC_OTLP),
        deadletter_topic: str = TOPIC_DEADLETTER,
        parked: ParkedRecorder | None = None,
    ) -> None:
        self.settings = settings
        self.topics = list(topics)
        self.metrics = Metrics()
        self.storage = storage or StorageClient(
            settings.storage_url, settings.storage_token, timeout_s=settings.storage_timeout_seconds
        )
        self._deadletter_topic = deadletter_topic
        self._running = threading.Event()
        self._running.set()
        self._committed: dict[TopicPartition, int] = {}
        # offsets polled and not yet written (or dead-lettered, dropped, parked), per partition,
        # and the highest offset polled: commits go up to the first open one
        self._open: dict[TopicPartition, set[int]] = {}
        self._top: dict[TopicPartition, int] = {}
        self._holds: dict[str, _Hold] = {}  # workspace -> its groups storage cannot take now
        # workspace -> monotonic time storage last acknowledged one of its writes
        self._wrote_at: dict[str, float] = {}
        self.parked = parked or ParkedRecorder(settings.psycopg_url)
        self._lag: dict[tuple[str, str], int] = {}
        self._next_lag = 0.0
        self._kafka_down = False
        self._state_lock = threading.Lock()
        self._state: dict[str, Any] = {
            "storage_ok": True,
            "storage_error": None,
            "kafka_ok": True,
            "kafka_error": None,
            "retrying": False,
        }
        self._consumer: KafkaConsumer | None = None
        self._producer: KafkaProducer | None = None
        self._deadletter: DeadLetter | None = None
        self._pool = ThreadPoolExecutor(
            max_workers=settings.consumer_write_concurrency, thread_name_prefix="storage-write"
        )
        self.lag_interval_s = LAG_INTERVAL_S

    # -- lifecycle ---------------------------------------------------------------------

    def stop(self) -> None:
        self._running.clear()

    @property
    def running(self) -> bool:
        return self._running.is_set()

    def _connect(self) -> None:
        s = self.settings
        self._consumer = KafkaConsumer(
            bootstrap_servers=s.kafka_servers,
            group_id=s.consumer_group,
            client_id="vigil-consumer",
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            max_poll_records=s.consumer_max_poll_records,
            max_partition_fetch_bytes=16 * 1024 * 1024,
            fetch_max_bytes=64 * 1024 * 1024,
            max_poll_interval_ms=300_000,
            # A consumer that died (kill -9) holds its partitions until its session expires;
            # 10 s instead of the 45 s default lets a restarted one take over quickly.
            session_timeout_ms=10_000,
            heartbeat_interval_ms=3_000,
        )
        self._consumer.subscribe(self.topics, listener=_Rebalance(self))
        self._producer = KafkaProducer(**producer_config(s, client_id="vigil-consumer-deadletter"))
        self._deadletter = DeadLetter(self._producer, self._deadletter_topic)

    def close(self) -> None:
        if self._consumer is not None:
            self._consumer.close(autocommit=False)
        if self._producer is not None:
            self._producer.close(timeout=5)
        self._pool.shutdown(wait=True)
        self.storage.close()
        self.parked.close()

    def run(self) -> None:
        """Consume until stopped. Unexpected errors propagate (the process exits)."""
        if self._consumer is None:
            self._connect()
        assert self._consumer is not None
        while self.running:
            polled = self._poll(self._consumer, self._poll_timeout_ms())
            records: list[Record] = [r for rs in polled.values() for r in rs]
            if not self.process(records):
                break
            self._maybe_update_lag()

    def _poll_timeout_ms(self) -> int:
        """Up to 500 ms, less when a held workspace's next attempt is due sooner."""
        if not self._holds:
            return 500
        due = min(h.next_at for h in self._holds.values()) - time.monotonic()
        return int(min(0.5, max(0.01, due)) * 1000)

    # -- one poll ----------------------------------------------------------------------

    def process(self, records: Sequence[Record]) -> bool:
        """Write one poll's records and the retries that are due, then commit what is done.
        False when stopped midway (nothing more is committed then)."""
        for rec in records:
            tp = _tp(rec)
            self._open.setdefault(tp, set()).add(rec.offset)
            self._top[tp] = max(self._top.get(tp, -1), rec.offset)
        grouped = group_records(records, max_bytes=self.settings.consumer_max_batch_bytes)
        try:
            for rec, reason in grouped.invalid:
                self._dead_letter(rec, reason)
                self._done([rec])
            self._write_round(grouped.groups)
        except _Stopped:
            return False
        self._commit_done()
        return True

    def _write_round(self, groups: Sequence[WriteGroup]) -> None:
        """Write the new groups and, for each held workspace whose next attempt is due, its
        oldest group, up to ``consumer_write_concurrency`` at a time. The new groups of a held
        workspace wait behind its oldest one; when storage takes that one, they are written
        in the same round. Workspaces refused too long on their own are parked."""
        now = time.monotonic()
        fresh: list[WriteGroup] = []
        for g in groups:
            held = self._holds.get(g.workspace)
            if held is None:
                fresh.append(g)
            else:
                held.groups.append(g)  # storage is refusing its workspace: wait behind it
        probes = {id(h.groups[0]): h for h in self._holds.values() if h.next_at <= now}
        work = fresh + [h.groups[0] for h in probes.values()]
        last: Retryable | None = None
        while work:
            outcomes = list(self._pool.map(self._attempt, work))
            released: list[WriteGroup] = []
            for g, err in zip(work, outcomes, strict=True):
                probe_of = probes.pop(id(g), None)
                if isinstance(err, Retryable):
                    last = err
                    self._hold(g, err, probe_of)
                    continue
                if err is None:
                    self._wrote_at[g.workspace] = time.monotonic()
                elif isinstance(err, Poison):
                    self._write_refused(g, err)
                elif isinstance(err, WorkspaceDeleted):
                    self._drop_deleted(g, err)
                self._done(i.record for i in g.items)
                if probe_of is not None and self._holds.get(g.workspace) is probe_of:
                    # storage answered for the workspace again: what waited behind goes now
                    del self._holds[g.workspace]
                    released.extend(probe_of.groups[1:])
            work = released
        if last is not None:
            self._set_state(storage_ok=False, storage_error=last.message, retrying=True)
        self._park_due()
        self._pause_over_held_bytes()
        self.metrics.retrying_groups.set(sum(len(h.groups) for h in self._holds.values()))
        self.metrics.held_bytes.set(sum(h.size for h in self._holds.values()))
        if not self._holds:
            self._set_state(storage_ok=True, retrying=False)

    def _hold(self, g: WriteGroup, err: Retryable, probe_of: _Hold | None) -> None:
        """Storage cannot take ``g`` now: hold its workspace, or, when ``g`` was a held
        workspace's attempt, wait longer before the next one."""
        now = time.monotonic()
        h = probe_of or self._holds.get(g.workspace)
        if h is not None and probe_of is None:
            h.groups.append(g)  # another group of the workspace refused in the same round
            return
        if h is None:
            h = _Hold(
                g.workspace,
                [g],
                first_failed=now,
                next_at=now,
                delay=self.settings.retry_initial_seconds,
            )
            self._holds[g.workspace] = h
        h.attempts += 1
        h.error = err.message
        h.next_at = now + h.delay
        self.metrics.retries.inc()
        log.warning(
            "%s (workspace %s, %d records, attempt %d); retrying in %.1f s, %d groups held",
            err.message,
            g.workspace,
            len(g.items),
            h.attempts,
            h.delay,
            len(h.groups),
        )
        h.delay = min(h.delay * 2, self.settings.retry_max_seconds)

    def _park_due(self) -> None:
        """Park the workspaces refused for ``consumer_park_after_seconds`` while storage took
        other workspaces' writes (a refusal for everyone is storage being down: no parking)."""
        now = time.monotonic()
        if len(self._wrote_at) > 10_000:  # forget workspaces that have not written for a while
            horizon = now - max(600.0, 2 * self.settings.consumer_park_after_seconds)
            self._wrote_at = {w: at for w, at in self._wrote_at.items() if at > horizon}
        for ws, h in list(self._holds.items()):
            others_written = any(
                w != ws and at > h.first_failed for w, at in self._wrote_at.items()
            )
            if now - h.first_failed >= self.settings.consumer_park_after_seconds and others_written:
                del self._holds[ws]
                self._park(h, now - h.first_failed)

    def _park(self, h: _Hold, seconds: float) -> None:
        """Every group held for the workspace goes to the dead-letter topic with the reason."""
        reason = (
            f"parked after {h.attempts} attempts over {seconds:.0f} s while storage took other "
            f"workspaces' writes: {h.error}"
        )
        items = [i for g in h.groups for i in g.items]
        points = sum(g.points for g in h.groups)
        log.warning(
            "parking %d records (%d points) of workspace %s: %s",
            len(items),
            points,
            h.workspace,
            reason,
        )
        for item in items:
            self._dead_letter(item.record, reason)
        self.metrics.parked.inc(len(items))
        self.parked.add(h.workspace, batches=len(items), points=points, reason=reason)
        self.parked.flush()
        self._done(i.record for i in items)

    def _pause_over_held_bytes(self) -> None:
        """Past ``consumer_max_held_bytes`` of held groups, pause the partitions they came
        from (nothing more is read from them until the held groups are written or parked);
        below it, resume every partition paused so."""
        c = self._consumer
        if c is None:
            return
        waiting: set[TopicPartition] = set()
        if sum(h.size for h in self._holds.values()) > self.settings.consumer_max_held_bytes:
            waiting = {
                _tp(i.record) for h in self._holds.values() for g in h.groups for i in g.items
            }
        owned = c.assignment()
        if waiting & owned:
            c.pause(*(waiting & owned))
        resume = [tp for tp in c.paused() if tp not in waiting]
        if resume:
            c.resume(*resume)

    def _done(self, records: Iterable[Record]) -> None:
        for rec in records:
            offsets = self._open.get(_tp(rec))
            if offsets is not None:
                offsets.discard(rec.offset)

    def _attempt(self, g: WriteGroup) -> IngestError | None:
        """One write on a pool thread: the expected failures come back as values, anything
        else raises (and stops the consumer)."""
        try:
            self._write(g)
        except (Retryable, Poison, WorkspaceDeleted) as e:
            return e
        return None

    def _drop_deleted(self, g: WriteGroup, e: WorkspaceDeleted) -> None:
        """The group's workspace was deleted: its points are dropped (and committed past)."""
        log.info(
            "dropping %d records (%d points) of deleted workspace %s: %s",
            len(g.items),
            g.points,
            g.workspace,
            e.message,
        )
        self.metrics.deleted_points.inc(g.points)

    def _write_refused(self, g: WriteGroup, e: Poison) -> None:
        """Storage refused a whole group (it writes nothing of a refused batch): bisect it
        until the records it refuses on their own are found; those go to the dead-letter
        topic, the rest is written."""
        if len(g.items) == 1:
            self._dead_letter(g.items[0].record, e.message)
            return
        log.warning(
            "storage refused a group of %d records for workspace %s (%s); bisecting",
            len(g.items),
            g.workspace,
            e.message,
        )
        mid = len(g.items) // 2
        for items in (g.items[:mid], g.items[mid:]):
            half = WriteGroup(
                g.workspace,
                g.format,
                g.precision,
                items,
                sum(len(i.batch.value) for i in items),
                g.max_active_series,
            )
            try:
                self._with_retry(lambda half=half: self._write(half))  # type: ignore[misc]
            except Poison as e2:
                self._write_refused(half, e2)
            except WorkspaceDeleted as e3:
                self._drop_deleted(half, e3)

    def _write(self, g: WriteGroup) -> None:
        t0 = time.perf_counter()
        limit = g.max_active_series
        if g.format == "line":
            dropped = self.storage.write_line(
                g.workspace, g.body(), precision=g.precision or "ns", max_active_series=limit
            )
        elif g.format == "otlp":
            dropped = self.storage.write_otlp(g.workspace, g.body(), max_active_series=limit)
        else:
            dropped = self.storage.write_promrw(g.workspace, g.body(), max_active_series=limit)
        self.metrics.write_seconds.observe(time.perf_counter() - t0)
        if dropped:
            # what the workspace's owner sees in its usage; here for the operator
            log.info(
                "workspace %s is at its limit of %d active series: storage left out %d points "
                "of new series",
                g.workspace,
                limit,
                dropped,
            )
            self.metrics.series_limit_dropped_points.inc(dropped)
        self.metrics.batches.labels(g.format).inc()
        self.metrics.points.labels(g.format).inc(g.points)

    def _dead_letter(self, rec: Record, reason: str) -> None:
        assert self._deadletter is not None
        log.warning("dead-lettering %s/%d@%d: %s", rec.topic, rec.partition, rec.offset, reason)
        dl = self._deadletter
        self._with_retry(lambda: dl.send(rec, reason), dependency="kafka")
        self.metrics.deadletters.inc()

    def _with_retry(self, fn: Callable[[], None], *, dependency: str = "storage") -> None:
        """Call ``fn`` until it does not raise Retryable, backing off in between."""
        delay = self.settings.retry_initial_seconds
        while True:
            try:
                fn()
            except Retryable as e:
                self.metrics.retries.inc()
                self._set_state(
                    **{f"{dependency}_ok": False, f"{dependency}_error": e.message}, retrying=True
                )
                log.warning("%s; retrying in %.1f s", e.message, delay)
                self._backoff(delay)
                delay = min(delay * 2, self.settings.retry_max_seconds)
                continue
            self._set_state(**{f"{dependency}_ok": True}, retrying=bool(self._holds))
            return

    def _poll(self, c: KafkaConsumer, timeout_ms: int) -> dict[TopicPartition, list[Record]]:
        """One poll; while the broker cannot be reached (kafka-python raises then, e.g. a
        KafkaConnectionError from finding the group coordinator) nothing is returned, the
        health says why, and the next poll tries again: nothing was committed past what
        storage acknowledged, so nothing is lost."""
        try:
            polled: dict[TopicPartition, list[Record]] = c.poll(timeout_ms=timeout_ms)
        except KafkaError as e:
            if not self._kafka_down:
                log.warning("kafka unreachable while polling: %r; retrying", e)
            self._kafka_down = True
            self.metrics.retries.inc()
            self._set_state(kafka_ok=False, kafka_error=f"poll failed: {e!r}")
            time.sleep(min(timeout_ms / 1000, self.settings.retry_initial_seconds))
            return {}
        if self._kafka_down:
            log.info("kafka reachable again")
            self._kafka_down = False
            self._set_state(kafka_ok=True, kafka_error=None)
        return polled

    def _backoff(self, seconds: float) -> None:
        """Wait, staying in the group: pause every assigned partition and keep polling."""
        if not self.running:
            raise _Stopped
        c = self._consumer
        assert c is not None
        deadline = time.monotonic() + seconds
        c.pause(*c.assignment())
        try:
            while self.running:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                got = self._poll(c, int(min(left, 1.0) * 1000))
                # Partitions assigned during the pause are not paused yet: put back what
                # they delivered and pause them too.
                for tp, rs in got.items():
                    c.seek(tp, rs[0].offset)
                    c.pause(tp)
                c.pause(*c.assignment())
                self._maybe_update_lag()  # lag keeps growing while storage is down: show it
        finally:
            c.resume(*c.paused())
        if not self.running:
            raise _Stopped

    def _commit_done(self) -> None:
        """Commit, per owned partition, up to the first record not yet done."""
        c = self._consumer
        assert c is not None
        owned = c.assignment()
        offsets: dict[TopicPartition, OffsetAndMetadata] = {}
        for tp, top in self._top.items():
            if tp not in owned:
                continue
            open_ = self._open.get(tp)
            upto = min(open_) if open_ else top + 1
            if upto > self._committed.get(tp, -1):
                offsets[tp] = OffsetAndMetadata(upto, "", -1)
        if not offsets:
            return

        def commit() -> None:
            try:
                c.commit(offsets)
            except CommitFailedError:
                raise
            except KafkaError as e:
                raise Retryable(f"offset commit failed: {e!r}") from e

        try:
            self._with_retry(commit, dependency="kafka")
        except CommitFailedError as e:
            # The group rebalanced while we wrote: the new owner re-reads from the last
            # commit and storage's deduplication collapses the replay.
            log.warning("commit failed after a rebalance, records will be replayed: %s", e)
            return
        for tp, om in offsets.items():
            self._committed[tp] = om.offset

    # -- lag and health ----------------------------------------------------------------

    def _maybe_update_lag(self) -> None:
        now = time.monotonic()
        if now < self._next_lag or self._consumer is None:
            return
        self._next_lag = now + self.lag_interval_s
        c = self._consumer
        parts = list(c.assignment())
        if not parts:
            return
        try:
            ends = c.end_offsets(parts, timeout_ms=LAG_TIMEOUT_MS)
            for tp in [tp for tp in parts if tp not in self._committed]:
                committed = c.committed(tp, timeout_ms=LAG_TIMEOUT_MS)
                self._committed[tp] = (
                    committed
                    if committed is not None
                    else c.beginning_offsets([tp], timeout_ms=LAG_TIMEOUT_MS)[tp]
                )
        except KafkaError as e:
            # Lag is unknown while Kafka does not answer; polling keeps trying to reconnect.
            self._set_state(kafka_ok=False, kafka_error=f"lag unavailable: {e!r}")
            return
        self._set_state(kafka_ok=True, kafka_error=None)
        lag: dict[tuple[str, str], int] = {}
        for tp in parts:
            n = max(0, ends.get(tp, 0) - self._committed.get(tp, 0))
            lag[(tp.topic, str(tp.partition))] = n
            self.metrics.lag.labels(tp.topic, str(tp.partition)).set(n)
        with self._state_lock:
            self._lag = lag

    def _forget(self, tp: TopicPartition) -> None:
        self._committed.pop(tp, None)
        self._open.pop(tp, None)
        self._top.pop(tp, None)
        # The new owner re-reads the partition from its last commit: its records waiting for a
        # retry here are not ours any more.
        for ws, h in list(self._holds.items()):
            for g in h.groups:
                g.items = [i for i in g.items if _tp(i.record) != tp]
                g.size = sum(len(i.batch.value) for i in g.items)
            h.groups = [g for g in h.groups if g.items]
            if not h.groups:
                del self._holds[ws]
        key = (tp.topic, str(tp.partition))
        with self._state_lock:
            self._lag.pop(key, None)
        with contextlib.suppress(KeyError):
            self.metrics.lag.remove(*key)

    def _set_state(self, **kw: Any) -> None:
        with self._state_lock:
            self._state.update(kw)

    def health(self) -> dict[str, Any]:
        with self._state_lock:
            lag = dict(self._lag)
            state = dict(self._state)
        ok = bool(state["storage_ok"]) and bool(state["kafka_ok"]) and self.running
        return {
            "status": "ok" if ok else "degraded",
            "version": __version__,
            "lag": sum(lag.values()),
            "partitions": {f"{t}/{p}": n for (t, p), n in sorted(lag.items())},
            "storage": {"ok": state["storage_ok"], "last_error": state["storage_error"]},
            "kafka": {"ok": state["kafka_ok"], "last_error": state["kafka_error"]},
            "retrying": state["retrying"],
            "parked_records": int(self.metrics.parked._value.get()),
        }


class _Stopped(Exception):
    """Raised inside a retry loop when the consumer is asked to stop."""


def serve_status(consumer: Consumer, host: str, port: int) -> ThreadingHTTPServer:
    """GET /health (JSON) and GET /metrics (Prometheus text) on a background thread."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            if self.path.split("?")[0] == "/health":
                body = json.dumps(consumer.health()).encode()
                ctype = "application/json"
            elif self.path.split("?")[0] == "/metrics":
                body = generate_latest(consumer.metrics.registry)
                ctype = CONTENT_TYPE_LATEST
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="status-http", daemon=True).start()
    return server


DESCRIPTION = """\
Vigil's ingest consumer: reads the batches the gateway produced to Kafka (consumer group
VIGIL_CONSUMER_GROUP), writes them to vigil-storage per workspace and commits the offsets
only after storage acknowledged them; batches storage refuses go to the dead-letter topic.
GET /health (lag, storage, Kafka) and GET /metrics (Prometheus) are served on
VIGIL_HOST:VIGIL_CONSUMER_PORT."""

SETTINGS = (
    "host",
    "consumer_port",
    "kafka_bootstrap",
    "kafka_partitions",
    "consumer_group",
    "consumer_max_poll_records",
    "consumer_max_batch_bytes",
    "consumer_write_concurrency",
    "consumer_park_after_seconds",
    "consumer_max_held_bytes",
    "storage_url",
    "storage_timeout_seconds",
    "internal_token",
    "retry_initial_seconds",
    "retry_max_seconds",
    "database_url",
    "log_format",
    "home",
)


def main(argv: list[str] | None = None) -> None:
    parse_args("vigil-consumer", DESCRIPTION, SETTINGS, argv)
    settings = Settings()
    setup_logging(settings.log_format)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per storage write is noise
    _ = settings.storage_token  # fail now, naming the variable, rather than at the first write
    deadline = time.monotonic() + 120
    while True:
        try:
            ensure_topics(settings.kafka_servers, settings.kafka_partitions)
            break
        except KafkaError as e:
            if time.monotonic() > deadline:
                raise
            log.warning("waiting for Kafka at %s: %r", settings.kafka_bootstrap, e)
            time.sleep(2)
    consumer = Consumer(settings)
    server = serve_status(consumer, settings.host, settings.consumer_port)
    # `kill -USR1 <pid>` writes every thread's stack to the log: what a stuck consumer waits on.
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    signal.signal(signal.SIGTERM, lambda *_: consumer.stop())
    signal.signal(signal.SIGINT, lambda *_: consumer.stop())
    log.info(
        "consuming %s as group %s, writing to %s; status on http://%s:%d",
        consumer.topics,
        settings.consumer_group,
        settings.storage_url,
        settings.host,
        settings.consumer_port,
    )
    try:
        consumer.run()
    finally:
        server.shutdown()
        consumer.close()
