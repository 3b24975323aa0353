"""Per-player turns: joining a table, depositing and withdrawing take a player's turn one
at a time, across processes (``server_player_turns``).

Revision ID: s0004
Revises: s0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0004"
down_revision: str | None = "s0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``server_player_turns``."""
    op.create_table(
        "server_player_turns",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_server_player_turns"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("server_player_turns")
