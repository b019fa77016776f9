"""The query proxy: DQL and the Prometheus read API, always scoped to one workspace."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.clients.storage import StorageClient, StorageResponse
from app.services import limits


def query_raw(
    db: Session, *, workspace_id: uuid.UUID, body: Mapping[str, Any], storage: StorageClient
) -> StorageResponse:
    query_limits = limits.query_limits(db, workspace_id=workspace_id)
    limits.count_query(db, workspace_id=workspace_id)
    return storage.query_raw(workspace_id=workspace_id, body=body, limits=query_limits)


def prometheus(
    db: Session,
    *,
    workspace_id: uuid.UUID,
    storage: StorageClient,
    method: str,
    endpoint: str,
    params: Sequence[tuple[str, str]],
    form: Sequence[tuple[str, str]] | None,
) -> StorageResponse:
    query_limits = limits.query_limits(db, workspace_id=workspace_id)
    limits.count_query(db, workspace_id=workspace_id)
    return storage.prometheus(
        workspace_id=workspace_id,
        method=method,
        endpoint=endpoint,
        params=params,
        form=form,
        limits=query_limits,
    )
