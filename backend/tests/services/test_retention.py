"""The retention sweep with a clock the test controls: which cut-off each workspace gets,
what is recorded, what is skipped, and that two processes never sweep at once."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from app.core.db import get_engine
from app.models import WorkspaceRetentionSweep
from app.services import retention
from tests.factories import create_workspace, signup
from tests.storage_mock import StorageMock

T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _calls(storage: StorageMock, workspace_id: str) -> list[httpx.Request]:
    return [
        r
        for r in storage.requests
        if r.url.path == "/internal/v1/retention" and r.headers["x-vigil-workspace"] == workspace_id
    ]


def _answer(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/internal/v1/retention":
        return httpx.Response(200, json={"status": "success", "series": 3, "kept_points": 120})
    return httpx.Response(404)


def test_sweep_asks_storage_for_each_cutoff_by_the_clock(
    client: TestClient, storage: StorageMock, db: Session
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    client.patch(
        f"/api/v1/workspaces/{ws['id']}/limits", json={"retention_days": 7}, headers=user.headers
    )
    storage.handler = _answer
    now = T0
    done = retention.sweep(
        storage.client(), clock=lambda: now, interval=timedelta(hours=1), grace_percent=10
    )
    assert done is not None
    mine = [s for s in done if str(s.workspace_id) == ws["id"]]
    assert mine == [retention.Swept(uuid.UUID(ws["id"]), T0 - timedelta(days=7), 3, 120)]
    (call,) = _calls(storage, ws["id"])
    assert call.method == "POST"
    assert float(call.url.params["before"]) == (T0 - timedelta(days=7)).timestamp()
    # series are rewritten once they hold points 10 % of the retention past it
    assert float(call.url.params["older_than"]) == (T0 - timedelta(days=7.7)).timestamp()
    row = db.get(WorkspaceRetentionSweep, uuid.UUID(ws["id"]))
    assert row is not None
    assert (row.swept_at, row.cutoff, row.series, row.kept_points) == (
        T0,
        T0 - timedelta(days=7),
        3,
        120,
    )

    # Within the interval the workspace is not swept again...
    now = T0 + timedelta(minutes=30)
    retention.sweep(storage.client(), clock=lambda: now, interval=timedelta(hours=1))
    assert len(_calls(storage, ws["id"])) == 1
    # ...after it, it is, with the cut-off moved by the clock.
    now = T0 + timedelta(hours=2)
    retention.sweep(storage.client(), clock=lambda: now, interval=timedelta(hours=1))
    calls = _calls(storage, ws["id"])
    assert len(calls) == 2
    assert float(calls[1].url.params["before"]) == (now - timedelta(days=7)).timestamp()


def test_a_failed_workspace_is_reported_and_swept_next_time(
    client: TestClient, storage: StorageMock, db: Session
) -> None:
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = lambda request: httpx.Response(503, text="busy")
    done = retention.sweep(storage.client(), clock=lambda: T0, interval=timedelta(hours=1))
    assert done is not None
    (mine,) = [s for s in done if str(s.workspace_id) == ws["id"]]
    assert mine.error == "vigil-storage answered 503 to the retention run: busy"
    assert db.get(WorkspaceRetentionSweep, uuid.UUID(ws["id"])) is None
    storage.handler = _answer
    retention.sweep(storage.client(), clock=lambda: T0, interval=timedelta(hours=1))
    assert len(_calls(storage, ws["id"])) == 2


def test_only_one_process_sweeps_at_a_time(client: TestClient, storage: StorageMock) -> None:
    """Another backend process holding the sweep's advisory lock: this one skips the round."""
    user = signup(client)
    ws = create_workspace(client, user)
    storage.handler = _answer
    with get_engine().connect() as other:
        assert other.execute(
            text("SELECT pg_try_advisory_lock(:k)"), {"k": retention.LOCK_KEY}
        ).scalar()
        assert retention.sweep(storage.client(), clock=lambda: T0) is None
        other.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": retention.LOCK_KEY})
        other.commit()
    assert _calls(storage, ws["id"]) == []
    assert retention.sweep(storage.client(), clock=lambda: T0, interval=timedelta(0)) is not None
    assert len(_calls(storage, ws["id"])) == 1
