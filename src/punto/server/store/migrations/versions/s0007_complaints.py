"""Players' complaints about hands [L] and their resolutions.

Revision ID: s0007
Revises: s0006
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0007"
down_revision: str | None = "s0006"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``server_complaints``."""
    op.create_table(
        "server_complaints",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("dealer", sa.String(64), nullable=False),
        sa.Column("hand_at", sa.Float(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("filed_at", sa.Float(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("resolved_by", sa.String(64), nullable=True),
        sa.Column("resolved_at", sa.Float(), nullable=True),
        sa.Column("resolution", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_server_complaints"),
    )
    op.create_index("ix_server_complaints_player_id", "server_complaints", ["player_id"])
    op.create_index("ix_server_complaints_game", "server_complaints", ["game"])
    op.create_index("ix_server_complaints_state", "server_complaints", ["state"])


def downgrade() -> None:
    """Drop it."""
    op.drop_table("server_complaints")
