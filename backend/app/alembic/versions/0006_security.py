"""security: verified addresses, refresh-token reuse, email links, throttle counters,
session end reasons, one storage tenant per workspace

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28 00:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Accounts made before addresses were verified count as verified when they were made.
    op.add_column(
        "users",
        sa.Column(
            "email_verified_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=True,
        ),
    )
    op.execute("UPDATE users SET email_verified_at = created_at")
    op.alter_column("users", "email_verified_at", nullable=False)

    op.add_column("user_sessions", sa.Column("revoked_reason", sa.String(length=32)))
    op.create_table(
        "spent_refresh_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.UUID(), nullable=False),
        sa.Column(
            "spent_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["user_sessions.id"],
            name=op.f("fk_spent_refresh_tokens_session_id_user_sessions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_spent_refresh_tokens")),
    )
    op.create_index(
        op.f("ix_spent_refresh_tokens_session_id"), "spent_refresh_tokens", ["session_id"]
    )

    op.create_table(
        "email_tokens",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("purpose", sa.String(length=16), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("user_id", sa.UUID(), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.CheckConstraint(
            "purpose IN ('signup', 'password_reset')", name=op.f("ck_email_tokens_purpose")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_email_tokens_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_email_tokens_token_hash")),
    )
    op.create_index(op.f("ix_email_tokens_user_id"), "email_tokens", ["user_id"])

    op.create_table(
        "throttle_counters",
        sa.Column("key", sa.String(length=400), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("window_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_throttle_counters")),
    )

    # the security log of an account reads its events by target
    op.create_index("ix_audit_log_target_id_created_at", "audit_log", ["target_id", "created_at"])
    op.create_index(
        "uq_workspaces_storage_tenant",
        "workspaces",
        [sa.text("left(CAST(id AS TEXT), 18)")],
        unique=True,
    )


def downgrade() -> None:
    op.drop_index("uq_workspaces_storage_tenant", table_name="workspaces")
    op.drop_index("ix_audit_log_target_id_created_at", table_name="audit_log")
    op.drop_table("throttle_counters")
    op.drop_index(op.f("ix_email_tokens_user_id"), table_name="email_tokens")
    op.drop_table("email_tokens")
    op.drop_index(op.f("ix_spent_refresh_tokens_session_id"), table_name="spent_refresh_tokens")
    op.drop_table("spent_refresh_tokens")
    op.drop_column("user_sessions", "revoked_reason")
    op.drop_column("users", "email_verified_at")
