"""Money for the reports' browser pages: two operators' players in EUR (the house
currency), JPY and USD with bets settled today, written into a running server's ledger."""

from __future__ import annotations

import asyncio
import threading
from fractions import Fraction

import httpx

from punto.bets import Bet
from punto.ledger.model import Account, TransactionKind, transfer
from punto.ledger.store import LedgerStore
from punto.settlement import BetResult, Settlement
from web.web_support import Server

__all__ = ["PLAYERS", "seed_reports"]

PLAYERS = {"north.ann": "", "north.ken": "JPY", "south.bo": "USD", "south.cy": ""}
"""Each player's book ("": the house currency, EUR)."""

_ROUNDS = {
    "rep-1-1-1": {
        "north.ann": (Bet.BANKER, 125_000, Fraction(95, 100), True),
        "north.ken": (Bet.BANKER, 1_250_000, Fraction(95, 100), False),
        "south.bo": (Bet.PLAYER, 80_000, Fraction(1), True),
        "south.cy": (Bet.PLAYER, 42_050, Fraction(1), False),
    },
    "rep-1-1-2": {
        "north.ann": (Bet.PLAYER, 30_000, Fraction(1), False),
        "north.ken": (Bet.PLAYER, 600_000, Fraction(1), True),
        "south.bo": (Bet.BANKER, 55_000, Fraction(95, 100), False),
    },
}


def seed_reports(server: Server) -> None:
    """Register the operators ``north`` (EUR, JPY) and ``south`` (USD, EUR) and settle
    their players' bets of two hands at table ``rep-1`` in the server's ledger."""
    admin = server.headers("admin")
    for operator, currencies in (("north", ["EUR", "JPY"]), ("south", ["USD", "EUR"])):
        made = httpx.post(
            server.url("/api/admin/operators"),
            json={"id": operator, "name": operator.title(), "currencies": currencies},
            headers=admin,
        )
        made.raise_for_status()
    url = f"sqlite:///{server.log.parent / 'punto.sqlite3'}"
    failed: list[BaseException] = []

    def post() -> None:
        try:
            asyncio.run(_post(url))
        except BaseException as exc:  # handed back to the caller's thread
            failed.append(exc)

    # a thread of its own: Playwright's sync API runs an event loop in the caller's
    worker = threading.Thread(target=post)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


async def _post(url: str) -> None:
    ledger = LedgerStore.open(url)
    try:
        for player, book in PLAYERS.items():
            await ledger.post(
                transfer(
                    TransactionKind.DEPOSIT,
                    player,
                    10_000_000,
                    transaction_id=f"rep-dep-{player}",
                    operator_id=player.partition(".")[0],
                    currency=book,
                )
            )
        for round_id, bets in _ROUNDS.items():
            await ledger.open_round(round_id, table_id="rep-1")
            for player, (bet, stake, _odds, _won) in bets.items():
                await ledger.confirm_bets(
                    round_id,
                    player,
                    {bet: stake},
                    confirmation_id=f"rep-{round_id}-{player}",
                    funding=Account.player(player, PLAYERS[player]),
                )
            results = {}
            for player, (bet, stake, odds, won) in bets.items():
                net = stake * odds.numerator // odds.denominator if won else -stake
                results[player] = Settlement(
                    (BetResult(bet, stake, "win" if won else "lose", odds, net),)
                )
            await ledger.settle_round(round_id, results)
    finally:
        await ledger.close()
