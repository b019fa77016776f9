"""Consumer → the real vigil-storage binary (and gateway → Kafka → consumer → storage).

Starts ``$VIGIL_BIN/vigil-storage`` (default ``<repo>/.vigil/bin``) on a free loopback
port with a throwaway data directory and token; skipped with the reason when it is not built.
"""

from __future__ import annotations

import base64
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import cramjam
import httpx
import pytest
from kafka import KafkaConsumer, KafkaProducer
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.structs import OffsetAndMetadata, TopicPartition
from starlette.testclient import TestClient
from support import Keys, missing_service, write_request

from vigil_ingest.common.config import Settings
from vigil_ingest.common.errors import BadRequest
from vigil_ingest.common.kafka import HEADER_ERROR, TOPIC_LINE, TOPIC_PROMRW, Batch
from vigil_ingest.consumer.main import Consumer
from vigil_ingest.gateway.app import create_app
from vigil_ingest.gateway.parse.line import count_points
from vigil_ingest.gateway.parse.promrw import count_samples

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def storage() -> Iterator[tuple[str, str]]:
    # Built binaries live in $VIGIL_BIN (infra/lib.sh), <repo>/.vigil/bin by default.
    bindir = os.environ.get("VIGIL_BIN") or str(
        Path(__file__).resolve().parents[3] / ".vigil" / "bin"
    )
    binary = Path(bindir) / "vigil-storage"
    if not binary.exists():
        missing_service(f"vigil-storage is not built at {binary} (make -C storage build)")
    root = Path(tempfile.mkdtemp(prefix="vigil-ingest-storage-"))
    token = secrets.token_urlsafe(32)
    (root / "token").write_text(token)
    port = _free_port()
    log = open(root / "log", "wb")  # noqa: SIM115  (closed after the process ends)
    proc = subprocess.Popen(
        [
            str(binary),
            f"-httpListenAddr=127.0.0.1:{port}",
            f"-storageDataPath={root / 'data'}",
            f"-tenancy.internalTokenFile={root / 'token'}",
            "-dedup.minScrapeInterval=1ms",
            "-search.latencyOffset=1s",
            f"-retentionPeriod={Settings().retention}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, (root / "log").read_text()[-2000:]
            assert time.monotonic() < deadline, "vigil-storage did not become healthy"
            time.sleep(0.1)
        yield url, token
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()
        shutil.rmtree(root, ignore_errors=True)


def series(url: str, token: str, workspace: str) -> list[dict[str, str]]:
    r = httpx.get(
        f"{url}/api/v1/series",
        params={"match[]": '{__name__=~".+"}'},
        headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": workspace},
    )
    r.raise_for_status()
    return sorted(r.json()["data"], key=lambda s: s["__name__"])


def wait(cond: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def remote_write(name: str, labels: dict[str, str], value: float, ts_ms: int) -> bytes:
    raw = write_request([({"__name__": name, **labels}, [(value, ts_ms)])])
    return bytes(cramjam.snappy.compress_raw(raw))


class Running:
    def __init__(self, consumer: Consumer) -> None:
        self.consumer = consumer
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.consumer.run()
        except BaseException as e:
            self.error = e

    def stop(self) -> None:
        self.consumer.stop()
        self.thread.join(30)
        self.consumer.close()
        if self.error:
            raise self.error


def consumer(
    bootstrap: str, url: str, token: str, group: str, topics: list[str], deadletter: str
) -> Running:
    settings = Settings(
        kafka_bootstrap=bootstrap,
        consumer_group=group,
        storage_url=url,
        internal_token=token,
        retry_initial_seconds=0.1,
    )
    return Running(Consumer(settings, topics=topics, deadletter_topic=deadletter))


@pytest.fixture
def topics(kafka_bootstrap: str) -> Iterator[dict[str, str]]:
    base = f"vigil.test.{uuid.uuid4().hex[:10]}"
    names = {"line": f"{base}.line", "promrw": f"{base}.promrw", "dl": f"{base}.deadletter"}
    admin = KafkaAdminClient(bootstrap_servers=[kafka_bootstrap])
    admin.create_topics([NewTopic(n, 2, 1) for n in names.values()])
    yield names
    admin.delete_topics(list(names.values()))
    admin.close()


def test_consumer_writes_each_workspace_to_real_storage(kafka_bootstrap, storage, topics) -> None:
    url, token = storage
    ws_a, ws_b = f"wsa-{uuid.uuid4().hex[:8]}", f"wsb-{uuid.uuid4().hex[:8]}"
    now_s = int(time.time())
    p = KafkaProducer(bootstrap_servers=[kafka_bootstrap], acks="all")
    for b in [
        Batch(ws_a, "line", b"cpu,host=a usage_user=1.5,usage_idle=98 %d\n" % now_s, 1, 0, "s"),
        Batch(ws_b, "line", b"mem,host=b used=3i %d\n" % now_s, 1, 0, "s"),
    ]:
        p.send(topics["line"], value=b.value, key=b.key, headers=b.headers())
    rw = Batch(ws_a, "promrw", remote_write("node_load1", {"job": "node"}, 0.5, now_s * 1000), 1, 0)
    p.send(topics["promrw"], value=rw.value, key=rw.key, headers=rw.headers())
    p.flush()
    p.close()
    r = consumer(
        kafka_bootstrap,
        url,
        token,
        f"g-{uuid.uuid4().hex[:8]}",
        [topics["line"], topics["promrw"]],
        topics["dl"],
    )
    try:
        wait(lambda: len(series(url, token, ws_a)) == 3 and len(series(url, token, ws_b)) == 1)
    finally:
        r.stop()
    a = series(url, token, ws_a)
    assert [s["__name__"] for s in a] == ["cpu:usage_idle", "cpu:usage_user", "node_load1"]
    assert a[0]["host"] == "a" and a[0]["__measurement__"] == "cpu"
    assert [s["__name__"] for s in series(url, token, ws_b)] == ["mem:used"]
    assert r.consumer.metrics.deadletters._value.get() == 0


def test_storage_refusal_is_dead_lettered_with_its_reason(kafka_bootstrap, storage, topics) -> None:
    url, token = storage
    ws = f"wsc-{uuid.uuid4().hex[:8]}"
    p = KafkaProducer(bootstrap_servers=[kafka_bootstrap], acks="all")
    for value in (b"cpu v=1\n", b"garbage here\n", b"cpu v=2\n"):
        b = Batch(ws, "line", value, 1, 0, "ns")
        p.send(topics["line"], value=b.value, key=b.key, headers=b.headers())
    p.flush()
    p.close()
    r = consumer(
        kafka_bootstrap, url, token, f"g-{uuid.uuid4().hex[:8]}", [topics["line"]], topics["dl"]
    )
    try:
        wait(lambda: r.consumer.metrics.deadletters._value.get() == 1)
        wait(lambda: len(series(url, token, ws)) == 1)
    finally:
        r.stop()
    dl = KafkaConsumer(
        topics["dl"],
        bootstrap_servers=[kafka_bootstrap],
        group_id=None,
        auto_offset_reset="earliest",
        consumer_timeout_ms=5000,
    )
    got = list(dl)
    dl.close()
    assert [m.value for m in got] == [b"garbage here\n"]
    assert dict(got[0].headers)[HEADER_ERROR].startswith(b"line 1: ")


def _start_group_at_end(bootstrap: str, group: str, topics: list[str]) -> None:
    """Commit the current end offsets for ``group`` so it reads only what comes next."""
    c = KafkaConsumer(bootstrap_servers=[bootstrap], group_id=group, enable_auto_commit=False)
    parts = [TopicPartition(t, p) for t in topics for p in (c.partitions_for_topic(t) or ())]
    ends = c.end_offsets(parts)
    c.commit({tp: OffsetAndMetadata(off, "", -1) for tp, off in ends.items()})
    c.close(autocommit=False)


def test_gateway_kafka_consumer_storage(kafka_topics, storage, postgres_url, keys: Keys) -> None:
    """The whole ingest path with real services: an Influx and a remote_write client."""
    url, token = storage
    group = f"g-{uuid.uuid4().hex[:8]}"
    _start_group_at_end(kafka_topics, group, [TOPIC_LINE, TOPIC_PROMRW])
    k = keys.create()
    settings = Settings(database_url=postgres_url, kafka_bootstrap=kafka_topics)
    r = consumer(
        kafka_topics,
        url,
        token,
        group,
        [TOPIC_LINE, TOPIC_PROMRW],
        f"vigil.test.{uuid.uuid4().hex[:8]}.deadletter",
    )
    try:
        with TestClient(create_app(settings)) as gw:
            wait(lambda: gw.get("/health").status_code == 200)
            auth = "Basic " + base64.b64encode(f"telegraf:{k.key}".encode()).decode()
            old = int(time.time()) - 3 * 3600  # a buffered agent, hours late
            resp = gw.post(
                "/write?db=telegraf&precision=s",
                content=b"disk,path=/ free=10i %d\ndisk,path=/ free=11i %d\n" % (old, old + 10),
                headers={"Authorization": auth},
            )
            assert resp.status_code == 204, resp.text
            resp = gw.post(
                "/api/v1/write",
                content=remote_write("up", {"job": "x"}, 1, int(time.time() * 1000)),
                headers={"Authorization": f"Bearer {k.key}", "Content-Encoding": "snappy"},
            )
            assert resp.status_code == 204, resp.text
        wait(
            lambda: (
                [s["__name__"] for s in series(url, token, k.workspace_id)] == ["disk:free", "up"]
            )
        )
    finally:
        r.stop()
    q = httpx.get(
        f"{url}/api/v1/query_range",
        params={"query": "disk:free", "start": old - 60, "end": old + 60, "step": "5s"},
        headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": k.workspace_id},
    )
    assert q.status_code == 200, q.text
    [res] = q.json()["data"]["result"]
    assert {v for _, v in res["values"]} >= {"10", "11"}


_DUPLICATE_FIELD = re.compile(rb"[ ,]([^ ,=]+)=[^ ]*,\1=")
_TIMESTAMP = re.compile(rb" +-?[0-9]+ *\r?$")


def test_what_the_gateway_accepts_storage_accepts(storage) -> None:
    """Mutated line protocol: every line the gateway's validator accepts is written by
    vigil-storage too, so a 204 never turns into a dead letter. (Lines naming a field twice
    are left out: InfluxDB keeps the last value, vigil-storage refuses them.)"""
    url, token = storage
    rnd = random.Random(7)
    alphabet = list(b'abc xyz=,"\\\t#-+.019eEiuTtF_\r') + [0xC3, 0xA9]
    seeds = [
        b"cpu v=1",
        b"cpu,host=a v=1i 1",
        b'm s="x"',
        b"m,t=1 a=1,b=2 3",
        b"m v=1u",
        b"m v=-1.5e3",
        b"m,a=b v=T",
        b'm s="a\\"b"',
        b"m\\ x,t\\ k=v\\,w f\\=x=1",
        b"m v=1e308",
        b"m v=9223372036854775807i",
        b"m v=18446744073709551615u",
        b" m v=1 1",
    ]
    accepted: list[bytes] = []
    for _ in range(6000):
        s = bytearray(rnd.choice(seeds))
        for _ in range(rnd.randint(0, 3)):
            pos = rnd.randint(0, len(s))
            if rnd.random() < 0.5:
                s[pos:pos] = bytes([rnd.choice(alphabet)])
            elif len(s) > 1:
                del s[min(pos, len(s) - 1)]
        line = bytes(s)
        try:
            if count_points(line) != 1 or _DUPLICATE_FIELD.search(line) or _TIMESTAMP.search(line):
                continue
        except BadRequest:
            continue
        accepted.append(line)
    assert len(accepted) > 1000
    refused = {}
    with httpx.Client(
        base_url=url,
        headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": "validator-check"},
    ) as c:
        for i in range(0, len(accepted), 500):
            chunk = accepted[i : i + 500]
            r = c.post(
                "/internal/v1/write/line", content=b"\n".join(chunk), params={"precision": "ns"}
            )
            if r.status_code != 204:
                for line in chunk:  # find which ones
                    r1 = c.post("/internal/v1/write/line", content=line, params={"precision": "ns"})
                    if r1.status_code != 204:
                        refused[line] = r1.text
    assert refused == {}


def _tags(n: int) -> bytes:
    return b",".join(b"t%d=v" % i for i in range(n))


_AT_LIMITS = [
    b"cpu," + b"k" * 256 + b"=v v=1",
    b"cpu," + b"k" * 257 + b"=v v=1",
    b"cpu," + b"k\\," * 128 + b"=v v=1",
    b"cpu," + b"k\\a" * 86 + b"=v v=1",
    b"cpu,k=" + b"v" * 4096 + b" v=1",
    b"cpu,k=" + b"v" * 4097 + b" v=1",
    b"cpu,k=" + b"\\ " * 4096 + b" v=1",
    b"cpu," + _tags(64) + b" v=1",
    b"cpu," + _tags(65) + b" v=1",
    b"cpu," + _tags(65) + b' s="x"',
    b"m" * 2000 + b" " + b"f" * 2095 + b"=1",
    b"m" * 2000 + b" " + b"f" * 2096 + b"=1",
    b"m" * 2000 + b" " + b"f" * 2096 + b'="x"',
    b"m" * 2000 + b" " + b"f" * 2096 + b'="x",' + b"f" * 2096 + b"=1",
    b"\\ " * 2100 + b" f=1",
    b"\\=" * 2100 + b" f=1",
]


def test_series_limits_agree_with_storage(storage) -> None:
    """At and just over each series limit, the gateway's validators accept exactly what the
    real vigil-storage accepts: nothing it passes on is dead-lettered later."""
    url, token = storage
    headers = {"Authorization": f"Bearer {token}", "X-Vigil-Workspace": "limits-check"}
    disagree = []
    with httpx.Client(base_url=url, headers=headers) as c:
        for line in _AT_LIMITS:
            try:
                gateway = count_points(line) == 1
            except BadRequest:
                gateway = False
            r = c.post("/internal/v1/write/line", content=line, params={"precision": "ns"})
            assert r.status_code in (204, 400), r.text
            if gateway != (r.status_code == 204):
                disagree.append((line[:60], gateway, r.text[:200]))
        many = {f"l{i}": "v" for i in range(62)}
        for labels in (
            {"k" * 256: "v" * 4096, **many},
            {"k" * 257: "v"},
            {"k": "v" * 4097},
            {"k": "v", "z": "w", **many},
        ):
            for name in ("u" * 4096, "u" * 4097):
                body = remote_write(name, labels, 1.0, int(time.time() * 1000))
                try:
                    gateway = count_samples(bytes(cramjam.snappy.decompress_raw(body))) == 1
                except BadRequest:
                    gateway = False
                r = c.post("/internal/v1/write/promrw", content=body)
                assert r.status_code in (204, 400), r.text
                if gateway != (r.status_code == 204):
                    disagree.append((f"{name[:8]} {sorted(labels)[:2]}", gateway, r.text[:200]))
    assert disagree == []
