"""The books check: the proof that the ledger's accounts, transactions, entries and
round bets agree (:meth:`~punto.ledger.store.LedgerStore.check`)."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import PuntoError
from punto.ledger import model
from punto.ledger.model import Account, AccountKind, Transaction, TransactionKind
from punto.ledger.records import CheckReport, RoundStatus
from punto.ledger.rows import (
    ACCOUNTS,
    CONFIRMED,
    ENTRIES,
    ROUND_BETS,
    ROUNDS,
    TRANSACTIONS,
    round_info,
    transaction_of,
)

__all__ = ["check_books"]


async def check_books(conn: AsyncConnection) -> CheckReport:
    """Every problem found in the books, with their counts and balances."""
    problems: list[str] = []
    entries_total = int(
        await conn.scalar(select(func.coalesce(func.sum(ENTRIES.c.amount), 0))) or 0
    )
    if entries_total:
        problems.append(f"the accounts sum to {entries_total}, not 0")
    sums = {
        code: int(total)
        for code, total in await conn.execute(
            select(ENTRIES.c.account_code, func.sum(ENTRIES.c.amount)).group_by(
                ENTRIES.c.account_code
            )
        )
    }
    books: dict[str, int] = defaultdict(int)
    for code, total in sums.items():
        books[Account.parse(code).currency] += total
    for currency, total in sorted(books.items()):
        if total and entries_total == 0:
            problems.append(f"the {currency or 'house currency'} accounts sum to {total}, not 0")
    balances: dict[str, int] = {}
    for code, kind, balance in await conn.execute(
        select(ACCOUNTS.c.code, ACCOUNTS.c.kind, ACCOUNTS.c.balance).order_by(ACCOUNTS.c.code)
    ):
        balances[code] = balance
        if sums.get(code, 0) != balance:
            problems.append(
                f"account {code} shows {balance} but its entries sum to {sums.get(code, 0)}"
            )
        if balance < 0 and not AccountKind(kind).may_go_negative:
            problems.append(f"account {code} is negative ({balance})")
    for code in sorted(set(sums) - set(balances)):  # no foreign key: checked here
        problems.append(f"entries name account {code}, which does not exist")
    # Every transaction: balanced, well-formed and unchanged since it was posted.
    tx_rows = (await conn.execute(select(TRANSACTIONS).order_by(TRANSACTIONS.c.seq))).all()
    legs: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for tid, code, amount in await conn.execute(
        select(ENTRIES.c.transaction_id, ENTRIES.c.account_code, ENTRIES.c.amount).order_by(
            ENTRIES.c.transaction_id, ENTRIES.c.account_code
        )
    ):
        legs[tid].append((code, amount))
    posted_ids = {row.id for row in tx_rows}
    for tid in sorted(set(legs) - posted_ids):
        problems.append(f"entries belong to transaction {tid}, which was never posted")
    settled: dict[tuple[str, str], list[Transaction]] = defaultdict(list)
    for row in tx_rows:
        try:
            transaction = transaction_of(
                row, (model.Entry(Account.parse(c), a) for c, a in legs[row.id])
            )
        except PuntoError as exc:
            problems.append(f"transaction {row.id} is malformed: {exc}")
            continue
        if transaction.id != row.id or transaction.fingerprint != row.fingerprint:
            problems.append(f"transaction {row.id} was changed after it was posted")
        if transaction.round_id is not None and transaction.player_id is not None:
            settled[(transaction.round_id, transaction.player_id)].append(transaction)
    # Every confirmed bet: settled, refunded, or still open in a live round.
    rounds = {row.id: round_info(row) for row in await conn.execute(select(ROUNDS))}
    staked: dict[tuple[str, str], int] = defaultdict(int)
    currency_of: dict[tuple[str, str], str] = {}
    for round_id, player, stake, funding in await conn.execute(
        select(
            ROUND_BETS.c.round_id,
            ROUND_BETS.c.player_id,
            ROUND_BETS.c.stake,
            ROUND_BETS.c.funding,
        ).where(ROUND_BETS.c.status == CONFIRMED)
    ):
        staked[(round_id, player)] += stake
        currency_of[(round_id, player)] = Account.parse(funding).currency
    escrow_due: dict[tuple[str, str], int] = defaultdict(int)
    for (round_id, player), stake in sorted(staked.items()):
        status = rounds[round_id].status
        kinds = {t.kind for t in settled[(round_id, player)]}
        closing = [
            t
            for t in settled[(round_id, player)]
            if t.kind in (TransactionKind.SETTLE, TransactionKind.REFUND)
        ]
        if status is RoundStatus.OPEN:
            escrow_due[(round_id, currency_of[(round_id, player)])] += stake
            if closing:
                problems.append(f"round {round_id} is open but {player}'s bets were closed")
        elif len(closing) != 1 or sum(ln.stake for ln in closing[0].lines) != stake:
            problems.append(
                f"{player}'s confirmed bets in {status.value} round {round_id} "
                f"({stake}) are not settled or refunded exactly once"
            )
        elif status is RoundStatus.VOIDED and not (
            TransactionKind.REFUND in kinds or TransactionKind.VOID in kinds
        ):
            problems.append(f"{player}'s bets in voided round {round_id} were not refunded")
    escrows: dict[tuple[str, str], int] = defaultdict(int)
    for code, balance in balances.items():
        account = Account.parse(code)
        if account.kind is AccountKind.ESCROW:
            base = account.key.rpartition(model.CURRENCY_SEPARATOR)
            escrows[(base[0] if base[1] else account.key, account.currency)] = balance
    for key in sorted(set(escrows) | set(escrow_due)):
        info = rounds.get(key[0])
        held, due = escrows.get(key, 0), escrow_due.get(key, 0)
        if info is not None and held != due:
            book = f" in {key[1]}" if key[1] else ""
            problems.append(
                f"escrow of {info.status.value} round {key[0]}{book} holds {held}, "
                f"its open stakes are {due}"
            )
    return CheckReport(
        problems=tuple(problems),
        accounts=len(balances),
        transactions=len(tx_rows),
        entries_total=entries_total,
        open_rounds=sum(1 for r in rounds.values() if r.status is RoundStatus.OPEN),
        balances=balances,
    )
