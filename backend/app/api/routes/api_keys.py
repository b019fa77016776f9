"""Workspace API keys (ingest and query) and service tokens (editor and admin).

Managed by signed-in admins and owners only: ``keys.manage`` is one of the permissions no
service token has (``app.core.keys.PEOPLE_ONLY``), so a token never creates another.
"""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, status

from app.api.deps import SessionDep, WorkspaceContext, WorkspaceDep
from app.core.permissions import Permission
from app.models import ApiKey, User
from app.schemas.api_key import ApiKeyCreate, ApiKeyCreated, ApiKeyPublic, ApiKeysPublic
from app.schemas.common import ERROR_RESPONSES
from app.services import api_keys

router = APIRouter(
    prefix="/workspaces/{workspace_id}/keys", tags=["keys"], responses=ERROR_RESPONSES
)

Admins = Annotated[WorkspaceContext, WorkspaceDep(Permission.KEYS_MANAGE)]


def _public(key: ApiKey, creator: User | None) -> ApiKeyPublic:
    public = ApiKeyPublic.model_validate(key, from_attributes=True)
    if creator is not None:
        public.created_by_email = creator.email
        public.created_by_name = creator.full_name
    return public


@router.get("", response_model=ApiKeysPublic)
def read_keys(db: SessionDep, ws: Admins) -> ApiKeysPublic:
    """The workspace's keys, revoked ones included (the key text is never shown again), with
    who created each: keys belong to the workspace and outlive their creator's membership."""
    data = [_public(k, u) for k, u in api_keys.list_keys(db, workspace_id=ws.id)]
    return ApiKeysPublic(data=data, count=len(data))


@router.post("", response_model=ApiKeyCreated, status_code=status.HTTP_201_CREATED)
def create_key(body: ApiKeyCreate, db: SessionDep, ws: Admins) -> ApiKeyCreated:
    """Create a key or service token. ``key`` in the response is shown only this once."""
    row, key = api_keys.create_key(
        db, workspace_id=ws.id, name=body.name, scope=body.scope, actor=ws.actor
    )
    return ApiKeyCreated(**_public(row, ws.user).model_dump(), key=key)


@router.delete("/{key_id}", response_model=ApiKeyPublic)
def revoke_key(key_id: uuid.UUID, db: SessionDep, ws: Admins) -> ApiKeyPublic:
    """Revoke a key; the gateway stops accepting it within seconds, the backend at once.
    Revoking a service token also revokes the invitations it sent that are still pending."""
    row = api_keys.revoke_key(db, workspace_id=ws.id, key_id=key_id, actor=ws.actor)
    return _public(row, db.get(User, row.created_by) if row.created_by else None)
