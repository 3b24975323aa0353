"""A table's display names per language (``{"zh": "澳门", "zh-Hant": "澳門"}``).

Revision ID: s0011
Revises: s0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0011"
down_revision: str | None = "s0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_tables.names`` (JSON text, ``{}`` for the tables already there)."""
    with op.batch_alter_table("server_tables") as batch:
        batch.add_column(sa.Column("names", sa.Text(), nullable=False, server_default="{}"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("server_tables") as batch:
        batch.drop_column("names")
