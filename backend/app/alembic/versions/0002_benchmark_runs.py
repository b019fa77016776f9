"""benchmark runs

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 08:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "benchmark_runs",
        sa.Column("id", sa.UUID(), nullable=False),
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("run_id", sa.String(length=200), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("valid", sa.Boolean(), nullable=False),
        sa.Column("scenario_ids", postgresql.ARRAY(sa.String(length=64)), nullable=False),
        sa.Column("systems", postgresql.ARRAY(sa.String(length=64)), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("command", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("environment", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("overview", postgresql.JSON(astext_type=sa.Text()), nullable=False),
        sa.Column("document", postgresql.JSON(astext_type=sa.Text()), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("uploaded_by", sa.UUID(), nullable=True),
        sa.Column(
            "uploaded_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["uploaded_by"],
            ["users.id"],
            name=op.f("fk_benchmark_runs_uploaded_by_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_benchmark_runs_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_benchmark_runs")),
        sa.UniqueConstraint("workspace_id", "run_id", name="uq_benchmark_runs_workspace_id_run_id"),
    )
    op.create_index(
        "ix_benchmark_runs_workspace_id_started_at",
        "benchmark_runs",
        ["workspace_id", "started_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_benchmark_runs_workspace_id_started_at", table_name="benchmark_runs")
    op.drop_table("benchmark_runs")
