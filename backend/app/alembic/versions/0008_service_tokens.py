"""service tokens: API keys with the editor or admin scope, invitations sent by a token

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-01 00:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_constraint(op.f("ck_api_keys_scope"), "api_keys", type_="check")
    op.create_check_constraint(
        op.f("ck_api_keys_scope"), "api_keys", "scope IN ('ingest', 'query', 'editor', 'admin')"
    )
    op.add_column("invitations", sa.Column("invited_by_key_id", sa.UUID(), nullable=True))
    op.create_foreign_key(
        op.f("fk_invitations_invited_by_key_id_api_keys"),
        "invitations",
        "api_keys",
        ["invited_by_key_id"],
        ["id"],
        ondelete="SET NULL",
    )


def downgrade() -> None:
    op.drop_constraint(
        op.f("fk_invitations_invited_by_key_id_api_keys"), "invitations", type_="foreignkey"
    )
    op.drop_column("invitations", "invited_by_key_id")
    # the older schema has no service tokens: they stop existing rather than change meaning
    op.execute("DELETE FROM api_keys WHERE scope IN ('editor', 'admin')")
    op.drop_constraint(op.f("ck_api_keys_scope"), "api_keys", type_="check")
    op.create_check_constraint(
        op.f("ck_api_keys_scope"), "api_keys", "scope IN ('ingest', 'query')"
    )
