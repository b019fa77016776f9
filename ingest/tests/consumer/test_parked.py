"""Parked batches per workspace, as the consumer adds them to PostgreSQL."""

from __future__ import annotations

import uuid

import psycopg
import pytest

from vigil_ingest.consumer.parked import ParkedRecorder


def test_counts_are_kept_while_the_database_is_away() -> None:
    rec = ParkedRecorder(None)
    ws = str(uuid.uuid4())
    rec.add(ws, batches=2, points=10, reason="first")
    rec.add(ws, batches=1, points=5, reason="second")
    assert rec.flush() is False
    assert rec.flush() is False  # still kept: nothing is lost while the database is away
    assert rec._pending[ws].batches == 3
    assert rec._pending[ws].points == 15
    assert rec._pending[ws].reason == "second"


def test_non_workspace_ids_are_not_recorded() -> None:
    rec = ParkedRecorder(None)
    rec.add("ws-a", batches=1, points=1, reason="x")
    assert rec._pending == {}


@pytest.mark.integration
def test_upsert_adds_up_and_skips_unknown_workspaces(postgres_url: str) -> None:
    ws, gone = str(uuid.uuid4()), str(uuid.uuid4())
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("INSERT INTO workspaces (id) VALUES (%s)", (ws,))
    rec = ParkedRecorder(postgres_url)
    rec.add(ws, batches=1, points=100, reason="storage answered 503: busy")
    rec.add(gone, batches=1, points=1, reason="x")
    assert rec.flush() is True
    rec.add(ws, batches=2, points=50, reason="storage answered 500: broken")
    assert rec.flush() is True
    rec.close()
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute(
            "SELECT workspace_id::text, batches, points, last_reason FROM workspace_ingest_parked"
            " WHERE workspace_id = ANY(%s::uuid[])",
            ([ws, gone],),
        ).fetchall()
    assert rows == [(ws, 3, 150, "storage answered 500: broken")]
