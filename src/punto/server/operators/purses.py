"""The currency each player brings to a table: a launched player's, in their operator's
limit group; a password account's, the house currency (:mod:`punto.table.purses`)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from punto.errors import SeatError
from punto.server.operators.limits import DEFAULT_GROUP
from punto.server.operators.model import minor_units, operator_of
from punto.server.store.operators import OperatorStore
from punto.table.purses import Purse

__all__ = ["Purses"]


class Purses:
    """Each player's purse at a table, from their latest launch."""

    def __init__(self, engine: AsyncEngine, *, currency: str) -> None:
        self._store = OperatorStore(engine)
        self._house = currency

    async def currency(self, user_id: str) -> str | None:
        """The currency of a launched player's latest launch (``None``: not launched)."""
        if operator_of(user_id) is None:
            return None
        player = await self._store.player(user_id)
        return None if player is None else player.currency

    async def purse(self, user_id: str) -> Purse | None:
        """The purse ``user_id`` plays with (``None``: the table's own currency and
        limits); :class:`SeatError` when their currency has no limits here."""
        if operator_of(user_id) is None:
            return None
        player = await self._store.player(user_id)
        if player is None:
            return None
        operator = await self._store.get(player.operator_id)
        groups = {} if operator is None else operator.limit_groups
        name = player.limit_group or DEFAULT_GROUP
        group = groups.get(name)
        currency = player.currency
        book = "" if currency == self._house else currency
        if group is not None and currency in group.currencies:
            return group.purse(currency, digits=minor_units(currency), book=book)
        if not book:
            return None
        raise SeatError(
            f"the tables here have no limits in {currency} for {player.operator_id}'s "
            f"players: its limit group {name!r} names none"
        )
