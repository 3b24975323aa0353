"""The ledger: accounts, transactions, entries, rounds and their bets.

Revision ID: 0001
Revises:
Create Date: 2025-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create the ledger tables."""
    op.create_table(
        "ledger_accounts",
        sa.Column("code", sa.String(255), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("balance", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("code", name="pk_ledger_accounts"),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("seq", _ID, autoincrement=True, nullable=False),
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("idempotency_key", sa.String(255), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("round_id", sa.String(200), nullable=True),
        sa.Column("player_id", sa.String(200), nullable=True),
        sa.Column("reference_id", sa.String(36), nullable=True),
        sa.Column("author", sa.String(200), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("lines", sa.Text(), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("seq", name="pk_ledger_transactions"),
        sa.UniqueConstraint("id", name="uq_ledger_transactions_id"),
        sa.UniqueConstraint("idempotency_key", name="uq_ledger_transactions_idempotency_key"),
        sa.ForeignKeyConstraint(
            ["reference_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_transactions_reference_id_ledger_transactions",
        ),
    )
    op.create_index("ix_ledger_transactions_round_id", "ledger_transactions", ["round_id"])
    op.create_table(
        "ledger_entries",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.String(36), nullable=False),
        sa.Column("account_code", sa.String(255), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_entries_transaction_id_ledger_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["account_code"],
            ["ledger_accounts.code"],
            name="fk_ledger_entries_account_code_ledger_accounts",
        ),
    )
    op.create_index("ix_ledger_entries_transaction_id", "ledger_entries", ["transaction_id"])
    op.create_index("ix_ledger_entries_account_code", "ledger_entries", ["account_code"])
    op.create_table(
        "ledger_rounds",
        sa.Column("id", sa.String(200), nullable=False),
        sa.Column("table_id", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_rounds"),
    )
    op.create_index("ix_ledger_rounds_status", "ledger_rounds", ["status"])
    op.create_table(
        "ledger_round_bets",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("round_id", sa.String(200), nullable=False),
        sa.Column("player_id", sa.String(200), nullable=False),
        sa.Column("bet", sa.String(32), nullable=False),
        sa.Column("stake", sa.BigInteger(), nullable=False),
        sa.Column("transaction_id", sa.String(36), nullable=False),
        sa.Column("funding", sa.String(255), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_round_bets"),
        sa.ForeignKeyConstraint(
            ["round_id"], ["ledger_rounds.id"], name="fk_ledger_round_bets_round_id_ledger_rounds"
        ),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_round_bets_transaction_id_ledger_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["funding"],
            ["ledger_accounts.code"],
            name="fk_ledger_round_bets_funding_ledger_accounts",
        ),
    )
    op.create_index("ix_ledger_round_bets_round_id", "ledger_round_bets", ["round_id"])
    op.create_index("ix_ledger_round_bets_transaction_id", "ledger_round_bets", ["transaction_id"])


def downgrade() -> None:
    """Drop the ledger tables."""
    for table in (
        "ledger_round_bets",
        "ledger_rounds",
        "ledger_entries",
        "ledger_transactions",
        "ledger_accounts",
    ):
        op.drop_table(table)
