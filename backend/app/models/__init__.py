"""ORM models, one module per aggregate. Importing this package registers every table."""

from app.models.api_key import ApiKey, KeyScope
from app.models.audit import AuditEvent, OperatorAuditEvent
from app.models.base import Base
from app.models.benchmark import BenchmarkRun
from app.models.channel import Channel, Notification
from app.models.dashboard import Dashboard, DashboardVersion
from app.models.monitor import AlertEvent, Monitor, MonitorGroup
from app.models.plan import Plan
from app.models.recording_rule import RecordingRule
from app.models.saved_query import SavedQuery
from app.models.silence import Silence
from app.models.user import (
    EmailToken,
    LoginAttempt,
    SpentRefreshToken,
    ThrottleCounter,
    User,
    UserSession,
)
from app.models.workspace import (
    Invitation,
    Membership,
    Role,
    Workspace,
    WorkspaceIngestMinutely,
    WorkspaceIngestParked,
    WorkspaceIngestTokens,
    WorkspaceLimits,
    WorkspaceRetentionSweep,
    WorkspaceUsageDaily,
)

__all__ = [
    "AlertEvent",
    "ApiKey",
    "AuditEvent",
    "Base",
    "BenchmarkRun",
    "Channel",
    "Dashboard",
    "DashboardVersion",
    "EmailToken",
    "Invitation",
    "KeyScope",
    "LoginAttempt",
    "Membership",
    "OperatorAuditEvent",
    "Plan",
    "Monitor",
    "MonitorGroup",
    "Notification",
    "RecordingRule",
    "Role",
    "SavedQuery",
    "Silence",
    "SpentRefreshToken",
    "ThrottleCounter",
    "User",
    "UserSession",
    "Workspace",
    "WorkspaceIngestMinutely",
    "WorkspaceIngestParked",
    "WorkspaceIngestTokens",
    "WorkspaceLimits",
    "WorkspaceRetentionSweep",
    "WorkspaceUsageDaily",
]
