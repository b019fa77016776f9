"""The query paths against the real vigil-storage of a running stack (skipped without one).

Two workspaces get data written straight into storage's internal API; everything is then
read back through the backend: DQL, and the Prometheus API with prometheus-api-client over
HTTP. Each workspace sees only its own series, hostile label matchers are refused, and
deleting a workspace deletes its series.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_api_client import PrometheusApiClientException, PrometheusConnect

from app.clients.storage import AsyncStorageClient, StorageClient
from app.main import create_app
from tests.factories import create_key, create_workspace, signup


@pytest.fixture()
def stack_app(real_storage: tuple[str, str]) -> FastAPI:
    url, token = real_storage
    return create_app(
        storage=StorageClient(base_url=url, internal_token=token),
        async_storage=AsyncStorageClient(base_url=url, internal_token=token),
    )


@pytest.fixture()
def stack_client(stack_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(stack_app, client=("10.97.0.1", 50000)) as c:
        yield c


@pytest.fixture()
def live(stack_app: FastAPI) -> Iterator[str]:
    # the server gets the bound socket itself: a port closed and bound again could be taken
    # in between (by any outgoing connection)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(stack_app, host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)
    sock.close()


def write_line(real_storage: tuple[str, str], workspace_id: str, body: str) -> None:
    url, token = real_storage
    r = httpx.post(
        f"{url}/internal/v1/write/line",
        params={"precision": "ms"},
        content=body.encode(),
        headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": workspace_id},
        timeout=10,
    )
    assert r.status_code == 204, r.text


def eventually(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.3)


def test_isolation_through_dql_and_prometheus(
    stack_client: TestClient, live: str, real_storage: tuple[str, str]
) -> None:
    owner = signup(stack_client)
    ws_a, ws_b = create_workspace(stack_client, owner), create_workspace(stack_client, owner)
    now = int(time.time() * 1000)
    write_line(
        real_storage,
        ws_a["id"],
        f"cpu,host=a usage_user=1 {now - 5000}\ncpu,host=a usage_user=2 {now}",
    )
    write_line(real_storage, ws_b["id"], f"cpu,host=b usage_user=50 {now}")

    query = {
        "queries": [
            {
                "query": "M::cpu:(last(usage_user)) BY host",
                "time_range": [now - 600_000, now + 60_000],
            }
        ]
    }
    url_a = f"/api/v1/workspaces/{ws_a['id']}/query/raw"

    def hosts() -> list[str]:
        r = stack_client.post(url_a, json=query, headers=owner.headers)
        assert r.status_code == 200, r.text
        return [s["tags"]["host"] for s in r.json()["content"][0]["series"]]

    assert eventually(hosts) == ["a"]

    hostile = {
        "queries": [{"query": f"M::cpu:(last(usage_user)) {{vigil_workspace = '{ws_b['id']}'}}"}]
    }
    r = stack_client.post(url_a, json=hostile, headers=owner.headers)
    assert r.status_code == 400
    assert r.json()["error_code"] == "dql.forbidden_label"

    key_a = create_key(stack_client, owner, ws_a["id"], "query")["key"]
    prom = PrometheusConnect(url=f"{live}/prometheus", headers={"Authorization": f"Bearer {key_a}"})
    assert eventually(lambda: prom.get_label_values("host")) == ["a"]
    result = prom.custom_query('{__name__="cpu:usage_user"}')
    assert [s["metric"]["host"] for s in result] == ["a"]
    with pytest.raises(PrometheusApiClientException):
        prom.custom_query(f'cpu:usage_user{{vigil_workspace="{ws_b["id"]}"}}')

    # deleting B deletes its series in storage
    r = stack_client.request(
        "DELETE",
        f"/api/v1/workspaces/{ws_b['id']}",
        json={"confirm_name": ws_b["name"]},
        headers=owner.headers,
    )
    assert r.status_code == 200
    url, token = real_storage
    leftover = httpx.get(
        f"{url}/api/v1/series",
        params={"match[]": '{__name__=~".+"}', "start": str(now // 1000 - 600)},
        headers={"Authorization": f"Bearer {token}", "X-Vigil-Workspace": ws_b["id"]},
    )
    assert leftover.status_code == 200
    assert leftover.json()["data"] == []


def test_a_large_answer_travels_gzip_d_from_storage_to_the_client(
    stack_client: TestClient, real_storage: tuple[str, str]
) -> None:
    owner = signup(stack_client)
    ws = create_workspace(stack_client, owner)
    now = int(time.time() * 1000)
    lines = [
        f"cpu,host=h{h:02d} usage_user={h + m} {now - m * 1000}"
        for h in range(20)
        for m in range(30)
    ]
    write_line(real_storage, ws["id"], "\n".join(lines))
    query = {
        "queries": [
            {"query": "M::cpu:(usage_user) BY host", "time_range": [now - 600_000, now + 60_000]}
        ]
    }
    url = f"/api/v1/workspaces/{ws['id']}/query/raw"

    def answer(accept: str) -> httpx.Response:
        r = stack_client.post(url, json=query, headers={**owner.headers, "Accept-Encoding": accept})
        assert r.status_code == 200, r.text
        return r

    def all_points() -> bool:
        series = answer("gzip").json()["content"][0]["series"]
        return sum(len(s["values"]) for s in series) == len(lines)

    assert eventually(all_points)
    zipped, plain = answer("gzip"), answer("identity")
    assert zipped.headers["content-encoding"] == "gzip"
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3
    assert "content-encoding" not in plain.headers
    assert zipped.json()["content"][0]["series"] == plain.json()["content"][0]["series"]


def test_usage_comes_from_storage(stack_client: TestClient, real_storage: tuple[str, str]) -> None:
    owner = signup(stack_client)
    ws = create_workspace(stack_client, owner)
    now = int(time.time() * 1000)
    write_line(real_storage, ws["id"], f"mem,host=a used=1,free=2 {now}")

    def active() -> int:
        usage = stack_client.get(
            f"/api/v1/workspaces/{ws['id']}/usage", headers=owner.headers
        ).json()
        assert usage.get("storage_error") is None, usage
        return int(usage["active_series"] or 0)

    assert eventually(active) == 2


def test_retention_sweep_deletes_older_points_by_the_clock(
    stack_client: TestClient, real_storage: tuple[str, str]
) -> None:
    """The sweep against the real vigil-storage, with a clock the test controls: a workspace
    with a 1-day retention keeps its points while the clock says they are younger, loses the
    older ones from storage once the clock passes them, and keeps the rest."""
    from datetime import UTC, datetime, timedelta

    from app.services import retention

    url, token = real_storage
    owner = signup(stack_client)
    ws = create_workspace(stack_client, owner)
    stack_client.patch(
        f"/api/v1/workspaces/{ws['id']}/limits", json={"retention_days": 1}, headers=owner.headers
    )
    now = datetime.now(UTC)
    old, recent = now - timedelta(days=3), now - timedelta(hours=1)
    auth = {"Authorization": f"Bearer {token}", "X-Vigil-Workspace": ws["id"]}
    lines = (
        f"swept,host=a v=1 {int(old.timestamp() * 1000)}\n"
        f"swept,host=a v=2 {int(recent.timestamp() * 1000)}\n"
    )
    r = httpx.post(
        f"{url}/internal/v1/write/line?precision=ms", content=lines, headers=auth, timeout=10
    )
    assert r.status_code == 204, r.text

    def stored() -> list[int]:
        r = httpx.get(
            f"{url}/api/v1/export",
            params={"match[]": "swept:v", "start": "0"},
            headers=auth,
            timeout=10,
        )
        assert r.status_code == 200, r.text
        return [t for line in r.text.splitlines() for t in json.loads(line)["timestamps"]]

    deadline = time.monotonic() + 10
    while len(stored()) < 2:
        assert time.monotonic() < deadline, "the points never became visible"
        time.sleep(0.1)
    storage = StorageClient(base_url=url, internal_token=token)
    try:
        # The clock says it is 3 days ago: both points are within the retention.
        retention.sweep(storage, clock=lambda: now - timedelta(days=3), interval=timedelta(0))
        assert len(stored()) == 2
        # The clock says now: the point of 3 days ago is gone, the recent one stays.
        done = retention.sweep(storage, clock=lambda: now, interval=timedelta(0), grace_percent=0)
    finally:
        storage.close()
    assert done is not None
    (mine,) = [s for s in done if str(s.workspace_id) == ws["id"]]
    assert (mine.series, mine.kept_points, mine.error) == (1, 1, None)
    assert stored() == [int(recent.timestamp() * 1000)]


def test_metadata_and_format_query_through_real_storage(
    stack_client: TestClient, real_storage: tuple[str, str]
) -> None:
    owner = signup(stack_client)
    ws_a, ws_b = create_workspace(stack_client, owner), create_workspace(stack_client, owner)
    now = int(time.time() * 1000)
    write_line(real_storage, ws_a["id"], f"disk,host=a used=1 {now}")
    write_line(real_storage, ws_b["id"], f"net,host=b bytes=5 {now}")
    key_a = create_key(stack_client, owner, ws_a["id"], "query")["key"]
    auth = {"Authorization": f"Bearer {key_a}"}

    def metadata() -> dict[str, Any]:
        r = stack_client.get("/prometheus/api/v1/metadata", headers=auth)
        assert r.status_code == 200, r.text
        return dict(r.json()["data"])

    assert eventually(metadata) == {"disk:used": [{"type": "unknown", "help": "", "unit": ""}]}
    r = stack_client.get(
        "/prometheus/api/v1/format_query",
        params={"query": 'sum(rate(disk:used{host="a"}[5m]))by(host)'},
        headers=auth,
    )
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "success", "data": 'sum(rate(disk:used{host="a"}[5m])) by(host)'}
    r = stack_client.get(
        "/prometheus/api/v1/format_query",
        params={"query": f'up{{vigil_workspace="{ws_b["id"]}"}}'},
        headers=auth,
    )
    assert r.status_code == 400
    assert r.json() == {
        "status": "error",
        "errorType": "bad_data",
        "error": 'the query must not reference the reserved label "vigil_workspace"',
    }
