"""What the server does about a table's events, as data: a plain list of effects.

The table (:mod:`punto.table`) only records what happened; :func:`effects_of` says what the
house must do about it — stake, record the result, settle, refund, save the shoe and the
hand's record, publish the events and the balances — as frozen dataclasses, in the order
they must run. It does no I/O and reads no clock (the time is passed in): the table's
runner (:class:`punto.server.tables.runner.TableRunner`) carries the list out, in order, and
stops at the first money effect that fails (*settlement pending*), trying it again with
backoff before anything after it runs.

**Money first.** Every event's own effects come first, then the hand records, then the
fan-out (:class:`Publish`, :class:`PublishBalances`, :class:`PublishRoads`): no message
goes out about money that has not moved, and a client's history holds a hand before the
client hears of it.

>>> from punto.table.events import BettingClosed
>>> from punto.table.records import GameNumber
>>> closed = BettingClosed(at=5.0, game=GameNumber("T1", 1, 3), by=None, early=False, discarded=())
>>> [type(e).__name__ for e in effects_of([closed], first=7, hand=Hand(), now=5.0)]
['Countdown', 'Publish']
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from punto.bets import Bet
from punto.multipliers import LightningDraw
from punto.outcome import Outcome, Side
from punto.table.events import (
    BalanceTransferred,
    BetsConfirmed,
    BetsRefunded,
    BettingClosed,
    BettingExtended,
    BettingOpened,
    BettingTimeChanged,
    BlankHandStarted,
    CardsHeld,
    ChangePending,
    ChipChosen,
    Event,
    HandResettled,
    HandRestarted,
    HandResult,
    HandSettled,
    HandVoided,
    LightningDrawn,
    PauseCalledOff,
    PauseRequested,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
    TieBetsChanged,
)
from punto.table.records import GameNumber

__all__ = [
    "AddRoad",
    "CancelStakes",
    "CloseShoe",
    "Countdown",
    "Effect",
    "Failure",
    "Forget",
    "Hand",
    "HoldCards",
    "LeaveTable",
    "OpenShoe",
    "Publish",
    "PublishBalances",
    "PublishRoads",
    "RecordResult",
    "Refund",
    "RememberChip",
    "SaveRecord",
    "SendSnapshots",
    "Settle",
    "Stake",
    "StartHand",
    "Stop",
    "effects_of",
]


class Failure(enum.Enum):
    """What the runner does when an effect fails."""

    PAUSE = "pause"
    """Money: the table stops in *settlement pending*; the effect is tried again (with
    backoff) before anything after it."""
    LOG = "log"
    """A record or the runner's own memory: logged, and the table goes on."""
    RAISE = "raise"
    """The fan-out (the bus gave up): the error reaches the caller; the effects after it
    still run on the next step."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing the server does about the table's events."""

    failure: ClassVar[Failure] = Failure.LOG


@dataclass(frozen=True, slots=True)
class Hand:
    """What the runner knows of the hand in play when the events come: where its events
    start, its result if already recorded, and whether it is a blank hand (no road)."""

    start: int = 0
    outcome: Outcome | None = None
    blank: bool = False
    lightning: LightningDraw | None = None
    """[LB] The hand's lightning cards (a multiplier table), once drawn."""


# -- money -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stake(Effect):
    """Stake the bets a tie left standing [M12] again on the new round, every standing
    player's at once: in the ledger, in one transaction (with the operator's wallet, each
    player's debit and then stake by a task of its own, without the table's lock).
    ``stakes``: each player and their standing bets."""

    failure: ClassVar[Failure] = Failure.PAUSE
    game: str
    stakes: tuple[tuple[str, Mapping[Bet, int]], ...]

    def confirmation_id(self, player: str) -> str:
        """The idempotency key of ``player``'s stake (a retry stakes nothing twice)."""
        return f"standing:{self.game}:{player}"


@dataclass(frozen=True, slots=True)
class RecordResult(Effect):
    """The hand's outcome, kept with its round (a crash after it still settles), with
    what the hand's events from ``first`` to before ``done`` say of it."""

    failure: ClassVar[Failure] = Failure.PAUSE
    game: str
    outcome: Outcome
    first: int = 0
    """The hand's first event."""
    done: int = 0
    """The events whose effects are worked out with this one end before this one."""
    lightning: LightningDraw | None = None
    """[LB] The hand's lightning cards, kept with the result."""


@dataclass(frozen=True, slots=True)
class Settle(Effect):
    """Settle the round in the ledger from its own record of the bets (the hand's record,
    of its events from ``first`` to before ``done``, saved beside it)."""

    failure: ClassVar[Failure] = Failure.PAUSE
    game: str
    outcome: Outcome
    first: int = 0
    done: int = 0
    lightning: LightningDraw | None = None
    """[LB] The hand's lightning cards: the winning bets are paid multiplied."""


@dataclass(frozen=True, slots=True)
class RememberLightning(Effect):
    """[LB] The hand's lightning cards were drawn: the runner keeps them for its
    settlement."""

    draw: LightningDraw


@dataclass(frozen=True, slots=True)
class Refund(Effect):
    """Void the round in the ledger (every stake back), if it is still open there."""

    failure: ClassVar[Failure] = Failure.PAUSE
    game: str
    reason: str
    """The ledger's reason text: ``str`` of the :class:`~punto.table.reasons.Why`."""
    by_table: bool = False
    """The table voided it at settlement (the house's act, not the author's)."""


@dataclass(frozen=True, slots=True)
class CancelStakes(Effect):
    """Take some players' stakes of a round still open back in the ledger: a player
    removed while betting is open, with only the main bets a tie left standing [M12]
    (:meth:`~punto.table.Table.leave`, a gone player released [S13]). The round and every
    other player's stakes stay (a :class:`Refund` would void them all)."""

    failure: ClassVar[Failure] = Failure.PAUSE
    game: str
    players: tuple[str, ...]
    reason: str
    """The ledger's reason text: ``str`` of the :class:`~punto.table.reasons.Why`."""


# -- records and the runner's memory ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenShoe(Effect):
    """Store the new shoe and its commitment; the roads start again."""

    event: ShoeOpened


@dataclass(frozen=True, slots=True)
class CloseShoe(Effect):
    """Store the shoe's end and its reveal; check it against the rules' figures."""

    event: ShoeClosed


@dataclass(frozen=True, slots=True)
class StartHand(Effect):
    """A new hand starts at event ``index``: forget the last hand's holders, result and
    confirmations."""

    index: int
    blank: bool = False


@dataclass(frozen=True, slots=True)
class Forget(Effect):
    """The hand is dealt again [O]: its result is forgotten."""


@dataclass(frozen=True, slots=True)
class RememberChip(Effect):
    """The chip a player chose (their snapshot shows it)."""

    player: str
    chip: int


@dataclass(frozen=True, slots=True)
class HoldCards(Effect):
    """``player`` holds ``side``'s face-down cards (the cards dealt there are theirs to
    see)."""

    game: GameNumber
    side: Side
    player: str


@dataclass(frozen=True, slots=True)
class LeaveTable(Effect):
    """The player left: their seat row goes."""

    player: str


@dataclass(frozen=True, slots=True)
class AddRoad(Effect):
    """The settled hand joins the roads."""

    outcome: Outcome


@dataclass(frozen=True, slots=True)
class SaveRecord(Effect):
    """Save the hand's record, of its events from ``first`` to before ``done``
    (``resettled``: a correction, its amendments carried)."""

    game: GameNumber
    resettled: bool = False
    first: int = 0
    done: int = 0


@dataclass(frozen=True, slots=True)
class Stop(Effect):
    """The table closed: the runner's loop ends."""


# -- the fan-out ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Countdown(Effect):
    """The ``countdown`` message, now (betting was extended or closed)."""

    failure: ClassVar[Failure] = Failure.RAISE
    now: float


@dataclass(frozen=True, slots=True)
class Publish(Effect):
    """Fan the events ``first`` … ``first + count - 1`` out, each viewer its view."""

    failure: ClassVar[Failure] = Failure.RAISE
    first: int
    count: int


@dataclass(frozen=True, slots=True)
class SendSnapshots(Effect):
    """A new snapshot to each player who must see the table afresh: ``everyone`` (new
    rules), or each of the ``holders`` who took over a side's face-down cards while that
    side awaits its squeeze."""

    failure: ClassVar[Failure] = Failure.RAISE
    everyone: bool = False
    holders: tuple[tuple[Side, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PublishBalances(Effect):
    """The ``balance`` message of each player whose money moved, with why (after the
    money: the operator's wallet is paid first)."""

    failure: ClassVar[Failure] = Failure.RAISE
    notes: tuple[tuple[str, str], ...]
    game: GameNumber | None = None
    outside: tuple[tuple[str, int], ...] = ()
    """Money that came to a player's table balance from outside this table's play (a
    transfer: a deposit, another table) — multi-table play tells the player's other
    tables only what play here moved."""


@dataclass(frozen=True, slots=True)
class PublishRoads(Effect):
    """The ``roads`` message."""

    failure: ClassVar[Failure] = Failure.RAISE


@dataclass(slots=True)
class _Step:
    """What :func:`effects_of` gathers while it walks the events."""

    hand: Hand
    done: int
    first: list[Effect] = field(default_factory=list)
    records: list[SaveRecord] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    outside: dict[str, int] = field(default_factory=dict)
    game: GameNumber | None = None
    roads: bool = False
    snapshots: bool | None = None  # None: none; True: everyone; False: some
    holders: list[tuple[Side, str]] = field(default_factory=list)
    money: bool = False


def effects_of(events: Sequence[Event], *, first: int, hand: Hand, now: float) -> list[Effect]:
    """The effects of ``events`` (numbered from ``first``), in the order they must run.

    ``hand`` is what the runner knows of the hand in play (it moves on with the events);
    ``now`` is the time of the messages that say how long is left."""
    done = first + len(events)
    step = _Step(hand=hand, done=done)
    for offset, event in enumerate(events):
        _of(first + offset, event, step, now)
        game = getattr(event, "game", None)
        if isinstance(game, GameNumber):
            step.game = game
    out = step.first
    start = step.hand.start  # the hand in play once every event's own effects have run
    out.extend(replace(record, first=start, done=done) for record in step.records)
    if events:
        out.append(Publish(first=first, count=len(events)))
    if step.snapshots is not None:
        out.append(SendSnapshots(everyone=step.snapshots, holders=tuple(step.holders)))
    if step.notes or step.money:
        out.append(
            PublishBalances(
                notes=tuple(step.notes.items()),
                game=step.game,
                outside=tuple(step.outside.items()),
            )
        )
    if step.roads:
        out.append(PublishRoads())
    return out


def _of(index: int, event: Event, step: _Step, now: float) -> None:
    """One event's own effects (and what it adds to the step's records and messages)."""
    add = step.first.append
    notes = step.notes
    match event:
        case ShoeOpened():
            add(OpenShoe(event))
            step.roads = True
        case ShoeClosed():
            add(CloseShoe(event))
        case RulesChanged():
            step.snapshots = True
        case PauseRequested() | PauseCalledOff() | ChangePending() | BettingTimeChanged():
            pass  # [S14] changes the table makes itself: told, nothing else to do
        case BettingOpened():
            step.hand = Hand(start=index)
            add(StartHand(index))
            if event.standing:
                add(Stake(str(event.game), tuple(event.standing)))
                step.money = True
        case BlankHandStarted():
            step.hand = Hand(start=index, blank=True)
            add(StartHand(index, blank=True))
        case ChipChosen():
            add(RememberChip(event.player, event.chip))
        case CardsHeld():
            add(HoldCards(event.game, event.side, event.player))
            step.holders.append((event.side, event.player))
            step.snapshots = step.snapshots or False
        case BetsConfirmed():
            notes[event.player] = "confirmed"
        case TieBetsChanged():
            notes[event.player] = "tie_bets_changed"
        case BettingExtended() | BettingClosed():
            add(Countdown(now))
        case LightningDrawn():
            draw = LightningDraw(event.cards)
            step.hand = replace(step.hand, lightning=draw)
            add(RememberLightning(draw))
        case HandRestarted():
            step.hand = replace(step.hand, outcome=None)
            add(Forget())
        case HandResult():
            step.hand = replace(step.hand, outcome=event.outcome)
            lit = step.hand.lightning
            add(RecordResult(str(event.game), event.outcome, step.hand.start, step.done, lit))
        case HandSettled():
            outcome = step.hand.outcome
            if event.void_reason:
                add(Refund(str(event.game), str(event.void_reason), by_table=True))
            elif outcome is not None:
                lit = step.hand.lightning
                add(Settle(str(event.game), outcome, step.hand.start, step.done, lit))
            step.money = True
            for result in event.results:
                notes[result.player] = "settled"
            step.records.append(SaveRecord(event.game))
            if not event.void_reason and not step.hand.blank and outcome is not None:
                add(AddRoad(outcome))
                step.roads = True
        case BetsRefunded():
            for result in event.refunds:
                notes[result.player] = "refunded"
            if event.game is not None:
                if event.everyone:
                    add(Refund(str(event.game), str(event.reason)))
                else:  # one player removed: theirs only, the hand goes on
                    players = tuple(result.player for result in event.refunds)
                    add(CancelStakes(str(event.game), players, str(event.reason)))
                step.money = True
        case HandVoided():
            add(Refund(str(event.game), str(event.reason)))
            step.money = True
            step.records.append(SaveRecord(event.game))
        case HandResettled():
            for player, _delta in event.corrections:
                notes[player] = "corrected"
            step.records.append(SaveRecord(event.game, resettled=True))
        case PlayerJoined():
            notes[event.player] = "joined"
        case BalanceTransferred():
            notes[event.player] = "transferred"
            step.outside[event.player] = step.outside.get(event.player, 0) + (event.amount or 0)
        case PlayerLeft():
            add(LeaveTable(event.player))
            notes[event.player] = "left"
        case TableClosed():
            add(Stop())
        case _:
            pass
