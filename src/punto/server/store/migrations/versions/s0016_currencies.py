"""Money in the player's currency: each operator's limit groups, the limit group of each
launched player, and the currency of each wallet call written down.

Revision ID: s0016
Revises: s0015
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0016"
down_revision: str | None = "s0015"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add the three columns."""
    with op.batch_alter_table("server_operators") as batch:
        batch.add_column(sa.Column("limit_groups", sa.Text(), server_default="{}", nullable=False))
    with op.batch_alter_table("server_operator_players") as batch:
        batch.add_column(sa.Column("limit_group", sa.String(32), nullable=True))
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.add_column(sa.Column("currency", sa.String(3), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.drop_column("currency")
    with op.batch_alter_table("server_operator_players") as batch:
        batch.drop_column("limit_group")
    with op.batch_alter_table("server_operators") as batch:
        batch.drop_column("limit_groups")
