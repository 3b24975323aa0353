"""An operator's wallet key: the PEM private key with which Punto signs the calls to an
operator's hub88 wallet (``X-Hub88-Signature``); the operator keeps its public key.

Revision ID: s0016w
Revises: s0016
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0016w"
down_revision: str | None = "s0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``server_operators.wallet_key``."""
    with op.batch_alter_table("server_operators") as batch:
        batch.add_column(sa.Column("wallet_key", sa.Text(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("server_operators") as batch:
        batch.drop_column("wallet_key")
