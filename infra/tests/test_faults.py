"""Exactly-once under faults, through the real ingest path.

While a writer streams points with countable identities (one measurement per test, field
seq = n, timestamp base + n ms) through the gateway, retrying like an agent, one part of the
stack fails: the consumer is killed with SIGKILL (alone, or one of two sharing the
workspace's partitions), vigil-storage is down for 20 s, the Kafka broker restarts, or the
gateway restarts while a real vigil-agent buffers on disk. Afterwards
exactly the points sent are queryable through the backend: none missing, none doubled.

Each test gives the services back running (conftest.stack_services), even when it fails.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

import stack
from stack import SeqWriter, assert_exactly_once, needs_stack, poll

pytestmark = needs_stack

KAFKA = os.environ.get("VIGIL_KAFKA_BOOTSTRAP", "127.0.0.1:59092")
TOPIC_LINE = "vigil.metrics.line"


def measurement() -> str:
    return f"fault_{uuid.uuid4().hex[:12]}"


def consumer_metric(name: str) -> float:
    """Sum of a counter over all its label sets in the consumer's /metrics (0 when absent)."""
    try:
        text = httpx.get(f"{stack.CONSUMER}/metrics", timeout=5).text
    except httpx.TransportError:
        return 0.0
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and not line.startswith("#"):
            head = line.split(" ", 1)[0]
            if head == name or head.startswith(name + "{"):
                total += float(line.rsplit(" ", 1)[1])
    return total


def test_consumer_kill9_loses_and_doubles_nothing(stack_services: dict[str, stack.Service]) -> None:
    consumer = stack_services["consumer"]
    w = SeqWriter(measurement())
    w.start()
    try:
        w.wait_sent(200)
        consumer.kill9()
        assert not consumer.running()
        w.wait_sent(200)  # the gateway keeps accepting into Kafka while nobody consumes
        consumer.start()
        w.wait_sent(200)
    finally:
        w.finish()
    assert_exactly_once(w)


def test_storage_down_20s_loses_and_doubles_nothing(
    stack_services: dict[str, stack.Service],
) -> None:
    storage = stack_services["storage"]
    w = SeqWriter(measurement())
    w.start()
    try:
        w.wait_sent(200)
        retries_before = consumer_metric("vigil_consumer_retries_total")
        storage.stop()
        down_at = time.monotonic()
        sent_before = w.sent
        time.sleep(20)  # the outage itself
        assert not storage.running()
        assert w.sent > sent_before, "the gateway must keep accepting while storage is down"
        assert consumer_metric("vigil_consumer_retries_total") > retries_before, (
            "the consumer did not retry its writes while storage was down"
        )
        storage.start()
        assert time.monotonic() - down_at >= 20
        w.wait_sent(200)
    finally:
        w.finish()
    assert_exactly_once(w)


def test_kafka_restart_loses_and_doubles_nothing(stack_services: dict[str, stack.Service]) -> None:
    kafka = stack_services["kafka"]
    w = SeqWriter(measurement())
    w.start()
    try:
        w.wait_sent(200)
        kafka.stop()
        assert not kafka.running()
        refused_before = w.statuses["503"]
        # Writes while the broker is away must be refused with 503, not hang or vanish.
        poll(
            lambda: w.statuses["503"] > refused_before,
            timeout=30,
            every=0.1,
            what=f"a 503 from the gateway while Kafka is down ({dict(w.statuses)})",
        )
        kafka.start()
        w.wait_sent(200, timeout=30)  # the broker is back in seconds; so must the write path be
    finally:
        w.finish(timeout=10)
    assert_exactly_once(w)


class _SeqExporter(BaseHTTPRequestHandler):
    """A Prometheus /metrics endpoint whose one sample is the number of the scrape."""

    server: _ExporterServer

    def do_GET(self) -> None:
        srv = self.server
        with srv.lock:
            if self.path != "/metrics" or srv.frozen:
                self.send_response(503)
                self.end_headers()
                return
            srv.scrapes += 1
            body = f"# TYPE {srv.metric} gauge\n{srv.metric} {srv.scrapes}\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class _ExporterServer(ThreadingHTTPServer):
    def __init__(self, metric: str) -> None:
        super().__init__(("127.0.0.1", 0), _SeqExporter)
        self.metric = metric
        self.scrapes = 0
        self.frozen = False
        self.lock = threading.Lock()


def test_gateway_restart_while_agent_buffers(stack_services: dict[str, stack.Service]) -> None:
    gateway = stack_services["gateway"]
    agent_bin = stack.BIN / "vigil-agent"
    assert agent_bin.exists(), f"{agent_bin} missing: run `make install`"
    meas = measurement()
    host = f"faulthost-{uuid.uuid4().hex[:8]}"
    exporter = _ExporterServer(f"{meas}:seq")
    threading.Thread(target=exporter.serve_forever, daemon=True).start()
    start_ms = int(time.time() * 1000) - 1000
    with tempfile.TemporaryDirectory(prefix="vigil-agent-fault-") as tmp:
        log_path = Path(tmp) / "agent.log"
        env = {**os.environ, "VIGIL_INGEST_KEY": stack.INGEST_KEY}
        with open(log_path, "wb") as log:
            agent = subprocess.Popen(
                [
                    str(agent_bin),
                    f"-gateway.url={stack.GATEWAY}",
                    f"-buffer.path={tmp}/buffer",
                    "-interval=500ms",
                    "-collectors=",
                    f"-host={host}",
                    f"-scrape.targets=http://127.0.0.1:{exporter.server_address[1]}/metrics",
                    "-send.retryMinInterval=200ms",
                    "-send.retryMaxInterval=1s",
                ],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            poll(
                lambda: exporter.scrapes >= 4 or agent.poll() is not None,
                timeout=30,
                what="agent scraping",
            )
            assert agent.poll() is None, log_path.read_text()
            gateway.stop()
            assert not gateway.running()
            at_stop = exporter.scrapes
            poll(
                lambda: exporter.scrapes >= at_stop + 6,
                timeout=30,
                what="scrapes while the gateway is down",
            )
            assert list(Path(tmp, "buffer").iterdir()), (
                "the agent buffered nothing while the gateway was down"
            )
            gateway.start()
            at_start = exporter.scrapes
            poll(
                lambda: exporter.scrapes >= at_start + 4,
                timeout=30,
                what="scrapes after the restart",
            )
            with exporter.lock:
                exporter.frozen = True
            served = exporter.scrapes
            end_ms = int(time.time() * 1000) + 1000

            deadline = time.monotonic() + 60
            c = stack.field_counts(meas, "seq", start_ms, end_ms, where=f"{{host = '{host}'}}")
            while c.count < served and time.monotonic() < deadline:
                time.sleep(0.5)
                c = stack.field_counts(meas, "seq", start_ms, end_ms, where=f"{{host = '{host}'}}")
            log_text = log_path.read_text(errors="replace")
            assert c.count == served, (
                f"{served} scrapes served, {c.count} points queryable ({c})\n{log_text[-3000:]}"
            )
            assert c.distinct == served and (c.min, c.max) == (1, served), c
        finally:
            agent.terminate()
            try:
                agent.wait(15)
            except subprocess.TimeoutExpired:
                agent.kill()
                agent.wait(5)
            exporter.shutdown()
            exporter.server_close()
    # The agent's own account of its delivery: nothing dropped.
    dropped = poll(
        lambda: stack.dql_series(
            f"M::vigil_agent:(max(dropped_points)) {{host = '{host}'}} [{start_ms}:{end_ms}]"
        ),
        timeout=20,
        what="the agent's own vigil_agent metrics",
    )
    assert dropped[0]["values"][0][1] == 0, dropped
    assert "panic" not in log_text, log_text[-3000:]


def test_backlog_of_a_deleted_workspace_does_not_bring_it_back(
    stack_services: dict[str, stack.Service],
) -> None:
    """Batches of a workspace wait in Kafka (the consumer is down) while the workspace is
    deleted: when the consumer drains them, storage refuses them (410) and the consumer drops
    them; none of the workspace's series comes back."""
    token = stack.internal_token()
    new = stack.new_workspace("deleted")
    ws, auth, key = {"id": new.id, "name": new.name}, new.auth, new.ingest_key

    def push(batch: int) -> None:
        # 10 new series per batch
        lines = "".join(f"gone,batch=b{batch},host=h{j} v={j}\n" for j in range(10))
        r = httpx.post(
            f"{stack.GATEWAY}/v1/write/metric",
            content=lines,
            headers={"Authorization": f"Token {key}"},
            timeout=10,
        )
        assert r.status_code == 204, r.text

    def series_total() -> int:
        r = httpx.get(
            f"{stack.STORAGE}/internal/v1/usage",
            headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": ws["id"]},
            timeout=15,
        )
        assert r.status_code == 200, r.text
        return int(r.json()["series_total"])

    push(0)
    poll(lambda: series_total() == 10, timeout=30, what="the first batch stored")

    consumer = stack_services["consumer"]
    consumer.stop()
    for batch in range(1, 6):
        push(batch)  # waits in Kafka
    r = httpx.request(
        "DELETE",
        f"{stack.BACKEND}/api/v1/workspaces/{ws['id']}",
        json={"confirm_name": ws["name"]},
        headers=auth,
        timeout=90,
    )
    assert r.status_code == 200, r.text
    assert series_total() == 0

    consumer.start()  # its counters start again from 0
    poll(
        lambda: consumer_metric("vigil_consumer_deleted_workspace_points_total") >= 50,
        timeout=60,
        what="the consumer dropping the deleted workspace's 50 waiting points",
    )
    time.sleep(2)  # past the visibility delay of anything that was written after all
    assert series_total() == 0


def _end_offsets(topic: str) -> dict[int, int]:
    from kafka import KafkaConsumer
    from kafka.structs import TopicPartition

    c = KafkaConsumer(bootstrap_servers=[KAFKA], group_id=None, enable_auto_commit=False)
    try:
        parts = [TopicPartition(topic, p) for p in sorted(c.partitions_for_topic(topic) or ())]
        return {tp.partition: off for tp, off in c.end_offsets(parts).items()}
    finally:
        c.close()


def _partitions_holding(topic: str, since: dict[int, int], needle: bytes) -> set[int]:
    """The partitions of `topic` with a record containing `needle` past the `since` offsets."""
    from kafka import KafkaConsumer
    from kafka.structs import TopicPartition

    ends = _end_offsets(topic)
    c = KafkaConsumer(bootstrap_servers=[KAFKA], group_id=None, enable_auto_commit=False)
    try:
        parts = [TopicPartition(topic, p) for p in ends]
        c.assign(parts)
        for tp in parts:
            c.seek(tp, since.get(tp.partition, 0))
        found: set[int] = set()
        deadline = time.monotonic() + 30
        while any(c.position(tp) < ends[tp.partition] for tp in parts):
            assert time.monotonic() < deadline, "could not read the topic back"
            for tp, recs in c.poll(timeout_ms=500).items():
                if any(needle in (r.value or b"") for r in recs):
                    found.add(tp.partition)
        return found
    finally:
        c.close()


def _owned(health: dict[str, object]) -> set[int]:
    parts = health.get("partitions") or {}
    assert isinstance(parts, dict)
    return {int(k.rsplit("/", 1)[1]) for k in parts if k.startswith(f"{TOPIC_LINE}/")}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # kafka-python's protocol loader
def test_two_consumers_share_one_workspace_and_a_kill9_loses_nothing(
    stack_services: dict[str, stack.Service],
) -> None:
    """One workspace's records spread over the partitions, so with a second consumer process
    in the group both write its points; the second is killed with SIGKILL mid-stream and the
    first takes its partitions over. Every point is queryable exactly once."""
    second = stack.ExtraConsumer(stack_services["consumer"])
    since = _end_offsets(TOPIC_LINE)

    def shared() -> tuple[set[int], set[int]] | None:
        mine = _owned(httpx.get(f"{stack.CONSUMER}/health", timeout=5).json())
        theirs = _owned(second.health())
        done = mine and theirs and not mine & theirs and mine | theirs == set(since)
        return (mine, theirs) if done else None

    w = SeqWriter(measurement())
    try:
        owned_first, owned_second = poll(
            shared, timeout=60, what="the partitions shared by the two consumers"
        )
        written_before = stack.consumer_points(second.url)
        w.start()
        try:
            w.wait_sent(400)
            poll(
                lambda: stack.consumer_points(second.url) > written_before,
                timeout=30,
                what="points written by the second consumer",
            )
            second.kill9()
            w.wait_sent(400)  # the first takes the second's partitions over once its session ends
        finally:
            w.finish()
    finally:
        second.stop()
    holding = _partitions_holding(TOPIC_LINE, since, w.measurement.encode())
    assert len(holding) > 1, f"one workspace's records on partitions {holding} only"
    assert holding & owned_first and holding & owned_second, (
        holding,
        owned_first,
        owned_second,
    )
    assert_exactly_once(w)
