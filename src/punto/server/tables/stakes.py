"""The stakes each player made on a table's round in play, by confirmation id."""

from __future__ import annotations

import secrets

from punto.errors import UnavailableError
from punto.table import Table

__all__ = ["RoundStakes"]


class RoundStakes:
    """The ledger's confirmation ids of each player's stakes on the round in play: what a
    refund of one player cancels, what a change of tie bets [M12] replaces."""

    def __init__(self, table: Table) -> None:
        self._table = table
        # the ids in the order staked (a dict's keys): a player confirming many times in a
        # round is not looked through once per confirm
        self._ids: dict[str, dict[str, None]] = {}

    def add(self, player: str, confirmation_id: str) -> None:
        """Note a stake ``player`` made (once: a retried one is the same)."""
        self._ids.setdefault(player, {})[confirmation_id] = None

    def of(self, player: str) -> list[str]:
        """The confirmation ids of ``player``'s stakes, in the order staked."""
        return list(self._ids.get(player, {}))

    def forget(self, player: str) -> None:
        """``player``'s stakes are no longer the round's (cancelled or replaced)."""
        self._ids.pop(player, None)

    def clear(self) -> None:
        """A new round: nobody has staked yet."""
        self._ids = {}

    def round(self) -> str:
        """The round in play."""
        game = self._table.game
        if game is None:  # pragma: no cover - verify_confirm needs a hand
            raise UnavailableError("no hand in progress")
        return str(game)

    def new_id(self, player: str, what: str) -> str:
        """A new idempotency key for one stake (a retry of the same call reuses it)."""
        return f"{what}:{self.round()}:{player}:{secrets.token_hex(6)}"
