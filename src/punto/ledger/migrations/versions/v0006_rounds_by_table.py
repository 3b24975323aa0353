"""A table's rounds indexed by the time they opened.

A process that starts a table looks at the table's latest rounds for those whose hand
record its crashed predecessor did not save (the ledger had settled or the restart closed
them): a few rows read from the newest end of this index, however many rounds the table
has played.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The index by table and opening time."""
    op.create_index(
        "ix_ledger_rounds_table_id_created_at", "ledger_rounds", ["table_id", "created_at"]
    )


def downgrade() -> None:
    """No index by table."""
    op.drop_index("ix_ledger_rounds_table_id_created_at", table_name="ledger_rounds")
