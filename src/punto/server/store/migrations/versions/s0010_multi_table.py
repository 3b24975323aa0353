"""Multi-table play: a player may be at several tables, one presence row per table.

Revision ID: s0010
Revises: s0009
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

revision: str = "s0010"
down_revision: str | None = "s0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """``server_presence``'s key becomes (player, table)."""
    with op.batch_alter_table("server_presence") as batch:
        batch.drop_constraint("pk_server_presence", type_="primary")
        batch.create_primary_key("pk_server_presence", ["player_id", "table_id"])


def downgrade() -> None:
    """One table per player again (a player's other tables are forgotten)."""
    op.execute(
        "DELETE FROM server_presence WHERE EXISTS (SELECT 1 FROM server_presence AS o "
        "WHERE o.player_id = server_presence.player_id AND o.table_id < server_presence.table_id)"
    )
    with op.batch_alter_table("server_presence") as batch:
        batch.drop_constraint("pk_server_presence", type_="primary")
        batch.create_primary_key("pk_server_presence", ["player_id"])
