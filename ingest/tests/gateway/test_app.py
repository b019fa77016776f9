"""The gateway over HTTP, against a real PostgreSQL (keys) and the real Kafka broker."""

from __future__ import annotations

import base64
import gzip
import time
from collections.abc import Iterator

import cramjam
import psycopg
import pytest
from starlette.testclient import TestClient
from support import write_request

from vigil_ingest.common.config import Settings
from vigil_ingest.common.kafka import (
    HEADER_FORMAT,
    HEADER_MAX_ACTIVE_SERIES,
    HEADER_POINTS,
    HEADER_PRECISION,
    HEADER_RECEIVED_AT,
    HEADER_WORKSPACE,
)
from vigil_ingest.gateway.app import create_app

pytestmark = pytest.mark.integration

LINES = b"cpu,host=a usage_user=1.5,usage_idle=98 %d\nmem,host=a used=3i\n" % time.time_ns()
TOKEN = "internal-token-of-the-gateway-tests"
INTERNAL = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def client(postgres_url: str, kafka_topics: str) -> Iterator[TestClient]:
    settings = Settings(
        database_url=postgres_url,
        kafka_bootstrap=kafka_topics,
        auth_cache_seconds=0.5,
        usage_flush_seconds=0.2,
        internal_token=TOKEN,
    )
    with TestClient(create_app(settings)) as c:
        deadline = time.monotonic() + 20
        while c.get("/health").status_code != 200:  # the producer connects in the background
            assert time.monotonic() < deadline, "gateway did not connect to Kafka"
            time.sleep(0.1)
        yield c


def test_line_write_lands_on_kafka_with_contract_headers(client, keys, tail_line) -> None:
    k = keys.create(active_series=1234)
    t0 = int(time.time() * 1000)
    r = client.post(
        "/v1/write/metric?precision=ns", content=LINES, headers={"Authorization": f"Token {k.key}"}
    )
    assert r.status_code == 204, r.text
    [rec] = tail_line.records(k.workspace_id, 1)
    assert rec.value == LINES
    assert rec.key == k.workspace_id.encode()
    h = dict(rec.headers)
    assert h[HEADER_WORKSPACE] == k.workspace_id.encode()
    assert h[HEADER_FORMAT] == b"line"
    assert h[HEADER_PRECISION] == b"ns"
    assert h[HEADER_POINTS] == b"2"
    assert t0 <= int(h[HEADER_RECEIVED_AT]) <= int(time.time() * 1000)
    # the workspace's limit of active series, for storage to apply
    assert h[HEADER_MAX_ACTIVE_SERIES] == b"1234"


def test_points_accepted_are_counted_per_workspace_and_minute(client, keys) -> None:
    """What the usage pages read: the points the gateway accepted, in the unit of the ingest
    limit (a line, a remote_write sample), added up per UTC minute in PostgreSQL."""
    k = keys.create()
    hdr = {"Authorization": f"Token {k.key}"}
    assert client.post("/v1/write/metric", content=LINES, headers=hdr).status_code == 204
    raw = write_request([({"__name__": "up"}, [(1.0, int(time.time() * 1000))] * 3)])
    r = client.post("/api/v1/write", content=bytes(cramjam.snappy.compress_raw(raw)), headers=hdr)
    assert r.status_code == 204, r.text
    assert client.post("/v1/write/metric", content=b"cpu v=oops\n", headers=hdr).status_code == 400

    def counted() -> int:
        with psycopg.connect(keys.url) as conn:
            row = conn.execute(
                "SELECT coalesce(sum(points), 0) FROM workspace_ingest_minutely "
                "WHERE workspace_id = %s",
                (k.workspace_id,),
            ).fetchone()
        return int(row[0]) if row else 0

    deadline = time.monotonic() + 10
    while counted() < 5 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert counted() == 5  # 2 lines + 3 samples; the refused line is not counted


@pytest.mark.parametrize(
    ("path", "headers", "precision"),
    [
        ("/write?db=telegraf", "basic", b"ns"),  # Telegraf influxdb output: Basic password
        ("/write?db=telegraf&u=telegraf&p={key}", None, b"ns"),
        ("/write?db=x&precision=s", "token", b"s"),
        ("/api/v2/write?org=o&bucket=b&precision=ms", "token", b"ms"),  # influxdb_v2
        ("/api/v2/write?org=o&bucket=b&precision=us", "bearer", b"us"),
        ("/v1/write/metric?token={key}&precision=n", None, b"ns"),
    ],
)
def test_influx_clients(client, keys, tail_line, path, headers, precision) -> None:
    k = keys.create()
    hdrs = {}
    if headers == "basic":
        hdrs["Authorization"] = "Basic " + base64.b64encode(f"telegraf:{k.key}".encode()).decode()
    elif headers == "token":
        hdrs["Authorization"] = f"Token {k.key}"
    elif headers == "bearer":
        hdrs["Authorization"] = f"Bearer {k.key}"
    r = client.post(path.format(key=k.key), content=b"cpu v=1\n", headers=hdrs)
    assert r.status_code == 204, r.text
    [rec] = tail_line.records(k.workspace_id, 1)
    assert dict(rec.headers)[HEADER_PRECISION] == precision


def test_telegraf_gzip_chunked_without_precision(client, keys, tail_line) -> None:
    """Telegraf's influxdb output: gzip, chunked (no Content-Length), no precision."""
    k = keys.create()
    body = b"".join(b"disk,host=h%d free=%di\n" % (i, i) for i in range(300))
    packed = gzip.compress(body)

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(packed), 100):
            yield packed[i : i + 100]

    auth = "Basic " + base64.b64encode(f"telegraf:{k.key}".encode()).decode()
    r = client.post(
        "/write?db=telegraf",
        content=chunks(),
        headers={"Authorization": auth, "Content-Encoding": "gzip"},
    )
    assert r.status_code == 204, r.text
    [rec] = tail_line.records(k.workspace_id, 1)
    assert rec.value == body
    assert dict(rec.headers)[HEADER_POINTS] == b"300"


def test_telegraf_create_database(client, keys) -> None:
    k = keys.create()
    auth = "Basic " + base64.b64encode(f"telegraf:{k.key}".encode()).decode()
    r = client.post(
        "/query", data={"q": 'CREATE DATABASE "telegraf"'}, headers={"Authorization": auth}
    )
    assert r.status_code == 200
    assert r.json() == {"results": [{"statement_id": 0}]}
    r = client.get("/query", params={"q": "SHOW DATABASES", "p": k.key})
    assert r.status_code == 400
    assert "only answers CREATE DATABASE" in r.json()["error"]


def test_ping_and_health(client) -> None:
    r = client.get("/ping")
    assert r.status_code == 204
    assert r.headers["X-Influxdb-Version"]
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}  # up or down only: no address, no version
    r = client.get("/health", headers=INTERNAL)
    assert r.json()["kafka"]["ok"] is True
    assert r.json()["kafka"]["bootstrap"] and r.json()["version"]


def test_suspended_workspace_is_refused_until_resumed(client, keys) -> None:
    """A platform operator suspends the workspace (the backend sets workspaces.suspended_at):
    its ingest keys get 403 with the reason within the key cache's time, and writes are
    accepted again once it is resumed."""
    k = keys.create()
    hdr = {"Authorization": f"Token {k.key}"}
    assert client.post("/v1/write/metric", content=LINES, headers=hdr).status_code == 204
    keys.execute(
        "UPDATE workspaces SET suspended_at = now(), suspended_reason = %s WHERE id = %s",
        "Payment overdue",
        k.workspace_id,
    )
    time.sleep(0.6)  # the key cache's 0.5 s here (at most 5 s in production)
    for path in ("/v1/write/metric", "/write", "/api/v2/write"):
        r = client.post(path, content=LINES, headers=hdr)
        assert r.status_code == 403, (path, r.text)
        assert r.json()["code"] == "workspace_suspended"
        assert r.json()["error"] == (
            f"workspace {k.workspace_id} is suspended (Payment overdue): its data is kept, "
            "but writes are refused until a platform operator resumes it"
        )
    raw = write_request([({"__name__": "up"}, [(1.0, int(time.time() * 1000))])])
    r = client.post("/api/v1/write", content=bytes(cramjam.snappy.compress_raw(raw)), headers=hdr)
    assert r.status_code == 403 and r.json()["code"] == "workspace_suspended"
    otlp = {"Content-Type": "application/json", **hdr}
    r = client.post("/v1/metrics", content=b'{"resourceMetrics": []}', headers=otlp)
    assert r.status_code == 403 and r.json()["code"] == "workspace_suspended"
    keys.execute(
        "UPDATE workspaces SET suspended_at = NULL, suspended_reason = NULL WHERE id = %s",
        k.workspace_id,
    )
    time.sleep(0.6)
    assert client.post("/v1/write/metric", content=LINES, headers=hdr).status_code == 204
    r = client.post("/v1/metrics", content=b'{"resourceMetrics": []}', headers=otlp)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("auth", "status", "message"),
    [
        (None, 401, "missing ingest key"),
        ("Token vgi_doesnotexist", 401, "unknown or revoked ingest key"),
        ("Bearer ", 401, "missing ingest key"),
        ("Digest abc", 401, "unsupported authorization scheme 'digest'"),
        ("Basic !!!", 401, "malformed Basic authorization header"),
    ],
)
def test_auth_refusals(client, auth, status, message) -> None:
    headers = {"Authorization": auth} if auth else {}
    r = client.post("/v1/write/metric", content=b"cpu v=1\n", headers=headers)
    assert r.status_code == status
    assert message in r.json()["error"]


def test_query_key_is_forbidden(client, keys) -> None:
    k = keys.create(scope="query")
    r = client.post(
        "/v1/write/metric", content=b"cpu v=1\n", headers={"Authorization": f"Token {k.key}"}
    )
    assert r.status_code == 403
    assert "scope 'query'" in r.json()["error"]


def test_revoked_key_stops_working_within_the_cache_ttl(client, keys) -> None:
    k = keys.create()
    hdr = {"Authorization": f"Token {k.key}"}
    assert client.post("/v1/write/metric", content=b"cpu v=1\n", headers=hdr).status_code == 204
    keys.execute("UPDATE api_keys SET revoked_at = now() WHERE id = %s", k.key_id)
    time.sleep(0.6)  # the test app's cache TTL is 0.5 s (production: at most 5 s)
    r = client.post("/v1/write/metric", content=b"cpu v=1\n", headers=hdr)
    assert r.status_code == 401


def test_deleted_workspace_key_is_refused(client, keys) -> None:
    k = keys.create()
    keys.execute("UPDATE workspaces SET deleted_at = now() WHERE id = %s", k.workspace_id)
    r = client.post(
        "/v1/write/metric", content=b"cpu v=1\n", headers={"Authorization": f"Token {k.key}"}
    )
    assert r.status_code == 401


def test_bad_line_names_line_and_reason(client, keys) -> None:
    k = keys.create()
    body = b"cpu v=1\ncpu v=2\ncpu,host=a v=oops\n"
    r = client.post("/v1/write/metric", content=body, headers={"Authorization": f"Token {k.key}"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("line 3: field 'v': invalid value 'oops'")


def test_reserved_tag_is_refused(client, keys) -> None:
    k = keys.create()
    r = client.post(
        "/v1/write/metric",
        content=b"cpu,vigil_workspace=other v=1\n",
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 400
    assert "tag 'vigil_workspace' is reserved" in r.json()["error"]


def test_tags_over_storage_limits_are_400(client, keys) -> None:
    """What storage would refuse after the 204 (and dead-letter) is refused here."""
    k = keys.create()
    many = b",".join(b"t%d=v" % i for i in range(65))
    for body, message in (
        (
            b"cpu v=1\ncpu," + many + b" v=1\n",
            "line 2: 65 tags on one series, over the limit of 64",
        ),
        (b"cpu," + b"k" * 257 + b"=v v=1\n", "line 1: tag name 'kkkk"),
        (b"cpu v=1\ncpu v=1\ncpu,k=" + b"v" * 4097 + b" v=1\n", "line 3: value of tag 'k' is 4097"),
    ):
        r = client.post("/api/v2/write", content=body, headers={"Authorization": f"Token {k.key}"})
        assert r.status_code == 400, r.text
        assert r.json()["error"].startswith(message), r.json()["error"]


def test_hours_old_timestamps_are_accepted(client, keys, tail_line) -> None:
    k = keys.create()
    old = int(time.time() - 6 * 3600)
    r = client.post(
        "/write?precision=s",
        content=b"cpu v=1 %d\n" % old,
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 204
    assert len(tail_line.records(k.workspace_id, 1)) == 1


@pytest.mark.parametrize(
    ("precision", "offset_s", "message"),
    [
        (
            "s",
            3 * 86400,
            "is more than 2 days in the future (precision 's': is the precision parameter right?)",
        ),
        ("s", -401 * 86400, "is older than the retention period (400d)"),
        ("ns", -401 * 86400, "is older than the retention period (400d)"),
    ],
)
def test_timestamps_storage_would_refuse(client, keys, precision, offset_s, message) -> None:
    k = keys.create()
    ts = int(time.time()) + offset_s
    if precision == "ns":
        ts *= 1_000_000_000
    body = b"cpu v=1\ncpu v=2 %d\n" % ts
    r = client.post(
        f"/write?precision={precision}", content=body, headers={"Authorization": f"Token {k.key}"}
    )
    assert r.status_code == 400
    assert r.json()["error"].startswith("line 2: timestamp ")
    assert message in r.json()["error"]


def test_points_older_than_the_workspace_retention_are_400(client, keys) -> None:
    """A workspace keeping 7 days refuses older points with its own limit named; storage's
    window still applies to a workspace keeping longer than storage does."""
    k = keys.create(retention_days=7)
    old = int(time.time()) - 8 * 86400
    r = client.post(
        "/write?precision=s",
        content=b"cpu v=1 %d\n" % old,
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 400
    assert r.json()["error"].startswith("line 1: timestamp ")
    assert (
        "is older than the retention period (7 days, the workspace's retention)"
        in (r.json()["error"])
    )
    r = client.post(
        "/write?precision=s",
        content=b"cpu v=1 %d\n" % (old + 2 * 86400),
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 204
    raw = write_request([({"__name__": "node_load1"}, [(1.0, old * 1000)])])
    r = client.post(
        "/api/v1/write",
        content=bytes(cramjam.snappy.compress_raw(raw)),
        headers={"Authorization": f"Bearer {k.key}"},
    )
    assert r.status_code == 400
    assert "7 days, the workspace's retention" in r.json()["error"]


def test_nanoseconds_sent_as_seconds_are_refused(client, keys) -> None:
    """A common misconfiguration: an agent sends ns while the URL says precision=s."""
    k = keys.create()
    r = client.post(
        "/write?precision=s",
        content=b"cpu v=1 %d\n" % time.time_ns(),
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 400
    assert "is the precision parameter right?" in r.json()["error"]


@pytest.mark.parametrize("precision", ["h", "m", "nanoseconds"])
def test_unsupported_precision(client, keys, precision) -> None:
    k = keys.create()
    r = client.post(
        f"/write?precision={precision}",
        content=b"cpu v=1\n",
        headers={"Authorization": f"Token {k.key}"},
    )
    assert r.status_code == 400
    assert r.json()["error"] == f"unsupported precision {precision!r}: use ns, us, ms or s"


def test_body_over_limit_is_413(client, keys) -> None:
    k = keys.create(max_body=1000)
    body = b"cpu v=1\n" * 200
    r = client.post("/v1/write/metric", content=body, headers={"Authorization": f"Token {k.key}"})
    assert r.status_code == 413
    assert "max_body_bytes (1000 bytes)" in r.json()["error"]


def test_chunked_body_over_limit_is_413(client, keys) -> None:
    k = keys.create(max_body=1000)

    def chunks() -> Iterator[bytes]:
        for _ in range(200):
            yield b"cpu v=1\n"

    r = client.post(
        "/v1/write/metric", content=chunks(), headers={"Authorization": f"Token {k.key}"}
    )
    assert r.status_code == 413


def test_gzip_bomb_is_413(client, keys) -> None:
    k = keys.create(max_body=256 * 1024)
    bomb = gzip.compress(b"cpu v=1\n" * (8 * 1024 * 1024), 9)  # 64 MiB of text
    assert len(bomb) < 256 * 1024
    r = client.post(
        "/v1/write/metric",
        content=bomb,
        headers={"Authorization": f"Token {k.key}", "Content-Encoding": "gzip"},
    )
    assert r.status_code == 413
    assert "decompressed body" in r.json()["error"]


@pytest.mark.parametrize("encoding", ["zstd", "br", "snappy"])
def test_unsupported_encoding_is_415(client, keys, encoding) -> None:
    k = keys.create()
    r = client.post(
        "/v1/write/metric",
        content=b"cpu v=1\n",
        headers={"Authorization": f"Token {k.key}", "Content-Encoding": encoding},
    )
    assert r.status_code == 415


def test_rate_limit_names_the_limit(client, keys) -> None:
    k = keys.create(pps=10, burst=20)
    hdr = {"Authorization": f"Token {k.key}"}
    assert (
        client.post("/v1/write/metric", content=b"cpu v=1\n" * 20, headers=hdr).status_code == 204
    )
    r = client.post("/v1/write/metric", content=b"cpu v=1\n" * 20, headers=hdr)
    assert r.status_code == 429
    assert r.json()["limit"] == "ingest_points_per_second"
    assert "ingest_points_per_second=10" in r.json()["error"]
    assert int(r.headers["Retry-After"]) >= 1


def test_remote_write_lands_on_kafka_as_received(client, keys, tail_promrw) -> None:
    k = keys.create()
    now = int(time.time() * 1000)
    raw = write_request(
        [
            ({"__name__": "up", "job": "node"}, [(1.0, now), (1.0, now + 1)]),
            ({"__name__": "node_load1"}, [(0.5, now)]),
        ]
    )
    body = bytes(cramjam.snappy.compress_raw(raw))
    r = client.post(
        "/api/v1/write",
        content=body,
        headers={
            "Authorization": f"Bearer {k.key}",
            "Content-Encoding": "snappy",
            "Content-Type": "application/x-protobuf",
            "X-Prometheus-Remote-Write-Version": "0.1.0",
        },
    )
    assert r.status_code == 204, r.text
    [rec] = tail_promrw.records(k.workspace_id, 1)
    assert rec.value == body
    h = dict(rec.headers)
    assert h[HEADER_FORMAT] == b"promrw"
    assert h[HEADER_POINTS] == b"3"
    assert HEADER_PRECISION not in h


def test_vmagent_zstd_gets_415_not_5xx(client, keys) -> None:
    k = keys.create()
    r = client.post(
        "/api/v1/write",
        content=b"\x28\xb5\x2f\xfd garbage",
        headers={"Authorization": f"Bearer {k.key}", "Content-Encoding": "zstd"},
    )
    assert r.status_code == 415


def test_remote_write_not_snappy_is_400(client, keys) -> None:
    k = keys.create()
    r = client.post(
        "/api/v1/write",
        content=b"definitely not snappy" * 10,
        headers={"Authorization": f"Bearer {k.key}"},
    )
    assert r.status_code == 400
    assert "snappy" in r.json()["error"]


def test_remote_write_reserved_label_is_400(client, keys) -> None:
    k = keys.create()
    raw = write_request([({"__name__": "up", "vigil_workspace": "other"}, [(1.0, 1)])])
    r = client.post(
        "/api/v1/write",
        content=bytes(cramjam.snappy.compress_raw(raw)),
        headers={"Authorization": f"Bearer {k.key}"},
    )
    assert r.status_code == 400
    assert "label 'vigil_workspace' is reserved" in r.json()["error"]


def test_remote_write_labels_over_storage_limits_are_400(client, keys) -> None:
    k = keys.create()
    labels = {"__name__": "up", **{f"l{i}": "v" for i in range(64)}}
    raw = write_request([(labels, [(1.0, int(time.time() * 1000))])])
    r = client.post(
        "/api/v1/write",
        content=bytes(cramjam.snappy.compress_raw(raw)),
        headers={"Authorization": f"Bearer {k.key}"},
    )
    assert r.status_code == 400
    assert r.json()["error"] == "series 1 (up): 65 labels on one series, over the limit of 64"


def test_kafka_down_is_503_with_retry_after_quickly(postgres_url, keys) -> None:
    import socket

    with socket.socket() as sock:  # a loopback port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    k = keys.create()
    settings = Settings(
        database_url=postgres_url,
        kafka_bootstrap=f"127.0.0.1:{port}",
        kafka_ack_timeout_seconds=2.0,
    )
    with TestClient(create_app(settings)) as down:
        t0 = time.monotonic()
        r = down.post(
            "/v1/write/metric", content=b"cpu v=1\n", headers={"Authorization": f"Token {k.key}"}
        )
        elapsed = time.monotonic() - t0
        assert r.status_code == 503
        assert int(r.headers["Retry-After"]) >= 1
        assert "Kafka" in r.json()["error"]
        assert elapsed < 8
        h = down.get("/health")
        assert h.status_code == 503
        assert h.json() == {"status": "degraded"}


def test_large_body_is_split_at_line_boundaries(
    postgres_url, kafka_topics, keys, tail_line
) -> None:
    k = keys.create()
    settings = Settings(
        database_url=postgres_url, kafka_bootstrap=kafka_topics, kafka_max_record_bytes=1024
    )
    body = b"".join(b"disk,host=h%03d free=%di\n" % (i, i) for i in range(300))  # ~7 KB
    with TestClient(create_app(settings)) as c:
        deadline = time.monotonic() + 20
        while c.get("/health").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        r = c.post("/v1/write/metric", content=body, headers={"Authorization": f"Token {k.key}"})
        assert r.status_code == 204, r.text
    recs = tail_line.records(k.workspace_id, 7)
    deadline = time.monotonic() + 15
    while sum(r.value.count(b"\n") for r in recs) < 300 and time.monotonic() < deadline:
        recs += tail_line.records(k.workspace_id, 1, timeout=1)
    assert len(recs) >= 7
    assert all(len(r.value) <= 1024 and r.value.endswith(b"\n") for r in recs)
    assert sum(int(dict(r.headers)[HEADER_POINTS]) for r in recs) == 300
    # the workspace's records go round-robin over the partitions (one each here: fewer records
    # than partitions), and each record is a run of whole lines of the body
    assert len({r.partition for r in recs}) == len(recs)
    assert sorted(b"".join(r.value for r in recs).splitlines()) == sorted(body.splitlines())
    assert all(r.value in body for r in recs)


def test_remote_write_samples_older_than_retention_are_400(client, keys) -> None:
    k = keys.create()
    old = int((time.time() - 401 * 86400) * 1000)
    raw = write_request([({"__name__": "node_load1"}, [(1.0, old)])])
    r = client.post(
        "/api/v1/write",
        content=bytes(cramjam.snappy.compress_raw(raw)),
        headers={"Authorization": f"Bearer {k.key}"},
    )
    assert r.status_code == 400
    assert r.json()["error"].startswith("series 1 (node_load1): timestamp ")
    assert "older than the retention period (400d)" in r.json()["error"]
