"""The evaluator against a real database: state, events and notifications written once per
transition, whoever evaluates and whatever dies on the way; delivery to real receivers."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.alerting import dispatch, notify, scheduler
from app.core.config import settings
from app.core.db import get_sessionmaker
from app.models import AlertEvent, Monitor, MonitorGroup, Notification, Workspace
from tests.alerting.fakes import dql_answer
from tests.factories import SignedUpUser, create_workspace, signup
from tests.storage_mock import StorageMock
from tests.webhook_receiver import Receiver, webhook_receiver


@pytest.fixture
def receiver(monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    monkeypatch.setattr(settings, "ALERTING_WEBHOOK_ALLOW_HOSTS", "127.0.0.1/32")
    monkeypatch.setattr(settings, "ALERTING_NOTIFY_BACKOFF_SECONDS", 0.01)
    with webhook_receiver() as rx:
        yield rx


class World:
    """A workspace with a webhook channel and monitors, and a clock the test moves."""

    def __init__(self, client: TestClient, storage: StorageMock, receiver: Receiver) -> None:
        self.client, self.storage, self.receiver = client, storage, receiver
        self.user: SignedUpUser = signup(client)
        self.ws = create_workspace(client, self.user)
        self.values: dict[str, float | None] = {}
        storage.handler = dql_answer(lambda: self.values)
        self.channel = self.post(
            "/channels", {"name": "hook", "config": {"type": "webhook", "url": receiver.url}}
        )
        self.t = datetime.now(UTC) + timedelta(seconds=1)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.client.post(
            f"/api/v1/workspaces/{self.ws['id']}{path}", json=body, headers=self.user.headers
        )
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def set_limits(self, **limits: int) -> None:
        r = self.client.patch(
            f"/api/v1/workspaces/{self.ws['id']}/limits", json=limits, headers=self.user.headers
        )
        assert r.status_code == 200, r.text

    def monitor(self, **kw: Any) -> dict[str, Any]:
        body = {
            "name": "CPU",
            "query": "M::cpu:(avg(usage)) BY host",
            "conditions": [{"severity": "critical", "op": ">", "threshold": 90}],
            "routes": {"critical": [self.channel["id"]]},
            "group_grace_seconds": 0,
        } | kw
        return self.post("/monitors", body)

    def tick(self, seconds: int = 60) -> list[scheduler.Evaluated]:
        """Evaluate everything due at the next moment, then send what is due."""
        self.t += timedelta(seconds=seconds)
        done = []
        with get_sessionmaker()() as db, get_sessionmaker()() as qdb:
            while (r := scheduler.run_once(db, qdb, self.storage.client(), now=self.t)) is not None:
                done.append(r)
            dispatch.send_due(db, now=self.t)
        return done


@pytest.fixture
def world(client: TestClient, storage: StorageMock, receiver: Receiver) -> World:
    return World(client, storage, receiver)


def events(db: Session, monitor_id: str) -> list[tuple[str, str, str | None]]:
    rows = db.scalars(
        select(AlertEvent)
        .where(AlertEvent.monitor_id == uuid.UUID(monitor_id))
        .order_by(AlertEvent.at, AlertEvent.created_at)
    ).all()
    return [(e.kind, e.group_key, e.severity) for e in rows]


def test_fires_once_resolves_once_and_the_webhook_says_so(world: World, db: Session) -> None:
    m = world.monitor()
    world.values = {"web-1": 50, "web-2": 40}
    world.tick()
    world.values = {"web-1": 97.5, "web-2": 40}
    world.tick()
    world.tick()
    world.values = {"web-1": 20, "web-2": 40}
    world.tick()
    assert events(db, m["id"]) == [
        ("firing", "host=web-1", "critical"),
        ("resolved", "host=web-1", None),
    ]
    bodies = world.receiver.bodies()
    assert [(b["kind"], b["status"], b["group"]["tags"]) for b in bodies] == [
        ("firing", "firing", {"host": "web-1"}),
        ("resolved", "resolved", {"host": "web-1"}),
    ]
    fired = bodies[0]
    assert (
        fired["value"] == 97.5 and fired["condition"] == "> 90" and fired["severity"] == "critical"
    )
    assert fired["title"] == "[critical] CPU is firing"
    assert fired["message"] == "CPU is firing for host=web-1: the value is 97.5 (> 90)."
    assert fired["monitor"]["query"] == "M::cpu:(avg(usage)) BY host"
    assert fired["links"]["alert"].endswith(
        f"/w/{world.ws['id']}/alerts/events/{fired['event']['id']}"
    )
    assert "/explore?q=M%3A%3Acpu" in fired["links"]["explore"]
    assert world.receiver.received[0].headers["X-Vigil-Idempotency-Key"] == fired["id"]
    # every query went out for this workspace only
    assert {
        r.headers["x-vigil-workspace"]
        for r in world.storage.requests
        if r.url.path == "/v1/query/raw"
    } == {world.ws["id"]}
    # the API shows it too
    detail = world.client.get(
        f"/api/v1/workspaces/{world.ws['id']}/alerts/events/{fired['event']['id']}",
        headers=world.user.headers,
    ).json()
    assert detail["value"] == 97.5 and [n["status"] for n in detail["notifications"]] == ["sent"]
    # a dashboard panel of the same query finds the events (its annotations)
    r = world.client.get(
        f"/api/v1/workspaces/{world.ws['id']}/alerts/events",
        params={"query": "M::cpu:(avg(usage)) BY host", "kind": ["firing", "resolved"]},
        headers=world.user.headers,
    )
    assert [e["kind"] for e in r.json()["data"]] == ["resolved", "firing"]
    r = world.client.get(
        f"/api/v1/workspaces/{world.ws['id']}/alerts/events",
        params={"query": "M::cpu:(avg(usage))", "tag": "host=web-1"},
        headers=world.user.headers,
    )
    assert r.json()["count"] == 0


def test_two_evaluators_write_each_event_once(world: World, db: Session) -> None:
    ids = [world.monitor(name=f"m{i}")["id"] for i in range(6)]
    world.values = {"web-1": 99}
    slow = world.storage.handler
    assert slow is not None

    def handler(request: httpx.Request) -> httpx.Response:
        time.sleep(0.05)  # long enough for the other evaluator to try the same monitor
        return slow(request)

    world.storage.handler = handler
    now = world.t + timedelta(seconds=60)
    results: list[scheduler.Evaluated] = []

    def evaluator() -> None:
        with get_sessionmaker()() as s, get_sessionmaker()() as q:
            while (r := scheduler.run_once(s, q, world.storage.client(), now=now)) is not None:
                results.append(r)

    threads = [threading.Thread(target=evaluator) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(str(r.monitor_id) for r in results) == sorted(ids)
    assert (
        db.scalar(
            select(func.count())
            .select_from(AlertEvent)
            .where(AlertEvent.monitor_id.in_([uuid.UUID(i) for i in ids]))
        )
        == 6
    )
    with get_sessionmaker()() as s1, get_sessionmaker()() as s2:
        sent: list[Any] = []
        threads = [
            threading.Thread(target=lambda s=s: sent.extend(dispatch.send_due(s, now=now)))
            for s in (s1, s2)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    keys = [r.headers["X-Vigil-Idempotency-Key"] for r in world.receiver.received]
    assert len(keys) == 6 and len(set(keys)) == 6


def test_a_crash_mid_evaluation_loses_and_repeats_nothing(
    world: World, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = world.monitor()
    world.values = {"web-1": 99}
    real = notify.notification_rows

    def crash(*args: Any, **kw: Any) -> Any:
        raise RuntimeError("killed")

    monkeypatch.setattr(notify, "notification_rows", crash)
    with pytest.raises(RuntimeError):
        world.tick()
    db.expire_all()
    assert events(db, m["id"]) == []
    assert (
        db.scalar(
            select(func.count())
            .select_from(MonitorGroup)
            .where(MonitorGroup.monitor_id == uuid.UUID(m["id"]))
        )
        == 0
    )
    monkeypatch.setattr(notify, "notification_rows", real)
    world.tick(0)  # the same moment again: the monitor is still due
    world.tick()
    assert events(db, m["id"]) == [("firing", "host=web-1", "critical")]
    assert [b["kind"] for b in world.receiver.bodies()] == ["firing"]


def test_for_and_no_data_through_the_evaluator(world: World, db: Session) -> None:
    m = world.monitor(
        for_seconds=120, no_data={"action": "alert", "after_seconds": 120, "severity": "critical"}
    )
    world.values = {"web-1": 95}
    world.tick()
    world.tick()
    assert events(db, m["id"]) == [("pending", "host=web-1", "critical")]
    world.tick()
    world.values = {}
    world.tick()
    world.tick()
    world.tick()
    assert events(db, m["id"])[1:] == [
        ("firing", "host=web-1", "critical"),
        ("nodata", "host=web-1", "critical"),
    ]
    assert [b["kind"] for b in world.receiver.bodies()] == ["firing", "nodata"]
    row = db.get(Monitor, uuid.UUID(m["id"]))
    assert row is not None and row.last_error is None


def test_a_silence_mutes_the_notification_not_the_event(world: World, db: Session) -> None:
    m = world.monitor()
    s = world.post(
        "/silences",
        {
            "comment": "deploy",
            "monitor_id": m["id"],
            "matchers": [{"label": "host", "value": "web-1"}],
            "ends_at": (world.t + timedelta(minutes=3)).isoformat(),
        },
    )
    world.values = {"web-1": 99, "web-2": 99}
    world.tick()
    rows = db.scalars(
        select(AlertEvent)
        .where(AlertEvent.monitor_id == uuid.UUID(m["id"]))
        .order_by(AlertEvent.group_key)
    ).all()
    assert [(e.group_key, e.muted, str(e.silence_id) if e.silence_id else None) for e in rows] == [
        ("host=web-1", True, s["id"]),
        ("host=web-2", False, None),
    ]
    assert [b["group"]["tags"]["host"] for b in world.receiver.bodies()] == ["web-2"]
    world.tick(240)  # the silence has ended: web-1 still fires, now it is told
    assert [b["group"]["tags"]["host"] for b in world.receiver.bodies()] == ["web-2", "web-1"]


def test_undeliverable_notifications_are_retried_then_marked_failed(
    world: World, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "ALERTING_NOTIFY_MAX_ATTEMPTS", 3)
    world.monitor()
    world.receiver.answers.extend([503, 503, 503])
    world.values = {"web-1": 99}
    world.tick()
    for i in range(5):
        with get_sessionmaker()() as s:
            dispatch.send_due(s, now=world.t + timedelta(seconds=i + 1))
    (n,) = db.scalars(
        select(Notification).where(
            Notification.workspace_id == uuid.UUID(world.ws["id"]), Notification.kind == "firing"
        )
    ).all()
    assert (n.status, n.attempts) == ("failed", 3)
    assert n.last_error == "the receiver answered 503 (gave up after 3 attempts)"
    assert len(world.receiver.received) == 3
    summary = world.client.get(
        f"/api/v1/workspaces/{world.ws['id']}/alerts/summary", headers=world.user.headers
    ).json()
    assert summary["failed_notifications"] == 1 and summary["firing"] == 1
    assert summary["by_severity"] == {"critical": 1}


def test_notifications_past_the_hourly_limit_are_recorded_as_throttled(
    world: World, db: Session
) -> None:
    world.set_limits(max_notifications_per_hour=1)
    world.monitor()
    world.values = {"web-1": 99, "web-2": 99}
    world.tick()
    rows = db.scalars(
        select(Notification).where(
            Notification.workspace_id == uuid.UUID(world.ws["id"]), Notification.kind == "firing"
        )
    ).all()
    assert sorted(n.status for n in rows) == ["sent", "throttled"]
    throttled = next(n for n in rows if n.status == "throttled")
    assert throttled.last_error == (
        "not sent: the workspace sent its limit of 1 notifications in the last hour "
        "(max_notifications_per_hour)"
    )
    assert len(world.receiver.received) == 1


def test_a_failing_query_keeps_the_state_and_says_why(world: World, db: Session) -> None:
    m = world.monitor()
    world.values = {"web-1": 99}
    world.tick()
    world.storage.handler = lambda request: httpx.Response(
        400, json={"error_code": "dql.unknown_function", "message": "unknown function nope()"}
    )
    world.tick()
    row = db.get(Monitor, uuid.UUID(m["id"]))
    db.refresh(row)
    assert row is not None and row.last_error == "dql.unknown_function: unknown function nope()"
    g = db.get(MonitorGroup, (uuid.UUID(m["id"]), "host=web-1"))
    assert g is not None and g.state == "firing"
    listed = world.client.get(
        f"/api/v1/workspaces/{world.ws['id']}/monitors/{m['id']}", headers=world.user.headers
    ).json()
    assert listed["status"] == "firing" and listed["last_error"] == row.last_error


def test_evaluations_take_the_workspaces_query_slots_and_a_refusal_waits_a_round(
    world: World, db: Session
) -> None:
    world.set_limits(concurrent_queries=2)
    m = world.monitor()
    world.values = {"web-1": 99}
    world.tick()
    raw = [r for r in world.storage.requests if r.url.path == "/v1/query/raw"]
    assert raw and {r.headers["x-vigil-max-concurrent-queries"] for r in raw} == {"2"}
    refusal = (
        "workspace limit concurrent_queries=2 reached: the query waited 10s while the "
        "workspace's 2 running queries took every slot it may use; retry later"
    )
    answer = world.storage.handler
    world.storage.handler = lambda request: httpx.Response(
        429,
        headers={"Retry-After": "11"},
        json={"status": "error", "errorType": "limit_exceeded", "error": refusal},
    )
    world.tick()
    row = db.get(Monitor, uuid.UUID(m["id"]))
    db.refresh(row)
    assert row is not None and row.last_error == f"limit_exceeded: {refusal}"
    g = db.get(MonitorGroup, (uuid.UUID(m["id"]), "host=web-1"))
    assert g is not None and g.state == "firing"
    world.storage.handler = answer
    world.tick()
    db.refresh(row)
    assert row.last_error is None


def test_monitors_of_a_deleted_workspace_are_neither_due_nor_evaluated(
    world: World, db: Session
) -> None:
    m = world.monitor()
    r = world.client.request(
        "DELETE",
        f"/api/v1/workspaces/{world.ws['id']}",
        json={"confirm_name": world.ws["name"]},
        headers=world.user.headers,
    )
    assert r.status_code == 200, r.text
    assert world.tick() == []
    with get_sessionmaker()() as s:
        due = scheduler.next_due(s)
    row = db.get(Monitor, uuid.UUID(m["id"]))
    assert row is not None
    # the evaluator waits for the live monitors only, never for this one (it would spin)
    assert due is None or due > row.next_eval_at


def _suspend(db: Session, workspace_id: str, suspended: bool) -> None:
    ws = db.get(Workspace, uuid.UUID(workspace_id))
    assert ws is not None
    ws.suspended_at = datetime.now(UTC) if suspended else None
    ws.suspended_reason = "Payment overdue" if suspended else None
    db.commit()


def test_a_suspended_workspace_evaluates_and_notifies_nothing_until_resumed(
    world: World, db: Session
) -> None:
    """Suspension holds its monitors (not due, not evaluated) and its pending notifications;
    resuming runs both again."""
    m = world.monitor()

    def evaluated() -> list[uuid.UUID]:  # this test's monitor (others' may be due too)
        return [e.monitor_id for e in world.tick() if e.workspace_id == uuid.UUID(world.ws["id"])]

    world.receiver.answers.append(503)  # the firing notification waits for a retry
    world.values = {"web-1": 99}
    assert evaluated() == [uuid.UUID(m["id"])]
    assert len(world.receiver.received) == 1
    _suspend(db, world.ws["id"], True)
    assert evaluated() == [] and evaluated() == []
    assert len(world.receiver.received) == 1  # the retry waits too
    with get_sessionmaker()() as s:
        due = scheduler.next_due(s)
    row = db.get(Monitor, uuid.UUID(m["id"]))
    assert row is not None
    db.refresh(row)
    assert due is None or due > row.next_eval_at
    _suspend(db, world.ws["id"], False)
    assert evaluated() == [uuid.UUID(m["id"])]
    assert [b["kind"] for b in world.receiver.bodies()] == ["firing", "firing"]  # delivered
