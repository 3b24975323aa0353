"""How far the ledger was looked at for wallet calls it owes and no outbox row holds.

Every seamless process writes down the calls the ledger owes players that the process
which owed them never wrote (it stopped between the ledger's commit and the outbox's row).
It looks at the ledger's transactions in order; this one row says up to which sequence
number they were looked at, so a start looks at the new ones only, not the whole ledger.

Revision ID: s0014
Revises: s0013
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0014"
down_revision: str | None = "s0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``server_outbox_sweep``."""
    op.create_table(
        "server_outbox_sweep",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ledger_seq", sa.BigInteger(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_outbox_sweep"),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("server_outbox_sweep")
