"""What a table records of every hand: its game number and the facts of a complaint [L].

A complaint needs the date and time, the table, the dealer's name and the game number;
a :class:`HandRecord` keeps those and the cards, the result, every bet and every
settlement. Records are built from the table's events by
:func:`punto.table.views.hand_records`, never kept apart from them.

>>> str(GameNumber(table="T7", shoe=3, hand=41))
'T7-003-041'
>>> GameNumber.parse("T7-003-041")
GameNumber(table='T7', shoe=3, hand=41)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from punto.bets import Bet
from punto.cards import Card
from punto.coup import Position
from punto.errors import TableError
from punto.outcome import Outcome, Side
from punto.settlement import Settlement
from punto.table.fault_catalogue import Fault
from punto.table.reasons import Reason, Why

__all__ = [
    "Bets",
    "GameNumber",
    "HandFacts",
    "HandRecord",
    "PlayerId",
    "PlayerResult",
    "freeze_bets",
    "recovered_record",
]

PlayerId = str
"""A player's id at the table (the server's account id)."""

Bets = Mapping[Bet, int]
"""Amounts per bet, in minor units."""


def freeze_bets(bets: Mapping[Bet, int]) -> Bets:
    """A read-only copy of ``bets`` without zero amounts, in the standard bet order.

    >>> dict(freeze_bets({Bet.TIE: 5, Bet.PLAYER: 10, Bet.BANKER: 0}))
    {<Bet.PLAYER: 'player'>: 10, <Bet.TIE: 'tie'>: 5}
    """
    placed = []
    for key, amount in bets.items():
        known = _BET_ORDER.get(key)
        if known is not None and amount:
            placed.append((known, amount))
    placed.sort()
    return MappingProxyType({bet: amount for (_n, bet), amount in placed})


_BET_ORDER = {bet: (n, bet) for n, bet in enumerate(Bet)}
"""The standard order of the bets (only a slip's own bets are sorted, not every bet)."""


@dataclass(frozen=True, slots=True, order=True)
class GameNumber:
    """Table, shoe and hand: the number a complaint quotes [L]."""

    table: str
    shoe: int
    hand: int

    def __str__(self) -> str:
        return f"{self.table}-{self.shoe:03d}-{self.hand:03d}"

    @classmethod
    def parse(cls, text: str) -> GameNumber:
        """Read ``TABLE-SHOE-HAND`` (the table id may itself contain dashes)."""
        try:
            table, shoe, hand = text.strip().rsplit("-", 2)
            return cls(table, int(shoe), int(hand))
        except ValueError:
            raise TableError(
                f"bad game number {text!r}: expected TABLE-SHOE-HAND, e.g. T7-003-041"
            ) from None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One player's money in one hand: the settlement of their bets, what went back to
    their balance, and the main bets left standing after a tie [M12]."""

    player: PlayerId
    settlement: Settlement
    returned: int
    standing: Bets = field(default_factory=lambda: freeze_bets({}))


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything a hand left behind, enough to answer a complaint [L]."""

    game: GameNumber
    dealer: str
    opened_at: float
    closed_at: float | None
    cards: tuple[tuple[Position, Card], ...]
    outcome: Outcome | None
    bets: Mapping[PlayerId, Bets]
    results: Mapping[PlayerId, PlayerResult]
    holders: Mapping[Side, PlayerId]
    faults: tuple[Fault, ...]
    blank: bool
    void: bool
    void_reason: Why | None
    corrections: Mapping[PlayerId, int]
    """Money moved by a re-settlement [O], per player (positive: paid to the player)."""
    card_times: Mapping[Position, float] = field(default_factory=dict)
    """When each card was placed (the table clock's seconds, the wall clock on a live
    server): with ``opened_at`` and ``closed_at``, where the hand lies in the table's
    video recording [L] (an HLS stream's EXT-X-PROGRAM-DATE-TIME maps it to a position)."""
    lightning: tuple[tuple[Card, int], ...] = ()
    """[LB] The hand's lightning cards and their multipliers (a multiplier table)."""
    fees: Mapping[PlayerId, int] = field(default_factory=dict)
    """[LB] The fee each player paid with their bets on the hand."""

    @property
    def settled(self) -> bool:
        """Whether the hand is over (settled, or void and refunded)."""
        return self.closed_at is not None


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a hand's record holds that the ledger does not: who dealt, when betting
    opened, when each card was placed, who held the cards. Kept with the round in the
    ledger — the dealer and the opening time as its first stake opens it, all of them
    with its result when the coup is complete [L] — so that a record rebuilt after a
    crash (:func:`recovered_record`) still names the dealer for a complaint and places
    the hand in the table's video."""

    dealer: str = ""
    opened_at: float | None = None
    card_times: Mapping[Position, float] = field(default_factory=dict)
    holders: Mapping[Side, PlayerId] = field(default_factory=dict)


def recovered_record(
    game: GameNumber,
    *,
    opened_at: float,
    closed_at: float,
    outcome: Outcome | None,
    bets: Mapping[PlayerId, Mapping[Bet, int]],
    settlements: Mapping[PlayerId, Settlement] | None,
    facts: HandFacts | None = None,
) -> HandRecord:
    """The record of a hand whose table's process stopped before it saved one [L]: the
    money of the hand was settled (``settlements``: each player's, as the ledger paid
    them) or, without them, the hand was void and every bet returned
    (:attr:`Reason.STOPPED`). Built from what outlives the process — the result, the
    bets, the settlements, and the ``facts`` kept with the round (the dealer, the card
    times, who held the cards; ``opened_at`` is theirs when they have it). A round
    stopped before its coup was complete has only those of its opening (the dealer and
    the time); without any, those stay empty.

    >>> from punto.cards import parse_cards
    >>> coup = Outcome.from_hands(parse_cards("9S KH"), parse_cards("7H 8C"))
    >>> record = recovered_record(
    ...     GameNumber("T1", 1, 4), opened_at=10.0, closed_at=12.0, outcome=coup,
    ...     bets={"ann": {Bet.PLAYER: 500}}, settlements=None)
    >>> [(p.value, str(c)) for p, c in record.cards]
    [('P1', '9S'), ('B1', '7H'), ('P2', 'KH'), ('B2', '8C')]
    >>> record.void, record.void_reason.code.value, dict(record.bets["ann"]), record.results
    (True, 'stopped', {<Bet.PLAYER: 'player'>: 500}, {})
    """
    cards: tuple[tuple[Position, Card], ...] = ()
    if outcome is not None:
        hands = {Side.PLAYER: outcome.player, Side.BANKER: outcome.banker}
        cards = tuple(  # the positions in dealing order [M7], as far as each hand goes
            (p, hands[p.side][p.number - 1]) for p in Position if p.number <= len(hands[p.side])
        )
    results = {
        player: PlayerResult(player, settlement, settlement.total_returned)
        for player, settlement in (settlements or {}).items()
    }
    facts = facts or HandFacts()
    return HandRecord(
        game=game,
        dealer=facts.dealer,
        opened_at=opened_at if facts.opened_at is None else facts.opened_at,
        closed_at=closed_at,
        cards=cards,
        outcome=outcome if settlements is not None else None,
        bets={player: freeze_bets(placed) for player, placed in bets.items()},
        results=results,
        holders=dict(facts.holders),
        faults=(),
        blank=False,
        void=settlements is None,
        void_reason=Why(Reason.STOPPED) if settlements is None else None,
        corrections={},
        card_times={p: facts.card_times[p] for p in Position if p in facts.card_times},
    )
