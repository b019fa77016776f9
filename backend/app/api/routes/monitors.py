"""Monitors: create, change, preview, and see what each group is in."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, status

from app.alerting.silencing import muting
from app.api.deps import SessionDep, StorageDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import Monitor
from app.schemas.common import ERROR_RESPONSES, ErrorPublic, Message
from app.schemas.monitor import (
    GroupPublic,
    GroupsPublic,
    MonitorCreate,
    MonitorPublic,
    MonitorsPublic,
    MonitorUpdate,
    PreviewPublic,
    PreviewRequest,
)
from app.services import monitor_preview, monitors, silences
from app.services.monitors import summarize

router = APIRouter(
    prefix="/workspaces/{workspace_id}/monitors", tags=["monitors"], responses=ERROR_RESPONSES
)
Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.MONITORS_WRITE)]
QUERY_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorPublic, "description": "Storage refused the query (code, line:column)"},
    422: {"model": ErrorPublic, "description": "Invalid, or past a workspace limit (named)"},
    429: {"model": ErrorPublic, "description": "The workspace has all the monitors it may"},
}


def _public(db: SessionDep, monitor: Monitor) -> MonitorPublic:
    now = datetime.now(UTC)
    groups = monitors.groups_of(db, workspace_id=monitor.workspace_id, monitor_ids=[monitor.id])
    active = silences.in_effect(db, workspace_id=monitor.workspace_id, now=now)
    data = {c.key: getattr(monitor, c.key) for c in Monitor.__table__.columns}
    return MonitorPublic.model_validate({**data, **summarize(monitor, groups, active, now)})


@router.get("", response_model=MonitorsPublic)
def read_monitors(db: SessionDep, ws: Readers) -> MonitorsPublic:
    """The workspace's monitors with their state: worst group, severity, value, muted."""
    now = datetime.now(UTC)
    rows = monitors.list_monitors(db, workspace_id=ws.id)
    by_monitor: dict[uuid.UUID, list[Any]] = {m.id: [] for m in rows}
    for g in monitors.groups_of(db, workspace_id=ws.id):
        by_monitor.setdefault(g.monitor_id, []).append(g)
    active = silences.in_effect(db, workspace_id=ws.id, now=now)
    data = [
        MonitorPublic.model_validate(
            {
                **{c.key: getattr(m, c.key) for c in Monitor.__table__.columns},
                **summarize(m, by_monitor[m.id], active, now),
            }
        )
        for m in rows
    ]
    return MonitorsPublic(data=data, count=len(data))


@router.post(
    "", response_model=MonitorPublic, status_code=status.HTTP_201_CREATED, responses=QUERY_RESPONSES
)
def create_monitor(
    body: MonitorCreate, db: SessionDep, storage: StorageDep, ws: Writers
) -> MonitorPublic:
    """Create a monitor. Storage runs its query once first; a query it refuses is a 400 with
    storage's code and the line and column of the problem."""
    row = monitors.create_monitor(
        db, storage, workspace_id=ws.id, data=body.model_dump(mode="json"), actor=ws.actor
    )
    return _public(db, row)


@router.post("/preview", response_model=PreviewPublic, responses=QUERY_RESPONSES)
def preview_monitor(
    body: PreviewRequest, db: SessionDep, storage: StorageDep, ws: Readers
) -> dict[str, Any]:
    """Run a monitor (saved or not) over the last hours: its series, and when it would have
    fired, evaluated by the same state machine as the evaluator."""
    return monitor_preview.preview(db, storage, workspace_id=ws.id, req=body)


@router.get("/{monitor_id}", response_model=MonitorPublic)
def read_monitor(monitor_id: uuid.UUID, db: SessionDep, ws: Readers) -> MonitorPublic:
    """One monitor."""
    return _public(db, monitors.get_monitor(db, workspace_id=ws.id, monitor_id=monitor_id))


@router.patch("/{monitor_id}", response_model=MonitorPublic, responses=QUERY_RESPONSES)
def update_monitor(
    monitor_id: uuid.UUID, body: MonitorUpdate, db: SessionDep, storage: StorageDep, ws: Writers
) -> MonitorPublic:
    """Change a monitor; a changed query is checked by storage again. Its groups keep their
    state."""
    row = monitors.update_monitor(
        db,
        storage,
        workspace_id=ws.id,
        monitor_id=monitor_id,
        changes=body.model_dump(mode="json", exclude_unset=True),
        actor=ws.actor,
    )
    return _public(db, row)


@router.delete("/{monitor_id}", response_model=Message)
def delete_monitor(monitor_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a monitor. Its alert events stay in the history."""
    monitors.delete_monitor(db, workspace_id=ws.id, monitor_id=monitor_id, actor=ws.actor)
    return Message(message="Monitor deleted")


@router.get("/{monitor_id}/groups", response_model=GroupsPublic)
def read_groups(monitor_id: uuid.UUID, db: SessionDep, ws: Readers) -> GroupsPublic:
    """Each group the monitor tracks, in its state, worst first."""
    monitor = monitors.get_monitor(db, workspace_id=ws.id, monitor_id=monitor_id)
    now = datetime.now(UTC)
    active = silences.in_effect(db, workspace_id=ws.id, now=now)
    rows = monitors.groups_of(db, workspace_id=ws.id, monitor_ids=[monitor.id])
    rank = {"firing": 0, "nodata": 1, "pending": 2, "ok": 3}
    rows.sort(key=lambda g: (rank[g.state], g.group_key))
    data = [
        GroupPublic.model_validate(
            {
                **{c.key: getattr(g, c.key) for c in g.__table__.columns},
                "muted": muting(active, monitor.id, g.tags, now) is not None,
            }
        )
        for g in rows
    ]
    return GroupsPublic(data=data, count=len(data))
