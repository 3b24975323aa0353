"""What the ledger store answers: a round's status and facts, a posted transaction, a
confirm request of a group commit, what recovery did and the books check's report."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from punto.bets import Bet
from punto.ledger.model import CURRENCY_SEPARATOR, Account, AccountKind, Transaction
from punto.settlement import Settlement

__all__ = [
    "Book",
    "CheckReport",
    "ConfirmRequest",
    "PlayerBets",
    "Posted",
    "Recovery",
    "ResumeRound",
    "RoundInfo",
    "RoundStatus",
]


class RoundStatus(enum.Enum):
    """Where a round's money is."""

    OPEN = "open"
    """Bets may be confirmed; the stakes are in escrow."""
    SETTLED = "settled"
    """Paid by the result; may still be corrected or voided."""
    VOIDED = "voided"
    """Every stake refunded (before or after settlement)."""


@dataclass(frozen=True, slots=True)
class RoundInfo:
    """A round as the ledger knows it; ``result`` is what the server kept with it (the
    outcome recorded for it, if any, and its record's facts)."""

    id: str
    table_id: str
    status: RoundStatus
    result: Mapping[str, Any] | None = None
    opened_at: datetime | None = None
    """When the ledger opened the round (its first confirmed bet)."""
    closed_at: datetime | None = None
    """When it was settled or voided."""


@dataclass(frozen=True, slots=True)
class PlayerBets:
    """One player's confirmed bets in a round and the account that funded them."""

    funding: Account
    bets: Mapping[Bet, int]


@dataclass(frozen=True, slots=True)
class Posted:
    """A posted transaction; ``replayed`` when it had been posted before (nothing moved).
    ``balances`` are the new balances of the accounts it moved (empty for a replay)."""

    transaction: Transaction
    replayed: bool = False
    balances: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfirmRequest:
    """One confirm in a group commit
    (:meth:`~punto.ledger.store.LedgerStore.confirm_many`): ``bets`` move from ``funding``
    (default the player's wallet) to the round's escrow, idempotently by
    ``confirmation_id``."""

    round_id: str
    player_id: str
    bets: Mapping[Bet, int]
    confirmation_id: str
    funding: Account | None = None
    fee: int = 0
    """[LB] A multiplier table's fee on the bets, paid from ``funding`` to ``house``."""
    house: Account | None = None


@dataclass(frozen=True, slots=True)
class Recovery:
    """What :meth:`~punto.ledger.store.LedgerStore.recover` did with the rounds it found open."""

    settled: tuple[str, ...] = ()
    voided: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of :meth:`~punto.ledger.store.LedgerStore.check`; the books balance
    when ``ok``."""

    problems: tuple[str, ...]
    accounts: int = 0
    transactions: int = 0
    entries_total: int = 0
    open_rounds: int = 0
    balances: Mapping[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems

    def books(self) -> list[Book]:
        """Each currency's book, and each operator's part of it: how many accounts, what
        they sum to (0 for a whole currency's book), and what its players' wallets hold.
        An operator's players are the accounts keyed ``operator.player`` (launched
        players); the house's own accounts and password accounts are operator ``None``."""
        found: dict[tuple[str, str | None], list[int]] = {}
        for code, balance in self.balances.items():
            account = Account.parse(code)
            currency = account.currency
            whole = found.setdefault((currency, None), [0, 0, 0])
            whole[0] += 1
            whole[1] += balance
            owner = _owner(account)
            if owner is not None:
                part = found.setdefault((currency, owner), [0, 0, 0])
                part[0] += 1
                part[1] += balance
                if account.kind is AccountKind.PLAYER:
                    part[2] += balance
            elif account.kind is AccountKind.PLAYER:
                whole[2] += balance
        return [
            Book(currency, operator, accounts, total, players)
            for (currency, operator), (accounts, total, players) in sorted(
                found.items(), key=lambda item: (item[0][0], item[0][1] or "")
            )
        ]


@dataclass(frozen=True, slots=True)
class Book:
    """One currency's book (``operator`` ``None``) or an operator's part of it
    (:meth:`CheckReport.books`); ``currency`` ``""`` is the house currency."""

    currency: str
    operator: str | None
    accounts: int
    total: int
    players: int
    """What the players' wallets hold (an operator's players', for an operator's part)."""


def _owner(account: Account) -> str | None:
    """The operator an account belongs to: its own settlement account, or a launched
    player's (``operator.player``) wallet or receivable."""
    base = account.key.rpartition(CURRENCY_SEPARATOR)[0] if account.currency else account.key
    if account.kind is AccountKind.OPERATOR:
        return base
    if account.kind in (AccountKind.PLAYER, AccountKind.RECEIVABLE):
        operator, dot, _ = base.partition(".")
        return operator if dot else None
    return None


ResumeRound = Callable[
    [RoundInfo, Mapping[str, Mapping[Bet, int]]], Mapping[str, Settlement] | None
]
"""Decides, at recovery, each open round's settlements (resume) or ``None`` (void)."""
