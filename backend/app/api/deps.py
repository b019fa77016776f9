"""Cross-cutting needs as ``Annotated`` dependencies, so a route's signature states what it needs.

``WorkspaceDep(permission)`` is the one place tenancy is enforced for
``/workspaces/{workspace_id}/…``: it resolves the workspace, the caller's membership and role
once, applies the permission table (``app.core.permissions``), and answers 404 to non-members.
The caller is a signed-in member or an API key of that workspace: a query key, or a service
token acting as its role (``app.core.keys``); ``authenticate_key`` is the one place keys are
checked, and it audits every refused use of a service token.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import uuid
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.clients.storage import AsyncStorageClient, StorageClient
from app.core.config import PLACEHOLDER_SECRET, settings
from app.core.db import get_db
from app.core.errors import Forbidden, NotFound, Unauthorized
from app.core.keys import KEY_KINDS, kind_of, looks_like_key, looks_like_service_token
from app.core.network import client_address
from app.core.permissions import MIN_ROLE, Permission, allows
from app.models import ApiKey, KeyScope, Role, User, Workspace
from app.services import api_keys, users, workspaces
from app.services.audit import Actor
from app.services.key_scopes import KeyScopeCache
from app.services.query_queue import QueryQueue

SessionDep = Annotated[Session, Depends(get_db)]

bearer_scheme = HTTPBearer(
    auto_error=False,
    description="A session access token from /api/v1/auth/login; a workspace service token "
    "(vgs_…) on that workspace's routes; or (query endpoints only) a query key (vgq_…).",
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


def get_key_scopes(request: Request) -> KeyScopeCache[Any]:
    cache: KeyScopeCache[Any] = request.app.state.key_scopes
    return cache


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


SESSION_ONLY_AS_BEARER = (
    "Session tokens are accepted only as 'Authorization: Bearer <token>'; "
    "?token= and HTTP Basic are for query keys"
)
TOKEN_ONLY_AS_BEARER = (
    "Service tokens are accepted only as 'Authorization: Bearer <token>'; "
    "?token= and HTTP Basic are for query keys"
)
KEYS_ONLY_ON_QUERY_ENDPOINTS = "API keys are accepted only by the query endpoints; sign in instead"
TOKENS_ONLY_ON_WORKSPACES = (
    "Service tokens act only on their workspace's routes (/api/v1/workspaces/{id}/…): "
    "account, session and operator routes need a signed-in person"
)
INVALID_KEY = "API key is invalid or revoked"


def session_token(credential: Credential) -> str:
    """The session token of a credential that is not an API key: only a bearer one counts,
    so a session never travels in a URL (logs, history, Referer) or as a Basic password."""
    if credential.how != "bearer":
        raise Unauthorized(SESSION_ONLY_AS_BEARER, code="invalid_token")
    return credential.value


def key_actor(request: Request, key: ApiKey) -> Actor:
    """An API key acting (in the audit log: ``key:<its prefix>``), and from where."""
    base = request_actor(request)
    return Actor(None, f"key:{key.key_prefix}", base.ip, base.user_agent, key_id=key.id)


def _refuse(db: Session, request: Request, row: ApiKey, reason: str, **details: str) -> None:
    """Audit a refused use of the service token ``row`` in its workspace."""
    details = {"method": request.method, "path": request.url.path, **details}
    api_keys.record_refusal(db, row, reason=reason, actor=key_actor(request, row), details=details)


def authenticate_key(
    db: Session,
    request: Request,
    credential: Credential,
    permission: Permission,
    workspace_id: uuid.UUID | None = None,
) -> ApiKey:
    """The live API key of ``credential`` if its kind allows ``permission`` in ``workspace_id``
    (any workspace: its own, when None), or 401/403/404. A service token travels only as a
    bearer token, and each of its refused uses is audited in its own workspace."""
    token = credential.value
    service = looks_like_service_token(token)
    # the only keys without a role the backend takes are query keys
    if not service and not KEY_KINDS[KeyScope.query].allows(permission):
        raise Unauthorized(KEYS_ONLY_ON_QUERY_ENDPOINTS)
    if service and credential.how != "bearer":
        found = api_keys.find(db, key=token)
        if found is not None:
            _refuse(db, request, found, "not_bearer", sent_as=credential.how)
        raise Unauthorized(TOKEN_ONLY_AS_BEARER, code="invalid_token")
    key = api_keys.resolve(db, key=token)
    if key is None:
        found = api_keys.find(db, key=token) if service else None
        if found is not None:
            _refuse(db, request, found, "revoked")
        raise Unauthorized(INVALID_KEY, code="invalid_key")
    kind = kind_of(key.scope)
    if workspace_id is not None and key.workspace_id != workspace_id:
        if kind.is_service_token:
            _refuse(db, request, key, "other_workspace", workspace_id=str(workspace_id))
        raise NotFound("Workspace not found")
    if not kind.allows(permission):
        if kind.is_service_token:
            _refuse(db, request, key, "not_allowed", permission=permission.value)
        raise Forbidden(kind.refusal(permission))
    return key


def refuse_key_outside_workspaces(db: Session, request: Request, credential: Credential) -> None:
    """An API key on an account, session or operator route: always refused (a live service
    token with 403, audited)."""
    if looks_like_service_token(credential.value):
        found = api_keys.find(db, key=credential.value)
        if found is not None and found.revoked_at is None:
            _refuse(db, request, found, "not_a_workspace_route")
            raise Forbidden(TOKENS_ONLY_ON_WORKSPACES)
        if found is not None:
            _refuse(db, request, found, "revoked")
        raise Unauthorized(INVALID_KEY, code="invalid_key")
    raise Unauthorized(KEYS_ONLY_ON_QUERY_ENDPOINTS)


def has_internal_token(request: Request) -> bool:
    """``Authorization: Bearer <VIGIL_INTERNAL_TOKEN>``: the stack's own scripts, scrapers and
    tests. Never the placeholder a development machine may run with."""
    credential = request_credential(request)
    if credential is None or credential.how != "bearer":
        return False
    expected = settings.INTERNAL_TOKEN
    return expected != PLACEHOLDER_SECRET and hmac.compare_digest(
        credential.value.encode(), expected.encode()
    )


@dataclass(frozen=True)
class CurrentSession:
    user: User
    session_id: uuid.UUID
    actor: Actor


def get_current_session(request: Request, db: SessionDep, _: BearerDep) -> CurrentSession:
    credential = request_credential(request)
    if credential is None:
        raise Unauthorized("Not authenticated")
    if looks_like_key(credential.value):
        refuse_key_outside_workspaces(db, request, credential)
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
    """The workspace a request acts on and who is acting: a member (user + role), a service
    token (key + the role it acts as), or a query key (key only)."""

    workspace: Workspace
    actor: Actor
    role: Role | None = None
    user: User | None = None
    key: ApiKey | None = None

    @property
    def id(self) -> uuid.UUID:
        return self.workspace.id


def workspace_context(
    db: Session, request: Request, workspace_id: uuid.UUID, permission: Permission
) -> WorkspaceContext:
    """The workspace of the path and who acts on it, or 401/403/404 (see ``WorkspaceDep``)."""
    credential = request_credential(request)
    if credential is None:
        raise Unauthorized("Not authenticated")
    if looks_like_key(credential.value):
        key = authenticate_key(db, request, credential, permission, workspace_id)
        workspace = workspaces.get_active(db, workspace_id=workspace_id)
        if workspace is None:
            raise NotFound("Workspace not found")
        workspaces.ensure_not_suspended(workspace)
        role = kind_of(key.scope).role
        return WorkspaceContext(workspace, key_actor(request, key), role=role, key=key)
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
    base = request_actor(request)
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
    credential = request_credential(request)
    resolved = (
        users.resolve_access_token(db, token=credential.value)
        if credential is not None
        and credential.how == "bearer"
        and not looks_like_key(credential.value)
        else None
    )
    if resolved is None or not resolved[0].is_operator:
        raise NotFound(f"No such endpoint: {request.url.path}")  # as app.ui answers one
    user, session_id = resolved
    base = request_actor(request)
    return CurrentSession(user, session_id, Actor(user.id, user.email, base.ip, base.user_agent))


get_operator.operator = True  # type: ignore[attr-defined]
OperatorDep = Annotated[CurrentSession, Depends(get_operator)]
