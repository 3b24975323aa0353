"""A table's live video: the stream URL (an HLS playlist) the table page plays.

Revision ID: s0008
Revises: s0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0008"
down_revision: str | None = "s0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_tables.stream_url``."""
    with op.batch_alter_table("server_tables") as batch:
        batch.add_column(sa.Column("stream_url", sa.String(500), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("server_tables") as batch:
        batch.drop_column("stream_url")
