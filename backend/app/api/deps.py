"""Cross-cutting needs as ``Annotated`` dependencies, so a route's signature states what it needs.

``WorkspaceDep(permission)`` is the one place tenancy is enforced for
``/workspaces/{workspace_id}/…``: it resolves the workspace, the caller's membership and role
once, applies the permission table (``app.core.permissions``), and answers 404 to non-members.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.clients.storage import AsyncStorageClient, StorageClient
from app.core.config import settings
from app.core.db import get_db
from app.core.errors import Forbidden, NotFound, Unauthorized
from app.core.network import client_address
from app.core.permissions import MIN_ROLE, QUERY_KEY_PERMISSIONS, Permission, allows
from app.core.security import INGEST_KEY_PREFIX, QUERY_KEY_PREFIX
from app.models import ApiKey, Role, User, Workspace
from app.services import api_keys, users, workspaces
from app.services.audit import Actor
from app.services.query_queue import QueryQueue

SessionDep = Annotated[Session, Depends(get_db)]

bearer_scheme = HTTPBearer(
    auto_error=False,
    description="A session access token from /api/v1/auth/login, or (query endpoints only) "
    "a workspace query key (vgq_…).",
)
BearerDep = Annotated[HTTPAuthorizationCredentials | None, Security(bearer_scheme)]


def get_storage(request: Request) -> StorageClient:
    storage: StorageClient = request.app.state.storage
    return storage


StorageDep = Annotated[StorageClient, Depends(get_storage)]


def get_async_storage(request: Request) -> AsyncStorageClient:
    storage: AsyncStorageClient = request.app.state.async_storage
    return storage


AsyncStorageDep = Annotated[AsyncStorageClient, Depends(get_async_storage)]


def get_query_queue(request: Request) -> QueryQueue:
    queue: QueryQueue = request.app.state.query_queue
    return queue


def client_ip(request: Request) -> str | None:
    """The client's address, behind the proxies of ``VIGIL_TRUSTED_PROXIES``."""
    peer = request.client.host if request.client else None
    return client_address(
        peer, request.headers.getlist("x-forwarded-for"), settings.trusted_proxies
    )


def request_actor(request: Request) -> Actor:
    """An anonymous actor (for signup and login): only where the request came from."""
    return Actor(
        user_id=None,
        email=None,
        ip=client_ip(request),
        user_agent=(request.headers.get("user-agent") or "")[:400] or None,
    )


RequestActorDep = Annotated[Actor, Depends(request_actor)]


@dataclass(frozen=True)
class Credential:
    """A secret a request carries and how: ``bearer`` (``Authorization: Bearer``), ``token``
    (``Authorization: Token``), ``basic`` (the HTTP Basic password) or ``query`` (``?token=``)."""

    value: str
    how: str


def request_credential(request: Request) -> Credential | None:
    """``Authorization: Bearer|Token <t>``, HTTP Basic (the password), or ``?token=``."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        scheme = scheme.lower()
        value = value.strip()
        if scheme in ("bearer", "token") and value:
            return Credential(value, scheme)
        if scheme == "basic" and value:
            try:
                decoded = base64.b64decode(value, validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                return None
            password = decoded.partition(":")[2]
            return Credential(password, "basic") if password else None
        return None
    token = request.query_params.get("token")
    return Credential(token, "query") if token else None


def extract_token(request: Request) -> str | None:
    """The secret of ``request_credential``, however it came."""
    credential = request_credential(request)
    return credential.value if credential else None


SESSION_ONLY_AS_BEARER = (
    "Session tokens are accepted only as 'Authorization: Bearer <token>'; "
    "?token= and HTTP Basic are for query keys"
)


def session_token(credential: Credential) -> str:
    """The session token of a credential that is not an API key: only a bearer one counts,
    so a session never travels in a URL (logs, history, Referer) or as a Basic password."""
    if credential.how != "bearer":
        raise Unauthorized(SESSION_ONLY_AS_BEARER, code="invalid_token")
    return credential.value


def is_api_key(token: str) -> bool:
    return token.startswith((INGEST_KEY_PREFIX, QUERY_KEY_PREFIX))


@dataclass(frozen=True)
class CurrentSession:
    user: User
    session_id: uuid.UUID
    actor: Actor


def get_current_session(request: Request, db: SessionDep, _: BearerDep) -> CurrentSession:
    credential = request_credential(request)
    if credential is None:
        raise Unauthorized("Not authenticated")
    if is_api_key(credential.value):
        raise Unauthorized("API keys are accepted only by the query endpoints; sign in instead")
    token = session_token(credential)
    resolved = users.resolve_access_token(db, token=token)
    if resolved is None:
        raise Unauthorized("Access token is invalid or expired", code="invalid_token")
    user, session_id = resolved
    base = request_actor(request)
    return CurrentSession(user, session_id, Actor(user.id, user.email, base.ip, base.user_agent))


CurrentSessionDep = Annotated[CurrentSession, Depends(get_current_session)]


def get_current_user(current: CurrentSessionDep) -> User:
    return current.user


CurrentUser = Annotated[User, Depends(get_current_user)]


@dataclass(frozen=True)
class WorkspaceContext:
    """The workspace a request acts on and who is acting: a member (user + role) or a key."""

    workspace: Workspace
    actor: Actor
    role: Role | None = None
    user: User | None = None
    key: ApiKey | None = None

    @property
    def id(self) -> uuid.UUID:
        return self.workspace.id


def resolve_query_key(db: Session, token: str) -> ApiKey:
    """A live key with the query scope, or 401/403."""
    key = api_keys.resolve(db, key=token)
    if key is None:
        raise Unauthorized("API key is invalid or revoked", code="invalid_key")
    if key.scope != "query":
        raise Forbidden(f"This key has the {key.scope} scope; queries need a query key")
    return key


def workspace_context(
    db: Session, request: Request, workspace_id: uuid.UUID, permission: Permission
) -> WorkspaceContext:
    """The workspace of the path and who acts on it, or 401/403/404 (see ``WorkspaceDep``)."""
    credential = request_credential(request)
    if credential is None:
        raise Unauthorized("Not authenticated")
    token = credential.value
    base = request_actor(request)
    if is_api_key(token):
        if permission not in QUERY_KEY_PERMISSIONS:
            raise Unauthorized("API keys are accepted only by the query endpoints; sign in instead")
        key = resolve_query_key(db, token)
        if key.workspace_id != workspace_id:
            raise NotFound("Workspace not found")
        workspace = workspaces.get_active(db, workspace_id=workspace_id)
        if workspace is None:
            raise NotFound("Workspace not found")
        workspaces.ensure_not_suspended(workspace)
        actor = Actor(None, f"key:{key.key_prefix}", base.ip, base.user_agent)
        return WorkspaceContext(workspace=workspace, actor=actor, key=key)
    resolved = users.resolve_access_token(db, token=session_token(credential))
    if resolved is None:
        raise Unauthorized("Access token is invalid or expired", code="invalid_token")
    user, _session_id = resolved
    workspace = workspaces.get_active(db, workspace_id=workspace_id)
    role = (
        workspaces.get_role(db, workspace_id=workspace_id, user_id=user.id)
        if workspace is not None
        else None
    )
    if workspace is None or role is None:
        raise NotFound("Workspace not found")
    if not allows(role, permission):
        raise Forbidden(
            f"Your role ({role.value}) does not allow {permission.value}; "
            f"it needs {MIN_ROLE[permission].value} or above"
        )
    if permission == Permission.QUERY:
        workspaces.ensure_not_suspended(workspace)
    actor = Actor(user.id, user.email, base.ip, base.user_agent)
    return WorkspaceContext(workspace=workspace, actor=actor, role=role, user=user)


def WorkspaceDep(permission: Permission) -> Any:  # noqa: N802 - reads as a type in signatures
    """Dependency enforcing ``permission`` on the path's ``workspace_id``."""

    def dependency(
        workspace_id: uuid.UUID, request: Request, db: SessionDep, _: BearerDep
    ) -> WorkspaceContext:
        return workspace_context(db, request, workspace_id, permission)

    dependency.permission = permission  # type: ignore[attr-defined]
    return Depends(dependency)


def get_operator(request: Request, db: SessionDep, _: BearerDep) -> CurrentSession:
    """The signed-in platform operator. Everyone else — anonymous, an API key, a session of
    someone who is not an operator, an invalid token — gets the 404 of an unknown path, so
    the operator routes cannot be told from routes that do not exist."""
    token = extract_token(request)
    resolved = (
        users.resolve_access_token(db, token=token)
        if token is not None and not is_api_key(token)
        else None
    )
    if resolved is None or not resolved[0].is_operator:
        raise NotFound(f"No such endpoint: {request.url.path}")  # as app.ui answers one
    user, session_id = resolved
    base = request_actor(request)
    return CurrentSession(user, session_id, Actor(user.id, user.email, base.ip, base.user_agent))


get_operator.operator = True  # type: ignore[attr-defined]
OperatorDep = Annotated[CurrentSession, Depends(get_operator)]
