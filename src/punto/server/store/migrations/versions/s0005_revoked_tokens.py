"""Revoked session tokens (logout, renewal) until they would have expired.

Revision ID: s0005
Revises: s0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0005"
down_revision: str | None = "s0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``server_revoked_tokens``."""
    op.create_table(
        "server_revoked_tokens",
        sa.Column("token_id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("token_id", name="pk_server_revoked_tokens"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("server_revoked_tokens")
