"""Names compared byte by byte on PostgreSQL: ``COLLATE "C"``.

The ledger finds and orders its rows by names: account codes, transaction ids and
idempotency keys, round and player ids. Under a database's language collation (the
default of ``initdb``: ``en_US.UTF-8``, ``C.UTF-8`` …) every comparison of those columns
— each look-up, each insert into their indexes, each sort — goes through the locale's
rules. They are identifiers, not words: byte order is their order (the order Python sorts
them in, as the ledger locks accounts), and it compares with ``memcmp``, so a
settlement's copy of its entries is faster. SQLite compares strings byte by byte already:
nothing changes there.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

from punto.ledger.migrate import collate

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None

COLUMNS: dict[str, tuple[tuple[str, int], ...]] = {
    "ledger_accounts": (("code", 255),),
    "ledger_transactions": (
        ("id", 36),
        ("idempotency_key", 255),
        ("round_id", 200),
        ("player_id", 200),
        ("reference_id", 36),
    ),
    "ledger_entries": (("transaction_id", 36), ("account_code", 255)),
    "ledger_rounds": (("id", 200),),
    "ledger_round_bets": (
        ("round_id", 200),
        ("player_id", 200),
        ("transaction_id", 36),
        ("funding", 255),
    ),
}
"""Each table's name columns and their lengths."""


def upgrade() -> None:
    """The name columns in byte order (PostgreSQL)."""
    collate(COLUMNS, "C")


def downgrade() -> None:
    """Back to the database's own collation (PostgreSQL)."""
    collate(COLUMNS, None)
