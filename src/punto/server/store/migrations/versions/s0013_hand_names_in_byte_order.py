"""The hands' names compared byte by byte on PostgreSQL: ``COLLATE "C"``.

A settled hand's record is saved with a row per player who bet (thousands at a busy
table), keyed by the game number and the player id, and found again by them. As in the
ledger (its migration 0005), those names are identifiers: under a database's language
collation each comparison of an index insert or look-up goes through the locale's rules;
in byte order it is a ``memcmp``. SQLite compares strings byte by byte already.

Revision ID: s0013
Revises: s0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from punto.ledger.migrate import collate

revision: str = "s0013"
down_revision: str | None = "s0012"
branch_labels: str | None = None
depends_on: str | None = None

COLUMNS: dict[str, tuple[tuple[str, int], ...]] = {
    "server_hands": (("game", 80), ("table_id", 40)),
    "server_hand_players": (("game", 80), ("player_id", 64)),
}
"""Each table's name columns and their lengths."""


def upgrade() -> None:
    """The hands' name columns in byte order (PostgreSQL)."""
    collate(COLUMNS, "C")


def downgrade() -> None:
    """Back to the database's own collation (PostgreSQL)."""
    collate(COLUMNS, None)
