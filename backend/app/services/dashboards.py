"""Dashboards with version history: every save writes a snapshot; restore copies one forward."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.core.errors import Conflict, NotFound
from app.models import Dashboard, DashboardVersion, Workspace
from app.schemas.dashboard import DashboardCreate, DashboardSpec, DashboardUpdate
from app.services import audit, plans
from app.services.audit import Actor


def _spec_json(spec: DashboardSpec) -> dict[str, Any]:
    return spec.model_dump(mode="json", by_alias=True)


def _snapshot(
    db: Session, dashboard: Dashboard, *, user_id: uuid.UUID | None, message: str
) -> None:
    db.add(
        DashboardVersion(
            dashboard_id=dashboard.id,
            version=dashboard.version,
            title=dashboard.title,
            description=dashboard.description,
            tags=list(dashboard.tags),
            spec=dashboard.spec,
            message=message,
            created_by=user_id,
        )
    )


def list_dashboards(
    db: Session, *, workspace_id: uuid.UUID, search: str | None = None, tag: str | None = None
) -> list[Dashboard]:
    query = select(Dashboard).where(Dashboard.workspace_id == workspace_id)
    if search:
        escaped = search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(Dashboard.title.ilike(f"%{escaped}%", escape="\\"))
    if tag:
        query = query.where(Dashboard.tags.contains([tag]))
    return list(db.scalars(query.order_by(func.lower(Dashboard.title), Dashboard.id)).all())


def get_dashboard(db: Session, *, workspace_id: uuid.UUID, dashboard_id: uuid.UUID) -> Dashboard:
    dashboard = db.get(Dashboard, dashboard_id)
    if dashboard is None or dashboard.workspace_id != workspace_id:
        raise NotFound("Dashboard not found")
    return dashboard


def ensure_room(db: Session, *, workspace_id: uuid.UUID) -> None:
    """429 ``max_dashboards`` when the workspace has as many dashboards as its limit allows;
    holds a lock until the caller commits."""
    count = db.scalar(
        select(func.count()).select_from(Dashboard).where(Dashboard.workspace_id == workspace_id)
    )
    plans.require_room(db, workspace_id=workspace_id, limit="max_dashboards", used=count or 0)


def create_dashboard(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    data: DashboardCreate,
    user_id: uuid.UUID | None,
    message: str = "created",
    actor: Actor | None = None,
    details: dict[str, Any] | None = None,
) -> Dashboard:
    """Add a dashboard (version 1) to the session; the caller commits. With ``actor``, it is
    audited (``dashboard.create``, or ``dashboard.import`` for an imported one), ``details``
    added to the event's."""
    dashboard = Dashboard(
        workspace_id=workspace_id,
        title=data.title,
        description=data.description,
        tags=list(data.tags),
        spec=_spec_json(data.spec),
        version=1,
        created_by=user_id,
        updated_by=user_id,
    )
    db.add(dashboard)
    db.flush()
    _snapshot(db, dashboard, user_id=user_id, message=message)
    if actor is not None:
        audit.record(
            db,
            actor=actor,
            action="dashboard.import" if message == "imported" else "dashboard.create",
            workspace_id=workspace_id,
            target_type="dashboard",
            target_id=dashboard.id,
            details={"title": dashboard.title, **(details or {})},
        )
    return dashboard


def ensure_shipped(
    db: Session, *, workspace_id: uuid.UUID, data: DashboardCreate, user_id: uuid.UUID | None
) -> bool:
    """Add a shipped dashboard the workspace has none of by that title, or bring it up to the
    current release (``refresh_shipped``). Returns whether anything changed; the caller commits."""
    exists = db.scalar(
        select(Dashboard.id).where(
            Dashboard.workspace_id == workspace_id, Dashboard.title == data.title
        )
    )
    if exists is None:
        create_dashboard(
            db, workspace_id=workspace_id, data=data, user_id=user_id, message="shipped"
        )
        return True
    return refresh_shipped(db, workspace_id=workspace_id, data=data)


def apply_dashboard(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    data: DashboardCreate,
    user_id: uuid.UUID | None,
    actor: Actor,
) -> tuple[Dashboard, bool]:
    """Make the workspace's dashboard titled ``data.title`` read as ``data`` (dashboards kept
    as files and applied by a script): import it when there is none, save a new version when
    something differs, leave it as it is when nothing does. Returns the dashboard and whether
    it was created; 409 when several dashboards have that title."""
    # two applies at once must not both find none and create two
    db.execute(select(Workspace.id).where(Workspace.id == workspace_id).with_for_update())
    found = db.scalars(
        select(Dashboard)
        .where(Dashboard.workspace_id == workspace_id, Dashboard.title == data.title)
        .limit(2)
    ).all()
    if len(found) > 1:
        raise Conflict(
            f"Several dashboards are titled {data.title!r}: rename or delete the extra ones, "
            "or update one by its id",
            code="ambiguous_title",
        )
    if not found:
        ensure_room(db, workspace_id=workspace_id)
        dashboard = create_dashboard(
            db,
            workspace_id=workspace_id,
            data=data,
            user_id=user_id,
            message="imported",
            actor=actor,
        )
        db.commit()
        return dashboard, True
    current = found[0]
    if (
        current.description == data.description
        and list(current.tags) == list(data.tags)
        and _spec_json(DashboardSpec.model_validate(current.spec)) == _spec_json(data.spec)
    ):
        db.commit()  # nothing to save: end the transaction and its lock
        return current, False
    update = DashboardUpdate(
        description=data.description, tags=data.tags, spec=data.spec, message="applied"
    )
    dashboard = update_dashboard(
        db,
        workspace_id=workspace_id,
        dashboard_id=current.id,
        data=update,
        user_id=user_id,
        actor=actor,
    )
    return dashboard, False


def refresh_shipped(db: Session, *, workspace_id: uuid.UUID, data: DashboardCreate) -> bool:
    """Bring an untouched shipped dashboard (still at version 1) up to the current release.

    Returns whether it changed. Dashboards anyone has saved since are left alone.
    """
    dashboard = db.scalar(
        select(Dashboard).where(
            Dashboard.workspace_id == workspace_id,
            Dashboard.title == data.title,
            Dashboard.version == 1,
        )
    )
    if dashboard is None:
        return False
    # Read the stored spec through the schema, so fields added since it was written (with
    # their defaults) do not count as a change.
    if _spec_json(DashboardSpec.model_validate(dashboard.spec)) == _spec_json(data.spec):
        return False
    update_dashboard(
        db,
        workspace_id=workspace_id,
        dashboard_id=dashboard.id,
        data=DashboardUpdate(
            spec=data.spec, description=data.description, message="shipped update"
        ),
        user_id=None,
    )
    return True


def update_dashboard(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    dashboard_id: uuid.UUID,
    data: DashboardUpdate,
    user_id: uuid.UUID | None,
    actor: Actor | None = None,
    restored_from: int | None = None,
) -> Dashboard:
    """Save a new version; with ``actor``, audited (``dashboard.update``, or
    ``dashboard.restore`` when ``restored_from`` names the version copied forward)."""
    dashboard = db.scalar(select(Dashboard).where(Dashboard.id == dashboard_id).with_for_update())
    if dashboard is None or dashboard.workspace_id != workspace_id:
        raise NotFound("Dashboard not found")
    if data.base_version is not None and data.base_version != dashboard.version:
        raise Conflict(
            f"Dashboard was changed since version {data.base_version} "
            f"(now at version {dashboard.version}); reload and reapply your edits",
            code="version_conflict",
        )
    if data.title is not None:
        dashboard.title = data.title
    if data.description is not None:
        dashboard.description = data.description
    if data.tags is not None:
        dashboard.tags = list(data.tags)
    if data.spec is not None:
        dashboard.spec = _spec_json(data.spec)
    dashboard.version += 1
    dashboard.updated_at = datetime.now(UTC)
    dashboard.updated_by = user_id
    _snapshot(db, dashboard, user_id=user_id, message=data.message)
    if actor is not None:
        details: dict[str, Any] = {"title": dashboard.title, "version": dashboard.version}
        if restored_from is not None:
            details["restored_version"] = restored_from
        elif data.message:
            details["message"] = data.message
        audit.record(
            db,
            actor=actor,
            action="dashboard.update" if restored_from is None else "dashboard.restore",
            workspace_id=workspace_id,
            target_type="dashboard",
            target_id=dashboard.id,
            details=details,
        )
    db.commit()
    return dashboard


def delete_dashboard(
    db: Session, *, workspace_id: uuid.UUID, dashboard_id: uuid.UUID, actor: Actor
) -> None:
    dashboard = get_dashboard(db, workspace_id=workspace_id, dashboard_id=dashboard_id)
    db.delete(dashboard)
    audit.record(
        db,
        actor=actor,
        action="dashboard.delete",
        workspace_id=workspace_id,
        target_type="dashboard",
        target_id=dashboard_id,
        details={"title": dashboard.title, "version": dashboard.version},
    )
    db.commit()


def list_versions(
    db: Session, *, workspace_id: uuid.UUID, dashboard_id: uuid.UUID
) -> list[DashboardVersion]:
    get_dashboard(db, workspace_id=workspace_id, dashboard_id=dashboard_id)
    return list(
        db.scalars(
            select(DashboardVersion)
            .where(DashboardVersion.dashboard_id == dashboard_id)
            .order_by(DashboardVersion.version.desc())
        ).all()
    )


def get_version(
    db: Session, *, workspace_id: uuid.UUID, dashboard_id: uuid.UUID, version: int
) -> DashboardVersion:
    get_dashboard(db, workspace_id=workspace_id, dashboard_id=dashboard_id)
    row = db.scalar(
        select(DashboardVersion).where(
            DashboardVersion.dashboard_id == dashboard_id, DashboardVersion.version == version
        )
    )
    if row is None:
        raise NotFound(f"Dashboard version {version} not found")
    return row


def restore_version(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    dashboard_id: uuid.UUID,
    version: int,
    user_id: uuid.UUID | None,
    actor: Actor | None = None,
) -> Dashboard:
    old = get_version(db, workspace_id=workspace_id, dashboard_id=dashboard_id, version=version)
    spec = DashboardSpec.model_validate(old.spec)
    return update_dashboard(
        db,
        workspace_id=workspace_id,
        dashboard_id=dashboard_id,
        data=DashboardUpdate(
            title=old.title,
            description=old.description,
            tags=list(old.tags),
            spec=spec,
            message=f"restored version {version}",
        ),
        user_id=user_id,
        actor=actor,
        restored_from=version,
    )
