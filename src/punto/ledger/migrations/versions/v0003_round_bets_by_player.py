"""A round's bets indexed by round and player, not by round alone.

Each batch of confirms asks how the batch's players funded their earlier bets in the round.
With only the round's index, PostgreSQL read every bet of the round for it and filtered
by player: late in a busy round (10,000 bets) that was about 9,000 rows read and thrown
away per batch, the confirms slowing as the round filled. The index on (round, player)
finds the players' rows alone, and still serves every look-up by round.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """The index by round and player replaces the index by round."""
    op.create_index(
        "ix_ledger_round_bets_round_id_player_id", "ledger_round_bets", ["round_id", "player_id"]
    )
    op.drop_index("ix_ledger_round_bets_round_id", table_name="ledger_round_bets")


def downgrade() -> None:
    """Back to the index by round."""
    op.create_index("ix_ledger_round_bets_round_id", "ledger_round_bets", ["round_id"])
    op.drop_index("ix_ledger_round_bets_round_id_player_id", table_name="ledger_round_bets")
