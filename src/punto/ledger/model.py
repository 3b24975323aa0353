"""The ledger's pure core: accounts, entries, transactions and the postings of a round.

Double entry: every movement of money is a :class:`Transaction` whose :class:`Entry`
amounts (integer minor units; positive adds to an account, negative takes from it) sum
to zero, so the sum of every account is always zero. A transaction's id is derived from
its idempotency key, so a retried posting built anywhere carries the same id.

This module does no I/O; :mod:`punto.ledger.store` keeps the transactions and
:mod:`punto.ledger.wallet` talks to operators.

>>> from punto.bets import Bet
>>> tx = stake("r1", "alice", {Bet.BANKER: 1000}, confirmation_id="c1")
>>> [(e.account.code, e.amount) for e in tx.entries]
[('escrow:r1', 1000), ('player:alice', -1000)]
>>> balances = apply({"player:alice": 5000}, tx)
>>> balances["player:alice"], balances["escrow:r1"]
(4000, 1000)
"""

from __future__ import annotations

import enum
import functools
import hashlib
import operator
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from punto.bets import Bet, CoupFacts
from punto.errors import (
    InsufficientFundsError,
    LedgerError,
    UnbalancedTransactionError,
)
from punto.multipliers import LightningDraw
from punto.outcome import Outcome
from punto.rules import Rules
from punto.settlement import Settlement, Settler

__all__ = [
    "CURRENCY_SEPARATOR",
    "TRANSACTION_NAMESPACE",
    "WALLET_CALL_KINDS",
    "Account",
    "AccountKind",
    "Entry",
    "Line",
    "Transaction",
    "TransactionKind",
    "apply",
    "cancel",
    "check_stakes",
    "correction",
    "fingerprints",
    "in_currency",
    "lines_of",
    "refund",
    "returned",
    "reversal",
    "settle_players",
    "settlement",
    "settlements",
    "stake",
    "tombstone",
    "transaction_id",
    "transfer",
    "unclaimed",
]

TRANSACTION_NAMESPACE = uuid.UUID("6c0a3d1e-4f5b-5a8e-9a59-7075e746f000")
"""UUID namespace of transaction ids (``uuid5`` of the idempotency key)."""
_NAMESPACE_BYTES = TRANSACTION_NAMESPACE.bytes

_MAX_KEY = 200


class AccountKind(enum.Enum):
    """What an account holds."""

    PLAYER = "player"
    """A player's wallet (internal wallet mode): never below zero."""
    HOUSE = "house"
    """A table's house result: goes negative when the house has paid out more than won."""
    ESCROW = "escrow"
    """Bets in play of one round: confirmed stakes, emptied when the round closes."""
    UNCLAIMED = "unclaimed"
    """Unclaimed bets and winnings, kept for the house's management [S15]."""
    OPERATOR = "operator"
    """An operator's settlement account: the counterpart of transfers and seamless bets."""
    RECEIVABLE = "receivable"
    """What a player owes after a correction took back more than the wallet held."""

    @property
    def may_go_negative(self) -> bool:
        """House, operator and receivable accounts may be negative; the others never."""
        return self in (AccountKind.HOUSE, AccountKind.OPERATOR, AccountKind.RECEIVABLE)


@dataclass(frozen=True, slots=True)
class Account:
    """An account: a kind and a key (player id, table id, round id, operator id).

    >>> Account.parse("escrow:round-7")
    Account(kind=<AccountKind.ESCROW: 'escrow'>, key='round-7')
    >>> Account.player("alice").code
    'player:alice'
    """

    kind: AccountKind
    key: str
    code: str = field(init=False, repr=False, compare=False)
    """``kind:key``, the account's unique name in the store (computed once: a round's
    settlement reads it tens of thousands of times)."""

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key or len(self.key) > _MAX_KEY:
            raise LedgerError(f"account key must be 1-{_MAX_KEY} characters, not {self.key!r}")
        object.__setattr__(self, "code", f"{self.kind.value}:{self.key}")

    @property
    def currency(self) -> str:
        """The account's currency book: ``""`` for the house currency, else the ISO 4217
        code its key ends with (``player:acme.u-7/JPY``). A currency is its own book: a
        transaction moves money of one currency only."""
        book = self.key.rpartition(CURRENCY_SEPARATOR)
        return book[2] if book[1] else ""

    def __hash__(self) -> int:
        # the code names the kind and key exactly: hashing it (a string's cached hash)
        # instead of the pair spares a settlement tens of thousands of enum hashes
        return hash(self.code)

    @classmethod
    def parse(cls, code: str) -> Account:
        """The account named ``kind:key``."""
        kind, _, key = code.partition(":")
        try:
            account_kind = AccountKind(kind)
        except ValueError:
            raise LedgerError(f"unknown account {code!r}") from None
        return cls(account_kind, key)

    @classmethod
    def player(cls, player_id: str, currency: str = "") -> Account:
        """A player's wallet in ``currency`` (one value for each player, made once: every
        confirm names its player's account several times)."""
        return _player_account(player_id, currency)

    @classmethod
    def house(cls, table_id: str = "main", currency: str = "") -> Account:
        """A table's house account in ``currency``."""
        return cls(AccountKind.HOUSE, in_currency(table_id, currency))

    @classmethod
    def escrow(cls, round_id: str, currency: str = "") -> Account:
        """The bets in play of one round in ``currency`` (made once for each round, as a
        player's)."""
        return _escrow_account(round_id, currency)

    @classmethod
    def unclaimed(cls, key: str = "main", currency: str = "") -> Account:
        """Unclaimed bets and winnings [S15]."""
        return cls(AccountKind.UNCLAIMED, in_currency(key, currency))

    @classmethod
    def operator(cls, operator_id: str = "default", currency: str = "") -> Account:
        """An operator's settlement account in ``currency``."""
        return cls(AccountKind.OPERATOR, in_currency(operator_id, currency))

    @classmethod
    def receivable(cls, player_id: str, currency: str = "") -> Account:
        """What a player owes the house after a correction."""
        return cls(AccountKind.RECEIVABLE, in_currency(player_id, currency))

    def of_currency(self, currency: str) -> Account:
        """This account's namesake in the book of ``currency``."""
        base = self.key.rpartition(CURRENCY_SEPARATOR)[0] if self.currency else self.key
        return Account(self.kind, in_currency(base, currency))


CURRENCY_SEPARATOR = "/"
"""Ends an account's key with its currency (never in a player, table or round id)."""


def in_currency(key: str, currency: str) -> str:
    """An account key in the book of ``currency`` (``""``: the house currency's, as is).

    >>> in_currency("acme.u-7", "JPY"), in_currency("acme.u-7", "")
    ('acme.u-7/JPY', 'acme.u-7')
    """
    return f"{key}{CURRENCY_SEPARATOR}{currency}" if currency else key


@functools.lru_cache(maxsize=1 << 16)
def _player_account(player_id: str, currency: str) -> Account:
    """:meth:`Account.player`: accounts are values, so the recent players' are kept and
    handed out again (a tenth of a microsecond against a new one's two thirds)."""
    return Account(AccountKind.PLAYER, in_currency(player_id, currency))


@functools.lru_cache(maxsize=1 << 12)
def _escrow_account(round_id: str, currency: str) -> Account:
    """:meth:`Account.escrow`, kept as :func:`_player_account` keeps players'."""
    return Account(AccountKind.ESCROW, in_currency(round_id, currency))


@dataclass(frozen=True, slots=True)
class Entry:
    """One leg of a transaction: ``amount`` minor units added to (negative: taken from)
    ``account``."""

    account: Account
    amount: int

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or not self.amount:
            raise UnbalancedTransactionError(
                f"entry on {self.account.code} must be a non-zero whole number of minor units"
            )


class TransactionKind(enum.Enum):
    """Why money moved."""

    DEPOSIT = "deposit"
    """Operator -> player (internal wallet credit, a transfer in)."""
    WITHDRAWAL = "withdrawal"
    """Player -> operator (internal wallet debit, a transfer out)."""
    STAKE = "stake"
    """A confirm: the stakes move from the player (or the operator, seamless) to escrow."""
    CANCEL = "cancel"
    """A seamless confirm whose operator debit failed: escrow back to the operator."""
    SETTLE = "settle"
    """A round's result for one player: escrow -> player and house, house -> player."""
    REFUND = "refund"
    """A void round before settlement: escrow -> player (every stake returned)."""
    CORRECTION = "correction"
    """A corrected result: only the difference, referencing the original settlement."""
    VOID = "void"
    """A settled hand voided afterwards: the difference to a full refund."""
    ROLLBACK = "rollback"
    """A wallet debit undone, or (no entries) the tombstone of one that never arrived."""
    UNCLAIMED = "unclaimed"
    """Money nobody claimed, moved to the unclaimed account [S15]."""


WALLET_CALL_KINDS = frozenset(
    {
        TransactionKind.SETTLE,
        TransactionKind.REFUND,
        TransactionKind.CANCEL,
        TransactionKind.CORRECTION,
        TransactionKind.VOID,
    }
)
"""Seamless wallet: the kinds of transaction whose entry on the operator's account is a
wallet call of its own (a credit, or a correction's debit), keyed by the transaction's
id. A stake's entry is not: its debit is the confirm's own call, made before it."""

_EMPTY_ALLOWED = frozenset(
    {TransactionKind.CORRECTION, TransactionKind.VOID, TransactionKind.ROLLBACK}
)
_NEEDS_AUTHOR = frozenset({TransactionKind.CORRECTION, TransactionKind.VOID})


@dataclass(frozen=True, slots=True)
class Line:
    """One bet in a transaction's record: its stake and, once settled, its payout class
    and net result (minor units). A stake line has an empty payout class and net 0."""

    bet: str
    stake: int
    payout_class: str = ""
    net: int = 0

    @property
    def returned(self) -> int:
        """What goes back to the player for this bet once settled (stake plus net)."""
        return self.stake + self.net


def transaction_id(idempotency_key: str) -> str:
    """The transaction id of an idempotency key: the same key always gives the same id.

    >>> transaction_id("settle:r1:alice") == transaction_id("settle:r1:alice")
    True
    """
    # uuid.uuid5 by hand (RFC 4122 §4.3: SHA-1 of the namespace and the name, version 5,
    # the RFC's variant): the same text, without building two UUID objects, for the
    # thousands of transactions of one settlement
    digest = bytearray(hashlib.sha1(_NAMESPACE_BYTES + idempotency_key.encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50
    digest[8] = (digest[8] & 0x3F) | 0x80
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


@dataclass(frozen=True, slots=True)
class Transaction:
    """A balanced set of entries posted at once; frozen, identified by its idempotency key.

    ``reference`` is the id of the transaction it corrects, voids or rolls back;
    ``author`` and ``reason`` say who made a correction or void and why. Entries are kept
    sorted by account, one per account.

    >>> Transaction(TransactionKind.DEPOSIT, "k", (Entry(Account.player("a"), 5),))
    Traceback (most recent call last):
    ...
    punto.errors.UnbalancedTransactionError: transaction 'k' entries sum to 5, not 0
    """

    kind: TransactionKind
    idempotency_key: str
    entries: tuple[Entry, ...]
    round_id: str | None = None
    player_id: str | None = None
    reference: str | None = None
    author: str | None = None
    reason: str | None = None
    lines: tuple[Line, ...] = ()
    id: str = field(init=False)

    def __post_init__(self) -> None:
        key = self.idempotency_key
        if not isinstance(key, str) or not key or len(key) > 255:
            raise UnbalancedTransactionError("an idempotency key must be 1-255 characters")
        # an account's code names its kind and key exactly (a string's cached hash, not
        # the account's own: a settlement makes thousands of transactions)
        codes = [e.account.code for e in self.entries]
        if len(set(codes)) != len(codes):
            raise UnbalancedTransactionError(f"transaction {key!r} has two entries on one account")
        total = sum(e.amount for e in self.entries)
        if total:
            raise UnbalancedTransactionError(f"transaction {key!r} entries sum to {total}, not 0")
        if not self.entries and self.kind not in _EMPTY_ALLOWED:
            raise UnbalancedTransactionError(f"{self.kind.value} transaction {key!r} has no entry")
        if len({e.account.currency for e in self.entries}) > 1:
            raise UnbalancedTransactionError(
                f"transaction {key!r} moves money of two currencies: each is its own book"
            )
        if self.kind in _NEEDS_AUTHOR and not (self.author and self.reason and self.reference):
            raise LedgerError(
                f"a {self.kind.value} must name its author, its reason and the original"
            )
        object.__setattr__(self, "entries", tuple(sorted(self.entries, key=_entry_order)))
        object.__setattr__(self, "id", transaction_id(key))

    @property
    def currency(self) -> str:
        """The currency the transaction moves (``""``: the house currency)."""
        return self.entries[0].account.currency if self.entries else ""

    def amount_of(self, account: Account) -> int:
        """This transaction's entry on ``account`` (0 if none)."""
        return sum(e.amount for e in self.entries if e.account == account)

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the transaction's content: a replay must match it exactly."""
        return self._fingerprint(_line_parts(self.lines))

    def _fingerprint(self, line_parts: list[str]) -> str:
        parts = [
            self.kind.value,
            self.idempotency_key,
            self.round_id or "",
            self.player_id or "",
            self.reference or "",
            self.author or "",
            self.reason or "",
            *(f"{e.account.code}={e.amount}" for e in self.entries),
            *line_parts,
        ]
        text = "\x1f".join(parts)
        if text.count("\x1f") != len(parts) - 1:  # a part holds the separator (rare)
            text = "\x1f".join(p.replace("\x1f", " ") for p in parts)
        return hashlib.sha256(text.encode()).hexdigest()


def _line_parts(lines: tuple[Line, ...]) -> list[str]:
    return [f"{ln.bet}/{ln.stake}/{ln.payout_class}/{ln.net}" for ln in lines]


def fingerprints(transactions: Iterable[Transaction]) -> list[str]:
    """Each transaction's :attr:`Transaction.fingerprint`; the text of lines that several
    share (a settlement's players with the same bets) made once."""
    made: dict[int, list[str]] = {}  # the transactions keep their lines alive
    out = []
    for t in transactions:
        parts = made.get(id(t.lines))
        if parts is None:
            parts = made[id(t.lines)] = _line_parts(t.lines)
        out.append(t._fingerprint(parts))
    return out


_entry_order = operator.attrgetter("account.code")
"""An entry's place in its transaction: by account code."""


def _entries(amounts: Mapping[Account, int]) -> tuple[Entry, ...]:
    """Entries from per-account amounts, dropping zeros."""
    return tuple(Entry(account, amount) for account, amount in amounts.items() if amount)


def _stakes_total(bets: Mapping[Bet, int]) -> int:
    """The sum of a confirm's stakes, each a positive whole number of minor units (the
    bet's name is written only into the error)."""
    total = 0
    for bet, amount in bets.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            _positive(amount, f"{bet.label} stake")
        total += amount
    return total


def _positive(amount: int, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise LedgerError(f"{what} must be a positive whole number of minor units")
    return amount


def apply(balances: Mapping[str, int], transaction: Transaction) -> dict[str, int]:
    """New balances (account code -> minor units) after ``transaction``; refuses to take
    a player, escrow or unclaimed account below zero.

    >>> apply({}, transfer(TransactionKind.DEPOSIT, "alice", 500, transaction_id="t1"))
    {'operator:default': -500, 'player:alice': 500}
    """
    result = dict(balances)
    for entry in transaction.entries:
        after = result.get(entry.account.code, 0) + entry.amount
        if after < 0 and not entry.account.kind.may_go_negative:
            raise InsufficientFundsError(
                f"{entry.account.code} holds {after - entry.amount}, cannot take {-entry.amount}"
            )
        result[entry.account.code] = after
    return result


def transfer(
    kind: TransactionKind,
    player_id: str,
    amount: int,
    *,
    transaction_id: str,
    operator_id: str = "default",
    currency: str = "",
) -> Transaction:
    """An internal-wallet transfer in ``currency``: a ``DEPOSIT`` (operator -> player) or
    a ``WITHDRAWAL`` (player -> operator), keyed ``wallet:<transaction_id>``."""
    amount = _positive(amount, "a transfer")
    sign = {TransactionKind.DEPOSIT: 1, TransactionKind.WITHDRAWAL: -1}.get(kind)
    if sign is None:
        raise LedgerError(f"a transfer is a deposit or a withdrawal, not {kind.value}")
    return Transaction(
        kind,
        f"wallet:{transaction_id}",
        _entries(
            {
                Account.player(player_id, currency): sign * amount,
                Account.operator(operator_id, currency): -sign * amount,
            }
        ),
        player_id=player_id,
    )


def stake(
    round_id: str,
    player_id: str,
    bets: Mapping[Bet, int],
    *,
    confirmation_id: str,
    funding: Account | None = None,
    fee: int = 0,
    house: Account | None = None,
) -> Transaction:
    """A confirm: the stakes move from ``funding`` (default: the player's wallet; in
    seamless mode the operator's account, which the operator has debited) to the round's
    escrow (in the funding account's currency). Keyed ``stake:<confirmation_id>``.
    ``fee``: a multiplier table's fee on the stakes [LB], from the same source to the
    table's ``house`` account at once (never escrowed, never returned).

    >>> tx = stake("r1", "bob", {Bet.PLAYER: 1000}, confirmation_id="c1", fee=200,
    ...            house=Account.house("t1"))
    >>> sorted((e.account.code, e.amount) for e in tx.entries)
    [('escrow:r1', 1000), ('house:t1', 200), ('player:bob', -1200)]
    """
    if not bets:
        raise LedgerError("a confirm needs at least one bet")
    total = _stakes_total(bets)
    source = funding or Account.player(player_id)
    amounts = {source: -total, Account.escrow(round_id, source.currency): total}
    if fee:
        _positive(fee, "a fee")
        if house is None:
            raise LedgerError("a fee goes to a table's house account [LB]")
        amounts[source] -= fee
        amounts[house] = fee
    return Transaction(
        TransactionKind.STAKE,
        f"stake:{confirmation_id}",
        _entries(amounts),
        round_id=round_id,
        player_id=player_id,
        lines=tuple(Line(bet.value, amount) for bet, amount in sorted(bets.items(), key=_bet)),
    )


def cancel(original: Transaction, *, reason: str) -> Transaction:
    """A stake whose seamless debit failed: escrow back to the account that funded it."""
    if original.kind is not TransactionKind.STAKE:
        raise LedgerError(f"only a stake can be cancelled, not a {original.kind.value}")
    return Transaction(
        TransactionKind.CANCEL,
        f"cancel:{original.id}",
        tuple(Entry(e.account, -e.amount) for e in original.entries),
        round_id=original.round_id,
        player_id=original.player_id,
        reference=original.id,
        reason=reason,
        lines=original.lines,
    )


def reversal(original: Transaction, *, reason: str | None = None) -> Transaction:
    """A ``ROLLBACK`` undoing ``original`` entry by entry, keyed
    ``rollback:<original key>`` and referencing it.

    >>> debit = transfer(TransactionKind.WITHDRAWAL, "alice", 300, transaction_id="t1")
    >>> [(e.account.code, e.amount) for e in reversal(debit).entries]
    [('operator:default', -300), ('player:alice', 300)]
    """
    return Transaction(
        TransactionKind.ROLLBACK,
        f"rollback:{original.idempotency_key}",
        tuple(Entry(e.account, -e.amount) for e in original.entries),
        round_id=original.round_id,
        player_id=original.player_id,
        reference=original.id,
        reason=reason,
    )


def tombstone(idempotency_key: str, *, player_id: str | None = None) -> Transaction:
    """A rollback that arrived before its transaction: no entry, but it takes the
    transaction's idempotency key, so the late transaction is refused."""
    return Transaction(
        TransactionKind.ROLLBACK,
        idempotency_key,
        (),
        player_id=player_id,
        reason="rolled_back",  # a reason code (punto.table.reasons)
    )


def _bet(item: tuple[Bet, int]) -> str:
    return item[0].value


def lines_of(result: Settlement) -> tuple[Line, ...]:
    """A settlement's per-bet lines, in bet order."""
    values = _BET_VALUES
    return tuple(
        sorted(
            (Line(values[r.bet], r.stake, r.payout_class, r.net) for r in result.results),
            key=_line_bet,
        )
    )


_BET_VALUES = {b: b.value for b in Bet}
"""Each bet's name (an enum's ``value`` is a descriptor call: a settlement reads it
tens of thousands of times)."""


_line_bet = operator.attrgetter("bet")


def returned(lines: Iterable[Line]) -> int:
    """What the lines pay back to the player in all (stakes plus net results)."""
    return sum(ln.returned for ln in lines)


def check_stakes(player_id: str, bets: Mapping[Bet, int], result: Settlement) -> None:
    """Refuse a settlement whose bets and stakes are not exactly the confirmed ones."""
    for r in result.results:
        if r.returned < 0:
            raise LedgerError(f"{player_id}'s {r.bet.label} result loses more than its stake")
    settled = _stakes(result)
    if settled != dict(bets):
        raise LedgerError(
            f"settlement of {player_id} covers {_show(settled)}, "
            f"but the confirmed bets are {_show(bets)}"
        )


def _stakes(result: Settlement) -> dict[Bet, int]:
    """The stake the result settles on each bet."""
    stakes: dict[Bet, int] = {}
    for r in result.results:
        stakes[r.bet] = stakes.get(r.bet, 0) + r.stake
    return stakes


def _show(bets: Mapping[Bet, int]) -> str:
    return ", ".join(f"{b.value}={v}" for b, v in sorted(bets.items(), key=_bet)) or "nothing"


def settlement(
    round_id: str,
    player_id: str,
    bets: Mapping[Bet, int],
    result: Settlement,
    *,
    table_id: str,
    payee: Account | None = None,
) -> Transaction:
    """A round's result for one player: the stakes leave escrow, what is returned goes to
    ``payee`` (default the player's wallet), lost stakes go to the house and the house
    pays the winnings. Keyed ``settle:<round>:<player>``.

    >>> from fractions import Fraction
    >>> from punto.settlement import BetResult
    >>> won = Settlement((BetResult(Bet.PLAYER, 1000, "win", Fraction(1), 1000),))
    >>> tx = settlement("r1", "bob", {Bet.PLAYER: 1000}, won, table_id="t1")
    >>> [(e.account.code, e.amount) for e in tx.entries]
    [('escrow:r1', -1000), ('house:t1', -1000), ('player:bob', 2000)]
    """
    check_stakes(player_id, bets, result)
    total_stake = result.total_stake
    paid = result.total_returned
    target = payee or Account.player(player_id)
    return Transaction(
        TransactionKind.SETTLE,
        f"settle:{round_id}:{player_id}",
        _entries(
            {
                Account.escrow(round_id, target.currency): -total_stake,
                Account.house(table_id, target.currency): total_stake - paid,
                target: paid,
            }
        ),
        round_id=round_id,
        player_id=player_id,
        lines=lines_of(result),
    )


def settlements(
    round_id: str,
    table_id: str,
    players: Iterable[tuple[str, Mapping[Bet, int], Account]],
    results: Mapping[str, Settlement],
) -> list[Transaction]:
    """:func:`settlement` of each ``(player, bets, payee)`` of a round, in that order:
    the same transactions, the round's escrow and the table's house account made once
    for thousands of players.

    >>> from fractions import Fraction
    >>> from punto.settlement import BetResult
    >>> won = Settlement((BetResult(Bet.PLAYER, 1000, "win", Fraction(1), 1000),))
    >>> bob = ("bob", {Bet.PLAYER: 1000}, Account.player("bob"))
    >>> settlements("r1", "t1", [bob], {"bob": won}) == [
    ...     settlement("r1", "bob", {Bet.PLAYER: 1000}, won, table_id="t1")
    ... ]
    True
    """
    books: dict[str, tuple[Account, Account]] = {}
    # players with the same bets share one result (punto.settlement.Settler): what
    # depends on the result alone — its lines, its stakes, its escrow and house entries —
    # is made and checked once for each currency (``results`` keeps each result alive:
    # its id names it)
    shared: dict[tuple[int, str], _Shared] = {}
    out = []
    for player, bets, payee in players:
        result = results[player]
        currency = payee.currency
        common = shared.get((id(result), currency))
        if common is None:
            check_stakes(player, bets, result)
            book = books.get(currency)
            if book is None:
                book = books[currency] = (
                    Account.escrow(round_id, currency),
                    Account.house(table_id, currency),
                )
            common = shared[id(result), currency] = _Shared.of(
                result, escrow=book[0], house=book[1]
            )
        elif common.stakes != bets:
            check_stakes(player, bets, result)  # raises, saying how they differ
        paid = common.paid
        out.append(
            Transaction(
                TransactionKind.SETTLE,
                f"settle:{round_id}:{player}",
                (*common.entries, Entry(payee, paid)) if paid else common.entries,
                round_id=round_id,
                player_id=player,
                lines=common.lines,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class _Shared:
    """What the settlement of every player holding one result shares."""

    lines: tuple[Line, ...]
    stakes: dict[Bet, int]
    paid: int
    entries: tuple[Entry, ...]
    """The escrow's and the house's entries (without zeros)."""

    @classmethod
    def of(cls, result: Settlement, *, escrow: Account, house: Account) -> _Shared:
        total_stake, paid = result.total_stake, result.total_returned
        return cls(
            lines_of(result),
            _stakes(result),
            paid,
            _entries({escrow: -total_stake, house: total_stake - paid}),
        )


def refund(
    round_id: str,
    player_id: str,
    bets: Mapping[Bet, int],
    *,
    payee: Account | None = None,
    author: str | None = None,
    reason: str | None = None,
) -> Transaction:
    """A void round before settlement: every stake back from escrow to ``payee``
    [M10], [S5], [L]. Keyed ``refund:<round>:<player>``."""
    total = _stakes_total(bets)
    target = payee or Account.player(player_id)
    return Transaction(
        TransactionKind.REFUND,
        f"refund:{round_id}:{player_id}",
        _entries({Account.escrow(round_id, target.currency): -total, target: total}),
        round_id=round_id,
        player_id=player_id,
        author=author,
        reason=reason,
        lines=tuple(
            Line(bet.value, amount, "void") for bet, amount in sorted(bets.items(), key=_bet)
        ),
    )


def correction(
    original: Transaction,
    current: Iterable[Line],
    new: Settlement | tuple[Line, ...],
    *,
    correction_id: str,
    table_id: str,
    author: str,
    reason: str,
    payee: Account | None = None,
    payee_balance: int | None = None,
    void: bool = False,
) -> Transaction:
    """Re-settle one player's hand: only the difference between what ``current`` paid
    and what ``new`` pays moves, between the house and ``payee``, as a new transaction
    referencing the ``original`` settlement (nothing is overwritten).

    When the payee is a player's wallet holding less than a negative difference
    (``payee_balance``), the wallet goes to zero and the rest is booked to the player's
    receivable. ``void`` makes it the void of a settled hand (``new`` is then the refund).

    >>> from fractions import Fraction
    >>> from punto.settlement import BetResult
    >>> won = Settlement((BetResult(Bet.PLAYER, 1000, "win", Fraction(1), 1000),))
    >>> lost = Settlement((BetResult(Bet.PLAYER, 1000, "lose", Fraction(0), -1000),))
    >>> tx = settlement("r1", "bob", {Bet.PLAYER: 1000}, won, table_id="t1")
    >>> fix = correction(tx, tx.lines, lost, correction_id="c1", table_id="t1",
    ...                  author="sup", reason="wrong card scanned", payee_balance=500)
    >>> [(e.account.code, e.amount) for e in fix.entries], fix.reference == tx.id
    ([('house:t1', 2000), ('player:bob', -500), ('receivable:bob', -1500)], True)
    """
    if original.kind is not TransactionKind.SETTLE or original.player_id is None:
        raise LedgerError(f"only a settlement can be corrected, not a {original.kind.value}")
    if original.round_id is None:
        raise LedgerError("a settlement without a round cannot be corrected")
    player_id = original.player_id
    new_lines = new if isinstance(new, tuple) else lines_of(new)
    old_lines = tuple(current)
    if [(ln.bet, ln.stake) for ln in old_lines] != [(ln.bet, ln.stake) for ln in new_lines]:
        raise LedgerError(f"a correction of {player_id}'s hand must keep the same bets and stakes")
    difference = returned(new_lines) - returned(old_lines)
    target = payee or Account.player(player_id, original.currency)
    amounts = {Account.house(table_id, target.currency): -difference, target: difference}
    if (
        difference < 0
        and target.kind is AccountKind.PLAYER
        and payee_balance is not None
        and payee_balance < -difference
    ):
        from_wallet = max(payee_balance, 0)
        amounts[target] = -from_wallet
        amounts[Account.receivable(player_id, target.currency)] = difference + from_wallet
    kind = TransactionKind.VOID if void else TransactionKind.CORRECTION
    key = (
        f"void:{original.round_id}:{player_id}"
        if void
        else f"correct:{original.round_id}:{player_id}:{correction_id}"
    )
    return Transaction(
        kind,
        key,
        _entries(amounts),
        round_id=original.round_id,
        player_id=player_id,
        reference=original.id,
        author=author,
        reason=reason,
        lines=new_lines,
    )


def unclaimed(
    source: Account,
    amount: int,
    *,
    idempotency_key: str,
    reason: str,
    author: str | None = None,
    reference: str | None = None,
    player_id: str | None = None,
) -> Transaction:
    """Money nobody claimed moves from ``source`` to the unclaimed account [S15]."""
    amount = _positive(amount, "an unclaimed amount")
    return Transaction(
        TransactionKind.UNCLAIMED,
        idempotency_key,
        _entries({source: -amount, Account.unclaimed(currency=source.currency): amount}),
        player_id=player_id,
        reference=reference,
        author=author,
        reason=reason,
    )


def settle_players(
    rules: Rules,
    coup: Outcome | CoupFacts,
    bets: Mapping[str, Mapping[Bet, int]],
    *,
    lightning: LightningDraw | None = None,
) -> dict[str, Settlement]:
    """Every player's settlement of one coup (the input of a round's settlement; at a
    multiplier table, with the hand's ``lightning`` draw [LB])."""
    # each area's ratio found once, identical bets shared
    settler = Settler(rules, coup, lightning=lightning)
    return {player: settler.settle(player_bets) for player, player_bets in bets.items()}
