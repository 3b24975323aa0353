"""Punto's typed errors.

Every error Punto raises is a :class:`PuntoError`. Those a user can cause with bad input
or an illegal action are also :class:`ValueError` errors (as in python-chess), so callers
may catch either; a :class:`TransportError` (no or bad credentials, too many attempts,
a server or an operator wallet that does not answer) is not: it says nothing about the
input. Messages say what was wrong and, where there is one, the limit or value that was
broken.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "AccessError",
    "AmountError",
    "AmountUnitsError",
    "AuthError",
    "BetClosedError",
    "BetCombinationError",
    "BetError",
    "BetLimitError",
    "BetNotOfferedError",
    "BettingError",
    "CardError",
    "CardNotInShoeError",
    "ChatError",
    "CompositionError",
    "ConflictError",
    "CoupError",
    "FaultError",
    "ForbiddenError",
    "IdempotencyConflictError",
    "IncompleteCoupError",
    "InsufficientFundsError",
    "JurisdictionError",
    "LedgerError",
    "MissingExtraError",
    "NegativeEdgeError",
    "NoVideoError",
    "NotFoundError",
    "PaytableError",
    "PhaseError",
    "PresetError",
    "ProtocolError",
    "PuntoError",
    "RateLimitedError",
    "ReaderError",
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
    "TooManyTablesError",
    "TransportError",
    "UnavailableError",
    "UnbalancedTransactionError",
    "UnknownBetError",
    "VideoGoneError",
    "WalletCurrencyError",
    "WalletError",
    "WalletRolledBackError",
    "WalletUnavailableError",
]


class PuntoError(Exception):
    """Base class of every error Punto raises."""

    kind: ClassVar[str] = "punto"
    """The error's code on the wire (the ``error`` of an ``error`` message, stored with
    refusals): every error class declares its own, so renaming a class changes nothing."""


class TransportError(PuntoError):
    """A request that could not be served for a reason other than its content (no or bad
    credentials, too many attempts, a server or an operator wallet that does not answer):
    not a :class:`ValueError`, so code that handles bad input never mistakes it for one."""

    kind: ClassVar[str] = "transport"


class MissingExtraError(PuntoError):
    """A feature whose packages are an optional extra that is not installed (the table
    server needs ``punto[server]``); ``extra`` names it."""

    kind: ClassVar[str] = "missing_extra"

    def __init__(self, message: str, *, extra: str) -> None:
        super().__init__(message)
        self.extra = extra


class CardError(PuntoError, ValueError):
    """A card code that cannot be read, or a card that cannot be in the shoe."""

    kind: ClassVar[str] = "card"


class RulesError(PuntoError, ValueError):
    """A rules setting out of its allowed range; ``field`` names the setting when one is
    to blame (a rules document's key, e.g. ``decks``), so a form can point at it."""

    kind: ClassVar[str] = "rules"

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class PresetError(RulesError):
    """An unknown rules preset name."""

    kind: ClassVar[str] = "preset"


class NegativeEdgeError(RulesError):
    """Rules under which an offered bet favours the player (a negative house edge), sent
    without the operator's explicit confirmation; ``bets`` names them."""

    kind: ClassVar[str] = "negative_edge"

    def __init__(self, message: str, *, bets: tuple[str, ...]) -> None:
        super().__init__(message, field="paytables")
        self.bets = bets


class ShoeError(PuntoError, ValueError):
    """An action the shoe cannot do in its current state."""

    kind: ClassVar[str] = "shoe"


class ShoeExhaustedError(ShoeError):
    """The shoe has no card left to deal."""

    kind: ClassVar[str] = "shoe_exhausted"


class CoupError(PuntoError, ValueError):
    """An action a coup cannot take in its current state."""

    kind: ClassVar[str] = "coup"


class TableauError(CoupError):
    """A card dealt against the drawing rules [M9], [S8]."""

    kind: ClassVar[str] = "tableau"


class IncompleteCoupError(CoupError):
    """Too few cards to finish a coup; the message names the missing position."""

    kind: ClassVar[str] = "incomplete_coup"


class BetError(PuntoError, ValueError):
    """A bet that cannot be accepted; nothing was placed."""

    kind: ClassVar[str] = "bet"


class UnknownBetError(BetError):
    """A bet name that does not exist."""

    kind: ClassVar[str] = "unknown_bet"


class BetNotOfferedError(BetError):
    """A bet this table's rules do not offer."""

    kind: ClassVar[str] = "bet_not_offered"


class AmountError(BetError):
    """An amount that is zero, negative, non-numeric or finer than the minor unit."""

    kind: ClassVar[str] = "amount"


class BetLimitError(BetError):
    """A bet outside a table limit; ``limit`` names the limit and ``value`` its amount
    (minor units)."""

    kind: ClassVar[str] = "bet_limit"

    def __init__(self, message: str, *, limit: str, value: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value


class BetCombinationError(BetError):
    """Bets that may not be placed together ([S11] one side only, [L] Tiger restriction)."""

    kind: ClassVar[str] = "bet_combination"


class BetClosedError(BetError):
    """A bet closed at this point of the shoe ([O] Big/Small and Super Tie from hand 31;
    [EZ-C] a side bet the remaining cards made too cheap for the house). ``limit`` is the
    reason's code (``closed_from``, ``edge_closed``), ``bet`` the bet's wire name and
    ``value`` the closing hand (``closed_from``) or the edge in millionths (``edge_closed``)."""

    kind: ClassVar[str] = "bet_closed"

    def __init__(
        self, message: str, *, limit: str = "closed_from", bet: str = "", value: int = 0
    ) -> None:
        super().__init__(message)
        self.limit = limit
        self.bet = bet
        self.value = value


class PaytableError(RulesError):
    """An unknown paytable or payout class."""

    kind: ClassVar[str] = "paytable"


class TieOptionError(BetError):
    """A change to bets standing in a tie that the table's tie option forbids [M12]."""

    kind: ClassVar[str] = "tie_option"


class RoadError(PuntoError, ValueError):
    """A road (scoreboard) input that cannot be read or a road setting out of range [O]."""

    kind: ClassVar[str] = "road"


class LedgerError(PuntoError, ValueError):
    """A ledger action that cannot be done: the books are left exactly as they were."""

    kind: ClassVar[str] = "ledger"


class UnbalancedTransactionError(LedgerError):
    """A transaction whose entries do not sum to zero (double entry), or a malformed one."""

    kind: ClassVar[str] = "unbalanced_transaction"


class IdempotencyConflictError(LedgerError):
    """An idempotency key (or transaction id) already used for a different transaction."""

    kind: ClassVar[str] = "idempotency_conflict"


class InsufficientFundsError(LedgerError):
    """A debit larger than the balance of an account that may not go below zero."""

    kind: ClassVar[str] = "insufficient_funds"


class RoundStateError(LedgerError):
    """A money action a round cannot take in its state (bets on a settled round …)."""

    kind: ClassVar[str] = "round_state"


class WalletError(TransportError):
    """An operator wallet refused a call or answered something unreadable."""

    kind: ClassVar[str] = "wallet"


class WalletRolledBackError(WalletError):
    """A debit refused because its transaction id was already rolled back."""

    kind: ClassVar[str] = "wallet_rolled_back"


class WalletCurrencyError(WalletError):
    """An operator wallet refused a call in a currency that is not the player's."""

    kind: ClassVar[str] = "wallet_currency"


class AmountUnitsError(LedgerError):
    """An amount that a wallet dialect's units cannot carry exactly (a fraction of a
    Hub88 unit, or of a minor unit)."""

    kind: ClassVar[str] = "amount_units"


class WalletUnavailableError(WalletError):
    """The operator wallet did not answer after every retry: the outcome is unknown, so
    the caller must roll the transaction back (the rollback is safe even if the debit
    never arrived)."""

    kind: ClassVar[str] = "wallet_unavailable"


class CompositionError(PuntoError, ValueError):
    """A shoe composition (rank counts) that cannot be analysed: a count out of range,
    too few cards left to deal a coup, or a ``RANK=COUNT`` list that cannot be read."""

    kind: ClassVar[str] = "composition"


class CardNotInShoeError(CardError, CompositionError):
    """A card removed from a shoe that holds no such card (no copy of it is left)."""

    kind: ClassVar[str] = "card_not_in_shoe"


class SimulationError(PuntoError, ValueError):
    """A simulation or betting-system setting out of its allowed range."""

    kind: ClassVar[str] = "simulation"


class TableError(PuntoError, ValueError):
    """An action a live table cannot take now; the table is left exactly as it was."""

    kind: ClassVar[str] = "table"


class PhaseError(TableError):
    """An action or a transition the table's current phase does not allow; ``phase``, the
    phase the table is in (for a client to say so in its own words), when known."""

    kind: ClassVar[str] = "phase"

    def __init__(self, message: str, *, phase: str | None = None) -> None:
        super().__init__(message)
        self.phase = phase


class SeatError(TableError):
    """A seat, watch or leave request the table refuses (seat taken or marked [S13],
    table full, a kind's seating rule [O], watchers on seated spots [M15] …)."""

    kind: ClassVar[str] = "seat"


class AccessError(TableError):
    """An action reserved to someone else (the VIP owner, a seated player) or a wrong
    table password [O]."""

    kind: ClassVar[str] = "access"


class BettingError(TableError, BetError):
    """A betting-round action the round refuses (timer over, nothing to undo, no chip
    chosen …); nothing was placed."""

    kind: ClassVar[str] = "betting"


class TableBalanceError(BettingError):
    """Bets to confirm that are larger than the player's table balance; ``needed`` and
    ``balance`` (minor units), when known, what the bets need and what the balance holds."""

    kind: ClassVar[str] = "table_balance"

    def __init__(
        self, message: str, *, needed: int | None = None, balance: int | None = None
    ) -> None:
        super().__init__(message)
        self.needed = needed
        self.balance = balance


class SqueezeError(TableError):
    """A squeeze or reading action that is not the caller's to take, or a call against
    the tableau [M16], [S], [O]."""

    kind: ClassVar[str] = "squeeze"


class FaultError(TableError):
    """A fault reported where it cannot have happened, or whose effect cannot apply."""

    kind: ClassVar[str] = "fault"


class ReaderError(TransportError):
    """A card reader that cannot be read: its device, file or socket is not there."""

    kind: ClassVar[str] = "card_reader"


class ServerError(PuntoError, ValueError):
    """A request the table server refuses; nothing was changed."""

    kind: ClassVar[str] = "server"


class ProtocolError(ServerError):
    """A malformed message: not JSON, an unknown type, a missing or ill-typed field."""

    kind: ClassVar[str] = "bad_message"


class AuthError(TransportError):
    """No credentials, a bad or expired session token, or a wrong password."""

    kind: ClassVar[str] = "unauthorized"


class ForbiddenError(ServerError):
    """An action the caller's role may not take (a player dealing, a dealer correcting)."""

    kind: ClassVar[str] = "forbidden"


class NotFoundError(ServerError):
    """No such table, hand, user or shoe."""

    kind: ClassVar[str] = "not_found"


class NoVideoError(ServerError):
    """A hand of which no video was recorded (no recordings kept, or none of that time)."""

    kind: ClassVar[str] = "no_video"


class VideoGoneError(ServerError):
    """A hand whose video was deleted after the retention time [L] (24 hours)."""

    kind: ClassVar[str] = "video_gone"


class ConflictError(ServerError):
    """A name already taken, or another move of a player's money under way."""

    kind: ClassVar[str] = "conflict"


class TooManyTablesError(ConflictError):
    """A player who is already at as many tables as one player may be at together;
    ``limit`` is that number."""

    kind: ClassVar[str] = "too_many_tables"

    def __init__(self, message: str, *, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


class UnavailableError(TransportError):
    """The server cannot serve the request now (shutting down, a table's owner is gone)."""

    kind: ClassVar[str] = "unavailable"


class RateLimitedError(TransportError):
    """Too many attempts (failed logins) from one account or address; ``retry_after`` is
    how many seconds to wait."""

    kind: ClassVar[str] = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ChatError(ServerError):
    """A chat message refused: ``reason`` is ``empty`` (nothing but spaces) or ``muted`` (a
    supervisor muted the sender at this table)."""

    kind: ClassVar[str] = "chat"

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class JurisdictionError(ServerError):
    """A bet or chat line the player's jurisdiction profile refuses now: ``reason`` is
    ``reality_check_due`` (acknowledge the reality check first), ``session_limit`` (the
    session's time is up), ``too_soon`` (``retry_after`` seconds until the next hand may be
    bet on) or ``feature_off`` (``feature``: ``chat`` or ``side_bets``)."""

    kind: ClassVar[str] = "jurisdiction"

    def __init__(
        self,
        message: str,
        *,
        reason: str,
        retry_after: float | None = None,
        feature: str | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.retry_after = retry_after
        self.feature = feature


class RemoteError(ServerError):
    """An error the process owning a table answered with; ``code`` is its protocol code and
    ``params`` its figures, if any (``punto.server.fanout.protocol.error_params``)."""

    kind: ClassVar[str] = "remote"

    def __init__(self, message: str, *, code: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
