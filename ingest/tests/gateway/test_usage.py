"""Points accepted per workspace and minute, as the gateway hands them to PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import UTC, datetime

import psycopg
import pytest

from vigil_ingest.gateway.usage import MAX_PENDING, PRUNE, UPSERT, UsageRecorder


class FakeDb:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Mapping[str, object]]] = []
        self.fail = False

    async def execute(self, sql: str, params: Mapping[str, object]) -> None:
        if self.fail:
            raise psycopg.OperationalError("database down")
        self.calls.append((sql, params))


def test_counts_per_workspace_and_minute_are_added_in_one_upsert() -> None:
    db, now = FakeDb(), [1_700_000_000.0]  # 22:13:20 UTC
    rec = UsageRecorder(db.execute, clock=lambda: now[0])
    rec.add("ws-a", 10)
    rec.add("ws-a", 5)
    rec.add("ws-b", 1)
    rec.add("ws-b", 0)  # nothing accepted, nothing counted
    now[0] += 60
    rec.add("ws-a", 7)
    asyncio.run(rec.flush())
    (sql, params), (prune, _) = db.calls
    assert sql == UPSERT and prune == PRUNE
    rows = sorted(zip(params["workspaces"], params["minutes"], params["points"], strict=True))  # type: ignore[call-overload]
    minute = datetime(2023, 11, 14, 22, 13, tzinfo=UTC)
    later = datetime(2023, 11, 14, 22, 14, tzinfo=UTC)
    assert rows == [("ws-a", minute, 15), ("ws-a", later, 7), ("ws-b", minute, 1)]
    # nothing new: no statement but the hourly prune, already done
    asyncio.run(rec.flush())
    assert len(db.calls) == 2


def test_counts_the_database_cannot_take_are_kept_for_the_next_flush() -> None:
    db = FakeDb()
    rec = UsageRecorder(db.execute, clock=lambda: 1_700_000_000.0)
    rec.add("ws-a", 10)
    db.fail = True
    asyncio.run(rec.flush())
    rec.add("ws-a", 1)
    db.fail = False
    asyncio.run(rec.flush())
    assert db.calls[0][1]["points"] == [11]


@pytest.mark.parametrize("pending", [MAX_PENDING])
def test_what_is_kept_is_bounded(pending: int) -> None:
    db = FakeDb()
    rec = UsageRecorder(db.execute, clock=lambda: 1_700_000_000.0)
    for i in range(pending + 10):
        rec.add(f"ws-{i}", 1)
    db.fail = True
    asyncio.run(rec.flush())
    db.fail = False
    asyncio.run(rec.flush())
    assert len(db.calls[0][1]["workspaces"]) == pending  # type: ignore[arg-type]


def test_the_first_flush_prunes_however_recently_the_machine_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # time.monotonic() counts from boot on Linux: a gateway started in the machine's first
    # hour pruned only an hour later (and this module's first test failed on a fresh machine)
    monkeypatch.setattr("vigil_ingest.gateway.usage.time.monotonic", lambda: 5.0)
    db = FakeDb()
    asyncio.run(UsageRecorder(db.execute).flush())
    assert [sql for sql, _ in db.calls] == [PRUNE]
