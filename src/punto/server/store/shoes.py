"""Shoes: each one's commitment when it opens, its reveal when it closes, and the audit
of the one against the other."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.cards import parse_cards
from punto.server.store.alarms import alarm_insert
from punto.server.store.database import StorePart
from punto.server.store.schema import ShoeRow, TableRow
from punto.shoe import ShoeReveal, verify_commitment

__all__ = ["ShoeStore"]

_S = cast(Table, ShoeRow.__table__)
_TB = cast(Table, TableRow.__table__)


def _audit(commitment: str | None, order: str | None, salt: str | None) -> bool | None:
    """Whether a closed shoe's reveal matches its commitment (``None``: no commitment, a
    live shoe)."""
    if commitment is None:
        return None
    if order is None or salt is None:
        return False
    try:
        return verify_commitment(commitment, ShoeReveal(tuple(parse_cards(order)), salt))
    except ValueError:
        return False


class ShoeStore(StorePart):
    """The tables' shoes."""

    async def shoe_opened(
        self,
        table_id: str,
        shoe: int,
        *,
        cards: int,
        commitment: str | None,
        at: float,
        rules_version: int | None = None,
    ) -> None:
        """Record a shoe's commitment and rules version (and the table's last shoe)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_S).values(
                    table_id=table_id,
                    shoe=shoe,
                    cards=cards,
                    commitment=commitment,
                    opened_at=at,
                    rules_version=rules_version,
                )
            )
            await conn.execute(update(_TB).where(_TB.c.id == table_id).values(last_shoe=shoe))

        await self._db.run(unit)

    async def shoe_closed(
        self,
        table_id: str,
        shoe: int,
        *,
        at: float,
        hands: int,
        reason: str,
        order: str | None,
        salt: str | None,
    ) -> bool | None:
        """Record a shoe's end and reveal, and audit it: the reveal is checked against the
        commitment stored when the shoe opened; a mismatch (or a reveal missing) raises a
        ``shoe_audit`` alarm. Returns the audit (``None``: a live shoe, nothing to check)."""

        async def unit(conn: AsyncConnection) -> bool | None:
            commitment = await conn.scalar(
                select(_S.c.commitment).where(_S.c.table_id == table_id, _S.c.shoe == shoe)
            )
            verified = _audit(commitment, order, salt)
            await conn.execute(
                update(_S)
                .where(_S.c.table_id == table_id, _S.c.shoe == shoe)
                .values(
                    closed_at=at,
                    hands=hands,
                    reason=reason,
                    reveal_order=order,
                    reveal_salt=salt,
                    verified=verified,
                )
            )
            if verified is False:
                detail = {"commitment": commitment, "reveal_present": order is not None}
                await conn.execute(
                    alarm_insert(table_id, kind="shoe_audit", shoe=shoe, at=at, detail=detail)
                )
            return verified

        return await self._db.run(unit)

    async def shoes(self, table_id: str, *, limit: int = 10) -> list[dict[str, Any]]:
        """The table's latest shoes, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_S).where(_S.c.table_id == table_id).order_by(_S.c.shoe.desc()).limit(limit)
            )
            return [dict(r._mapping) for r in rows]

        return await self._db.run(unit)

    async def shoe(self, table_id: str, shoe: int) -> dict[str, Any] | None:
        """One shoe's row (commitment, reveal, audit, rules version)."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (
                await conn.execute(select(_S).where(_S.c.table_id == table_id, _S.c.shoe == shoe))
            ).first()
            return None if row is None else dict(row._mapping)

        return await self._db.run(unit)
