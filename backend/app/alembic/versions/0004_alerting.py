"""alerting: monitors, channels, silences, recording rules

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28 00:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "monitors",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), server_default="", nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("interval_seconds", sa.Integer(), nullable=False),
        sa.Column("window_seconds", sa.Integer(), nullable=False),
        sa.Column("reducer", sa.String(length=8), nullable=False),
        sa.Column("conditions", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("change", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("for_seconds", sa.Integer(), server_default="0", nullable=False),
        sa.Column("group_grace_seconds", sa.Integer(), nullable=False),
        sa.Column("new_group_delay_seconds", sa.Integer(), server_default="0", nullable=False),
        sa.Column("no_data", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("routes", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("renotify_minutes", sa.Integer(), nullable=True),
        sa.Column("notify_resolved", sa.Boolean(), server_default="true", nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("runbook_url", sa.Text(), nullable=True),
        sa.Column("enabled", sa.Boolean(), server_default="true", nullable=False),
        sa.Column("created_by", sa.UUID(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("next_eval_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_eval_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_eval_ms", sa.Float(), nullable=True),
        sa.Column("last_lag_ms", sa.Float(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("last_data_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("language IN ('dql', 'promql')", name=op.f("ck_monitors_language")),
        sa.CheckConstraint(
            "interval_seconds > 0 AND window_seconds > 0", name=op.f("ck_monitors_positive")
        ),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name=op.f("fk_monitors_created_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_monitors_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_monitors")),
    )
    op.create_index(
        "ix_monitors_due", "monitors", ["next_eval_at"], unique=False, postgresql_where="enabled"
    )
    op.create_index(op.f("ix_monitors_workspace_id"), "monitors", ["workspace_id"], unique=False)
    op.create_table(
        "notification_channels",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=False),
        sa.Column("config", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("secret_sealed", sa.Text(), nullable=True),
        sa.Column("enabled", sa.Boolean(), server_default="true", nullable=False),
        sa.Column("created_by", sa.UUID(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "type IN ('webhook', 'email')", name=op.f("ck_notification_channels_type")
        ),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name=op.f("fk_notification_channels_created_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_notification_channels_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_channels")),
    )
    op.create_index(
        op.f("ix_notification_channels_workspace_id"),
        "notification_channels",
        ["workspace_id"],
        unique=False,
    )
    op.create_table(
        "recording_rules",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("interval_seconds", sa.Integer(), nullable=False),
        sa.Column("window_seconds", sa.Integer(), nullable=False),
        sa.Column("measurement", sa.String(length=200), nullable=False),
        sa.Column("field", sa.String(length=200), nullable=True),
        sa.Column("enabled", sa.Boolean(), server_default="true", nullable=False),
        sa.Column("created_by", sa.UUID(), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column(
            "updated_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("next_eval_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_eval_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_eval_ms", sa.Float(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("last_points", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "language IN ('dql', 'promql')", name=op.f("ck_recording_rules_language")
        ),
        sa.CheckConstraint(
            "interval_seconds > 0 AND window_seconds > 0", name=op.f("ck_recording_rules_positive")
        ),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name=op.f("fk_recording_rules_created_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_recording_rules_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recording_rules")),
    )
    op.create_index(
        "ix_recording_rules_due",
        "recording_rules",
        ["next_eval_at"],
        unique=False,
        postgresql_where="enabled",
    )
    op.create_index(
        op.f("ix_recording_rules_workspace_id"), "recording_rules", ["workspace_id"], unique=False
    )
    op.create_table(
        "alert_events",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("monitor_id", sa.UUID(), nullable=True),
        sa.Column("monitor_name", sa.String(length=200), nullable=False),
        sa.Column("group_key", sa.Text(), nullable=False),
        sa.Column("tags", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("from_state", sa.String(length=8), nullable=False),
        sa.Column("to_state", sa.String(length=8), nullable=False),
        sa.Column("severity", sa.String(length=8), nullable=True),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("condition", sa.Text(), server_default="", nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), server_default="", nullable=False),
        sa.Column("message", sa.Text(), server_default="", nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("muted", sa.Boolean(), server_default="false", nullable=False),
        sa.Column("silence_id", sa.UUID(), nullable=True),
        sa.Column(
            "details", postgresql.JSONB(astext_type=sa.Text()), server_default="{}", nullable=False
        ),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "kind IN ('pending', 'firing', 'resolved', 'ok', 'nodata')",
            name=op.f("ck_alert_events_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["monitor_id"],
            ["monitors.id"],
            name=op.f("fk_alert_events_monitor_id_monitors"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_alert_events_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alert_events")),
    )
    op.create_index(
        op.f("ix_alert_events_monitor_id"), "alert_events", ["monitor_id"], unique=False
    )
    op.create_index(
        "ix_alert_events_workspace_at", "alert_events", ["workspace_id", "at"], unique=False
    )
    op.create_table(
        "monitor_groups",
        sa.Column("monitor_id", sa.UUID(), nullable=False),
        sa.Column("group_key", sa.Text(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("tags", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("state", sa.String(length=8), nullable=False),
        sa.Column("severity", sa.String(length=8), nullable=True),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("notified", sa.String(length=8), nullable=True),
        sa.Column("last_notified_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "state IN ('ok', 'pending', 'firing', 'nodata')", name=op.f("ck_monitor_groups_state")
        ),
        sa.ForeignKeyConstraint(
            ["monitor_id"],
            ["monitors.id"],
            name=op.f("fk_monitor_groups_monitor_id_monitors"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_monitor_groups_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("monitor_id", "group_key", name=op.f("pk_monitor_groups")),
    )
    op.create_index(
        "ix_monitor_groups_workspace_state",
        "monitor_groups",
        ["workspace_id", "state"],
        unique=False,
    )
    op.create_table(
        "silences",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("comment", sa.String(length=500), nullable=False),
        sa.Column("monitor_id", sa.UUID(), nullable=True),
        sa.Column("matchers", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("recurrence", postgresql.JSONB(astext_type=sa.Text()), nullable=True),
        sa.Column("created_by", sa.UUID(), nullable=True),
        sa.Column("created_by_email", sa.String(length=320), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name=op.f("fk_silences_created_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["monitor_id"],
            ["monitors.id"],
            name=op.f("fk_silences_monitor_id_monitors"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_silences_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_silences")),
    )
    op.create_index(op.f("ix_silences_workspace_id"), "silences", ["workspace_id"], unique=False)
    op.create_table(
        "notifications",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("channel_id", sa.UUID(), nullable=True),
        sa.Column("channel_name", sa.String(length=200), nullable=False),
        sa.Column("event_id", sa.UUID(), nullable=True),
        sa.Column("monitor_id", sa.UUID(), nullable=True),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("payload", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'sent', 'failed', 'throttled')",
            name=op.f("ck_notifications_status"),
        ),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["notification_channels.id"],
            name=op.f("fk_notifications_channel_id_notification_channels"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["alert_events.id"],
            name=op.f("fk_notifications_event_id_alert_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["monitor_id"],
            ["monitors.id"],
            name=op.f("fk_notifications_monitor_id_monitors"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_notifications_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notifications")),
    )
    op.create_index(
        "ix_notifications_due",
        "notifications",
        ["next_attempt_at"],
        unique=False,
        postgresql_where="status = 'pending'",
    )
    op.create_index(op.f("ix_notifications_event_id"), "notifications", ["event_id"], unique=False)
    op.create_index(
        "ix_notifications_workspace_created",
        "notifications",
        ["workspace_id", "created_at"],
        unique=False,
    )
    op.add_column(
        "workspace_limits",
        sa.Column("max_monitors", sa.Integer(), server_default="100", nullable=False),
    )
    op.add_column(
        "workspace_limits",
        sa.Column(
            "min_monitor_interval_seconds", sa.Integer(), server_default="10", nullable=False
        ),
    )
    op.add_column(
        "workspace_limits",
        sa.Column("max_notifications_per_hour", sa.Integer(), server_default="200", nullable=False),
    )
    op.create_check_constraint(
        op.f("ck_workspace_limits_alerting"),
        "workspace_limits",
        "max_monitors >= 0 AND min_monitor_interval_seconds > 0 AND max_notifications_per_hour >= 0",
    )


def downgrade() -> None:
    op.drop_constraint(op.f("ck_workspace_limits_alerting"), "workspace_limits", type_="check")
    op.drop_column("workspace_limits", "max_notifications_per_hour")
    op.drop_column("workspace_limits", "min_monitor_interval_seconds")
    op.drop_column("workspace_limits", "max_monitors")
    op.drop_index("ix_notifications_workspace_created", table_name="notifications")
    op.drop_index(op.f("ix_notifications_event_id"), table_name="notifications")
    op.drop_index(
        "ix_notifications_due", table_name="notifications", postgresql_where="status = 'pending'"
    )
    op.drop_table("notifications")
    op.drop_index(op.f("ix_silences_workspace_id"), table_name="silences")
    op.drop_table("silences")
    op.drop_index("ix_monitor_groups_workspace_state", table_name="monitor_groups")
    op.drop_table("monitor_groups")
    op.drop_index("ix_alert_events_workspace_at", table_name="alert_events")
    op.drop_index(op.f("ix_alert_events_monitor_id"), table_name="alert_events")
    op.drop_table("alert_events")
    op.drop_index(op.f("ix_recording_rules_workspace_id"), table_name="recording_rules")
    op.drop_index(
        "ix_recording_rules_due", table_name="recording_rules", postgresql_where="enabled"
    )
    op.drop_table("recording_rules")
    op.drop_index(op.f("ix_notification_channels_workspace_id"), table_name="notification_channels")
    op.drop_table("notification_channels")
    op.drop_index(op.f("ix_monitors_workspace_id"), table_name="monitors")
    op.drop_index("ix_monitors_due", table_name="monitors", postgresql_where="enabled")
    op.drop_table("monitors")
