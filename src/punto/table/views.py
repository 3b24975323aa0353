"""What each viewer may see: projections of the one event list, and the hand records.

- **auditor**: everything.
- **dealer**: every card (the dealer scans them), but no balance, no unconfirmed chip
  and no password digest.
- **player**: their own chips, balance, cash, result and refund; of everyone, the public
  table (bets once confirmed, seats, of a settled hand its :class:`SettledSummary`: how
  many players were settled and the bet areas a settlement paid, and of a refund its
  :class:`RefundedSummary` — never another player's winnings or refund, which at a table
  of thousands would also make a settled hand, or a void hand's refunds, megabytes long
  for each client). A face-down card is hidden until it is revealed,
  except from the player who holds that side's cards (they look first: the squeeze, the
  [S] reading); burned cards stay hidden until the shoe's order is revealed at its end.
- **watcher**: a spectator with no identity: the public table only.

>>> from punto.cards import Card
>>> from punto.coup import Position
>>> from punto.table.records import GameNumber
>>> placed = CardPlaced(at=0.0, game=GameNumber("T1", 1, 1), position=Position.PLAYER_1,
...                     card=Card.parse("9S"), face_up=False, rescan=False)
>>> project([placed], Viewer.PLAYER, "ann")[0].card is None
True
>>> project([placed], Viewer.DEALER)[0].card
Card('9S')
>>> from punto.outcome import Side
>>> held = CardsHeld(at=0.0, game=placed.game, side=Side.PLAYER, player="ann",
...                  took_over_from=None)
>>> project([held, placed], Viewer.PLAYER, "ann")[1].card, project([held, placed],
...         Viewer.PLAYER, "bob")[1].card
(Card('9S'), None)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from punto.bets import Bet
from punto.cards import Card
from punto.coup import Position
from punto.errors import TableError
from punto.outcome import Outcome, Side
from punto.table.events import (
    CHIP_EVENTS,
    BalanceTransferred,
    BetsConfirmed,
    BetsRefunded,
    BettingOpened,
    BlankHandStarted,
    CardPlaced,
    CardsBurned,
    CardsHeld,
    CardsRevealed,
    DealerChanged,
    Event,
    FaultReported,
    HandResettled,
    HandRestarted,
    HandResult,
    HandSettled,
    HandVoided,
    LightningDrawn,
    PlayerJoined,
    PlayerLeft,
    TableOpened,
    TieBetsChanged,
    VipSettingsChanged,
)
from punto.table.fault_catalogue import Effect, Fault
from punto.table.reasons import Why
from punto.table.records import (
    Bets,
    GameNumber,
    HandFacts,
    HandRecord,
    PlayerId,
    PlayerResult,
)

__all__ = [
    "RefundedSummary",
    "SettledSummary",
    "Viewer",
    "bet_records",
    "hand_facts",
    "hand_records",
    "project",
    "project_one",
    "refunded_summary",
    "settled_summary",
]


class Viewer(enum.Enum):
    """Who looks at the table."""

    PLAYER = "player"
    WATCHER = "watcher"
    DEALER = "dealer"
    AUDITOR = "auditor"


def _project_one(
    event: Event, viewer: Viewer, player: PlayerId | None, *, holds: bool = False
) -> Event | None:
    if viewer is Viewer.AUDITOR:
        return event
    own = viewer is Viewer.PLAYER and player is not None
    if isinstance(event, CHIP_EVENTS):
        return event if own and event.player == player else None
    if isinstance(event, PlayerJoined) and not (own and event.player == player):
        return dataclasses.replace(event, balance=None)
    if isinstance(event, BalanceTransferred) and not (own and event.player == player):
        return dataclasses.replace(event, amount=None)
    if isinstance(event, PlayerLeft) and not (own and event.player == player):
        return dataclasses.replace(event, cashed_out=None)
    if isinstance(event, VipSettingsChanged) and event.password_digest is not None:
        return dataclasses.replace(event, password_digest=None)
    if viewer is Viewer.DEALER:
        return event
    if isinstance(event, HandSettled) and event.results:
        mine = tuple(r for r in event.results if own and r.player == player)
        return dataclasses.replace(event, results=mine)
    if isinstance(event, BetsRefunded) and event.refunds:
        mine = tuple(r for r in event.refunds if own and r.player == player)
        return dataclasses.replace(event, refunds=mine)
    if isinstance(event, CardPlaced) and not event.face_up and not holds:
        return dataclasses.replace(event, card=None)
    if isinstance(event, CardsBurned) and event.cards is not None:
        return dataclasses.replace(event, cards=None)
    return event


@dataclass(frozen=True, slots=True)
class SettledSummary:
    """What every viewer sees of a settled hand, whoever bet: how many players it
    settled and the bet areas that some settlement paid (a net win), in the order of
    :class:`~punto.bets.Bet`. Each player sees their own result beside it; the dealer
    and auditors see every result."""

    players: int
    areas_won: tuple[Bet, ...]


def settled_summary(event: HandSettled) -> SettledSummary:
    """The public part of a settled hand (:class:`SettledSummary`).

    >>> from fractions import Fraction
    >>> from punto.settlement import BetResult, Settlement
    >>> from punto.table.records import GameNumber, PlayerResult
    >>> win = BetResult(Bet.TIE, 100, "win", Fraction(8), 800)
    >>> lose = BetResult(Bet.PLAYER, 100, "lose", Fraction(1), -100)
    >>> results = (PlayerResult("ann", Settlement((win, lose)), 900),)
    >>> settled = HandSettled(at=0.0, game=GameNumber("T1", 1, 1), results=results,
    ...                       void_reason=None, last=False)
    >>> settled_summary(settled)
    SettledSummary(players=1, areas_won=(<Bet.TIE: 'tie'>,))
    """
    paid = {line.bet for r in event.results for line in r.settlement.results if line.net > 0}
    return SettledSummary(players=len(event.results), areas_won=tuple(b for b in Bet if b in paid))


@dataclass(frozen=True, slots=True)
class RefundedSummary:
    """What every viewer sees of a refund, whoever was refunded: how many players got
    their stakes back. Each player sees their own refund beside it; the dealer and
    auditors see every refund. What left the layout needs no list: the event's
    ``everyone`` says whether every confirmed bet went (otherwise the one player's, whose
    ``PlayerLeft`` follows)."""

    players: int


def refunded_summary(event: BetsRefunded) -> RefundedSummary:
    """The public part of a refund (:class:`RefundedSummary`).

    >>> from punto.settlement import refund
    >>> from punto.table.reasons import Reason, Why
    >>> from punto.table.records import GameNumber, PlayerResult, freeze_bets
    >>> back = refund(freeze_bets({Bet.BANKER: 500}))
    >>> refunds = tuple(PlayerResult(p, back, 500) for p in ("ann", "bob"))
    >>> refunded = BetsRefunded(at=0.0, game=GameNumber("T1", 1, 1), refunds=refunds,
    ...                         reason=Why(Reason.CLOSED_BY_SUPERVISOR), everyone=True)
    >>> refunded_summary(refunded)
    RefundedSummary(players=2)
    """
    return RefundedSummary(players=len(event.refunds))


def project(
    events: Iterable[Event], viewer: Viewer, player: PlayerId | None = None
) -> tuple[Event, ...]:
    """The events as ``viewer`` (``player``, for a player's own view) may see them. The
    player holding a side's cards sees them as they are dealt face down: they look
    first, squeezing or reading them [M16], [S], [O]; everyone else sees them turned."""
    if viewer is Viewer.PLAYER and player is None:
        raise TableError("a player's view needs the player's id")
    held: dict[tuple[GameNumber, Side], PlayerId] = {}
    shown: list[Event] = []
    for event in events:
        if isinstance(event, CardsHeld):
            held[(event.game, event.side)] = event.player
        holds = (
            isinstance(event, CardPlaced)
            and player is not None
            and held.get((event.game, event.position.side)) == player
        )
        seen = _project_one(event, viewer, player, holds=holds)
        if seen is not None:
            shown.append(seen)
    return tuple(shown)


def project_one(event: Event, viewer: Viewer, player: PlayerId | None = None) -> Event | None:
    """One event as ``viewer`` may see it, ``None`` if not at all: :func:`project` of
    that event alone (a card dealt face down is turned for everyone then; who holds a
    side's cards is known from the events before it). A server's fan-out asks it of
    every event for each kind of viewer."""
    if viewer is Viewer.PLAYER and player is None:
        raise TableError("a player's view needs the player's id")
    return _project_one(event, viewer, player)


@dataclass(slots=True)
class _Builder:
    game: GameNumber
    dealer: str
    opened_at: float
    blank: bool = False
    closed_at: float | None = None
    cards: dict[Position, Card] = field(default_factory=dict)
    outcome: Outcome | None = None
    bets: dict[PlayerId, Bets] = field(default_factory=dict)
    results: dict[PlayerId, PlayerResult] = field(default_factory=dict)
    holders: dict[Side, PlayerId] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    void: bool = False
    void_reason: Why | None = None
    corrections: dict[PlayerId, int] = field(default_factory=dict)
    card_times: dict[Position, float] = field(default_factory=dict)
    lightning: tuple[tuple[Card, int], ...] = ()
    fees: dict[PlayerId, int] = field(default_factory=dict)

    def freeze(self) -> HandRecord:
        order = list(Position)
        return HandRecord(
            game=self.game,
            dealer=self.dealer,
            opened_at=self.opened_at,
            closed_at=self.closed_at,
            cards=tuple(sorted(self.cards.items(), key=lambda pc: order.index(pc[0]))),
            outcome=self.outcome,
            bets=dict(self.bets),
            results=dict(self.results),
            holders=dict(self.holders),
            faults=tuple(self.faults),
            blank=self.blank,
            void=self.void,
            void_reason=self.void_reason,
            corrections=dict(self.corrections),
            card_times={p: self.card_times[p] for p in order if p in self.card_times},
            lightning=self.lightning,
            fees=dict(self.fees),
        )


def _bets(event: BetsConfirmed | TieBetsChanged, hand: _Builder) -> None:
    if event.bets:
        hand.bets[event.player] = event.bets
    else:
        hand.bets.pop(event.player, None)


def _confirmed(event: BetsConfirmed, hand: _Builder) -> None:
    _bets(event, hand)
    if event.fee:  # [LB]
        hand.fees[event.player] = hand.fees.get(event.player, 0) + event.fee


def _lightning(event: LightningDrawn, hand: _Builder) -> None:
    hand.lightning = event.cards


def _refunded(event: BetsRefunded, hand: _Builder) -> None:
    for result in event.refunds:
        hand.results[result.player] = result


def _held(event: CardsHeld, hand: _Builder) -> None:
    hand.holders[event.side] = event.player


def _placed(event: CardPlaced, hand: _Builder) -> None:
    hand.card_times[event.position] = event.at  # a rescan: when the card was read
    if event.card is not None:
        hand.cards[event.position] = event.card


def _revealed(event: CardsRevealed, hand: _Builder) -> None:
    hand.cards.update(event.cards)


def _restarted(_event: HandRestarted, hand: _Builder) -> None:
    hand.cards.clear()
    hand.card_times.clear()
    hand.outcome = None


def _result(event: HandResult, hand: _Builder) -> None:
    hand.outcome = event.outcome


def _settled(event: HandSettled, hand: _Builder) -> None:
    hand.closed_at = event.at
    hand.results.update({r.player: r for r in event.results})
    if event.void_reason:
        hand.void, hand.void_reason = True, event.void_reason


def _voided(event: HandVoided, hand: _Builder) -> None:
    hand.closed_at = event.at
    hand.void, hand.void_reason = True, event.reason


def _resettled(event: HandResettled, hand: _Builder) -> None:
    hand.outcome = event.outcome
    hand.results.update({r.player: r for r in event.results})
    for player, delta in event.corrections:
        hand.corrections[player] = hand.corrections.get(player, 0) + delta


def _fault(event: FaultReported, hand: _Builder) -> None:
    hand.faults.append(event.fault)
    if event.effect is Effect.REFUND_BLANK_HAND:
        hand.blank = True


_APPLY: dict[type[Event], Callable[[Any, _Builder], None]] = {
    BetsConfirmed: _confirmed,
    TieBetsChanged: _bets,
    LightningDrawn: _lightning,
    BetsRefunded: _refunded,
    CardsHeld: _held,
    CardPlaced: _placed,
    CardsRevealed: _revealed,
    HandRestarted: _restarted,
    HandResult: _result,
    HandSettled: _settled,
    HandVoided: _voided,
    HandResettled: _resettled,
    FaultReported: _fault,
}
"""What each event of a hand adds to its record, by the event's class (one look-up: a
busy hand's record passes over tens of thousands of chips, which add nothing)."""


def hand_records(events: Iterable[Event]) -> tuple[HandRecord, ...]:
    """Every hand's record — game number, dealer, times, cards, result, bets,
    settlements, faults — in the order the hands were opened [L]."""
    dealer = ""
    hands: dict[GameNumber, _Builder] = {}
    last: tuple[object, _Builder | None] = (None, None)  # the last event's hand
    for event in events:
        if (apply := _APPLY.get(type(event))) is not None:
            game = getattr(event, "game", None)
            if game is last[0]:  # most events follow one of the same hand
                hand = last[1]
            else:
                hand = hands.get(game) if isinstance(game, GameNumber) else None
                last = (game, hand)
            if hand is not None:
                apply(event, hand)
        elif isinstance(event, TableOpened | DealerChanged):
            dealer = event.dealer
        elif isinstance(event, BettingOpened):
            hand = hands[event.game] = _Builder(event.game, dealer, event.at)
            hand.bets.update(dict(event.standing))
            last = (None, None)
        elif isinstance(event, BlankHandStarted):
            hands[event.game] = _Builder(event.game, dealer, event.at, blank=True)
            last = (None, None)
    return tuple(hand.freeze() for hand in hands.values())


def hand_facts(
    game: GameNumber, tail: Iterable[Event], *, dealer: str, opened_at: float
) -> HandFacts:
    """What ``game``'s record will hold that the ledger does not (:class:`HandFacts`),
    read as its record reads it (:func:`hand_records`) from ``tail``, the hand's events
    from its betting's close on: its cards, their times and who held them all come
    after it, so a hand of thousands of bets is not read again for them."""
    hand = _Builder(game, dealer, opened_at)
    for event in tail:
        apply = _APPLY.get(type(event))
        if apply is not None and getattr(event, "game", None) == game:
            apply(event, hand)
    record = hand.freeze()
    return HandFacts(
        dealer=record.dealer,
        opened_at=record.opened_at,
        card_times=record.card_times,
        holders=record.holders,
    )


def bet_records(events: Iterable[Event], player: PlayerId) -> tuple[HandRecord, ...]:
    """A player's own bet records [L]: the hands they bet on, with only their bets,
    results and corrections."""
    out = []
    for record in hand_records(events):
        if player not in record.bets and player not in record.results:
            continue
        out.append(
            dataclasses.replace(
                record,
                bets={p: b for p, b in record.bets.items() if p == player},
                results={p: r for p, r in record.results.items() if p == player},
                corrections={p: c for p, c in record.corrections.items() if p == player},
                fees={p: f for p, f in record.fees.items() if p == player},
            )
        )
    return tuple(out)
