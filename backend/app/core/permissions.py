"""The one permission table: which role each workspace action needs.

Roles are ordered owner > admin > editor > viewer; a role may do everything a lower role may.
``app.api.deps.WorkspaceDep`` enforces this table for every ``/workspaces/{workspace_id}/…``
route, and ``tests/api/test_permissions.py`` checks every route against it. API keys act with
what ``app.core.keys`` gives their scope (a service token: its role, but ``PEOPLE_ONLY``).
"""

from __future__ import annotations

import enum

from app.models.workspace import Role

ROLE_RANK: dict[Role, int] = {Role.viewer: 0, Role.editor: 1, Role.admin: 2, Role.owner: 3}


class Permission(enum.StrEnum):
    WORKSPACE_READ = "workspace.read"
    WORKSPACE_UPDATE = "workspace.update"
    WORKSPACE_DELETE = "workspace.delete"
    WORKSPACE_LEAVE = "workspace.leave"
    MEMBERS_READ = "members.read"
    MEMBERS_MANAGE = "members.manage"
    KEYS_MANAGE = "keys.manage"
    LIMITS_READ = "limits.read"
    LIMITS_UPDATE = "limits.update"
    USAGE_READ = "usage.read"
    AUDIT_READ = "audit.read"
    DASHBOARDS_READ = "dashboards.read"
    DASHBOARDS_WRITE = "dashboards.write"
    SAVED_QUERIES_READ = "saved_queries.read"
    SAVED_QUERIES_WRITE = "saved_queries.write"
    BENCHMARKS_READ = "benchmarks.read"
    BENCHMARKS_WRITE = "benchmarks.write"
    QUERY = "query"
    MONITORS_READ = "monitors.read"
    MONITORS_WRITE = "monitors.write"
    SILENCES_WRITE = "silences.write"
    CHANNELS_READ = "channels.read"
    CHANNELS_WRITE = "channels.write"


MIN_ROLE: dict[Permission, Role] = {
    Permission.WORKSPACE_READ: Role.viewer,
    Permission.WORKSPACE_UPDATE: Role.admin,
    Permission.WORKSPACE_DELETE: Role.owner,
    Permission.WORKSPACE_LEAVE: Role.viewer,
    Permission.MEMBERS_READ: Role.viewer,
    Permission.MEMBERS_MANAGE: Role.admin,
    Permission.KEYS_MANAGE: Role.admin,
    Permission.LIMITS_READ: Role.viewer,
    Permission.LIMITS_UPDATE: Role.admin,
    Permission.USAGE_READ: Role.admin,
    Permission.AUDIT_READ: Role.admin,
    Permission.DASHBOARDS_READ: Role.viewer,
    Permission.DASHBOARDS_WRITE: Role.editor,
    Permission.SAVED_QUERIES_READ: Role.viewer,
    Permission.SAVED_QUERIES_WRITE: Role.editor,
    Permission.BENCHMARKS_READ: Role.viewer,
    Permission.BENCHMARKS_WRITE: Role.editor,
    Permission.QUERY: Role.viewer,
    Permission.MONITORS_READ: Role.viewer,
    Permission.MONITORS_WRITE: Role.editor,
    Permission.SILENCES_WRITE: Role.editor,
    Permission.CHANNELS_READ: Role.editor,
    Permission.CHANNELS_WRITE: Role.admin,
}


def allows(role: Role, permission: Permission) -> bool:
    return ROLE_RANK[role] >= ROLE_RANK[MIN_ROLE[permission]]


def outranks_or_equals(role: Role, other: Role) -> bool:
    return ROLE_RANK[role] >= ROLE_RANK[other]
