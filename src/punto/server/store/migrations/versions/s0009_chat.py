"""Table chat (kept in the table's record), supervisors' chat mutes, and each player's
lobby favourites and road alerts.

Revision ID: s0009
Revises: s0008
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0009"
down_revision: str | None = "s0008"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``server_chat``, ``server_chat_mutes`` and ``server_lobby_prefs``."""
    op.create_table(
        "server_chat",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("game", sa.String(80), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("author_id", sa.String(64), nullable=False),
        sa.Column("author_name", sa.String(100), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_chat"),
    )
    op.create_index("ix_server_chat_table_id", "server_chat", ["table_id"])
    op.create_index("ix_server_chat_game", "server_chat", ["game"])
    op.create_table(
        "server_chat_mutes",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("muted_by", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "player_id", name="pk_server_chat_mutes"),
    )
    op.create_table(
        "server_lobby_prefs",
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("favourites", sa.Text(), nullable=False),
        sa.Column("alerts", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_server_lobby_prefs"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("server_lobby_prefs")
    op.drop_table("server_chat_mutes")
    op.drop_index("ix_server_chat_game", "server_chat")
    op.drop_index("ix_server_chat_table_id", "server_chat")
    op.drop_table("server_chat")
