"""The storage client's requests and how it classifies storage's answers."""

from __future__ import annotations

import httpx
import pytest

from vigil_ingest.common.errors import Poison, Retryable, WorkspaceDeleted
from vigil_ingest.consumer.storage_client import StorageClient, StorageMisconfigured


def client(handler) -> StorageClient:
    return StorageClient(
        "http://storage.internal:8482/", "tok", transport=httpx.MockTransport(handler)
    )


def test_line_request_shape() -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        return httpx.Response(204)

    client(handler).write_line("ws-1", b"cpu v=1\n", precision="ms")
    [req] = seen
    assert req.method == "POST"
    assert str(req.url) == "http://storage.internal:8482/internal/v1/write/line?precision=ms"
    assert req.headers["authorization"] == "Bearer tok"
    assert req.headers["x-vigil-workspace"] == "ws-1"
    assert req.content == b"cpu v=1\n"


def test_the_series_limit_is_sent_and_the_points_left_out_returned() -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        return httpx.Response(204, headers={"X-Vigil-Dropped-Points": "7"})

    c = client(handler)
    assert c.write_line("ws-1", b"cpu v=1\n", precision="ms", max_active_series=100) == 7
    assert c.write_promrw("ws-1", b"\x00", max_active_series=100) == 7
    assert [r.headers["x-vigil-max-active-series"] for r in seen] == ["100", "100"]
    # no limit, no header; no answer header, nothing left out
    seen.clear()
    assert (
        client(lambda req: (seen.append(req), httpx.Response(204))[1]).write_line(
            "ws-1", b"cpu v=1\n", precision="ms"
        )
        == 0
    )
    assert "x-vigil-max-active-series" not in seen[0].headers


def test_promrw_request_shape() -> None:
    seen: list[httpx.Request] = []

    def handler(req: httpx.Request) -> httpx.Response:
        seen.append(req)
        return httpx.Response(204)

    client(handler).write_promrw("ws-2", b"\x01\x02")
    [req] = seen
    assert req.url.path == "/internal/v1/write/promrw"
    assert req.headers["content-encoding"] == "snappy"
    assert req.headers["content-type"] == "application/x-protobuf"
    assert req.headers["x-vigil-workspace"] == "ws-2"


@pytest.mark.parametrize(
    ("status", "body", "error", "message"),
    [
        (200, "", None, None),
        (204, "", None, None),
        (500, "boom", Retryable, "storage answered 500: boom"),
        (503, "", Retryable, "storage answered 503"),
        (429, "slow down", Retryable, "storage answered 429: slow down"),
        (
            400,
            '{"status":"error","errorType":"bad_data","error":"line 3: bad"}',
            Poison,
            "line 3: bad",
        ),
        (413, "too big", Poison, "too big"),
        (415, "", Poison, "HTTP 415"),
        (
            410,
            '{"status":"error","errorType":"gone","error":"workspace ws was deleted; its data is no longer accepted"}',
            WorkspaceDeleted,
            "workspace ws was deleted",
        ),
        (401, "bad token", StorageMisconfigured, "storage answered 401"),
        (404, "", StorageMisconfigured, "storage answered 404"),
    ],
)
def test_status_classification(status, body, error, message) -> None:
    c = client(lambda req: httpx.Response(status, text=body))
    if error is None:
        c.write_line("ws", b"cpu v=1\n", precision="ns")
        return
    with pytest.raises(error) as e:
        c.write_line("ws", b"cpu v=1\n", precision="ns")
    assert str(e.value).startswith(message)


@pytest.mark.parametrize("exc", [httpx.ConnectError("refused"), httpx.ReadTimeout("slow")])
def test_transport_errors_are_retryable(exc) -> None:
    def handler(req: httpx.Request) -> httpx.Response:
        raise exc

    with pytest.raises(Retryable, match="storage unreachable"):
        client(handler).write_line("ws", b"x v=1", precision="ns")
