"""The wallet outbox is durable: every seamless-wallet call is written down before it is
made and kept until the operator answers (``state``, ``next_attempt_at``).

Revision ID: s0002
Revises: s0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0002"
down_revision: str | None = "s0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Replace ``done`` by ``state`` and add the retry schedule."""
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.add_column(
            sa.Column("state", sa.String(12), server_default="pending", nullable=False)
        )
        batch.add_column(
            sa.Column("next_attempt_at", sa.Float(), server_default="0", nullable=False)
        )
        batch.add_column(sa.Column("created_at", sa.Float(), server_default="0", nullable=False))
        batch.add_column(sa.Column("updated_at", sa.Float(), server_default="0", nullable=False))
    op.execute("UPDATE server_wallet_outbox SET state = 'done' WHERE done")
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.drop_column("done")
    op.create_index("ix_server_wallet_outbox_state", "server_wallet_outbox", ["state"])


def downgrade() -> None:
    """Back to the ``done`` flag."""
    op.drop_index("ix_server_wallet_outbox_state", "server_wallet_outbox")
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.add_column(sa.Column("done", sa.Boolean(), server_default="0", nullable=False))
    op.execute("UPDATE server_wallet_outbox SET done = (state = 'done')")
    with op.batch_alter_table("server_wallet_outbox") as batch:
        batch.drop_column("state")
        batch.drop_column("next_attempt_at")
        batch.drop_column("created_at")
        batch.drop_column("updated_at")
