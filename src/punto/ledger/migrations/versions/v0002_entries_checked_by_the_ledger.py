"""Entries without per-row foreign keys: the ledger checks them (bulk settlement).

A settlement of 10,000 bets writes about 7,500 entries in one ``COPY``. Each of the two
foreign keys of ``ledger_entries`` ran one look-up query per row, most of the copy's
time. The ledger
writes an entry only in the database transaction that inserts its transaction, after it
has locked (and, if new, created) every account the entry names, and it deletes neither
transactions nor accounts; ``punto ledger check`` proves afterwards that every entry
belongs to a posted transaction and an existing account.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_FOREIGN_KEYS = (
    ("fk_ledger_entries_transaction_id_ledger_transactions", ["transaction_id"],
     "ledger_transactions", ["id"]),
    ("fk_ledger_entries_account_code_ledger_accounts", ["account_code"],
     "ledger_accounts", ["code"]),
)  # fmt: skip


def upgrade() -> None:
    """Drop the entries' foreign keys."""
    with op.batch_alter_table("ledger_entries") as batch:
        for name, _columns, _table, _refers in _FOREIGN_KEYS:
            batch.drop_constraint(name, type_="foreignkey")


def downgrade() -> None:
    """Put them back."""
    with op.batch_alter_table("ledger_entries") as batch:
        for name, columns, table, refers in _FOREIGN_KEYS:
            batch.create_foreign_key(name, table, columns, refers)
