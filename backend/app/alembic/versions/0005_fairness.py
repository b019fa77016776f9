"""fairness between workspaces: concurrent queries limit, shared ingest tokens, parked
batches, retention sweeps

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28 00:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _workspace_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["workspace_id"],
        ["workspaces.id"],
        name=op.f(f"fk_{table}_workspace_id_workspaces"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    op.add_column(
        "workspace_limits",
        sa.Column("concurrent_queries", sa.Integer(), server_default="4", nullable=False),
    )
    op.create_check_constraint(
        op.f("ck_workspace_limits_concurrent_queries_positive"),
        "workspace_limits",
        "concurrent_queries > 0",
    )
    op.create_table(
        "workspace_ingest_tokens",
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("stamp", sa.DateTime(timezone=True), nullable=False),
        _workspace_fk("workspace_ingest_tokens"),
        sa.PrimaryKeyConstraint("workspace_id", name=op.f("pk_workspace_ingest_tokens")),
    )
    op.create_table(
        "workspace_ingest_parked",
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("batches", sa.BigInteger(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("last_reason", sa.Text(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        _workspace_fk("workspace_ingest_parked"),
        sa.PrimaryKeyConstraint("workspace_id", name=op.f("pk_workspace_ingest_parked")),
    )
    op.create_table(
        "workspace_retention_sweeps",
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("swept_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cutoff", sa.DateTime(timezone=True), nullable=False),
        sa.Column("series", sa.BigInteger(), nullable=False),
        sa.Column("kept_points", sa.BigInteger(), nullable=False),
        _workspace_fk("workspace_retention_sweeps"),
        sa.PrimaryKeyConstraint("workspace_id", name=op.f("pk_workspace_retention_sweeps")),
    )


def downgrade() -> None:
    op.drop_table("workspace_retention_sweeps")
    op.drop_table("workspace_ingest_parked")
    op.drop_table("workspace_ingest_tokens")
    op.drop_constraint(
        op.f("ck_workspace_limits_concurrent_queries_positive"), "workspace_limits", type_="check"
    )
    op.drop_column("workspace_limits", "concurrent_queries")
