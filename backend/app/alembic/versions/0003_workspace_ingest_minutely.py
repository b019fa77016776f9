"""points accepted by the gateway per workspace and minute

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 00:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "workspace_ingest_minutely",
        sa.Column("workspace_id", sa.UUID(), nullable=False),
        sa.Column("minute", sa.DateTime(timezone=True), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_workspace_ingest_minutely_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "workspace_id", "minute", name=op.f("pk_workspace_ingest_minutely")
        ),
    )


def downgrade() -> None:
    op.drop_table("workspace_ingest_minutely")
