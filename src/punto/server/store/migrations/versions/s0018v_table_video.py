"""A table's live video as WebRTC and HLS: the WHEP endpoint beside the HLS playlist (the
stream URL of before), and other qualities.

Revision ID: s0018v
Revises: s0017j
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0018v"
down_revision: str | None = "s0017j"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """``server_tables.stream_url`` becomes ``hls_url``; add ``whep_url`` and
    ``video_qualities``."""
    with op.batch_alter_table("server_tables") as batch:
        batch.alter_column("stream_url", new_column_name="hls_url")
        batch.add_column(sa.Column("whep_url", sa.String(500), nullable=True))
        batch.add_column(
            sa.Column("video_qualities", sa.Text(), nullable=False, server_default="[]")
        )


def downgrade() -> None:
    """Back to the one HLS stream URL."""
    with op.batch_alter_table("server_tables") as batch:
        batch.drop_column("video_qualities")
        batch.drop_column("whep_url")
        batch.alter_column("hls_url", new_column_name="stream_url")
