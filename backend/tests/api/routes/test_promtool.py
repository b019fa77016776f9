"""promtool, Prometheus' own command-line client (built by ``infra/promtool/install.sh`` into
``$VIGIL_BIN``), against the backend served by uvicorn: its queries through the key-scoped
path, and Prometheus' error envelope as Prometheus' Go client library reads it
(``<errorType>: <error>``). Storage is ``StorageMock``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.factories import create_key, create_workspace, signup
from tests.storage_mock import StorageMock


@pytest.fixture()
def promtool() -> Path:
    bindir = os.environ.get("VIGIL_BIN") or str(
        Path(__file__).resolve().parents[4] / ".vigil" / "bin"
    )
    binary = Path(bindir) / "promtool"
    if not binary.exists():
        reason = f"promtool is not built at {binary} (infra/promtool/install.sh)"
        if os.environ.get("VIGIL_REQUIRE_PROMTOOL") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    return binary


def _run(promtool: Path, tmp_path: Path, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "http.yml"
    config.write_text(f"authorization:\n  type: Bearer\n  credentials: {key}\n")
    return subprocess.run(
        [str(promtool), "query", *args[:1], f"--http.config.file={config}", *args[1:]],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _key(client: TestClient) -> tuple[dict[str, Any], str]:
    user = signup(client)
    ws = create_workspace(client, user)
    return ws, create_key(client, user, ws["id"], "query")["key"]


def test_promtool_queries(
    client: TestClient, live_server: str, storage: StorageMock, promtool: Path, tmp_path: Path
) -> None:
    ws, key = _key(client)
    url = f"{live_server}/prometheus"
    r = _run(promtool, tmp_path, key, "instant", url, "sum(rate(cpu:usage_user[5m]))")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == 'cpu:usage_user{host="web-01"} => 1.5 @[1700000000]\n'
    r = _run(promtool, tmp_path, key, "labels", url, "host")
    assert (r.returncode, r.stdout) == (0, "web-01\n")
    assert storage.last().url.path == "/api/v1/label/host/values"
    for request in storage.requests:
        assert request.headers["x-vigil-workspace"] == ws["id"]


def test_promtool_reads_the_error_envelope(
    client: TestClient, live_server: str, storage: StorageMock, promtool: Path, tmp_path: Path
) -> None:
    _, key = _key(client)
    url = f"{live_server}/prometheus"
    # Prometheus itself answers errors with 400, 422 or 503 only: the Go client reads the
    # envelope of those, and shows any other 4xx as client_error with the body
    r = _run(promtool, tmp_path, "vgq_wrong", "instant", url, "up")
    assert r.returncode == 1
    assert r.stderr == (
        "query error: client_error: client error: 401 (detail: "
        '{"status":"error","errorType":"unauthorized","error":"API key is invalid or revoked"})\n'
    )
    r = _run(promtool, tmp_path, key, "labels", url, "bad!name")
    assert r.returncode == 1
    assert r.stderr == (
        "query error: bad_data: invalid label name 'bad!name': "
        "expected [A-Za-z_][A-Za-z0-9_.:-]*, at most 256 characters\n"
    )
    storage.handler = lambda request: httpx.Response(
        422,
        json={"status": "error", "errorType": "execution", "error": "unknown func foo"},
    )
    r = _run(promtool, tmp_path, key, "instant", url, "foo(up)")
    assert r.returncode == 1
    assert r.stderr == "query error: execution: unknown func foo\n"
