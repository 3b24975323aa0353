"""A round's money: its opening and recorded result, its settlement (one ``SETTLE`` per
player with the round's new status), its void (refunds, or voids of a settlement) and a
supervisor's correction [O].

Every function runs inside the caller's database transaction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, insert, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.bets import Bet
from punto.errors import IdempotencyConflictError, LedgerError, RoundStateError
from punto.ledger import model
from punto.ledger.model import Account, Line, Transaction, TransactionKind
from punto.ledger.posting import ensure_accounts, post_all, post_new
from punto.ledger.records import PlayerBets, RoundInfo, RoundStatus
from punto.ledger.rows import (
    ROUNDS,
    TRANSACTIONS,
    balance_of,
    by_key,
    by_keys,
    find_round,
    load_transactions,
    need_round,
    round_bets,
)
from punto.settlement import Settlement

__all__ = ["correct", "open_round", "record_result", "settle", "void"]

Settlements = (
    Mapping[str, Settlement] | Callable[[Mapping[str, Mapping[Bet, int]]], Mapping[str, Settlement]]
)
"""A round's settlements by player, or a function of its bets by player that gives them."""


async def open_round(
    conn: AsyncConnection, round_id: str, *, table_id: str, result: Mapping[str, Any] | None
) -> RoundInfo:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.open_round`."""
    kept = None if result is None else json.dumps(dict(result), sort_keys=True)
    found = await find_round(conn, round_id)
    if found is None:
        await conn.execute(
            insert(ROUNDS).values(id=round_id, table_id=table_id, status="open", result=kept)
        )
        # its escrow made now, so no confirm has to (a batch of confirms locks the escrow
        # only as it moves it)
        await ensure_accounts(conn, [Account.escrow(round_id)])
        return RoundInfo(
            round_id, table_id, RoundStatus.OPEN, result=None if result is None else dict(result)
        )
    if found.table_id != table_id:
        raise RoundStateError(f"round {round_id} belongs to table {found.table_id}")
    return found


async def record_result(conn: AsyncConnection, round_id: str, result: Mapping[str, Any]) -> None:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.record_result`."""
    kept = json.dumps(dict(result), sort_keys=True)
    found = await need_round(conn, round_id, lock=True)
    if found.status is not RoundStatus.OPEN:
        raise RoundStateError(f"round {round_id} is {found.status.value}")
    await conn.execute(update(ROUNDS).where(ROUNDS.c.id == round_id).values(result=kept))


async def settle(
    conn: AsyncConnection,
    round_id: str,
    settlements: Settlements,
    balances: dict[str, int] | None,
) -> tuple[Transaction, ...]:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.settle_round`."""
    found = await need_round(conn, round_id, lock=True)
    if found.status is RoundStatus.VOIDED:
        raise RoundStateError(f"round {round_id} was voided: it cannot be settled")
    players = await round_bets(conn, round_id)
    results = (
        settlements({p: b.bets for p, b in players.items()})
        if callable(settlements)
        else settlements
    )
    _same_players(round_id, players, results)
    transactions = model.settlements(
        round_id,
        found.table_id,
        ((p, players[p].bets, players[p].funding) for p in sorted(players)),
        results,
    )
    if found.status is RoundStatus.SETTLED:
        replay = []
        posted = await by_keys(conn, [t.idempotency_key for t in transactions])
        for transaction in transactions:
            existing = posted.get(transaction.idempotency_key)
            if existing is None or existing.fingerprint != transaction.fingerprint:
                raise IdempotencyConflictError(
                    f"round {round_id} is already settled with another result; "
                    "a supervisor's correction changes it"
                )
            replay.append(existing)
        return tuple(replay)
    # An open round has no settlement yet: its keys are posted only here, with the
    # round's new status in the same transaction (no look-up of them needed).
    moved = await post_new(conn, transactions) if transactions else {}
    await _close_round(conn, round_id, RoundStatus.SETTLED)
    if balances is not None:
        balances.update(moved)  # every account the settlement moved
    return tuple(transactions)


async def void(
    conn: AsyncConnection, round_id: str, *, author: str, reason: str
) -> tuple[Transaction, ...]:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.void_round`."""
    found = await need_round(conn, round_id, lock=True)
    if found.status is RoundStatus.VOIDED:
        done = await load_transactions(conn, TRANSACTIONS.c.round_id == round_id)
        kinds = (TransactionKind.REFUND, TransactionKind.VOID)
        return tuple(t for t in done if t.kind in kinds)
    players = await round_bets(conn, round_id)
    transactions: list[Transaction] = []
    for player in sorted(players):
        mine = players[player]
        if found.status is RoundStatus.OPEN:
            transactions.append(
                model.refund(
                    round_id, player, mine.bets, payee=mine.funding, author=author, reason=reason
                )
            )
            continue
        original, current = await _effective(conn, round_id, player)
        transactions.append(
            model.correction(
                original,
                current,
                _void_lines(mine.bets),
                correction_id="void",
                table_id=found.table_id,
                author=author,
                reason=reason,
                payee=mine.funding,
                payee_balance=await balance_of(conn, mine.funding.code),
                void=True,
            )
        )
    await post_all(conn, transactions)
    await _close_round(conn, round_id, RoundStatus.VOIDED)
    return tuple(transactions)


async def correct(
    conn: AsyncConnection,
    round_id: str,
    settlements: Mapping[str, Settlement],
    *,
    correction_id: str,
    author: str,
    reason: str,
) -> tuple[Transaction, ...]:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.correct_round` [O]."""
    found = await need_round(conn, round_id, lock=True)
    if found.status is not RoundStatus.SETTLED:
        raise RoundStateError(
            f"round {round_id} is {found.status.value}: only a settled round can be corrected"
        )
    players = await round_bets(conn, round_id)
    _same_players(round_id, players, settlements)
    transactions: list[Transaction] = []
    for player in sorted(players):
        mine = players[player]
        model.check_stakes(player, mine.bets, settlements[player])
        lines = model.lines_of(settlements[player])
        key = f"correct:{round_id}:{player}:{correction_id}"
        existing = await by_key(conn, key)
        if existing is not None:
            if (existing.lines, existing.author, existing.reason) != (lines, author, reason):
                raise IdempotencyConflictError(
                    f"correction {correction_id!r} of round {round_id} was already made differently"
                )
            transactions.append(existing)
            continue
        original, current = await _effective(conn, round_id, player)
        transactions.append(
            model.correction(
                original,
                current,
                lines,
                correction_id=correction_id,
                table_id=found.table_id,
                author=author,
                reason=reason,
                payee=mine.funding,
                payee_balance=await balance_of(conn, mine.funding.code),
            )
        )
    await post_all(conn, transactions)
    return tuple(transactions)


def _now() -> datetime:
    return datetime.now(UTC)


async def _close_round(conn: AsyncConnection, round_id: str, status: RoundStatus) -> None:
    await conn.execute(
        update(ROUNDS).where(ROUNDS.c.id == round_id).values(status=status.value, closed_at=_now())
    )


def _same_players(
    round_id: str, players: Mapping[str, PlayerBets], settlements: Mapping[str, Settlement]
) -> None:
    missing = sorted(set(players) - set(settlements))
    extra = sorted(set(settlements) - set(players))
    if missing or extra:
        raise LedgerError(
            f"settlement of round {round_id} must cover exactly the players with bets; "
            f"missing: {', '.join(missing) or 'none'}, without bets: {', '.join(extra) or 'none'}"
        )


def _void_lines(bets: Mapping[Bet, int]) -> tuple[Line, ...]:
    return tuple(
        Line(bet.value, amount, "void") for bet, amount in sorted(bets.items(), key=_bet_name)
    )


def _bet_name(item: tuple[Bet, int]) -> str:
    return item[0].value


async def _effective(
    conn: AsyncConnection, round_id: str, player_id: str
) -> tuple[Transaction, tuple[Line, ...]]:
    """The player's original settlement and the lines in force (after corrections)."""
    history = await load_transactions(
        conn,
        and_(
            TRANSACTIONS.c.round_id == round_id,
            TRANSACTIONS.c.player_id == player_id,
            TRANSACTIONS.c.kind.in_(
                [TransactionKind.SETTLE.value, TransactionKind.CORRECTION.value]
            ),
        ),
    )
    originals = [t for t in history if t.kind is TransactionKind.SETTLE]
    if not originals:
        raise LedgerError(f"round {round_id} has no settlement for {player_id}")
    return originals[0], history[-1].lines
