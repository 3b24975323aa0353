"""One amendment per hand and key: a void is ``void``, a correction ``correction:<id>``, so
a repeated or concurrent void or correction is recorded once.

Revision ID: s0003
Revises: s0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0003"
down_revision: str | None = "s0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_amendments.key``, unique per game."""
    with op.batch_alter_table("server_amendments") as batch:
        batch.add_column(sa.Column("key", sa.String(120), nullable=True))
        batch.create_unique_constraint("uq_server_amendments_game_key", ["game", "key"])


def downgrade() -> None:
    """Drop the key."""
    with op.batch_alter_table("server_amendments") as batch:
        batch.drop_constraint("uq_server_amendments_game_key", type_="unique")
        batch.drop_column("key")
