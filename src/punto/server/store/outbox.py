"""The wallet outbox: every seamless-wallet call written down before it is made, its
attempts and state, and the checks of it against the ledger (calls the ledger owes that
the outbox never wrote down, stakes whose debit it does not show as taken)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, and_, func, literal, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.ledger.model import WALLET_CALL_KINDS, Account, TransactionKind
from punto.ledger.tables import EntryRow, TransactionRow
from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.schema import OutboxRow, OutboxSweepRow

__all__ = [
    "OUTBOX_DONE",
    "OUTBOX_FAILED",
    "OUTBOX_PENDING",
    "OUTBOX_REFUSED",
    "Outbox",
    "OutboxStore",
    "Unwritten",
]

_O = cast(Table, OutboxRow.__table__)
_OS = cast(Table, OutboxSweepRow.__table__)
_LTX = cast(Table, TransactionRow.__table__)
_LEN = cast(Table, EntryRow.__table__)

OUTBOX_PENDING = "pending"
"""A wallet call not answered yet (it is retried)."""
OUTBOX_DONE = "done"
"""The operator took the call."""
OUTBOX_REFUSED = "refused"
"""The operator refused a debit: nothing moved."""
OUTBOX_FAILED = "failed"
"""The operator refused a call Punto owes it (a credit, a rollback): an operator must look."""


@dataclass(frozen=True, slots=True)
class Outbox:
    """A seamless-wallet call written down (:class:`~punto.server.money.outbox.WalletOutbox`)."""

    id: int
    transaction_id: str
    player_id: str
    amount: int
    kind: str
    round_id: str | None
    attempts: int = 0
    state: str = OUTBOX_PENDING
    last_error: str | None = None
    created_at: float = 0.0
    currency: str | None = None
    """The call's ISO 4217 currency (``None``: written before calls named theirs)."""


@dataclass(frozen=True, slots=True)
class Unwritten:
    """A seamless wallet call the ledger owes a player and the outbox never wrote down
    (:meth:`OutboxStore.wallet_calls_unwritten`): ``amount`` > 0 a credit, < 0 a debit."""

    seq: int
    transaction_id: str
    kind: str
    player_id: str
    round_id: str | None
    amount: int
    book: str = ""
    """The ledger book the call's money is in (``""``: the house currency's)."""


def _outbox(row: Any) -> Outbox:
    return Outbox(
        id=row.id,
        transaction_id=row.transaction_id,
        player_id=row.player_id,
        amount=int(row.amount),
        kind=row.kind,
        round_id=row.round_id,
        attempts=row.attempts,
        state=row.state,
        last_error=row.last_error,
        created_at=float(row.created_at),
        currency=row.currency,
    )


def _confirmation_of(stakes: Any) -> Any:
    """The confirmation id of a stake transaction of ``stakes`` (its key is
    ``stake:<confirmation id>``), as a column expression."""
    return func.substr(stakes.c.idempotency_key, len("stake:") + 1)


class OutboxStore(StorePart):
    """The wallet calls written down, and where their sweep of the ledger got to."""

    async def outbox_add(self, items: Sequence[Outbox], *, hold: float) -> None:
        """Write wallet calls down before they are made (idempotent by transaction id);
        the retry loop leaves them alone for ``hold`` seconds (the call is in flight)."""
        now = self._db.clock()
        rows = [
            {
                "transaction_id": i.transaction_id,
                "player_id": i.player_id,
                "amount": i.amount,
                "kind": i.kind,
                "round_id": i.round_id,
                "currency": i.currency,
                "attempts": 0,
                "state": OUTBOX_PENDING,
                "next_attempt_at": now + hold,
                "created_at": now,
                "updated_at": now,
            }
            for i in items
        ]

        async def unit(conn: AsyncConnection) -> None:
            if not rows:
                return
            stmt = dialect_insert(conn, _O).values(rows).on_conflict_do_nothing()
            await conn.execute(stmt)

        await self._db.run(unit)

    async def outbox_due(self, *, now: float, hold: float, limit: int = 100) -> list[Outbox]:
        """Pending wallet calls whose time has come, oldest first; each is put off by
        ``hold`` seconds so that two processes rarely send the same call at once."""

        async def unit(conn: AsyncConnection) -> list[Outbox]:
            rows = await conn.execute(
                select(_O)
                .where(_O.c.state == OUTBOX_PENDING, _O.c.next_attempt_at <= now)
                .order_by(_O.c.id)
                .limit(limit)
            )
            due = [_outbox(r) for r in rows]
            if due:
                await conn.execute(
                    update(_O)
                    .where(_O.c.id.in_([d.id for d in due]))
                    .values(next_attempt_at=now + hold)
                )
            return due

        return await self._db.run(unit)

    async def outbox_items(self, *, states: Iterable[str] | None = None) -> list[Outbox]:
        """Every wallet call written down (of ``states``), oldest first."""

        async def unit(conn: AsyncConnection) -> list[Outbox]:
            query = select(_O).order_by(_O.c.id)
            if states is not None:
                query = query.where(_O.c.state.in_(list(states)))
            return [_outbox(r) for r in await conn.execute(query)]

        return await self._db.run(unit)

    async def stakes_not_debited(self, *, limit: int = 1000) -> list[tuple[str, str, int]]:
        """Stakes the ledger funded from the operator (seamless) whose debit the outbox
        does not show as taken (no row, rolled back, refused or failed): ``(confirmation
        id, player, amount)`` — money in the books the operator never gave."""
        key = _confirmation_of(_LTX)

        async def unit(conn: AsyncConnection) -> list[tuple[str, str, int]]:
            rows = await conn.execute(
                select(key, _LTX.c.player_id, _LEN.c.amount)
                .join(_LEN, _LEN.c.transaction_id == _LTX.c.id)
                .outerjoin(_O, _O.c.transaction_id == key)
                .where(
                    _LTX.c.kind == "stake",
                    _LEN.c.account_code.like("operator:%"),
                    or_(
                        _O.c.id.is_(None),
                        _O.c.kind == "rollback",
                        _O.c.state.in_([OUTBOX_REFUSED, OUTBOX_FAILED]),
                    ),
                )
                .order_by(_LTX.c.seq)
                .limit(limit)
            )
            return [(str(r[0]), str(r[1]), -int(r[2])) for r in rows]

        return await self._db.run(unit)

    async def ledger_last_seq(self) -> int:
        """The sequence number of the ledger's latest transaction (0: none)."""

        async def unit(conn: AsyncConnection) -> int:
            return int((await conn.execute(select(func.max(_LTX.c.seq)))).scalar() or 0)

        return await self._db.run(unit)

    async def outbox_swept(self) -> int:
        """Up to which ledger sequence number the wallet calls owed were written down."""

        async def unit(conn: AsyncConnection) -> int:
            found = (await conn.execute(select(_OS.c.ledger_seq).where(_OS.c.id == 1))).scalar()
            return int(found or 0)

        return await self._db.run(unit)

    async def outbox_swept_to(self, seq: int) -> None:
        """Note that the wallet calls owed up to ledger sequence number ``seq`` are written
        down (it never goes back: several processes note it)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                dialect_insert(conn, _OS).values(id=1, ledger_seq=0).on_conflict_do_nothing()
            )
            await conn.execute(
                update(_OS).where(_OS.c.id == 1, _OS.c.ledger_seq < seq).values(ledger_seq=seq)
            )

        await self._db.run(unit)

    async def wallet_calls_unwritten(
        self, *, after: int = 0, upto: int | None = None, limit: int = 1000
    ) -> list[Unwritten]:
        """Seamless wallet calls the ledger owes players that the outbox never wrote down
        (the process stopped between the ledger's commit and the outbox's row): every
        transaction of :data:`~punto.ledger.model.WALLET_CALL_KINDS` with an entry on the
        operator's account and no outbox row of its id, of sequence numbers in
        (``after``, ``upto``], in their order. A cancel credited under its confirmation's
        name (``cancel:<confirmation id>``, as the server once wrote it) is written down."""
        stake = _LTX.alias("stake")
        legacy = _O.alias("legacy")
        credited_by_confirmation = (
            select(legacy.c.id)
            .select_from(
                stake.join(
                    legacy, legacy.c.transaction_id == literal("cancel:") + _confirmation_of(stake)
                )
            )
            .where(stake.c.id == _LTX.c.reference_id)
            .exists()
        )

        async def unit(conn: AsyncConnection) -> list[Unwritten]:
            query = (
                select(
                    _LTX.c.seq,
                    _LTX.c.id,
                    _LTX.c.kind,
                    _LTX.c.player_id,
                    _LTX.c.round_id,
                    _LEN.c.amount,
                    _LEN.c.account_code,
                )
                .join(
                    _LEN,
                    and_(
                        _LEN.c.transaction_id == _LTX.c.id,
                        _LEN.c.account_code.like("operator:%"),
                    ),
                )
                .outerjoin(_O, _O.c.transaction_id == _LTX.c.id)
                .where(
                    _LTX.c.seq > after,
                    _LTX.c.kind.in_(sorted(k.value for k in WALLET_CALL_KINDS)),
                    _LTX.c.player_id.is_not(None),
                    _LEN.c.amount != 0,
                    _O.c.id.is_(None),
                    or_(_LTX.c.kind != TransactionKind.CANCEL.value, ~credited_by_confirmation),
                )
                .order_by(_LTX.c.seq)
                .limit(limit)
            )
            if upto is not None:
                query = query.where(_LTX.c.seq <= upto)
            return [
                Unwritten(
                    int(r.seq),
                    str(r.id),
                    str(r.kind),
                    str(r.player_id),
                    r.round_id,
                    int(r.amount),
                    Account.parse(str(r.account_code)).currency,
                )
                for r in await conn.execute(query)
            ]

        return await self._db.run(unit)

    async def outbox_item(self, transaction_id: str) -> Outbox | None:
        """The wallet call ``transaction_id``, if written down."""

        async def unit(conn: AsyncConnection) -> Outbox | None:
            row = (
                await conn.execute(select(_O).where(_O.c.transaction_id == transaction_id))
            ).first()
            return None if row is None else _outbox(row)

        return await self._db.run(unit)

    async def outbox_update(
        self,
        transaction_id: str,
        *,
        state: str,
        kind: str | None = None,
        error: str | None = None,
        attempted: bool = True,
        next_attempt_at: float = 0.0,
    ) -> None:
        """Note an attempt's result (or turn a stake into its rollback: ``kind``)."""
        values: dict[str, Any] = {
            "state": state,
            "last_error": error,
            "next_attempt_at": next_attempt_at,
            "updated_at": self._db.clock(),
        }
        if attempted:
            values["attempts"] = _O.c.attempts + 1
        if kind is not None:
            values["kind"] = kind

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                update(_O).where(_O.c.transaction_id == transaction_id).values(**values)
            )

        await self._db.run(unit)
