"""Jurisdiction profiles an administrator keeps (reality checks, session limits, the least
time between hands, features off), the profile a launch names, and a launched player's
play session under it.

Revision ID: s0017j
Revises: s0016w
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0017j"
down_revision: str | None = "s0016w"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``server_jurisdictions`` and ``server_play_sessions``; add the latest
    launch's ``jurisdiction`` to ``server_operator_players``."""
    op.create_table(
        "server_jurisdictions",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("reality_check_interval", sa.Float(), nullable=True),
        sa.Column("session_limit", sa.Float(), nullable=True),
        sa.Column("min_hand_interval", sa.Float(), nullable=True),
        sa.Column("features_off", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_jurisdictions"),
    )
    op.create_table(
        "server_play_sessions",
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("jurisdiction_id", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("checked_at", sa.Float(), nullable=False),
        sa.Column("ended_at", sa.Float(), nullable=True),
        sa.Column("last_bet_at", sa.Float(), nullable=True),
        sa.Column("last_bet_hand", sa.String(200), nullable=True),
        sa.Column("ledger_seq", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name="pk_server_play_sessions"),
    )
    with op.batch_alter_table("server_operator_players") as batch:
        batch.add_column(sa.Column("jurisdiction", sa.String(16), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("server_operator_players") as batch:
        batch.drop_column("jurisdiction")
    op.drop_table("server_play_sessions")
    op.drop_table("server_jurisdictions")
