"""Punto's typed errors.

Every error a user can cause is a :class:`PuntoError`, and every one of those is
a :class:`ValueError`, so callers may catch either. Messages say what was wrong
and, where there is one, the limit or value that was broken.
"""

from __future__ import annotations

__all__ = [
    "AccessError",
    "AmountError",
    "AuthError",
    "BetClosedError",
    "BetCombinationError",
    "BetError",
    "BetLimitError",
    "BetNotOfferedError",
    "BettingError",
    "CardError",
    "CardNotInShoeError",
    "CompositionError",
    "ConflictError",
    "CoupError",
    "FaultError",
    "ForbiddenError",
    "IdempotencyConflictError",
    "IncompleteCoupError",
    "InsufficientFundsError",
    "LedgerError",
    "NegativeEdgeError",
    "NotFoundError",
    "PaytableError",
    "PhaseError",
    "PresetError",
    "ProtocolError",
    "PuntoError",
    "RateLimitedError",
    "RemoteError",
    "RoadError",
    "RoundStateError",
    "RulesError",
    "SeatError",
    "ServerError",
    "ShoeError",
    "ShoeExhaustedError",
    "SimulationError",
    "SqueezeError",
    "TableBalanceError",
    "TableError",
    "TableauError",
    "TieOptionError",
    "UnavailableError",
    "UnbalancedTransactionError",
    "UnknownBetError",
    "WalletError",
    "WalletRolledBackError",
    "WalletUnavailableError",
]


class PuntoError(ValueError):
    """Base class of every error Punto raises for bad input or an illegal action."""


class CardError(PuntoError):
    """A card code that cannot be read, or a card that cannot be in the shoe."""


class RulesError(PuntoError):
    """A rules setting out of its allowed range; ``field`` names the setting when one is
    to blame (a rules document's key, e.g. ``decks``), so a form can point at it."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PresetError(RulesError):
    """An unknown rules preset name."""


class NegativeEdgeError(RulesError):
    """Rules under which an offered bet favours the player (a negative house edge), sent
    without the operator's explicit confirmation; ``bets`` names them."""

    def __init__(self, message: str, *, bets: tuple[str, ...]) -> None:
        super().__init__(message, field="paytables")
        self.bets = bets


class ShoeError(PuntoError):
    """An action the shoe cannot do in its current state."""


class ShoeExhaustedError(ShoeError):
    """The shoe has no card left to deal."""


class CoupError(PuntoError):
    """An action a coup cannot take in its current state."""


class TableauError(CoupError):
    """A card dealt against the drawing rules [M9], [S8]."""


class IncompleteCoupError(CoupError):
    """Too few cards to finish a coup; the message names the missing position."""


class BetError(PuntoError):
    """A bet that cannot be accepted; nothing was placed."""


class UnknownBetError(BetError):
    """A bet name that does not exist."""


class BetNotOfferedError(BetError):
    """A bet this table's rules do not offer."""


class AmountError(BetError):
    """An amount that is zero, negative, non-numeric or finer than the minor unit."""


class BetLimitError(BetError):
    """A bet outside a table limit; ``limit`` names the limit and ``value`` its amount
    (minor units)."""

    def __init__(self, message: str, *, limit: str, value: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value


class BetCombinationError(BetError):
    """Bets that may not be placed together ([S11] one side only, [L] Tiger restriction)."""


class BetClosedError(BetError):
    """A bet closed at this point of the shoe ([O] Big/Small and Super Tie from hand 31)."""


class PaytableError(RulesError):
    """An unknown paytable or payout class."""


class TieOptionError(BetError):
    """A change to bets standing in a tie that the table's tie option forbids [M12]."""


class RoadError(PuntoError):
    """A road (scoreboard) input that cannot be read or a road setting out of range [O]."""


class LedgerError(PuntoError):
    """A ledger action that cannot be done: the books are left exactly as they were."""


class UnbalancedTransactionError(LedgerError):
    """A transaction whose entries do not sum to zero (double entry), or a malformed one."""


class IdempotencyConflictError(LedgerError):
    """An idempotency key (or transaction id) already used for a different transaction."""


class InsufficientFundsError(LedgerError):
    """A debit larger than the balance of an account that may not go below zero."""


class RoundStateError(LedgerError):
    """A money action a round cannot take in its state (bets on a settled round …)."""


class WalletError(PuntoError):
    """An operator wallet refused a call or answered something unreadable."""


class WalletRolledBackError(WalletError):
    """A debit refused because its transaction id was already rolled back."""


class WalletUnavailableError(WalletError):
    """The operator wallet did not answer after every retry: the outcome is unknown, so
    the caller must roll the transaction back (the rollback is safe even if the debit
    never arrived)."""


class CompositionError(PuntoError):
    """A shoe composition (rank counts) that cannot be analysed: a count out of range,
    too few cards left to deal a coup, or a ``RANK=COUNT`` list that cannot be read."""


class CardNotInShoeError(CardError, CompositionError):
    """A card removed from a shoe that holds no such card (no copy of it is left)."""


class SimulationError(PuntoError):
    """A simulation or betting-system setting out of its allowed range."""


class TableError(PuntoError):
    """An action a live table cannot take now; the table is left exactly as it was."""


class PhaseError(TableError):
    """An action or a transition the table's current phase does not allow."""


class SeatError(TableError):
    """A seat, watch or leave request the table refuses (seat taken or marked [S13],
    table full, a kind's seating rule [O], watchers on seated spots [M15] …)."""


class AccessError(TableError):
    """An action reserved to someone else (the VIP owner, a seated player) or a wrong
    table password [O]."""


class BettingError(TableError, BetError):
    """A betting-round action the round refuses (timer over, nothing to undo, no chip
    chosen …); nothing was placed."""


class TableBalanceError(BettingError):
    """Bets to confirm that are larger than the player's table balance."""


class SqueezeError(TableError):
    """A squeeze or reading action that is not the caller's to take, or a call against
    the tableau [M16], [S], [O]."""


class FaultError(TableError):
    """A fault reported where it cannot have happened, or whose effect cannot apply."""


class ServerError(PuntoError):
    """A request the table server refuses; nothing was changed."""


class ProtocolError(ServerError):
    """A malformed message: not JSON, an unknown type, a missing or ill-typed field."""


class AuthError(ServerError):
    """No credentials, a bad or expired session token, or a wrong password."""


class ForbiddenError(ServerError):
    """An action the caller's role may not take (a player dealing, a dealer correcting)."""


class NotFoundError(ServerError):
    """No such table, hand, user or shoe."""


class ConflictError(ServerError):
    """A name already taken, or a player who is already at another table."""


class UnavailableError(ServerError):
    """The server cannot serve the request now (shutting down, a table's owner is gone)."""


class RateLimitedError(ServerError):
    """Too many attempts (failed logins) from one account or address; ``retry_after`` is
    how many seconds to wait."""

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RemoteError(ServerError):
    """An error the process owning a table answered with; ``code`` is its protocol code and
    ``params`` its figures, if any (``punto.server.protocol.error_params``)."""

    def __init__(self, message: str, *, code: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
