"""ORM models, one module per aggregate. Importing this package registers every table."""

from app.models.api_key import ApiKey
from app.models.audit import AuditEvent, OperatorAuditEvent
from app.models.base import Base
from app.models.benchmark import BenchmarkRun
from app.models.dashboard import Dashboard, DashboardVersion
from app.models.plan import Plan
from app.models.saved_query import SavedQuery
from app.models.user import LoginAttempt, User, UserSession
from app.models.workspace import (
    Invitation,
    Membership,
    Role,
    Workspace,
    WorkspaceIngestMinutely,
    WorkspaceLimits,
    WorkspaceUsageDaily,
)

__all__ = [
    "ApiKey",
    "AuditEvent",
    "Base",
    "BenchmarkRun",
    "Dashboard",
    "DashboardVersion",
    "Invitation",
    "LoginAttempt",
    "Membership",
    "OperatorAuditEvent",
    "Plan",
    "Role",
    "SavedQuery",
    "User",
    "UserSession",
    "Workspace",
    "WorkspaceIngestMinutely",
    "WorkspaceLimits",
    "WorkspaceUsageDaily",
]
