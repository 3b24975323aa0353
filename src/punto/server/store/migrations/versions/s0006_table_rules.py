"""Table rules as data: overrides and versions, each shoe's rules version and audit, and
supervisors' alarms.

Revision ID: s0006
Revises: s0005
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "s0006"
down_revision: str | None = "s0005"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Add the rules columns, the rules versions and the alarms."""
    with op.batch_alter_table("server_tables") as batch:
        batch.add_column(sa.Column("overrides", sa.Text(), nullable=True))
        batch.add_column(
            sa.Column("rules_version", sa.Integer(), server_default="1", nullable=False)
        )
    with op.batch_alter_table("server_shoes") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("verified", sa.Boolean(), nullable=True))
    op.create_table(
        "server_table_rules",
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(64), nullable=False),
        sa.Column("overrides", sa.Text(), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "version", name="pk_server_table_rules"),
    )
    op.create_table(
        "server_alarms",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("shoe", sa.Integer(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_server_alarms"),
    )
    op.create_index("ix_server_alarms_table_id", "server_alarms", ["table_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_server_alarms_table_id", table_name="server_alarms")
    op.drop_table("server_alarms")
    op.drop_table("server_table_rules")
    with op.batch_alter_table("server_shoes") as batch:
        batch.drop_column("verified")
        batch.drop_column("rules_version")
    with op.batch_alter_table("server_tables") as batch:
        batch.drop_column("rules_version")
        batch.drop_column("overrides")
