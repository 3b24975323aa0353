"""Confirms: a group commit of many players' stakes checked against one read of their
rounds, keys, funding and balances and posted together, and the cancel of a confirm.

Every function runs inside the caller's database transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import bindparam, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import InsufficientFundsError, LedgerError, PuntoError, RoundStateError
from punto.ledger import model
from punto.ledger.driver import on_driver
from punto.ledger.model import Account, Transaction
from punto.ledger.posting import hold, post_all, post_new, same_transaction
from punto.ledger.records import ConfirmRequest, Posted, RoundInfo, RoundStatus
from punto.ledger.rows import (
    CANCELLED,
    CHUNK,
    CONFIRMED,
    ROUND_BETS,
    by_key,
    by_keys,
    need_round,
    round_info,
)

__all__ = ["BATCH_PG", "cancel", "confirm_many"]

_NONE = Account.player("-")
"""Stands for a request funded by its player's wallet in the house currency."""


async def confirm_many(
    conn: AsyncConnection,
    requests: Sequence[ConfirmRequest],
    built: Sequence[Transaction | PuntoError],
) -> list[Posted | PuntoError]:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.confirm_many`: each request's
    answer, in order (``built``: its stake transaction or the error that refused it)."""
    results: list[Posted | PuntoError] = [
        t if isinstance(t, PuntoError) else Posted(t) for t in built
    ]
    todo = [(i, t) for i, t in enumerate(built) if isinstance(t, Transaction)]
    round_ids = sorted({requests[i].round_id for i, _ in todo})
    keys = [t.idempotency_key for _, t in todo]
    players = sorted({requests[i].player_id for i, _ in todo})
    # every account the batch moves (the wallets and the rounds' escrows) locked at once,
    # in the order of their codes like any posting
    sources = {requests[i].funding or Account.player(requests[i].player_id) for i, _ in todo}
    escrows = {
        Account.escrow(requests[i].round_id, (requests[i].funding or _NONE).currency)
        for i, _ in todo
    }
    accounts = sources | escrows
    rounds: dict[str, RoundInfo] = {}
    funded: dict[tuple[str, str], str] = {}
    late: frozenset[str] = frozenset()
    if conn.dialect.name == "postgresql":
        held, existing, late = await _batch_pg(
            conn, round_ids, keys, players, sources, escrows, rounds, funded
        )
    else:
        for row in await conn.execute(_ROUNDS_SQLITE.bindparams(ids=round_ids)):
            rounds[row.id] = round_info(row)
        existing = await by_keys(conn, keys)
        for start in range(0, len(players), CHUNK):
            chunk = players[start : start + CHUNK]
            for round_id, player_id, source in await conn.execute(
                _FUNDED_SQLITE.bindparams(rounds=round_ids, players=chunk)
            ):
                funded[(round_id, player_id)] = source
        held = await hold(conn, accounts)
    locked = dict(held)
    accepted: list[tuple[int, Transaction]] = []
    batch: dict[str, Transaction] = {}
    for i, t in todo:
        r = requests[i]
        try:
            before = existing.get(t.idempotency_key) or batch.get(t.idempotency_key)
            if before is not None:
                results[i] = Posted(same_transaction(before, t), replayed=True)
                continue
            info = rounds.get(r.round_id)
            if info is None:
                raise RoundStateError(f"no round {r.round_id!r} in the ledger")
            if info.status is not RoundStatus.OPEN:
                raise RoundStateError(f"round {r.round_id} is {info.status.value}: no more bets")
            source = r.funding or Account.player(r.player_id)
            other = funded.get((r.round_id, r.player_id))
            if other is not None and other != source.code:
                raise LedgerError(
                    f"{r.player_id}'s bets in round {r.round_id} are funded by {other}"
                )
            amount = sum(r.bets.values()) + r.fee  # the stakes and their fee [LB]
            balance = held.get(source.code, 0)
            if balance < amount and not source.kind.may_go_negative:
                raise InsufficientFundsError(
                    f"{source.code} holds {balance}, {amount} needed: nothing was posted"
                )
        except PuntoError as exc:
            results[i] = exc
            continue
        held[source.code] = balance - amount
        funded[(r.round_id, r.player_id)] = source.code
        batch[t.idempotency_key] = t
        accepted.append((i, t))
    if not accepted:
        return results
    bets = [
        (
            requests[i].round_id,
            requests[i].player_id,
            bet.value,
            amount,
            t.id,
            (requests[i].funding or Account.player(requests[i].player_id)).code,
            CONFIRMED,
        )
        for i, t in accepted
        for bet, amount in requests[i].bets.items()
    ]
    balances = await post_new(conn, [t for _, t in accepted], locked=locked, bets=bets, late=late)
    for i, t in accepted:
        results[i] = Posted(
            t, balances={e.account.code: balances[e.account.code] for e in t.entries}
        )
    return results


async def _batch_pg(
    conn: AsyncConnection,
    round_ids: Sequence[str],
    keys: Sequence[str],
    players: Sequence[str],
    sources: Collection[Account],
    escrows: Collection[Account],
    rounds: dict[str, RoundInfo],
    funded: dict[tuple[str, str], str],
) -> tuple[dict[str, int], dict[str, Transaction], frozenset[str]]:
    """What a batch of confirms is checked against on PostgreSQL, in **one** statement
    (:data:`BATCH_PG`): the rounds (share-locked), which keys are posted already, how the
    players funded their earlier bets of the rounds, the balances of the accounts the
    stakes come from (locked) and which of the rounds' escrows exist. Fills ``rounds`` and
    ``funded``; returns the balances, the transactions already posted under the keys and
    the escrows that exist, left unlocked: the statement that posts the batch locks them
    as it credits them (:func:`~punto.ledger.posting.post_new`). Accounts never used
    before (a player's first bet; the escrow of a round opened before escrows were made
    with their rounds) are created and locked after it."""
    held: dict[str, int] = {}
    posted: list[str] = []
    late: set[str] = set()
    rows = await on_driver(
        conn,
        BATCH_PG,
        (
            list(round_ids),
            sorted(set(keys)),
            list(players),
            sorted({a.code for a in sources}),
            sorted({a.code for a in escrows}),
        ),
    )
    for kind, first, second, third, balance in rows:
        if kind == "r":
            rounds[first] = RoundInfo(first, second, RoundStatus(third))
        elif kind == "k":
            posted.append(first)
        elif kind == "f":
            funded[(first, second)] = third
        elif kind == "e":
            late.add(first)
        else:
            held[first] = int(balance)
    # the accounts never used before
    held = await hold(conn, [*sources, *(a for a in escrows if a.code not in late)], locked=held)
    return held, (await by_keys(conn, posted) if posted else {}), frozenset(late)


async def cancel(conn: AsyncConnection, confirmation_id: str, *, reason: str) -> Posted:
    """The unit of :meth:`~punto.ledger.store.LedgerStore.cancel_confirmation`."""
    original = await by_key(conn, f"stake:{confirmation_id}")
    if original is None or original.round_id is None:
        raise LedgerError(f"no confirm {confirmation_id!r} to cancel")
    reversal = model.cancel(original, reason=reason)
    existing = await by_key(conn, reversal.idempotency_key)
    if existing is not None:
        return Posted(same_transaction(existing, reversal), replayed=True)
    found = await need_round(conn, original.round_id, lock=True)
    if found.status is not RoundStatus.OPEN:
        raise RoundStateError(
            f"round {found.id} is {found.status.value}: its bets can no longer be cancelled"
        )
    posted = await post_all(conn, [reversal])
    await conn.execute(
        update(ROUND_BETS)
        .where(ROUND_BETS.c.transaction_id == original.id)
        .values(status=CANCELLED)
    )
    return posted[0]


BATCH_PG = (
    "WITH r AS MATERIALIZED (SELECT r.id, r.table_id, r.status "
    "FROM unnest($1::varchar[]) AS v(id) JOIN ledger_rounds AS r ON r.id = v.id "
    "ORDER BY r.id FOR SHARE OF r), "
    "a AS MATERIALIZED (SELECT a.code, a.balance FROM unnest($4::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code ORDER BY a.code FOR UPDATE OF a) "
    "SELECT 'r', id, table_id, status, NULL::bigint FROM r "
    "UNION ALL "
    "SELECT 'k', idempotency_key, NULL, NULL, NULL FROM ledger_transactions "
    "WHERE idempotency_key IN (SELECT k FROM unnest($2::varchar[]) AS k) "
    "UNION ALL "
    "SELECT 'f', r.id, p.id, f.funding, NULL FROM unnest($1::varchar[]) AS r(id) "
    "CROSS JOIN unnest($3::varchar[]) AS p(id) "
    "CROSS JOIN LATERAL (SELECT b.funding FROM ledger_round_bets AS b "
    "WHERE b.round_id = r.id AND b.player_id = p.id LIMIT 1) AS f "
    "UNION ALL "
    "SELECT 'e', a.code, NULL, NULL, NULL FROM unnest($5::varchar[]) AS v(code) "
    "JOIN ledger_accounts AS a ON a.code = v.code "
    "UNION ALL "
    "SELECT 'a', code, NULL, NULL, balance FROM a"
)
"""What a batch of confirms is checked against, in one round trip (a small batch's cost is
mostly its statements' round trips): ``r`` its rounds, locked; ``k`` its keys posted already;
``f`` how its players funded their earlier bets of its rounds; ``a`` the balances of the
accounts it moves, locked. The parts run in that order (an ``Append`` runs its parts one
after the other; each locking part is a materialized ``WITH``, run when it is first read),
so the rounds are locked before the accounts, as by every posting. A locked row is read as
last committed; the other parts read as the statement began, so a key a writer committed
while the batch waited for a round's lock is found by its unique index when the batch posts
it (the unit then runs again and sees it as a replay). The keys are a join with the array's
elements, never a scan comparing every transaction with every key; the funding is one
look-up of the round-and-player index per player of the batch, as the plain ``round_id =
ANY(…) AND player_id = ANY(…)`` can be planned, while a round's rows are newer than the
table's statistics, as a scan of every bet of the round so far."""
# SQLite's: made once (an ``in_()`` built for each batch cost more than the queries)
_ROUNDS_SQLITE = text("SELECT * FROM ledger_rounds WHERE id IN :ids ORDER BY id").bindparams(
    bindparam("ids", expanding=True)
)
_FUNDED_SQLITE = text(
    "SELECT DISTINCT round_id, player_id, funding FROM ledger_round_bets "
    "WHERE round_id IN :rounds AND player_id IN :players"
).bindparams(bindparam("rounds", expanding=True), bindparam("players", expanding=True))
