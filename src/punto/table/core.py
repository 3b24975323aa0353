"""The state of a table and the steps its actions share.

:class:`TableCore` holds everything a table knows — phase, seats, its money (a
:class:`~punto.table.money.TableMoney`), bet slips, the shoe, the hand in progress —
and the internal steps several actions take (emit an event, change phase, refund, void
a hand, close the shoe, reveal cards). The actions
themselves live in :mod:`~punto.table.seating`, :mod:`~punto.table.round`,
:mod:`~punto.table.hand`, :mod:`~punto.table.house` and
:mod:`~punto.table.fault_handling`; :class:`~punto.table.Table` combines them.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from punto.analysis.closing import SideBetPricer
from punto.bets import Bet
from punto.cards import Card
from punto.coup import Coup, Position
from punto.errors import AccessError, BettingError, PuntoError, SeatError, TableError
from punto.money import display_amount
from punto.multipliers import LightningDraw
from punto.outcome import Outcome, Side
from punto.rules import Rules
from punto.settlement import pushed_main_bets, refund
from punto.table.clock import Clock
from punto.table.events import (
    CHIP_EVENTS,
    BetsRefunded,
    BettingClosed,
    CardsBurned,
    CardsHeld,
    CardsRevealed,
    CutCardOut,
    Event,
    HandResult,
    HandVoided,
    LightningDrawn,
    OpenCardsRequested,
    PlayerConnection,
    PlayerJoined,
    PlayerLeft,
    PlayerSat,
    PlayerWatching,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
    TableOpened,
    TieBetsChanged,
)
from punto.table.kinds import Dealing, TableKind, TableSettings, VipSettings, password_digest
from punto.table.money import TableMoney
from punto.table.phases import IN_HAND, Phase, Step, require_phase, verify_transition
from punto.table.purses import Purse
from punto.table.reasons import Reason, Why
from punto.table.records import Bets, GameNumber, HandRecord, PlayerId, PlayerResult, freeze_bets
from punto.table.seat_plan import Place, Seats
from punto.table.shoes import CutNotice, LiveShoe, RngShoe, TableShoe
from punto.table.slip import BetSlip
from punto.table.squeeze import (
    HolderChoice,
    ReadCall,
    claims_of,
    holder_choice,
    is_face_down,
    may_hand_over,
    takeovers,
)
from punto.table.views import Viewer, hand_records, project
from punto.tie_options import TieAction
from punto.tiers import LimitTier

__all__ = ["PendingChanges", "TableCore"]

_CONFIRMED_UNCHANGED = (
    *CHIP_EVENTS,
    OpenCardsRequested,
    PlayerConnection,
    PlayerJoined,
    PlayerSat,
    PlayerWatching,
)
"""Events that move no one's confirmed bets (unconfirmed chips, a chip's value, a
request to open the cards, a connection, a player coming or taking a place): after them
the table's Banker and Player totals of confirmed bets stay as they were."""

SHOE_IN_PLAY = frozenset({Phase.SHOE_START, Phase.SETTLED})
"""Phases between two hands of a shoe in play."""


@dataclass(slots=True)
class OpenHand:
    """The hand in progress, from the opening of its bets to its settlement."""

    number: GameNumber
    opened_at: float
    closes_at: float
    blank: bool = False
    waited: set[PlayerId] = field(default_factory=set)
    open_asked: set[PlayerId] = field(default_factory=set)
    """Seated players who asked to open the cards at this stage: while betting, or during
    the squeeze now on (cleared when betting closes and when cards are turned) [O]."""
    coup: Coup = field(default_factory=Coup)
    face_down: set[Position] = field(default_factory=set)
    holders: dict[Side, PlayerId] = field(default_factory=dict)
    turned: set[Side] = field(default_factory=set)
    """Sides with a face-down card already turned: their squeeze has begun [O]."""
    started: bool = False
    rescan: bool = False
    new_shoe_after: bool = False
    edge_closed: Mapping[Bet, float] = field(default_factory=dict)
    """[EZ-C] The side bets closed for this hand, with the house edge that closed each."""
    lightning: LightningDraw | None = None
    """[LB] The hand's lightning cards, drawn when betting closed (a multiplier table)."""
    lightning_until: float = 0.0
    """[LB] The first card waits until then: the lightning cards are being shown."""

    @property
    def cards(self) -> list[tuple[Position, Card]]:
        """The cards dealt so far, in order."""
        return [(e.position, e.card) for e in self.coup.events]


@dataclass(frozen=True, slots=True)
class SettledHand:
    """What a re-settlement [O] needs of a settled hand."""

    outcome: Outcome
    bets: Mapping[PlayerId, Bets]
    results: Mapping[PlayerId, PlayerResult]
    lightning: LightningDraw | None = None
    """[LB] The hand's lightning cards: a re-settlement multiplies by them too."""


@dataclass(frozen=True, slots=True)
class PendingChanges:
    """Changes asked for that wait for the hand (or, for rules, the shoe) to end [S14]:
    the table makes them itself then (see :meth:`~punto.table.Table.request_pause`,
    :meth:`~punto.table.Table.change_limits`, :meth:`~punto.table.Table.change_betting_time`
    and :meth:`~punto.table.Table.change_rules`)."""

    pause: Why | None = None
    """The reason of a pause asked for during a hand."""
    limits: tuple[LimitTier, ...] | None = None
    """Limit tiers to put in force (a rules change replaces them)."""
    betting_seconds: float | None = None
    """The betting countdown to come."""
    rules: tuple[Rules, int] | None = None
    """Rules and their version, for the next shoe."""

    @property
    def any(self) -> bool:
        """Whether anything waits."""
        return (self.pause, self.limits, self.betting_seconds, self.rules) != (None,) * 4


class TableCore:
    """A table's state and shared steps (see :class:`~punto.table.Table` for the actions).

    ``clock`` gives the time of every event and runs the countdown; ``rng`` shuffles the
    shoes of an RNG table (default :class:`secrets.SystemRandom`).
    """

    def __init__(
        self,
        settings: TableSettings,
        *,
        clock: Clock,
        rng: random.Random | None = None,
        dealer: str = "dealer",
    ) -> None:
        self.settings = settings
        self.clock = clock
        self._rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.events: list[Event] = []
        self.events_forgotten = 0
        """Events dropped from the front of :attr:`events` (:meth:`forget_events`)."""
        self.phase = Phase.WAITING
        self.phase_history: list[Phase] = [Phase.WAITING]
        self.dealer = dealer
        self.seats = Seats(settings.seats)
        self.owner: PlayerId | None = None
        self.vip = VipSettings()
        self.button = 1
        self.shoe_number = 0
        self.money = TableMoney()
        """Every table balance, the stakes, the house's result (the one place money moves)."""
        self._chips: dict[PlayerId, int] = {}
        self.purses: dict[PlayerId, Purse] = {}
        """The players who bet in a currency other than the table's own
        (:mod:`punto.table.purses`)."""
        self._slips: dict[PlayerId, BetSlip] = {}
        self._main_totals: tuple[int, int, int] = (-1, 0, 0)
        """Every slip's confirmed Banker and Player total, as of event number ``[0]``
        (confirmed bets change only with an event; a confirm keeps it current, and so
        does an event that moves no confirmed bet, :data:`_CONFIRMED_UNCHANGED`)."""
        self._last_bets: dict[PlayerId, Bets] = {}
        self._shoe: TableShoe | None = None
        self._shoe_open = False
        self._game: OpenHand | None = None
        self._pricer: SideBetPricer | None = None
        self._edge_closed_last: tuple[Bet, ...] = ()
        """[EZ-C] The side bets the last hand opened closed (reopened ones are told)."""
        self._blank_owed: Why | None = None
        self._paused_from: Phase | None = None
        self._pending = PendingChanges()
        self._settled: dict[GameNumber, SettledHand] = {}
        self._remove_after_hand: set[PlayerId] = set()
        self._ready_at = 0.0
        """The house's next automated step is not due before this time (its pace)."""
        self._squeeze_until: float | None = None
        """When the squeeze now on ends and the table turns the cards itself [O]."""
        self._emit(
            TableOpened(
                at=self._now(),
                table=settings.table_id,
                kind_of_table=settings.kind,
                dealing=settings.dealing,
                reading=settings.table_reading,
                rules=settings.rules.name,
                seats=settings.seats,
                dealer=dealer,
            )
        )

    @property
    def rules(self) -> Rules:
        """The table's rules (limit tiers may change within a shoe [S14])."""
        return self.settings.rules

    @property
    def pending_changes(self) -> PendingChanges:
        """The changes waiting for the hand or the shoe to end [S14]."""
        return self._pending

    @property
    def game(self) -> GameNumber | None:
        """The number of the hand in progress, if any."""
        return self._game.number if self._game else None

    @property
    def closes_at(self) -> float | None:
        """When the countdown of the open betting round ends."""
        return self._game.closes_at if self._game and self.phase is Phase.BETTING_OPEN else None

    @property
    def hand_in_play(self) -> bool:
        """Whether a hand is on the layout: betting is open, or its bets are closed and
        not yet settled."""
        return self.phase is Phase.BETTING_OPEN or self.phase in IN_HAND

    @property
    def squeeze_closes_at(self) -> float | None:
        """When the table turns the face-down cards itself, if the squeeze now on is
        timed (an RNG table's :attr:`~punto.table.automation.Automation.REVEAL`) [O]."""
        return self._squeeze_until if self.phase is Phase.SQUEEZE else None

    @property
    def betting_seconds_left(self) -> float | None:
        """Seconds left in the open betting round's countdown by the table's own clock
        (``0.0`` once it has ended; ``None`` when betting is not open) [L]."""
        closes_at = self.closes_at
        return None if closes_at is None else max(0.0, closes_at - self._now())

    @property
    def next_step(self) -> Step:
        """What the table waits for next (see :class:`~punto.table.phases.Step`)."""
        phase, game = self.phase, self._game
        if phase is Phase.CLOSED:
            return Step.NONE
        if phase is Phase.PAUSED:
            return Step.RESUME
        if phase in (Phase.WAITING, Phase.SHOE_END):
            return Step.START_SHOE
        if phase in (Phase.SHOE_START, Phase.SETTLED):
            return Step.START_BLANK_HAND if self._blank_owed else Step.OPEN_BETTING
        if phase is Phase.BETTING_OPEN:
            assert game is not None
            return Step.BETTING if self._now() < game.closes_at else Step.CLOSE_BETTING
        if phase is Phase.SQUEEZE:
            return Step.SQUEEZE
        if phase is Phase.RESULT:
            return Step.SETTLE
        return Step.DEAL_CARD

    @property
    def needs_cards_left(self) -> bool:
        """Whether :meth:`~punto.table.Table.settle` needs the live dealer's count of the
        cards left in the shoe: the cut card came out during this last hand and the rules
        say "minimum seven cards or void" [S5]."""
        shoe = self._shoe
        return self._game is not None and isinstance(shoe, LiveShoe) and shoe.needs_cards_left

    @property
    def awaiting_squeeze(self) -> Mapping[Side, PlayerId | None]:
        """Each side with face-down cards now, and who may turn them (``None``: the dealer
        only) [M16], [S], [O]."""
        game = self._game
        if game is None or not game.face_down:  # asked of every player after each card
            return {}
        sides = {pos.side for pos in game.face_down}
        return {side: game.holders.get(side) for side in Side if side in sides}

    @property
    def coup(self) -> Coup | None:
        """The coup being dealt (its ``next_position`` and ``guidance`` guide the dealer)."""
        return self._game.coup if self._game else None

    @property
    def shoe(self) -> TableShoe | None:
        """The shoe in play (or the last one)."""
        return self._shoe

    @property
    def blank_owed(self) -> bool:
        """Whether the next hand must be a blank hand [S1]."""
        return bool(self._blank_owed)

    @property
    def event_count(self) -> int:
        """How many events the table has emitted, forgotten ones included: the number the
        next event will have, counting from 0."""
        return self.events_forgotten + len(self.events)

    def forget_events(self, count: int, *, keep_settled: int = 200) -> None:
        """Drop the first ``count`` events from memory, and what a re-settlement [O] needs
        of all but the last ``keep_settled`` settled hands. A long-running server calls
        this once it has stored the records those events make; the event numbers of
        :attr:`event_count` go on unchanged."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise TableError(f"cannot forget {count!r} events")
        if count > len(self.events):
            raise TableError(f"cannot forget {count} events: {len(self.events)} are kept")
        del self.events[:count]
        self.events_forgotten += count
        for game in list(self._settled)[: max(0, len(self._settled) - keep_settled)]:
            del self._settled[game]

    def balance(self, player: PlayerId) -> int:
        """A player's table balance (minor units)."""
        self.seats.get(player)
        return self.money.balance(player)

    @property
    def balances(self) -> Mapping[PlayerId, int]:
        """Every table balance (a copy)."""
        return self.money.balances

    @property
    def brought_in(self) -> int:
        """Money brought to the table: join balances and deposits (minor units)."""
        return self.money.brought_in

    @property
    def cashed_out(self) -> int:
        """Money taken from the table: balances of players who left, withdrawals."""
        return self.money.cashed_out

    @property
    def house_result(self) -> int:
        """The house's result over the settled hands (positive: the house won)."""
        return self.money.house_result

    def bets(self, player: PlayerId) -> Bets:
        """A player's confirmed bets on the current hand."""
        slip = self._slips.get(player)
        return freeze_bets(slip.confirmed if slip else {})

    def pending(self, player: PlayerId) -> Bets:
        """A player's unconfirmed chips."""
        slip = self._slips.get(player)
        return slip.pending if slip else freeze_bets({})

    def bet_totals(self) -> dict[Bet, tuple[int, int]]:
        """Every player's confirmed stakes on the current hand, per bet area: the total
        (minor units) and the number of players who bet on it [L] — what a casino layout
        shows of the others' bets. Areas nobody bet on are left out; so are the bets of
        players in another currency (:mod:`punto.table.purses`): one sum of two currencies
        would mean nothing.

        >>> from punto.table.slip import BetSlip
        >>> table = TableCore.__new__(TableCore)
        >>> table.purses = {}
        >>> table._slips = {"ann": BetSlip("ann", confirmed={Bet.BANKER: 1000}),
        ...                 "bob": BetSlip("bob", confirmed={Bet.BANKER: 500, Bet.TIE: 100})}
        >>> table.bet_totals()
        {<Bet.BANKER: 'banker'>: (1500, 2), <Bet.TIE: 'tie'>: (100, 1)}
        """
        amounts: dict[Bet, int] = {}
        bettors: dict[Bet, int] = {}
        purses = self.purses
        for player, slip in self._slips.items():
            if purses and player in purses and purses[player].book:
                continue
            for bet, amount in slip.confirmed.items():
                if amount:
                    amounts[bet] = amounts.get(bet, 0) + amount
                    bettors[bet] = bettors.get(bet, 0) + 1
        return {bet: (amount, bettors[bet]) for bet, amount in amounts.items()}

    def money_in_play(self) -> int:
        """Stakes confirmed on the current hand (and main bets a tie left standing [M12])."""
        return sum(slip.confirmed_total for slip in self._slips.values())

    def money_check(self) -> bool:
        """Whether no money was lost or created: balances + stakes + the house's result
        equal what was brought in less what was taken out."""
        return self.money.balanced and self.money.staked == self.money_in_play()

    @property
    def holders(self) -> Mapping[Side, PlayerId]:
        """Who holds each side's cards: fixed once the first card is dealt, before that
        who would hold them now (the dealer reads a side not listed)."""
        if self._game is None or self._game.blank:
            return {}
        if self._game.started:
            return dict(self._game.holders)
        return self._choose_holders()[0]

    def records(self) -> tuple[HandRecord, ...]:
        """Every hand's record, built from the events [L]."""
        return hand_records(self.events)

    def view(self, viewer: Viewer, player: PlayerId | None = None) -> tuple[Event, ...]:
        """The events as ``viewer`` may see them (see :mod:`punto.table.views`)."""
        return project(self.events, viewer, player)

    def _now(self) -> float:
        return self.clock.now()

    def _emit(self, event: Event) -> Event:
        current = self._main_totals[0] == self.event_count
        self.events.append(event)
        if current and isinstance(event, _CONFIRMED_UNCHANGED):
            # no confirmed bet moved: the totals stay current (at a table of thousands,
            # counting every slip again after each player's chip made every chip cost
            # as much as the table has players)
            _, banker, punto = self._main_totals
            self._main_totals = (self.event_count, banker, punto)
        return event

    def _enter(self, phase: Phase) -> None:
        verify_transition(self.phase, phase)
        if phase is not self.phase:
            self.phase = phase
            self.phase_history.append(phase)

    def _apply_pending(self) -> None:
        """Make the changes that waited, as far as they can be made now [S14] (the house
        does: :class:`~punto.table.house.House`)."""

    @staticmethod
    def _can(verify: Callable[[], object]) -> bool:
        try:
            verify()
        except PuntoError:
            return False
        return True

    def _require_open(self) -> None:
        if self.phase is Phase.CLOSED:
            raise TableError("the table is closed")

    def _require_game(self) -> OpenHand:
        if self._game is None:
            raise TableError("no hand is in progress")
        return self._game

    def _require_shoe(self) -> TableShoe:
        if self._shoe is None or self._shoe.finished:
            raise TableError("no shoe is in play: start a shoe")
        return self._shoe

    def _slip(self, player: PlayerId) -> BetSlip:
        slip = self._slips.get(player)
        if slip is None:
            slip = self._slips[player] = BetSlip(player)
        return slip

    def _show(self, amount: int, player: PlayerId | None = None) -> str:
        """``amount`` as a message says it: major units of the player's currency (or the
        table's), with all its decimals."""
        purse = None if player is None else self.purses.get(player)
        digits = self.rules.currency_digits if purse is None else purse.digits
        return display_amount(amount, digits=digits)

    def tier_of(self, player: PlayerId) -> LimitTier:
        """The limits ``player`` bets on: their tier, in their own currency."""
        name = self.seats.get(player).tier
        if name is None:
            raise SeatError(f"{player} neither sits nor watches: they have no limits")
        purse = self.purses.get(player)
        return self.rules.tier(name) if purse is None else purse.tier(name)

    def currency_of(self, player: PlayerId) -> str | None:
        """The currency ``player`` bets in when not the table's own."""
        purse = self.purses.get(player)
        return None if purse is None else purse.currency

    def chips_of(self, player: PlayerId) -> tuple[int, ...]:
        """The chips ``player`` bets with (their currency's, else the table's)."""
        purse = self.purses.get(player)
        return self.settings.chips if purse is None else purse.chips

    def _holds_cards(self, player: PlayerId) -> bool:
        game = self._game
        return (
            game is not None
            and game.started
            and self.phase in (Phase.DEALING, Phase.SQUEEZE)
            and player in game.holders.values()
        )

    def _verify_owner(self, by: PlayerId, action: str) -> None:
        if self.settings.kind is not TableKind.VIP or by != self.owner:
            raise AccessError(f"only the owner of a VIP table may {action} [O]")

    def _verify_password(self, player: PlayerId, password: str | None) -> None:
        digest = self.vip.password_digest
        if (
            self.settings.kind is TableKind.VIP
            and digest is not None
            and player != self.owner
            and (password is None or password_digest(self.settings.table_id, password) != digest)
        ):
            raise AccessError("this VIP table needs its password [O]")

    def _remove(self, player: PlayerId, *, reason: Why) -> PlayerLeft:
        slip = self._slips.get(player)
        if slip is not None and slip.confirmed:
            # Main bets a tie left standing [M12] go back before the balance is cashed
            # out: a player removed by the table never leaves money on the layout.
            self._emit(
                BetsRefunded(
                    at=self._now(),
                    game=self.game,
                    refunds=(self._refund_slip(slip),),
                    reason=reason,
                    everyone=False,  # only theirs: their PlayerLeft below takes them away
                )
            )
        cash = self.money.cash_out_all(player)
        self.seats.remove(player)
        self._slips.pop(player, None)
        self._chips.pop(player, None)
        self.purses.pop(player, None)
        self._last_bets.pop(player, None)
        self._remove_after_hand.discard(player)
        event = PlayerLeft(at=self._now(), player=player, cashed_out=cash, reason=reason)
        self._emit(event)
        return event

    def _everyone_leaves(self, reason: Why) -> None:
        if self.money_in_play():
            self._refund_all(reason)
        for player in list(self.seats.participants):
            self._remove(player, reason=reason)

    def _betting_open(self, player: PlayerId) -> bool:
        """Whether ``player`` may act on the betting round at all: the test
        :meth:`_verify_betting` makes, answered without building an error (each
        ``can_*`` of the round asks it first: a table asks them of every player after
        every change of phase)."""
        game = self._game
        who = self.seats.participants.get(player)
        return (
            self.phase is Phase.BETTING_OPEN
            and game is not None
            and self._now() < game.closes_at
            and who is not None
            and who.place is not Place.LOBBY
        )

    def _verify_betting(self, player: PlayerId, action: str) -> OpenHand:
        if self._betting_open(player):
            assert self._game is not None
            return self._game
        require_phase(self.phase, {Phase.BETTING_OPEN}, action)
        game = self._require_game()
        if self._now() >= game.closes_at:
            raise BettingError("betting is closed: the countdown has ended [L]")
        if self.seats.get(player).place is Place.LOBBY:
            raise SeatError(f"{player} is not at the table: sit or watch to bet")
        return game

    def _slip_or_empty(self, player: PlayerId) -> BetSlip:
        return self._slips.get(player) or BetSlip(player)

    def _has_chips(self, player: PlayerId) -> bool:
        """Whether ``player`` has unconfirmed chips down: what undoing, clearing, doubling
        and confirming them need first, answered without building an error (a player
        between two bets has none, and their ``can_*`` are asked after every change)."""
        slip = self._slips.get(player)
        return slip is not None and bool(slip.steps)

    def _new_shoe(self) -> TableShoe:
        if self.settings.dealing is Dealing.RNG:
            return RngShoe(self.rules, self._rng)
        return LiveShoe(self.rules)

    def _open_shoe(self, burned: Sequence[Card]) -> ShoeOpened:
        shoe = self._new_shoe()
        start = shoe.start(burned)
        self._shoe = shoe
        self._shoe_open = True
        self.shoe_number += 1
        self._blank_owed = None
        now = self._now()
        event = ShoeOpened(
            at=now,
            shoe=self.shoe_number,
            cards=start.cards,
            decks=start.decks,
            cut_index=start.cut_index,
            commitment=start.commitment,
        )
        self._emit(event)
        if start.burned:
            self._emit(
                CardsBurned(
                    at=now,
                    shoe=self.shoe_number,
                    count=len(start.burned),
                    cards=start.burned,
                    reason=Why(Reason.BURN_START),
                )
            )
        return event

    def _emit_cut(self, notice: CutNotice) -> CutCardOut:
        during = (
            None
            if notice.during_hand is None
            else GameNumber(self.settings.table_id, self.shoe_number, notice.during_hand)
        )
        event = CutCardOut(
            at=self._now(), shoe=self.shoe_number, during=during, last_hand=notice.last_hand
        )
        self._emit(event)
        return event

    def _close_shoe(self, reason: Why) -> ShoeClosed:
        shoe = self._shoe
        assert shoe is not None
        reveal = shoe.close()
        event = ShoeClosed(
            at=self._now(),
            shoe=self.shoe_number,
            hands=shoe.hands_dealt,
            reason=reason,
            reveal=reveal,
        )
        self._emit(event)
        self._shoe_open = False
        self._blank_owed = None
        return event

    def _close_betting(self, *, by: PlayerId | None) -> BettingClosed:
        game = self._require_game()
        for slip in list(self._slips.values()):  # no stake made for them in time [M12]
            if slip.awaiting_stake:
                self._return_standing(slip, Why(Reason.STANDING_NOT_STAKED))
        discarded = tuple((p, total) for p, s in self._slips.items() if (total := s.discard()) > 0)
        game.open_asked.clear()
        now = self._now()
        event = BettingClosed(
            at=now, game=game.number, by=by, early=now < game.closes_at, discarded=discarded
        )
        self._emit(event)
        self._enter(Phase.BETTING_CLOSED)
        self._draw_lightning(game)
        return event

    def _draw_lightning(self, game: OpenHand) -> None:
        """[LB] A multiplier table's RNG draws the hand's lightning cards once betting
        closed (the house's draw, at a live table too), shown before the first card."""
        table = self.rules.lightning
        if table is None or game.blank:
            return
        draw = table.draw(self._rng)
        now = self._now()
        game.lightning = draw
        game.lightning_until = now + self.settings.pace.lightning_seconds
        self._emit(
            LightningDrawn(
                at=now, game=game.number, cards=draw.cards, shown_until=game.lightning_until
            )
        )

    def _choose_holders(self) -> HolderChoice:
        """Who holds each side now, and who the bets designate."""
        return holder_choice(
            self.settings.table_reading,
            claims_of(self._slips.values(), self.seats),
            button=self.button,
            seats=self.settings.seats,
            owner=self.owner,
            squeeze_on=self.vip.squeeze,
        )

    def _face_down(self, game: OpenHand, position: Position) -> bool:
        return is_face_down(self.settings.table_reading, game.holders, position)

    def _start_dealing(self, game: OpenHand) -> None:
        """First card: the shoe begins the hand and the squeeze rights are fixed."""
        game.started = True
        for notice in self._require_shoe().begin_hand():
            self._emit_cut(notice)
        if game.blank:
            return
        holders, designated = self._choose_holders()
        game.holders = holders
        for side, player in holders.items():
            self._hold(game, side, player, designated.get(side))

    def _hold(self, game: OpenHand, side: Side, player: PlayerId, first: PlayerId | None) -> None:
        """``player`` holds ``side``'s cards; ``first`` was designated first (a takeover)."""
        took_over = first if first is not None and first != player else None
        self._emit(
            CardsHeld(
                at=self._now(), game=game.number, side=side, player=player, took_over_from=took_over
            )
        )

    def _may_hand_over(self, player: PlayerId) -> bool:
        """[O] A bid-squeeze holder may leave the seat before their side's squeeze."""
        game = self._game
        return game is not None and may_hand_over(
            self.settings.table_reading, game.holders, game.turned, player
        )

    def _follow_squeezers(self) -> None:
        """[O] Bid-squeeze: before a side's squeeze begins its cards follow the largest
        seated, connected bettor on that side (see :func:`~punto.table.squeeze.takeovers`)."""
        game = self._game
        if (
            game is None
            or game.blank
            or not game.started
            or self.phase not in (Phase.BETTING_CLOSED, Phase.DEALING, Phase.SQUEEZE)
        ):
            return
        now, designated = self._choose_holders()
        for side, new in takeovers(
            self.settings.table_reading, game.holders, now, game.turned
        ).items():
            game.holders[side] = new
            self._hold(game, side, new, designated.get(side))

    def _after_cards(self, game: OpenHand) -> None:
        coup = game.coup
        if game.face_down and (len(coup.events) >= 4 or coup.is_complete):
            self._enter(Phase.SQUEEZE)
        elif coup.is_complete:
            self._enter(Phase.RESULT)
            outcome = coup.outcome
            pushes = pushed_main_bets(self.rules, outcome)
            self._emit(HandResult(at=self._now(), game=game.number, outcome=outcome, pushes=pushes))
        else:
            self._enter(Phase.DEALING)

    def _face_down_of(self, game: OpenHand, side: Side | None) -> list[Position]:
        return [
            pos
            for pos, _ in game.cards
            if pos in game.face_down and (side is None or pos.side is side)
        ]

    def _reveal(
        self,
        game: OpenHand,
        positions: Sequence[Position],
        *,
        by: PlayerId | None,
        call: ReadCall | None,
        reason: Why,
    ) -> CardsRevealed:
        cards = dict(game.cards)
        game.face_down.difference_update(positions)
        game.turned.update(pos.side for pos in positions)
        game.open_asked.clear()
        event = CardsRevealed(
            at=self._now(),
            game=game.number,
            by=by,
            call=call,
            cards=tuple((pos, cards[pos]) for pos in positions),
            reason=reason,
        )
        self._emit(event)
        self._after_cards(game)
        return event

    def _end_game(self) -> None:
        """After a hand (settled or void): the button moves [S], slips keep only standing
        bets, leaving watchers go [O]."""
        self._require_game()
        self.button = self.button % self.settings.seats + 1
        self._slips = {p: s for p, s in self._slips.items() if s.confirmed}
        for slip in self._slips.values():
            slip.steps.clear()
        self._game = None
        self._enter(Phase.SETTLED)
        if self._remove_after_hand and not self.seats.seated():
            for player in sorted(self._remove_after_hand):
                if player in self.seats.participants:
                    self._remove(player, reason=Why(Reason.NO_SEATED_PLAYER))
        self._remove_after_hand.clear()

    def _return_standing(self, slip: BetSlip, reason: Why) -> TieBetsChanged:
        """The main bets a tie left standing on ``slip`` go back to its player (the house
        did not stake them again) [M12]; what was confirmed on top of them stays. Where
        bets wait for the house's stake, those go back: the standing bets, or every bet of
        a player who changed them (:meth:`change_tie_bets`)."""
        game = self._require_game()
        going = slip.awaiting if self.settings.standing_awaits_stake else slip.standing
        back = sum(going.values())
        for bet, amount in going.items():
            left = slip.confirmed.get(bet, 0) - amount
            if left > 0:
                slip.confirmed[bet] = left
            else:
                slip.confirmed.pop(bet, None)
                slip.first_confirmed.pop(bet, None)
        slip.standing.clear()
        slip.awaiting.clear()
        self.money.refund(slip.player, back)
        event = TieBetsChanged(
            at=self._now(),
            game=game.number,
            player=slip.player,
            action=TieAction.CANCEL,
            bets=freeze_bets(slip.confirmed),
            debited=0,
            credited=back,
            reason=reason,
        )
        self._emit(event)
        return event

    def _refund_slip(self, slip: BetSlip) -> PlayerResult:
        """Return every confirmed stake of ``slip`` to its player's balance."""
        result = refund(freeze_bets(slip.confirmed))
        self.money.refund(slip.player, result.total_returned)
        slip.confirmed.clear()
        slip.standing.clear()
        slip.awaiting.clear()
        slip.first_confirmed.clear()
        return PlayerResult(player=slip.player, settlement=result, returned=result.total_returned)

    def _refund_all(self, reason: Why) -> BetsRefunded | None:
        """Return every confirmed stake at the table (``everyone``: a client that sees
        only its own refund clears the whole layout by it)."""
        refunds = [self._refund_slip(slip) for slip in self._slips.values() if slip.confirmed]
        if not refunds:
            return None
        event = BetsRefunded(
            at=self._now(), game=self.game, refunds=tuple(refunds), reason=reason, everyone=True
        )
        self._emit(event)
        return event

    def _void_hand(self, reason: Why) -> None:
        """Refund every stake and end the hand as void [M10], [L] (the shoe counts it)."""
        game = self._require_game()
        self._refund_all(reason)
        for slip in self._slips.values():
            slip.steps.clear()
        shoe = self._shoe
        assert shoe is not None
        coup = game.coup
        end = shoe.end_hand(Outcome.from_hands(coup.player_cards, coup.banker_cards))
        for notice in end.cuts:
            self._emit_cut(notice)
        self._emit(HandVoided(at=self._now(), game=game.number, reason=reason))
        game.new_shoe_after = game.new_shoe_after or end.last

    def _close_table(self, reason: Why) -> TableClosed:
        if self._game is not None:
            self._void_hand(reason)
            self._game = None
        self._everyone_leaves(reason)
        if self._shoe_open:
            self._close_shoe(reason)
        self.owner = None
        self._pending = PendingChanges()
        self._enter(Phase.CLOSED)
        event = TableClosed(at=self._now(), reason=reason)
        self._emit(event)
        return event
