from __future__ import annotations

import uuid

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Dashboard
from app.services import dashboards
from app.services.builtin_dashboards import host_overview
from tests.factories import create_workspace, signup


def test_a_shipped_dashboard_stored_before_a_new_spec_field_is_not_refreshed(
    client: TestClient, db: Session
) -> None:
    ws = create_workspace(client, signup(client))
    workspace_id = uuid.UUID(ws["id"])
    shipped = db.scalar(select(Dashboard).where(Dashboard.workspace_id == workspace_id))
    assert shipped is not None and shipped.version == 1
    # As an older release stored it: the same dashboard, without the later `time_shift` key.
    shipped.spec = {k: v for k, v in shipped.spec.items() if k != "time_shift"}
    db.commit()

    assert dashboards.refresh_shipped(db, workspace_id=workspace_id, data=host_overview()) is False
    db.expire_all()
    kept = db.get(Dashboard, shipped.id)
    assert kept is not None and kept.version == 1 and "time_shift" not in kept.spec

    # A real difference still brings it up to date.
    kept.spec = dict(kept.spec, time_shift="1d")
    db.commit()
    assert dashboards.refresh_shipped(db, workspace_id=workspace_id, data=host_overview()) is True
    db.expire_all()
    refreshed = db.get(Dashboard, shipped.id)
    assert refreshed is not None and refreshed.version == 2
    assert refreshed.spec["time_shift"] is None
