"""Hand records compressed with LZ4 on PostgreSQL (where the server was built with it).

A busy hand's record is megabytes of JSON (every chip of thousands of players). Stored
with PostgreSQL's default ``pglz`` compression, writing it was a large part of settling
such a hand; with ``lz4`` (PostgreSQL 14 and later) the ``INSERT`` is faster. Records
already stored keep their compression; SQLite has none to set.

Revision ID: s0012
Revises: s0011
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision: str = "s0012"
down_revision: str | None = "s0011"
branch_labels: str | None = None
depends_on: str | None = None

_SET = """
DO $$
BEGIN
    ALTER TABLE server_hands ALTER COLUMN record SET COMPRESSION {method};
EXCEPTION
    WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
        RAISE NOTICE 'server_hands.record keeps the default compression';
END
$$
"""


def upgrade() -> None:
    """``server_hands.record``: LZ4 (PostgreSQL built with it; nothing elsewhere)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_SET.format(method="lz4"))


def downgrade() -> None:
    """Back to the server's default compression."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_SET.format(method="default"))
