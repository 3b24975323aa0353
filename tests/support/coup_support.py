"""What every test of a coup's JSON checks it against."""

from __future__ import annotations

COUP_KEYS = [
    "player",
    "banker",
    "player_total",
    "banker_total",
    "winner",
    "natural",
    "player_pair",
    "banker_pair",
    "cards_used",
]
"""The keys of a coup as JSON, in order (docs/cli.md, docs/rules-engine.md)."""
