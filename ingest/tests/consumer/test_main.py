"""The consume loop against the real Kafka broker, with storage answers scripted through
httpx.MockTransport: commit only after 2xx, retry without committing, dead-letter on 400,
drop a deleted workspace's batches on 410, lag on /health. (The write to the real vigil-storage is in tests/integration.)"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import psycopg
import pytest
from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.structs import TopicPartition

from vigil_ingest.common.config import Settings
from vigil_ingest.common.kafka import HEADER_ERROR, HEADER_SOURCE_TOPIC, Batch
from vigil_ingest.consumer.main import Consumer, serve_status
from vigil_ingest.consumer.parked import ParkedRecorder
from vigil_ingest.consumer.storage_client import StorageClient
from vigil_ingest.gateway.produce import producer_config

pytestmark = pytest.mark.integration


@pytest.fixture
def topics(kafka_bootstrap: str) -> Iterator[dict[str, str]]:
    """Fresh topics per test so other writers on the broker cannot interfere."""
    base = f"vigil.test.{uuid.uuid4().hex[:10]}"
    names = {"line": f"{base}.line", "promrw": f"{base}.promrw", "dl": f"{base}.deadletter"}
    admin = KafkaAdminClient(bootstrap_servers=[kafka_bootstrap])
    admin.create_topics([NewTopic(n, 2, 1) for n in names.values()])
    yield names
    admin.delete_topics(list(names.values()))
    admin.close()


def produce(
    bootstrap: str, topic: str, batches: list[Batch], *, partition: int | None = None
) -> None:
    p = KafkaProducer(bootstrap_servers=[bootstrap], acks="all")
    for b in batches:
        p.send(topic, value=b.value, key=b.key, headers=b.headers(), partition=partition)
    p.flush()
    p.close()


def line(ws: str, text: bytes) -> Batch:
    return Batch(
        workspace=ws,
        format="line",
        value=text,
        points=text.count(b"\n"),
        received_at_ms=int(time.time() * 1000),
        precision="ns",
    )


class Storage:
    """Scripted storage answers; records every request."""

    def __init__(self, answer: Callable[[httpx.Request, int], int]) -> None:
        self.answer = answer
        self.requests: list[httpx.Request] = []
        self.lock = threading.Lock()

    def __call__(self, req: httpx.Request) -> httpx.Response:
        with self.lock:
            self.requests.append(req)
            n = len(self.requests)
        status = self.answer(req, n)
        body = (
            {"status": "error", "errorType": "bad_data", "error": "line 1: refused"}
            if status == 400
            else {"status": "error", "errorType": "gone", "error": "workspace was deleted"}
            if status == 410
            else None
        )
        return httpx.Response(status, json=body) if body else httpx.Response(status)

    def bodies(self, status_ok: bool = True) -> list[bytes]:
        with self.lock:
            return [r.content for r in self.requests]


class Running:
    def __init__(self, consumer: Consumer) -> None:
        self.consumer = consumer
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.consumer.run()
        except BaseException as e:  # surfaced by stop()
            self.error = e

    def stop(self) -> None:
        self.consumer.stop()
        self.thread.join(30)
        self.consumer.close()
        if self.error:
            raise self.error


def start(
    bootstrap: str,
    topics: dict[str, str],
    storage: Storage,
    group: str,
    *,
    park_after: float = 0.5,
    database_url: str | None = None,
    max_held_bytes: int = 256 * 1024 * 1024,
) -> Running:
    settings = Settings(
        kafka_bootstrap=bootstrap,
        consumer_group=group,
        internal_token="t",
        retry_initial_seconds=0.05,
        retry_max_seconds=0.2,
        consumer_park_after_seconds=park_after,
        consumer_max_held_bytes=max_held_bytes,
    )
    client = StorageClient("http://storage.test", "t", transport=httpx.MockTransport(storage))
    c = Consumer(
        settings,
        storage=client,
        topics=[topics["line"], topics["promrw"]],
        deadletter_topic=topics["dl"],
        parked=ParkedRecorder(database_url),
    )
    c.lag_interval_s = 0.2
    return Running(c)


def committed(bootstrap: str, group: str, topic: str, partitions: tuple[int, ...] = (0, 1)) -> int:
    c = KafkaConsumer(bootstrap_servers=[bootstrap], group_id=group, enable_auto_commit=False)
    try:
        return sum(c.committed(TopicPartition(topic, p)) or 0 for p in partitions)
    finally:
        c.close(autocommit=False)


def deadletters(bootstrap: str, topic: str) -> list[Any]:
    """Every record of the dead-letter topic."""
    dl = KafkaConsumer(
        topic,
        bootstrap_servers=[bootstrap],
        group_id=None,
        auto_offset_reset="earliest",
        consumer_timeout_ms=5000,
    )
    got = list(dl)
    dl.close()
    return got


def wait(cond: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_retries_until_storage_answers_then_commits(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 503 if n <= 3 else 204)
    produce(kafka_bootstrap, topics["line"], [line("ws-a", b"cpu v=%d\n" % i) for i in range(5)])
    r = start(kafka_bootstrap, topics, storage, group)
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 5)
        assert r.consumer.health()["status"] == "ok"
    finally:
        r.stop()
    written = [req for req in storage.requests[3:]]
    assert b"".join(sorted(w.content for w in written)).count(b"\n") >= 5
    assert all(req.headers["x-vigil-workspace"] == "ws-a" for req in storage.requests)
    assert r.consumer.metrics.retries._value.get() >= 3


def test_nothing_committed_while_storage_is_down_and_replayed_after(
    kafka_bootstrap, topics
) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    produce(
        kafka_bootstrap, topics["line"], [line("ws-b", b"mem used=%di\n" % i) for i in range(4)]
    )
    down = Storage(lambda req, n: 503)
    r = start(kafka_bootstrap, topics, down, group)
    try:
        wait(lambda: len(down.requests) >= 5)
        wait(lambda: r.consumer.health()["lag"] == 4)
        h = r.consumer.health()
        assert h["status"] == "degraded"
        assert "storage answered 503" in h["storage"]["last_error"]
    finally:
        r.stop()
    assert committed(kafka_bootstrap, group, topics["line"]) == 0
    # refused for everyone is storage being down: nothing is parked, however long
    assert r.consumer.metrics.parked._value.get() == 0
    up = Storage(lambda req, n: 204)
    r2 = start(kafka_bootstrap, topics, up, group)
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 4)
    finally:
        r2.stop()
    assert b"".join(req.content for req in up.requests).count(b"mem used=") == 4


def test_refused_records_go_to_the_dead_letter_topic(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 400 if b"poison" in req.content else 204)
    batches = [
        line("ws-c", b"cpu v=1\n"),
        line("ws-c", b"poison v=1\n"),
        line("ws-c", b"cpu v=2\n"),
    ]
    produce(kafka_bootstrap, topics["line"], batches)
    r = start(kafka_bootstrap, topics, storage, group)
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 3)
    finally:
        r.stop()
    ok = [req.content for req in storage.requests if b"poison" not in req.content]
    assert b"".join(ok).count(b"cpu v=") >= 2
    got = deadletters(kafka_bootstrap, topics["dl"])
    assert [m.value for m in got] == [b"poison v=1\n"]
    h = dict(got[0].headers)
    assert h[HEADER_ERROR] == b"line 1: refused"
    assert h[HEADER_SOURCE_TOPIC] == topics["line"].encode()
    assert h["vigil-workspace"] == b"ws-c"
    assert got[0].key == b"ws-c"
    assert r.consumer.metrics.deadletters._value.get() == 1


def test_batches_of_a_deleted_workspace_are_dropped(kafka_bootstrap, topics) -> None:
    """Storage answers 410 for a deleted workspace: its batches are dropped and committed
    past (not dead-lettered: the owner asked for the data to go), the others are written."""
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 410 if req.headers["x-vigil-workspace"] == "ws-gone" else 204)
    batches = [
        line("ws-gone", b"cpu v=1\ncpu v=2\n"),
        line("ws-live", b"cpu v=3\n"),
        line("ws-gone", b"cpu v=4\n"),
    ]
    produce(kafka_bootstrap, topics["line"], batches)
    r = start(kafka_bootstrap, topics, storage, group)
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 3)
        assert r.consumer.health()["status"] == "ok"
    finally:
        r.stop()
    live = [
        req.content for req in storage.requests if req.headers["x-vigil-workspace"] == "ws-live"
    ]
    assert live == [b"cpu v=3\n"]
    assert r.consumer.metrics.deleted_points._value.get() == 3
    assert r.consumer.metrics.deadletters._value.get() == 0
    assert r.consumer.metrics.retries._value.get() == 0


def test_misconfigured_storage_stops_the_consumer(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    produce(kafka_bootstrap, topics["line"], [line("ws-d", b"cpu v=1\n")])
    r = start(kafka_bootstrap, topics, Storage(lambda req, n: 401), group)
    r.thread.join(30)
    assert not r.thread.is_alive()
    with pytest.raises(Exception, match="storage answered 401"):
        r.stop()
    assert committed(kafka_bootstrap, group, topics["line"]) == 0


def test_status_endpoints(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    produce(kafka_bootstrap, topics["line"], [line("ws-e", b"cpu v=1\n")])
    storage = Storage(lambda req, n: 204)
    r = start(kafka_bootstrap, topics, storage, group)
    server = serve_status(r.consumer, "127.0.0.1", 0)
    port = server.server_address[1]
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 1)
        wait(lambda: len(r.consumer.health()["partitions"]) == 4)
        wait(lambda: r.consumer.health()["lag"] == 0)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health") as resp:
            doc = json.load(resp)
        assert doc["status"] == "ok"
        assert doc["lag"] == 0
        assert f"{topics['line']}/0" in doc["partitions"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as resp:
            text = resp.read().decode()
        assert f'vigil_consumer_lag{{partition="0",topic="{topics["line"]}"}} 0.0' in text
        assert 'vigil_consumer_points_total{format="line"} 1.0' in text
    finally:
        server.shutdown()
        r.stop()


@contextlib.contextmanager
def two_consumers(
    kafka_bootstrap: str, topics: dict[str, str], storage: Storage, group: str
) -> Iterator[tuple[Running, Running]]:
    """Two consumers of one group, once they share the two topics' partitions."""
    first = start(kafka_bootstrap, topics, storage, group)
    second = None
    try:
        wait(lambda: len(first.consumer.health()["partitions"]) == 4)  # 2 topics x 2 partitions
        second = start(kafka_bootstrap, topics, storage, group)
        wait(lambda: len(second.consumer.health()["partitions"]) > 0, timeout=60)
        wait(lambda: len(first.consumer.health()["partitions"]) < 4, timeout=60)
        yield first, second
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_two_consumers_share_the_partitions(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 204)
    with two_consumers(kafka_bootstrap, topics, storage, group) as (first, second):
        # Workspaces hash to both partitions; each record is written and committed once.
        batches = [line(f"ws-{i}", b"cpu v=%d\n" % i) for i in range(40)]
        produce(kafka_bootstrap, topics["line"], batches)
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 40)
    written = b"".join(req.content for req in storage.requests)
    assert sorted(written.splitlines()) == sorted(b.value.rstrip(b"\n") for b in batches)
    assert first.consumer.metrics.batches.labels("line")._value.get() > 0
    assert second.consumer.metrics.batches.labels("line")._value.get() > 0


def test_two_consumers_share_one_workspace(kafka_bootstrap, topics) -> None:
    """The gateway's producer spreads one workspace's records over both partitions, so both
    consumers of the group write it; every record is written and committed once."""
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 204)
    with two_consumers(kafka_bootstrap, topics, storage, group) as (first, second):
        batches = [line("ws-one", b"cpu v=%d\n" % i) for i in range(40)]
        config = producer_config(Settings(kafka_bootstrap=kafka_bootstrap), client_id="test")
        p = KafkaProducer(**config)
        sent = [
            p.send(topics["line"], value=b.value, key=b.key, headers=b.headers()) for b in batches
        ]
        p.flush()
        p.close()
        parts = [f.get(timeout=10).partition for f in sent]
        assert parts.count(0) == parts.count(1) == 20  # round-robin
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 40)
    written = b"".join(req.content for req in storage.requests)
    assert sorted(written.splitlines()) == sorted(b.value.rstrip(b"\n") for b in batches)
    points = [c.consumer.metrics.points.labels("line")._value.get() for c in (first, second)]
    assert all(n > 0 for n in points) and sum(points) == 40


def test_refused_group_is_bisected_to_the_poison_record(kafka_bootstrap, topics) -> None:
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 400 if b"poison" in req.content else 204)
    batches = [line("ws-f", b"cpu v=%d\n" % i) for i in range(31)]
    batches.insert(17, line("ws-f", b"poison v=1\n"))
    produce(kafka_bootstrap, topics["line"], batches)
    r = start(kafka_bootstrap, topics, storage, group)
    try:
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 32)
    finally:
        r.stop()
    ok = b"".join(req.content for req in storage.requests if b"poison" not in req.content)
    assert sorted(ok.splitlines()) == sorted(b"cpu v=%d" % i for i in range(31))
    assert r.consumer.metrics.deadletters._value.get() == 1
    # Bisection, not one request per record: a handful of refused halves at most.
    assert len(storage.requests) < 32


def test_a_workspace_refused_is_parked_without_holding_back_others(
    kafka_bootstrap, topics, postgres_url
) -> None:
    """Storage keeps refusing workspace A (503) while it takes B's writes: B's batches, on
    A's partition too, are written at once, A's are retried with backoff, then parked in the
    dead-letter topic with the reason, and A's count of parked batches and the reason land
    in PostgreSQL for its usage page. Nothing is committed past A's batch until then."""
    ws_a, ws_b = str(uuid.uuid4()), str(uuid.uuid4())
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for ws in (ws_a, ws_b):
            conn.execute("INSERT INTO workspaces (id) VALUES (%s)", (ws,))
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 503 if req.headers["x-vigil-workspace"] == ws_a else 204)

    def b_written(text: bytes) -> bool:
        with storage.lock:
            return any(
                q.headers["x-vigil-workspace"] == ws_b and q.content == text
                for q in storage.requests
            )

    # A and B share partition 0, as a workspace's records spread over every partition
    produce(kafka_bootstrap, topics["line"], [line(ws_a, b"cpu v=1\ncpu v=2\n")], partition=0)
    r = start(kafka_bootstrap, topics, storage, group, park_after=8.0, database_url=postgres_url)
    try:
        wait(lambda: len(storage.requests) >= 2)  # A has been refused at least twice
        t0 = time.monotonic()
        produce(kafka_bootstrap, topics["line"], [line(ws_b, b"mem v=1\n")], partition=0)
        produce(kafka_bootstrap, topics["line"], [line(ws_b, b"mem v=3\n")], partition=1)
        wait(lambda: b_written(b"mem v=1\n") and b_written(b"mem v=3\n"), timeout=10)
        wait(lambda: committed(kafka_bootstrap, group, topics["line"], (1,)) == 1, timeout=10)
        # B was not held back by A's retries, and A is neither committed past nor parked yet
        assert time.monotonic() - t0 < 3.0
        assert r.consumer.health()["retrying"] is True
        assert committed(kafka_bootstrap, group, topics["line"], (0,)) == 0
        assert r.consumer.metrics.parked._value.get() == 0
        # then A is parked, and its partition is committed past A's and B's records
        wait(lambda: committed(kafka_bootstrap, group, topics["line"], (0,)) == 2, timeout=20)
        assert r.consumer.metrics.parked._value.get() == 1
        produce(kafka_bootstrap, topics["line"], [line(ws_b, b"mem v=2\n")], partition=0)
        wait(lambda: committed(kafka_bootstrap, group, topics["line"], (0,)) == 3, timeout=10)
        assert r.consumer.health()["status"] == "ok"
    finally:
        r.stop()
    assert sum(b_written(b"mem v=%d\n" % i) for i in (1, 2, 3)) == 3
    a_attempts = [q for q in storage.requests if q.headers["x-vigil-workspace"] == ws_a]
    assert len(a_attempts) >= 3  # retried with backoff before parking
    got = deadletters(kafka_bootstrap, topics["dl"])
    assert [m.value for m in got] == [b"cpu v=1\ncpu v=2\n"]
    reason = dict(got[0].headers)[HEADER_ERROR].decode()
    assert reason.startswith("parked after ")
    assert reason.endswith(
        "while storage took other workspaces' writes: storage answered 503: HTTP 503"
    )
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT batches, points, last_reason FROM workspace_ingest_parked WHERE workspace_id = %s",
            (ws_a,),
        ).fetchone()
        other = conn.execute(
            "SELECT count(*) FROM workspace_ingest_parked WHERE workspace_id = %s", (ws_b,)
        ).fetchone()
    assert row == (1, 2, reason)
    assert other == (0,)


def test_a_held_workspace_tries_its_oldest_batch_then_writes_the_rest_at_once(
    kafka_bootstrap, topics
) -> None:
    """While storage refuses workspace A, only A's oldest batch is tried again (its later
    batches wait behind it, uncommitted); once storage takes it, the others follow in the
    same round, each written once."""
    group = f"g-{uuid.uuid4().hex[:8]}"
    refusing = threading.Event()
    refusing.set()
    storage = Storage(lambda req, n: 503 if refusing.is_set() else 204)
    produce(kafka_bootstrap, topics["line"], [line("ws-h", b"cpu v=1\n")], partition=0)
    r = start(kafka_bootstrap, topics, storage, group, park_after=60.0)
    try:
        wait(lambda: len(storage.requests) >= 2)
        produce(kafka_bootstrap, topics["line"], [line("ws-h", b"cpu v=2\n")], partition=1)
        produce(kafka_bootstrap, topics["line"], [line("ws-h", b"cpu v=3\n")], partition=0)
        wait(lambda: r.consumer.metrics.held_bytes._value.get() == 3 * len(b"cpu v=1\n"))
        attempts = len(storage.requests)
        wait(lambda: len(storage.requests) >= attempts + 2)  # two more attempts
        assert {q.content for q in storage.requests} == {b"cpu v=1\n"}
        assert committed(kafka_bootstrap, group, topics["line"]) == 0
        assert r.consumer.health()["retrying"] is True
        refusing.clear()
        wait(lambda: committed(kafka_bootstrap, group, topics["line"]) == 3, timeout=10)
        assert r.consumer.metrics.retrying_groups._value.get() == 0
        assert r.consumer.metrics.held_bytes._value.get() == 0
        assert r.consumer.health()["retrying"] is False
    finally:
        r.stop()
    ok = [q.content for q in storage.requests if q.content != b"cpu v=1\n"]
    assert sorted(ok) == [b"cpu v=2\n", b"cpu v=3\n"]  # each once, after v=1 went through


def test_past_the_held_bytes_limit_the_partitions_of_held_batches_pause(
    kafka_bootstrap, topics
) -> None:
    """With VIGIL_CONSUMER_MAX_HELD_BYTES exceeded, nothing more is read from the partitions
    of the held batches (memory stays bounded) until they are parked; other partitions go on."""
    group = f"g-{uuid.uuid4().hex[:8]}"
    storage = Storage(lambda req, n: 503 if req.headers["x-vigil-workspace"] == "ws-a" else 204)
    produce(kafka_bootstrap, topics["line"], [line("ws-a", b"cpu v=1\n")], partition=0)
    r = start(kafka_bootstrap, topics, storage, group, park_after=4.0, max_held_bytes=0)
    try:
        wait(lambda: len(storage.requests) >= 2)
        produce(kafka_bootstrap, topics["line"], [line("ws-b", b"mem v=0\n")], partition=0)
        produce(kafka_bootstrap, topics["line"], [line("ws-b", b"mem v=1\n")], partition=1)
        wait(lambda: committed(kafka_bootstrap, group, topics["line"], (1,)) == 1, timeout=10)
        assert r.consumer.metrics.parked._value.get() == 0
        assert b"mem v=0\n" not in storage.bodies()  # partition 0 is paused behind A
        wait(lambda: committed(kafka_bootstrap, group, topics["line"], (0,)) == 2, timeout=20)
        assert r.consumer.metrics.parked._value.get() == 1
    finally:
        r.stop()
    assert storage.bodies().count(b"mem v=0\n") == 1
