"""The kinds of workspace API keys, defined once: each scope's prefix, what it may do, and how
it may travel.

| scope    | prefix | what it may do                                                       |
|----------|--------|----------------------------------------------------------------------|
| `ingest` | `vgi_` | write points through the gateway (nothing on the backend)            |
| `query`  | `vgq_` | run DQL and PromQL (``Permission.QUERY``)                            |
| `editor` | `vgs_` | a *service token*: what an editor may do in its workspace            |
| `admin`  | `vgs_` | a *service token*: what an admin may do, but manage keys and tokens  |

The prefix makes a leaked key recognisable (secret scanners, log redaction). Ingest and query
keys may also come as ``?token=`` or an HTTP Basic password, for agents and Grafana; service
tokens act on the REST API and, like sessions, only as ``Authorization: Bearer``. A service
token acts in its own workspace only, never on account, session or operator routes, and never
on ``PEOPLE_ONLY`` permissions: a token cannot create or revoke keys or tokens (so revoking a
leaked token is enough to shut it out: it cannot have minted a successor, and every key has a
person as its creator), and it is not a member who could leave.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from app.core.permissions import MIN_ROLE, Permission, allows
from app.models.api_key import KeyScope
from app.models.workspace import Role

SERVICE_TOKEN_PREFIX = "vgs_"
# The first characters of a key kept in clear (``api_keys.key_prefix``), to recognise it.
KEY_DISPLAY_CHARS = 12

# What no service token may do, whatever its role.
PEOPLE_ONLY: frozenset[Permission] = frozenset({Permission.KEYS_MANAGE, Permission.WORKSPACE_LEAVE})


@dataclass(frozen=True)
class KeyKind:
    scope: KeyScope
    prefix: str
    description: str
    # a service token acts as this role; ingest and query keys have none
    role: Role | None = None
    # what a key without a role may do on the backend
    permissions: frozenset[Permission] = frozenset()

    @property
    def is_service_token(self) -> bool:
        return self.role is not None

    def allows(self, permission: Permission) -> bool:
        if self.role is None:
            return permission in self.permissions
        return permission not in PEOPLE_ONLY and allows(self.role, permission)

    def refusal(self, permission: Permission) -> str:
        """Why this kind of key may not ``permission`` (for a 403's detail)."""
        if self.role is None:
            return f"This key has the {self.scope} scope; queries need a query key"
        if permission in PEOPLE_ONLY:
            return (
                f"Service tokens cannot do {permission.value}: API keys and tokens are managed "
                "by a signed-in admin or owner, and a token is not a member"
            )
        return (
            f"This token's scope ({self.scope}) does not allow {permission.value}; "
            f"it needs {MIN_ROLE[permission].value} or above"
        )


KEY_KINDS: dict[KeyScope, KeyKind] = {
    KeyScope.ingest: KeyKind(KeyScope.ingest, "vgi_", "writes points through the gateway"),
    KeyScope.query: KeyKind(
        KeyScope.query,
        "vgq_",
        "reads with DQL and PromQL",
        permissions=frozenset({Permission.QUERY}),
    ),
    KeyScope.editor: KeyKind(
        KeyScope.editor,
        SERVICE_TOKEN_PREFIX,
        "a service token for the REST API with an editor's rights: dashboards, saved queries, "
        "monitors, silences, benchmark uploads, queries",
        role=Role.editor,
    ),
    KeyScope.admin: KeyKind(
        KeyScope.admin,
        SERVICE_TOKEN_PREFIX,
        "a service token for the REST API with an admin's rights, except managing keys and tokens",
        role=Role.admin,
    ),
}
KEY_PREFIXES: tuple[str, ...] = tuple(dict.fromkeys(k.prefix for k in KEY_KINDS.values()))
SCOPES_HELP = "; ".join(f"{k.scope.value}: {k.description}" for k in KEY_KINDS.values())


def kind_of(scope: str) -> KeyKind:
    return KEY_KINDS[KeyScope(scope)]


def looks_like_key(text: str) -> bool:
    """Whether ``text`` is shaped like an API key of any kind (not a session token)."""
    return text.startswith(KEY_PREFIXES)


def looks_like_service_token(text: str) -> bool:
    return text.startswith(SERVICE_TOKEN_PREFIX)


def new_key(scope: KeyScope) -> str:
    """The scope's prefix followed by 43 URL-safe characters (256 random bits)."""
    return KEY_KINDS[scope].prefix + secrets.token_urlsafe(32)
