"""Operators as tenants: the operators, their launched players, launch tokens and the
signed calls seen lately (to refuse a replay).

Revision ID: s0015
Revises: s0014
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0015"
down_revision: str | None = "s0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "server_operators",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("currencies", sa.Text(), nullable=False),
        sa.Column("languages", sa.Text(), nullable=False),
        sa.Column("origins", sa.Text(), nullable=False),
        sa.Column("wallet_url", sa.String(500), nullable=True),
        sa.Column("dialect", sa.String(16), nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("secret_version", sa.Integer(), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_operators"),
    )
    op.create_table(
        "server_operator_players",
        sa.Column("operator_id", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(47), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("operator_id", "player_id", name="pk_server_operator_players"),
        sa.UniqueConstraint("user_id", name="uq_server_operator_players_user_id"),
    )
    op.create_table(
        "server_launch_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("operator_id", sa.String(16), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.Column("details", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("token_hash", name="pk_server_launch_tokens"),
    )
    op.create_index("ix_server_launch_tokens_expires_at", "server_launch_tokens", ["expires_at"])
    op.create_table(
        "server_operator_requests",
        sa.Column("operator_id", sa.String(16), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("operator_id", "digest", name="pk_server_operator_requests"),
    )
    op.create_index("ix_server_operator_requests_seen_at", "server_operator_requests", ["seen_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_server_operator_requests_seen_at", "server_operator_requests")
    op.drop_table("server_operator_requests")
    op.drop_index("ix_server_launch_tokens_expires_at", "server_launch_tokens")
    op.drop_table("server_launch_tokens")
    op.drop_table("server_operator_players")
    op.drop_table("server_operators")
