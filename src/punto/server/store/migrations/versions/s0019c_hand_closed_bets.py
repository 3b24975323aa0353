"""[EZ-C] The side bets a hand closed because the shoe favoured them, beside its record:
the daily report counts them per table without reading the records.

Revision ID: s0019c
Revises: s0018v
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0019c"
down_revision: str | None = "s0018v"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_hands.closed_bets`` (the bets' names, space-separated; empty: none)."""
    with op.batch_alter_table("server_hands") as batch:
        batch.add_column(
            sa.Column("closed_bets", sa.String(400), nullable=False, server_default="")
        )


def downgrade() -> None:
    """Drop ``server_hands.closed_bets``."""
    with op.batch_alter_table("server_hands") as batch:
        batch.drop_column("closed_bets")
