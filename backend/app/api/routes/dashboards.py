"""Dashboards: CRUD, version history and restore, import and export."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import Dashboard, DashboardVersion
from app.schemas.common import ERROR_RESPONSES, ErrorPublic, Message, Name200
from app.schemas.dashboard import (
    DashboardCreate,
    DashboardExport,
    DashboardPublic,
    DashboardSpec,
    DashboardsPublic,
    DashboardSummary,
    DashboardUpdate,
    DashboardVersionDetail,
    DashboardVersionPublic,
    DashboardVersionsPublic,
    GrafanaImportResult,
)
from app.services import dashboards, grafana_import

router = APIRouter(
    prefix="/workspaces/{workspace_id}/dashboards", tags=["dashboards"], responses=ERROR_RESPONSES
)

Readers = Annotated[WorkspaceContext, WorkspaceDep(Permission.DASHBOARDS_READ)]
Writers = Annotated[WorkspaceContext, WorkspaceDep(Permission.DASHBOARDS_WRITE)]


def _summary(d: Dashboard) -> DashboardSummary:
    return DashboardSummary(
        id=d.id,
        workspace_id=d.workspace_id,
        title=d.title,
        description=d.description,
        tags=list(d.tags),
        version=d.version,
        created_at=d.created_at,
        updated_at=d.updated_at,
    )


def _public(d: Dashboard) -> DashboardPublic:
    return DashboardPublic(
        **_summary(d).model_dump(),
        spec=DashboardSpec.model_validate(d.spec),
        created_by=d.created_by,
        updated_by=d.updated_by,
    )


def _version(v: DashboardVersion) -> DashboardVersionPublic:
    return DashboardVersionPublic(
        version=v.version,
        title=v.title,
        message=v.message,
        created_by=v.created_by,
        created_at=v.created_at,
    )


def _user_id(ws: WorkspaceContext) -> uuid.UUID | None:
    return ws.user.id if ws.user else None


@router.get("", response_model=DashboardsPublic)
def read_dashboards(
    db: SessionDep,
    ws: Readers,
    search: Annotated[str | None, Query(max_length=200)] = None,
    tag: Annotated[str | None, Query(max_length=64)] = None,
) -> DashboardsPublic:
    """The workspace's dashboards (without their panels), by title."""
    rows = dashboards.list_dashboards(db, workspace_id=ws.id, search=search, tag=tag)
    return DashboardsPublic(data=[_summary(d) for d in rows], count=len(rows))


LIMIT_RESPONSE: dict[int | str, dict[str, object]] = {
    429: {"model": ErrorPublic, "description": "The workspace has its limit of dashboards"}
}


@router.post(
    "",
    response_model=DashboardPublic,
    status_code=status.HTTP_201_CREATED,
    responses=LIMIT_RESPONSE,
)
def create_dashboard(body: DashboardCreate, db: SessionDep, ws: Writers) -> DashboardPublic:
    """Create a dashboard (version 1); 429 ``max_dashboards`` once the workspace has its
    limit of them."""
    dashboards.ensure_room(db, workspace_id=ws.id)
    dashboard = dashboards.create_dashboard(
        db, workspace_id=ws.id, data=body, user_id=_user_id(ws), actor=ws.actor
    )
    db.commit()
    return _public(dashboard)


@router.post(
    "/import",
    response_model=DashboardPublic,
    status_code=status.HTTP_201_CREATED,
    responses={
        **LIMIT_RESPONSE,
        200: {"model": DashboardPublic, "description": "overwrite: updated, or unchanged"},
        409: {"model": ErrorPublic, "description": "overwrite: several have this title"},
    },
)
def import_dashboard(
    body: DashboardExport,
    db: SessionDep,
    ws: Writers,
    response: Response,
    overwrite: Annotated[
        bool,
        Query(
            description="Update the workspace's dashboard with this title instead of adding "
            "another (200; a new version only when something changed); 201 when there is none"
        ),
    ] = False,
) -> DashboardPublic:
    """Create a dashboard from an export document, or, with ``overwrite``, apply it (429
    ``max_dashboards`` as for create whenever a dashboard would be added)."""
    data = DashboardCreate(
        title=body.title, description=body.description, tags=body.tags, spec=body.spec
    )
    if overwrite:
        dashboard, created = dashboards.apply_dashboard(
            db, workspace_id=ws.id, data=data, user_id=_user_id(ws), actor=ws.actor
        )
        if not created:
            response.status_code = status.HTTP_200_OK
        return _public(dashboard)
    dashboards.ensure_room(db, workspace_id=ws.id)
    dashboard = dashboards.create_dashboard(
        db, workspace_id=ws.id, data=data, user_id=_user_id(ws), message="imported", actor=ws.actor
    )
    db.commit()
    return _public(dashboard)


GRAFANA_EXAMPLE: dict[str, Any] = {
    "__inputs": [{"name": "DS_PROMETHEUS", "type": "datasource", "pluginId": "prometheus"}],
    "title": "Node",
    "panels": [
        {
            "id": 1,
            "type": "timeseries",
            "title": "Load",
            "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
            "datasource": {"type": "prometheus", "uid": "${DS_PROMETHEUS}"},
            "targets": [
                {"refId": "A", "expr": 'node_load1{instance="$node"}', "legendFormat": "1m"}
            ],
        }
    ],
    "templating": {
        "list": [{"name": "node", "type": "query", "query": "label_values(node_load1, instance)"}]
    },
}


@router.post(
    "/import/grafana",
    response_model=GrafanaImportResult,
    status_code=status.HTTP_201_CREATED,
    responses={
        **LIMIT_RESPONSE,
        422: {"model": ErrorPublic, "description": "not a Grafana dashboard"},
    },
)
def import_grafana_dashboard(
    body: Annotated[
        dict[str, Any],
        Body(
            description="A dashboard as Grafana 9–11 exports it (with or without the "
            '`__inputs`/`__requires` wrapper), or Grafana\'s `{"dashboard": …}` envelope',
            examples=[GRAFANA_EXAMPLE],
        ),
    ],
    db: SessionDep,
    ws: Writers,
    title: Annotated[Name200 | None, Query(description="instead of the Grafana title")] = None,
) -> GrafanaImportResult:
    """Create a dashboard from a Grafana dashboard's JSON: its Prometheus panels, rows,
    repeats, variables, units and thresholds. What cannot be carried over is listed in
    ``unmapped``, each with the Grafana panel's (or variable's) title and the reason (429
    ``max_dashboards`` as for create)."""
    converted = grafana_import.convert(body, title=title)
    dashboards.ensure_room(db, workspace_id=ws.id)
    dashboard = dashboards.create_dashboard(
        db,
        workspace_id=ws.id,
        data=converted.dashboard,
        user_id=_user_id(ws),
        message="imported",
        actor=ws.actor,
        details={"source": "grafana", "unmapped": len(converted.unmapped)},
    )
    db.commit()
    return GrafanaImportResult(dashboard=_public(dashboard), unmapped=converted.unmapped)


@router.get("/{dashboard_id}", response_model=DashboardPublic)
def read_dashboard(dashboard_id: uuid.UUID, db: SessionDep, ws: Readers) -> DashboardPublic:
    """One dashboard with its panels and variables."""
    return _public(dashboards.get_dashboard(db, workspace_id=ws.id, dashboard_id=dashboard_id))


@router.patch(
    "/{dashboard_id}",
    response_model=DashboardPublic,
    responses={409: {"model": ErrorPublic, "description": "base_version is stale"}},
)
def update_dashboard(
    dashboard_id: uuid.UUID, body: DashboardUpdate, db: SessionDep, ws: Writers
) -> DashboardPublic:
    """Save changes as a new version. Send ``base_version`` to refuse overwriting others' edits."""
    dashboard = dashboards.update_dashboard(
        db,
        workspace_id=ws.id,
        dashboard_id=dashboard_id,
        data=body,
        user_id=_user_id(ws),
        actor=ws.actor,
    )
    return _public(dashboard)


@router.delete("/{dashboard_id}", response_model=Message)
def delete_dashboard(dashboard_id: uuid.UUID, db: SessionDep, ws: Writers) -> Message:
    """Delete a dashboard and its history."""
    dashboards.delete_dashboard(db, workspace_id=ws.id, dashboard_id=dashboard_id, actor=ws.actor)
    return Message(message="Dashboard deleted")


@router.get("/{dashboard_id}/versions", response_model=DashboardVersionsPublic)
def read_dashboard_versions(
    dashboard_id: uuid.UUID, db: SessionDep, ws: Readers
) -> DashboardVersionsPublic:
    """Version history, newest first."""
    rows = dashboards.list_versions(db, workspace_id=ws.id, dashboard_id=dashboard_id)
    return DashboardVersionsPublic(data=[_version(v) for v in rows], count=len(rows))


@router.get("/{dashboard_id}/versions/{version}", response_model=DashboardVersionDetail)
def read_dashboard_version(
    dashboard_id: uuid.UUID,
    version: Annotated[int, Path(ge=1, le=2_147_483_647)],
    db: SessionDep,
    ws: Readers,
) -> DashboardVersionDetail:
    """One version in full."""
    v = dashboards.get_version(db, workspace_id=ws.id, dashboard_id=dashboard_id, version=version)
    return DashboardVersionDetail(
        **_version(v).model_dump(),
        description=v.description,
        tags=list(v.tags),
        spec=DashboardSpec.model_validate(v.spec),
    )


@router.post("/{dashboard_id}/versions/{version}/restore", response_model=DashboardPublic)
def restore_dashboard_version(
    dashboard_id: uuid.UUID,
    version: Annotated[int, Path(ge=1, le=2_147_483_647)],
    db: SessionDep,
    ws: Writers,
) -> DashboardPublic:
    """Make an old version current again (saved as a new version)."""
    dashboard = dashboards.restore_version(
        db,
        workspace_id=ws.id,
        dashboard_id=dashboard_id,
        version=version,
        user_id=_user_id(ws),
        actor=ws.actor,
    )
    return _public(dashboard)


@router.get("/{dashboard_id}/export", response_model=DashboardExport)
def export_dashboard(dashboard_id: uuid.UUID, db: SessionDep, ws: Readers) -> DashboardExport:
    """A portable document that ``POST …/dashboards/import`` accepts in any workspace."""
    d = dashboards.get_dashboard(db, workspace_id=ws.id, dashboard_id=dashboard_id)
    return DashboardExport(
        title=d.title,
        description=d.description,
        tags=list(d.tags),
        spec=DashboardSpec.model_validate(d.spec),
    )
