"""Corrections and voids of settled hands [O]: the difference moved as new ledger
transactions, the amendment recorded once, the hand's record and the roads amended."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Mapping
from typing import Any

from punto.errors import NotFoundError, PuntoError, UnavailableError
from punto.ledger.model import TransactionKind, settle_players
from punto.ledger.store import LedgerStore, RoundStatus
from punto.outcome import Outcome
from punto.server.fanout.bus import Bus
from punto.server.fanout.protocol import outcome_from_json, outcome_json
from punto.server.fanout.requests import Correct, RefreshRoads
from punto.server.features.backoffice import rules_of_hand
from punto.server.money.bank import Bank
from punto.server.node.mirror import Mirror, Route
from punto.server.store.storage import ServerStore
from punto.server.tables.runner import TableRunner
from punto.server.tables.truth import amend_record
from punto.table.reasons import Reason, Why
from punto.table.records import GameNumber

__all__ = ["Corrections"]

_TURN_WAIT = 5.0
"""How long an amendment waits for a join of one of its players to end."""


class Corrections:
    """Amendments of settled hands, made by the owner of a live table (``runners``; the
    others reached through ``route``) or, for a table nobody owns, here from the ledger.
    Amendments of one hand run one at a time in this process; each player's other
    tables follow the money (``mirror``)."""

    def __init__(
        self,
        *,
        store: ServerStore,
        ledger: LedgerStore,
        bank: Bank,
        bus: Bus,
        runners: Mapping[str, TableRunner],
        route: Route,
        mirror: Mirror,
    ) -> None:
        self._store = store
        self._ledger = ledger
        self._bank = bank
        self._bus = bus
        self._runners = runners
        self._route = route
        self._mirror = mirror
        self._hand_locks: dict[str, tuple[asyncio.Lock, int]] = {}

    async def correct(
        self,
        game: str,
        outcome: Outcome,
        *,
        author: str,
        reason: str,
        correction_id: str | None,
    ) -> dict[str, Any]:
        """Re-settle a settled hand from corrected cards: the difference only, as new
        ledger transactions referencing the originals (nothing is overwritten)."""
        number = _game(game)
        record = await self._store.hand(game)
        if record is None:
            raise NotFoundError(f"no hand {game}")
        correction_id = correction_id or secrets.token_hex(8)
        async with self._hand_lock(game):
            done = await self._corrected(game, correction_id)
            if done is not None:
                return done
        request = Correct(number.table, game, outcome_json(outcome), author, reason, correction_id)
        runner = self._runners.get(number.table)
        if runner is not None:
            return await self.correct_here(runner, request)
        with contextlib.suppress(UnavailableError):
            answer = await self._route(request)
            return {k: answer[k] for k in ("game", "corrections", "transactions")}
        return await self._correct_offline(number, outcome, author, reason, correction_id)

    @contextlib.asynccontextmanager
    async def _hand_lock(self, game: str) -> AsyncIterator[None]:
        """Amendments of one hand, one at a time in this process (the owner of a live
        table makes every correction of it; the ledger and the amendments' unique keys
        keep anything else idempotent)."""
        lock, users = self._hand_locks.get(game, (asyncio.Lock(), 0))
        self._hand_locks[game] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._hand_locks[game]
            if users == 1:
                del self._hand_locks[game]
            else:
                self._hand_locks[game] = (lock, users - 1)

    @contextlib.asynccontextmanager
    async def _players_turns(self, game: str) -> AsyncIterator[None]:
        """Hold the turns of every player of a hand (in one order: no deadlock) while an
        amendment moves their money, so that no join reads a wallet between the ledger's
        move and the table's."""
        async with contextlib.AsyncExitStack() as stack:
            for player in sorted(await self._bank.round_bets(game)):
                await stack.enter_async_context(self._store.turn(player, wait=_TURN_WAIT))
            yield

    async def _corrected(self, game: str, correction_id: str) -> dict[str, Any] | None:
        """The answer of the correction ``correction_id`` if it was made: a retry gets what
        the first call did, nothing more."""
        done = [
            tx
            for tx in await self._ledger.transactions(round_id=game)
            if tx.kind is TransactionKind.CORRECTION
            and tx.idempotency_key.endswith(f":{correction_id}")
        ]
        if not done:
            return None
        return {
            "game": game,
            "corrections": self._bank.moved(done),
            "transactions": [_tx_json(tx) for tx in done],
            "replayed": True,
        }

    async def correct_here(self, runner: TableRunner, request: Correct) -> dict[str, Any]:
        """Make a correction at a table owned here (``runner``), once per correction id."""
        game = request.game
        async with self._hand_lock(game):
            done = await self._corrected(game, request.correction_id)
            if done is not None:
                return done
            async with self._players_turns(game):
                return await self._correct_on(runner, request)

    async def _correct_on(self, runner: TableRunner, request: Correct) -> dict[str, Any]:
        number = _game(request.game)
        outcome = outcome_from_json(request.outcome)
        done = await runner.correct(
            number,
            outcome,
            author=request.author,
            reason=request.reason,
            correction_id=request.correction_id,
        )
        return await self._amended(
            number,
            "correction",
            request.author,
            request.reason,
            outcome,
            done["corrections"],
            done["transactions"],
            key=f"correction:{request.correction_id}",
            table_followed=bool(done["on_table"]),
        )

    async def _correct_offline(
        self,
        number: GameNumber,
        outcome: Outcome,
        author: str,
        reason: str,
        correction_id: str,
    ) -> dict[str, Any]:
        async with self._hand_lock(str(number)):
            done = await self._corrected(str(number), correction_id)
            if done is not None:
                return done
            rules = await rules_of_hand(self._store, str(number), number.table)
            bets = await self._bank.round_bets(str(number))
            nobody = await self._bank.status(str(number)) is None  # the record alone moves
            async with self._players_turns(str(number)):
                moved: Mapping[str, int] = {}
                posted: Any = ()
                if not nobody:
                    moved, posted = await self._bank.correct(
                        str(number),
                        settle_players(rules, outcome, bets),
                        correction_id=correction_id,
                        author=author,
                        reason=reason,
                    )
                return await self._amended(
                    number,
                    "correction",
                    author,
                    reason,
                    outcome,
                    moved,
                    posted,
                    key=f"correction:{correction_id}",
                )

    async def void_hand(self, game: str, *, author: str, reason: str) -> dict[str, Any]:
        """Void a settled hand: every player back to a full refund, as new transactions."""
        number = _game(game)
        if await self._store.hand(game) is None:
            raise NotFoundError(f"no hand {game}")
        async with self._hand_lock(game):
            if await self._bank.status(game) is RoundStatus.VOIDED:
                done = [
                    tx
                    for tx in await self._ledger.transactions(round_id=game)
                    if tx.kind is TransactionKind.VOID
                ]
                return {
                    "game": game,
                    "corrections": self._bank.moved(done),
                    "transactions": [_tx_json(tx) for tx in done],
                    "replayed": True,
                }
            if await self._bank.status(game) is None:  # nobody bet: the record alone
                return await self._amended(number, "void", author, reason, None, {}, (), key="void")
            async with self._players_turns(game):
                moved = await self._bank.void(game, author=author, reason=reason)
                posted = tuple(
                    tx
                    for tx in await self._ledger.transactions(round_id=game)
                    if tx.kind is TransactionKind.VOID
                )
                return await self._amended(
                    number, "void", author, reason, None, moved, posted, key="void"
                )

    async def _amended(
        self,
        number: GameNumber,
        kind: str,
        author: str,
        reason: str,
        outcome: Outcome | None,
        moved: Mapping[str, int],
        posted: Any,
        *,
        key: str,
        table_followed: bool = False,
    ) -> dict[str, Any]:
        """Record an amendment and its effects, once per ``key``: unless the table itself
        re-settled the hand (``table_followed``), the table balances of players still
        seated follow. An amendment already recorded (another process made it) is
        answered as it was, and nothing follows twice."""
        game = str(number)
        amendment, first = await self._store.add_amendment(
            game=game,
            table_id=number.table,
            kind=kind,
            key=key,
            author=author,
            reason=reason,
            outcome=None if outcome is None else outcome_json(outcome),
            corrections=moved,
        )
        answer = {
            "game": game,
            "corrections": dict(moved),
            "transactions": [_tx_json(tx) for tx in posted],
        }
        if not first:
            return {**answer, "corrections": amendment["corrections"], "replayed": True}
        if not table_followed:
            for player, delta in moved.items():
                why = Why(
                    Reason.CORRECTION_OF if kind == "correction" else Reason.VOID_OF, {"game": game}
                )
                await self._mirror.transfer(player, delta, reason=why)
        await self._amend_record(number, amendment, kind, reason, outcome)
        for player in moved:
            wallet = None
            with contextlib.suppress(PuntoError):
                wallet = await self._bank.balance(player)
            await self._bus.publish(
                {
                    "table": number.table,
                    "to": player,
                    "message": {
                        "type": "balance",
                        "table": number.table,
                        "table_balance": None,
                        "wallet_balance": wallet,
                        "game": game,
                        "reason": "corrected",
                        "kind": kind,
                        "amount": moved[player],
                    },
                }
            )
        return answer

    async def _amend_record(
        self,
        number: GameNumber,
        amendment: Mapping[str, Any],
        kind: str,
        reason: str,
        outcome: Outcome | None,
    ) -> None:
        """One truth per hand: the record shows the amended hand (the original kept in
        it), the table's roads are built again from the records, and every open client
        is told to refresh its roads and records (``records`` message)."""
        game = str(number)
        record = await self._store.hand(game)
        if record is None:
            return
        record.setdefault("amendments", []).append(dict(amendment))
        rules = None
        with contextlib.suppress(PuntoError):
            config = await self._store.table(number.table)
            rules = config.settings(betting_seconds=None).rules
        record = amend_record(
            record,
            kind=kind,
            reason=reason,
            outcome=outcome,
            rules=rules,
            moved=await self._bank.amendments(game),
        )
        status = await self._bank.status(game)
        status_text = record.pop("status", "settled")
        await self._store.save_hand(
            game=game,
            table_id=number.table,
            shoe=number.shoe,
            hand=number.hand,
            opened_at=float(record.get("opened_at") or 0.0),
            closed_at=record.get("closed_at"),
            status=status_text if status is None else status.value,
            record=record,
            players=sorted(set(record.get("bets", {})) | set(record.get("results", {}))),
        )
        runner = self._runners.get(number.table)
        if runner is not None:
            await runner.refresh_roads()
        else:
            with contextlib.suppress(UnavailableError):
                await self._route(RefreshRoads(number.table))
        await self._bus.publish(
            {
                "table": number.table,
                "message": {"type": "records", "table": number.table, "game": game, "kind": kind},
            }
        )


def _game(text: str) -> GameNumber:
    try:
        return GameNumber.parse(text)
    except (ValueError, PuntoError):
        raise NotFoundError(f"no hand {text!r}: a game number is TABLE-SHOE-HAND") from None


def _tx_json(tx: Any) -> dict[str, Any]:
    return {
        "id": tx.id,
        "kind": tx.kind.value,
        "round_id": tx.round_id,
        "player": tx.player_id,
        "entries": [{"account": e.account.code, "amount": e.amount} for e in tx.entries],
        "reference": tx.reference,
        "author": tx.author,
        "reason": tx.reason,
    }
