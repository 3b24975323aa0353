"""A still image of each table for the lobby's tile (the studio's snapshot of its picture).

Revision ID: s0019w
Revises: s0019c
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0019w"
down_revision: str | None = "s0019c"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_tables.still_url``."""
    with op.batch_alter_table("server_tables") as batch:
        batch.add_column(sa.Column("still_url", sa.String(500), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("server_tables") as batch:
        batch.drop_column("still_url")
