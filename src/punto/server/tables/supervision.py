"""What the house changes at a live table outside the client protocol: its configuration
[S14], corrections of settled hands [O], players' connections [S13] and transfers."""

from __future__ import annotations

from typing import Any

from punto.ledger.model import settle_players
from punto.outcome import Outcome
from punto.server.features.backoffice import rules_of_hand
from punto.server.services import Services
from punto.server.tables.configs import TableConfig
from punto.table import Fault, Phase, Table
from punto.table.reasons import Why
from punto.table.records import GameNumber

__all__ = ["connect", "correct", "follow_transfer", "reconfigure"]


def connect(table: Table, player: str, *, connected: bool) -> bool:
    """``player``'s last connection closed, or a first one opened [L], [O] (a player gone
    for the seat's grace is released by the runner's loop [S13]); whether ``player`` is at
    the open table."""
    if table.phase is Phase.CLOSED or player not in table.seats.participants:
        return False
    if connected and table.can_reconnect(player):
        table.reconnect(player)
    elif not connected and table.can_disconnect(player):
        table.disconnect(player)
    return True


def follow_transfer(table: Table, player: str, amount: int, *, reason: Why) -> bool:
    """Money moved in ``player``'s wallet outside the table (a deposit, a supervisor's void
    or correction): their table balance follows, as far as it can; whether it did."""
    if table.phase is Phase.CLOSED or player not in table.seats.participants:
        return False
    amount = max(amount, -table.balance(player))
    if amount and table.can_transfer(player, amount):
        table.transfer(player, amount, reason=reason)
        return True
    return False


def reconfigure(table: Table, config: TableConfig, *, betting_seconds: float | None) -> bool:
    """Ask ``table`` for ``config``'s changes: new limits or betting time between hands
    [S14], new rules (a new rules version) from the next shoe (``betting_seconds``: the
    server's own betting time, which overrides the table's); whether the table is open."""
    if table.phase is Phase.CLOSED:
        return False
    if config.rules_version != table.settings.rules_version:
        table.change_rules(config.table_rules(), version=config.rules_version)
    limits = config.limits or config.settings(betting_seconds=None).rules.limit_tiers
    if tuple(limits) != tuple(table.rules.limit_tiers):
        table.change_limits(limits)
    seconds = config.betting_time(betting_seconds)
    if seconds != table.settings.betting_seconds:
        table.change_betting_time(seconds)
    return True


async def correct(
    table: Table,
    services: Services,
    game: GameNumber,
    outcome: Outcome,
    *,
    table_id: str,
    author: str,
    reason: str,
    correction_id: str,
) -> dict[str, Any] | None:
    """A supervisor's correction of a settled hand [O]: the ledger moves the difference,
    and, when ``table`` still holds the hand and its players, it records a
    ``hand_resettled`` (so table balances follow). What moved, or ``None`` when nobody bet
    (the record alone is corrected)."""
    bank = services.bank
    if await bank.status(str(game)) is None:
        return None
    bets = await bank.round_bets(str(game))
    rules = await rules_of_hand(services.store, str(game), table_id)
    settlements = settle_players(rules, outcome, bets)
    on_table = table.can_report_fault(
        Fault.O_SETTLEMENT_ERROR, game=game, outcome=outcome, detail=reason
    )
    moved, posted = await bank.correct(
        str(game), settlements, correction_id=correction_id, author=author, reason=reason
    )
    if on_table and any(moved.values()):
        table.report_fault(Fault.O_SETTLEMENT_ERROR, game=game, outcome=outcome, detail=reason)
    return {"corrections": moved, "transactions": posted, "on_table": on_table}
