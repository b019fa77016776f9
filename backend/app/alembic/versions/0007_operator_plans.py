"""plans, platform operators, workspace suspension, member and dashboard limits

Every existing workspace moves to the new default plan. Limits above its bounds (owners could
raise their own until now) are brought within them, and each such change is written to the
workspace's audit log.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29 00:00:00.000000
"""

import json
import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The default plan as this revision creates it (operators change it afterwards); its bounds of
# the limits that existed before are the limits every workspace got until now.
DEFAULT_PLAN = {
    "ingest_points_per_second": 100_000,
    "ingest_burst": 200_000,
    "max_body_bytes": 16 * 1024 * 1024,
    "active_series": 500_000,
    "query_timeout_seconds": 30,
    "max_points_per_query": 1_000_000,
    "concurrent_queries": 4,
    "retention_days": 30,
    "max_monitors": 100,
    "min_monitor_interval_seconds": 10,
    "max_notifications_per_hour": 200,
    "max_members": 50,
    "max_dashboards": 200,
}
# Workspace limits that existed before this revision, each at most its plan's value...
CAPPED = (
    "ingest_points_per_second",
    "ingest_burst",
    "max_body_bytes",
    "active_series",
    "query_timeout_seconds",
    "max_points_per_query",
    "retention_days",
    "concurrent_queries",
    "max_monitors",
    "max_notifications_per_hour",
)
# ... or at least it.
FLOORED = ("min_monitor_interval_seconds",)


def _timestamp(name: str) -> sa.Column[object]:
    return sa.Column(
        name, sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "plans",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("description", sa.String(length=500), nullable=True),
        sa.Column("is_default", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("ingest_points_per_second", sa.Integer(), nullable=False),
        sa.Column("ingest_burst", sa.Integer(), nullable=False),
        sa.Column("max_body_bytes", sa.Integer(), nullable=False),
        sa.Column("active_series", sa.Integer(), nullable=False),
        sa.Column("query_timeout_seconds", sa.Integer(), nullable=False),
        sa.Column("max_points_per_query", sa.BigInteger(), nullable=False),
        sa.Column("concurrent_queries", sa.Integer(), nullable=False),
        sa.Column("retention_days", sa.Integer(), nullable=False),
        sa.Column("max_monitors", sa.Integer(), nullable=False),
        sa.Column("min_monitor_interval_seconds", sa.Integer(), nullable=False),
        sa.Column("max_notifications_per_hour", sa.Integer(), nullable=False),
        sa.Column("max_members", sa.Integer(), nullable=False),
        sa.Column("max_dashboards", sa.Integer(), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        sa.CheckConstraint(
            "ingest_points_per_second > 0 AND ingest_burst > 0 AND max_body_bytes > 0 "
            "AND active_series > 0 AND query_timeout_seconds > 0 AND max_points_per_query > 0 "
            "AND concurrent_queries > 0 AND retention_days > 0 AND max_monitors >= 0 "
            "AND min_monitor_interval_seconds > 0 AND max_notifications_per_hour >= 0 "
            "AND max_members > 0 AND max_dashboards > 0",
            name=op.f("ck_plans_positive"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_plans")),
    )
    op.create_index("uq_plans_name_lower", "plans", [sa.text("lower(name)")], unique=True)
    op.create_index(
        "uq_plans_is_default",
        "plans",
        ["is_default"],
        unique=True,
        postgresql_where=sa.text("is_default"),
    )
    plan_id = uuid.uuid4()
    plans = sa.table(
        "plans",
        sa.column("id", sa.UUID()),
        sa.column("name", sa.String()),
        sa.column("description", sa.String()),
        sa.column("is_default", sa.Boolean()),
        *(sa.column(k, sa.BigInteger()) for k in DEFAULT_PLAN),
    )
    op.execute(
        plans.insert().values(
            id=plan_id,
            name="Default",
            description="Every new workspace starts on this plan.",
            is_default=True,
            **DEFAULT_PLAN,
        )
    )

    op.add_column("workspaces", sa.Column("plan_id", sa.UUID(), nullable=True))
    op.add_column(
        "workspaces", sa.Column("suspended_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("workspaces", sa.Column("suspended_reason", sa.String(length=500), nullable=True))
    op.execute(sa.text("UPDATE workspaces SET plan_id = :p").bindparams(p=plan_id))
    op.alter_column("workspaces", "plan_id", nullable=False)
    op.create_foreign_key(
        op.f("fk_workspaces_plan_id_plans"),
        "workspaces",
        "plans",
        ["plan_id"],
        ["id"],
        ondelete="RESTRICT",
    )
    op.create_index(op.f("ix_workspaces_plan_id"), "workspaces", ["plan_id"], unique=False)

    op.add_column(
        "users", sa.Column("is_operator", sa.Boolean(), server_default="false", nullable=False)
    )

    for name in ("max_members", "max_dashboards"):
        op.add_column("workspace_limits", sa.Column(name, sa.Integer(), nullable=True))
        op.execute(sa.text(f"UPDATE workspace_limits SET {name} = {DEFAULT_PLAN[name]}"))
        op.alter_column("workspace_limits", name, nullable=False)
    op.create_check_constraint(
        op.f("ck_workspace_limits_counts_positive"),
        "workspace_limits",
        "max_members > 0 AND max_dashboards > 0",
    )
    _cap_limits()

    op.create_table(
        "operator_audit_log",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("actor_user_id", sa.UUID(), nullable=True),
        sa.Column("actor_email", sa.String(length=320), nullable=True),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("target_type", sa.String(length=32), nullable=True),
        sa.Column("target_id", sa.String(length=64), nullable=True),
        sa.Column("workspace_id", sa.UUID(), nullable=True),
        sa.Column("details", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.Column("user_agent", sa.String(length=400), nullable=True),
        _timestamp("created_at"),
        sa.ForeignKeyConstraint(
            ["actor_user_id"],
            ["users.id"],
            name=op.f("fk_operator_audit_log_actor_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_audit_log")),
    )
    op.create_index(
        "ix_operator_audit_log_created_at", "operator_audit_log", ["created_at"], unique=False
    )


def _cap_limits() -> None:
    """Bring every workspace's limits within the default plan, auditing what changed."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(f"SELECT workspace_id, {', '.join(CAPPED + FLOORED)} FROM workspace_limits")
    ).mappings()
    for row in list(rows):
        diff = {
            k: {"from": row[k], "to": DEFAULT_PLAN[k]} for k in CAPPED if row[k] > DEFAULT_PLAN[k]
        } | {
            k: {"from": row[k], "to": DEFAULT_PLAN[k]} for k in FLOORED if row[k] < DEFAULT_PLAN[k]
        }
        if not diff:
            continue
        sets = ", ".join(f"{k} = :{k}" for k in diff)
        bind.execute(
            sa.text(f"UPDATE workspace_limits SET {sets} WHERE workspace_id = :w"),
            {"w": row["workspace_id"], **{k: DEFAULT_PLAN[k] for k in diff}},
        )
        bind.execute(
            sa.text(
                "INSERT INTO audit_log (id, workspace_id, actor_email, action, target_type, "
                "target_id, details) VALUES (:id, :w, 'vigil-admin migrate', 'limits.update', "
                "'workspace', :t, CAST(:d AS jsonb))"
            ),
            {
                "id": uuid.uuid4(),
                "w": row["workspace_id"],
                "t": str(row["workspace_id"]),
                "d": json.dumps(diff),
            },
        )


def downgrade() -> None:
    op.drop_index("ix_operator_audit_log_created_at", table_name="operator_audit_log")
    op.drop_table("operator_audit_log")
    op.drop_constraint(
        op.f("ck_workspace_limits_counts_positive"), "workspace_limits", type_="check"
    )
    op.drop_column("workspace_limits", "max_dashboards")
    op.drop_column("workspace_limits", "max_members")
    op.drop_column("users", "is_operator")
    op.drop_index(op.f("ix_workspaces_plan_id"), table_name="workspaces")
    op.drop_constraint(op.f("fk_workspaces_plan_id_plans"), "workspaces", type_="foreignkey")
    op.drop_column("workspaces", "suspended_reason")
    op.drop_column("workspaces", "suspended_at")
    op.drop_column("workspaces", "plan_id")
    op.drop_index("uq_plans_is_default", table_name="plans")
    op.drop_index("uq_plans_name_lower", table_name="plans")
    op.drop_table("plans")
