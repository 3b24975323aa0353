"""The table server: users, tables, leases, shoes, hands, amendments, presence, outbox.

Revision ID: s0001
Revises:
Create Date: 2025-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _created() -> sa.Column[object]:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    """Create the server tables."""
    op.create_table(
        "server_users",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("display_name", sa.String(100), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        _created(),
        sa.PrimaryKeyConstraint("id", name="pk_server_users"),
    )
    op.create_table(
        "server_tables",
        sa.Column("id", sa.String(40), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("rules", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("dealing", sa.String(8), nullable=False),
        sa.Column("reading", sa.String(32), nullable=True),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("betting_seconds", sa.Float(), nullable=False),
        sa.Column("vip_min_balance", sa.BigInteger(), nullable=False),
        sa.Column("limits", sa.Text(), nullable=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("last_shoe", sa.Integer(), server_default="0", nullable=False),
        _created(),
        sa.PrimaryKeyConstraint("id", name="pk_server_tables"),
    )
    op.create_table(
        "server_table_leases",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_server_table_leases"),
    )
    op.create_table(
        "server_shoes",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("shoe", sa.Integer(), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=True),
        sa.Column("opened_at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("hands", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("reveal_order", sa.Text(), nullable=True),
        sa.Column("reveal_salt", sa.String(128), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "shoe", name="pk_server_shoes"),
    )
    op.create_table(
        "server_hands",
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("shoe", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game", name="pk_server_hands"),
    )
    op.create_index("ix_server_hands_table_id", "server_hands", ["table_id"])
    op.create_table(
        "server_hand_players",
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("game", "player_id", name="pk_server_hand_players"),
    )
    op.create_index("ix_server_hand_players_player_id", "server_hand_players", ["player_id"])
    op.create_table(
        "server_amendments",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("corrections", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_amendments"),
    )
    op.create_index("ix_server_amendments_game", "server_amendments", ["game"])
    op.create_table(
        "server_presence",
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("player_id", name="pk_server_presence"),
    )
    op.create_index("ix_server_presence_table_id", "server_presence", ["table_id"])
    op.create_table(
        "server_wallet_outbox",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.String(200), nullable=False),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("round_id", sa.String(200), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("done", sa.Boolean(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_wallet_outbox"),
        sa.UniqueConstraint("transaction_id", name="uq_server_wallet_outbox_transaction_id"),
    )


def downgrade() -> None:
    """Drop the server tables."""
    for table in (
        "server_wallet_outbox",
        "server_presence",
        "server_amendments",
        "server_hand_players",
        "server_hands",
        "server_shoes",
        "server_table_leases",
        "server_tables",
        "server_users",
    ):
        op.drop_table(table)
