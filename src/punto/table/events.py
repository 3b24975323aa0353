"""Every event of a table's life: frozen records, one per action (plus the consequences
an action sets off, such as the refunds of a void hand).

The list of events is the one record of a table: it is replayed, stored, broadcast
(through :mod:`punto.table.views`, which hides what a viewer may not see) and audited.
Every money movement names the player, the amount, the game number and the bets, so a
server can post it to a ledger:

- :class:`PlayerJoined` brings ``balance`` to the table; :class:`PlayerLeft` takes
  ``cashed_out`` away;
- :class:`BetsConfirmed` debits ``debited`` (and its ``fee`` [LB]);
  :class:`TieBetsChanged` debits ``debited`` and credits ``credited``;
- :class:`HandSettled` and :class:`BetsRefunded` credit each :class:`PlayerResult`'s
  ``returned``; :class:`HandResettled` moves each correction.

Fields a viewer may not see are ``None`` in that viewer's projection (a face-down card,
another player's balance, a password digest).

Every event class declares its wire name, ``kind`` (``bets_confirmed``): the protocol and
the stored hand records use it, so renaming a class changes neither; :mod:`punto.codec`
turns events into JSON and back.

Why something happened is a :class:`~punto.table.reasons.Why`: a reason code and its
parameters, never an English sentence (the client translates the code).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from punto.bets import Bet
from punto.cards import Card
from punto.coup import Position
from punto.outcome import Outcome, Side
from punto.shoe import ShoeReveal
from punto.table.fault_catalogue import Effect, Fault
from punto.table.kinds import Dealing, TableKind
from punto.table.phases import Phase
from punto.table.reasons import Why
from punto.table.records import Bets, GameNumber, PlayerId, PlayerResult
from punto.table.squeeze import ReadCall, Reading
from punto.tie_options import TieAction
from punto.tiers import LimitTier

__all__ = [
    "CHIP_EVENTS",
    "BalanceTransferred",
    "BetsCleared",
    "BetsConfirmed",
    "BetsDoubled",
    "BetsRefunded",
    "BettingClosed",
    "BettingExtended",
    "BettingOpened",
    "BettingTimeChanged",
    "BlankHandStarted",
    "CardPlaced",
    "CardsBurned",
    "CardsHeld",
    "CardsRevealed",
    "ChangePending",
    "ChipAdded",
    "ChipChosen",
    "ChipsUndone",
    "CutCardOut",
    "DealerChanged",
    "DemoHandDealt",
    "Event",
    "FaultReported",
    "HandResettled",
    "HandRestarted",
    "HandResult",
    "HandSettled",
    "HandVoided",
    "LightningDrawn",
    "LimitsChanged",
    "OpenCardsRequested",
    "PauseCalledOff",
    "PauseRequested",
    "PendingChange",
    "PlayerConnection",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerSat",
    "PlayerStood",
    "PlayerWatching",
    "RebetPlaced",
    "RulesChanged",
    "ShoeClosed",
    "ShoeOpened",
    "SideBetsClosed",
    "TableClosed",
    "TableOpened",
    "TablePaused",
    "TableResumed",
    "TieBetsChanged",
    "VipSettingsChanged",
    "phase_after",
]

# -- the table -----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOpened:
    """The table opened with these settings and this dealer."""

    kind: ClassVar[str] = "table_opened"

    at: float
    table: str
    kind_of_table: TableKind
    """The table's kind (``kind`` is the event's wire name)."""
    dealing: Dealing
    reading: Reading
    rules: str
    seats: int
    dealer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TablePaused:
    """The table paused between hands."""

    kind: ClassVar[str] = "table_paused"

    at: float
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class TableResumed:
    """The table resumed in the phase it paused in."""

    kind: ClassVar[str] = "table_resumed"

    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class PauseRequested:
    """A pause was asked for during a hand: the table pauses when the hand ends (settled
    or void) [S14]."""

    kind: ClassVar[str] = "pause_requested"

    at: float
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class PauseCalledOff:
    """The pause asked for during the hand was called off before the hand ended [S14]."""

    kind: ClassVar[str] = "pause_called_off"

    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed:
    """The table closed for good [S14], [L]; every player left with their balance."""

    kind: ClassVar[str] = "table_closed"

    at: float
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class DealerChanged:
    """A new dealer took the table; ``by`` is the VIP owner who asked, if any [O]."""

    kind: ClassVar[str] = "dealer_changed"

    at: float
    dealer: str
    by: PlayerId | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitsChanged:
    """The supervisor changed the limit tiers within the shoe [S14]."""

    kind: ClassVar[str] = "limits_changed"

    at: float
    tiers: tuple[LimitTier, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesChanged:
    """The administrator's new rules took effect, before a new shoe is opened."""

    kind: ClassVar[str] = "rules_changed"

    at: float
    rules: str
    """The rules' name (the preset they were composed from)."""
    version: int
    """The table's rules version from now on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingTimeChanged:
    """The betting countdown lasts ``seconds`` from the next betting round on [S14]."""

    kind: ClassVar[str] = "betting_time_changed"

    at: float
    seconds: float


class PendingChange(enum.StrEnum):
    """What a :class:`ChangePending` waits to change."""

    LIMITS = "limits"
    """The limit tiers (:class:`LimitsChanged` follows)."""
    BETTING_TIME = "betting_time"
    """The betting countdown (:class:`BettingTimeChanged` follows)."""
    RULES = "rules"
    """The rules (:class:`RulesChanged` follows, once no shoe is in play)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangePending:
    """A change asked for that cannot take effect yet: the table makes it itself when
    the hand ends (limits, betting time) or when the shoe ends (rules) [S14]. The field
    of the change is set; the others are ``None``."""

    kind: ClassVar[str] = "change_pending"

    at: float
    change: PendingChange
    tiers: tuple[LimitTier, ...] | None = None
    """The limit tiers to come (``limits``)."""
    seconds: float | None = None
    """The betting countdown to come (``betting_time``)."""
    rules: str | None = None
    """The rules' name to come (``rules``)."""
    version: int | None = None
    """The rules version to come (``rules``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VipSettingsChanged:
    """The VIP owner changed the table's settings [O]."""

    kind: ClassVar[str] = "vip_settings_changed"

    at: float
    by: PlayerId
    squeeze: bool
    vertical_squeeze: bool
    password_set: bool
    password_digest: str | None


# -- the shoe ------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeOpened:
    """Shoe number ``shoe`` was shuffled and cut [M2]. An RNG shoe publishes the
    commitment of its order; a live shoe's order is not known (``None``)."""

    kind: ClassVar[str] = "shoe_opened"

    at: float
    shoe: int
    cards: int
    decks: int
    cut_index: int | None
    commitment: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsBurned:
    """Cards taken out of play: ``burn_start`` [M2], ``burn_mid_shoe`` [M8], ``discarded`` [S2].
    ``cards`` is ``None`` in a projection that hides them."""

    kind: ClassVar[str] = "cards_burned"

    at: float
    shoe: int
    count: int
    cards: tuple[Card, ...] | None
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class DemoHandDealt:
    """A demonstration hand, with no bets [M2]."""

    kind: ClassVar[str] = "demo_hand_dealt"

    at: float
    shoe: int
    number: int
    outcome: Outcome


@dataclass(frozen=True, slots=True, kw_only=True)
class CutCardOut:
    """The cut card came out (``during``: in that hand; else between hands); hand
    ``last_hand`` of the shoe is its last [M3], [S5]."""

    kind: ClassVar[str] = "cut_card_out"

    at: float
    shoe: int
    during: GameNumber | None
    last_hand: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeClosed:
    """The shoe is finished: after its last hand, changed by the house or the VIP owner,
    or replaced after a fault. ``reveal`` opens an RNG shoe's commitment."""

    kind: ClassVar[str] = "shoe_closed"

    at: float
    shoe: int
    hands: int
    reason: Why
    reveal: ShoeReveal | None


# -- players -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerJoined:
    """A player brought ``balance`` (minor units) to the table."""

    kind: ClassVar[str] = "player_joined"

    at: float
    player: PlayerId
    balance: int | None
    currency: str | None = None
    """The currency the player bets in when not the table's own (:mod:`punto.table.purses`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BalanceTransferred:
    """Money moved between a player's table balance and their wallet outside a hand (an
    operator's deposit, a supervisor's void or correction of a hand the table no longer
    holds): ``amount`` in (positive) or out (negative), minor units."""

    kind: ClassVar[str] = "balance_transferred"

    at: float
    player: PlayerId
    amount: int | None
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSat:
    """A player sat at ``seat`` on a limit tier; ``owner``: took a VIP table [O]."""

    kind: ClassVar[str] = "player_sat"

    at: float
    player: PlayerId
    seat: int
    tier: str
    owner: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerWatching:
    """A player watches (and may bet from free spots) on a limit tier [M15], [S13]."""

    kind: ClassVar[str] = "player_watching"

    at: float
    player: PlayerId
    tier: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStood:
    """A player left their seat and now watches; ``marked``: the seat is kept [S13]."""

    kind: ClassVar[str] = "player_stood"

    at: float
    player: PlayerId
    seat: int
    marked: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerConnection:
    """A player's connection was lost or came back [L], [O]."""

    kind: ClassVar[str] = "player_connection"

    at: float
    player: PlayerId
    connected: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeft:
    """A player left the table with ``cashed_out`` (their whole table balance)."""

    kind: ClassVar[str] = "player_left"

    at: float
    player: PlayerId
    cashed_out: int | None
    reason: Why


# -- betting -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingOpened:
    """The countdown of hand ``game`` started. ``last_hand``: announced as the shoe's
    last [M3]. ``standing``: main bets left on the layout by a tie [M12]."""

    kind: ClassVar[str] = "betting_opened"

    at: float
    game: GameNumber
    closes_at: float
    last_hand: bool
    standing: tuple[tuple[PlayerId, Bets], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SideBetsClosed:
    """[EZ-C] Before hand ``game``, the exact house edge of these ``closed`` side bets on
    the cards not yet seen (``edges``, a fraction of the stake, in the same order) was below
    the table's ``threshold``: they take no bet in this hand. ``reopened``: the side bets
    the previous hand closed that this one deals again."""

    kind: ClassVar[str] = "side_bets_closed"

    at: float
    game: GameNumber
    threshold: float | None
    closed: tuple[Bet, ...]
    edges: tuple[float, ...]
    reopened: tuple[Bet, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LightningDrawn:
    """[LB] Betting closed on hand ``game`` of a multiplier table: the house's RNG drew
    its lightning ``cards`` (rank and suit, each with its multiplier), shown to every
    client until ``shown_until`` before the first card is dealt."""

    kind: ClassVar[str] = "lightning_drawn"

    at: float
    game: GameNumber
    cards: tuple[tuple[Card, int], ...]
    shown_until: float


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingExtended:
    """The countdown now ends at ``closes_at``: a player asked "wait for me" [O]."""

    kind: ClassVar[str] = "betting_extended"

    at: float
    game: GameNumber
    player: PlayerId
    closes_at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenCardsRequested:
    """A seated player asked the dealer to open the cards [O]; the dealer decides."""

    kind: ClassVar[str] = "open_cards_requested"

    at: float
    game: GameNumber
    player: PlayerId


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipChosen:
    """A player picked a chip denomination [L]."""

    kind: ClassVar[str] = "chip_chosen"

    at: float
    player: PlayerId
    chip: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipAdded:
    """A chip went on a bet area, not yet confirmed [L]; ``spot`` is the seat whose spot
    it is on (``None``: the watchers' area)."""

    kind: ClassVar[str] = "chip_added"

    at: float
    game: GameNumber
    player: PlayerId
    bet: Bet
    amount: int
    spot: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsUndone:
    """The last step of unconfirmed chips was taken back [L]."""

    kind: ClassVar[str] = "chips_undone"

    at: float
    game: GameNumber
    player: PlayerId
    chips: tuple[tuple[Bet, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsCleared:
    """Every unconfirmed chip was taken back [L]."""

    kind: ClassVar[str] = "bets_cleared"

    at: float
    game: GameNumber
    player: PlayerId


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsDoubled:
    """The unconfirmed chips were doubled [L]."""

    kind: ClassVar[str] = "bets_doubled"

    at: float
    game: GameNumber
    player: PlayerId


@dataclass(frozen=True, slots=True, kw_only=True)
class RebetPlaced:
    """Last hand's confirmed bets were put back as unconfirmed chips."""

    kind: ClassVar[str] = "rebet_placed"

    at: float
    game: GameNumber
    player: PlayerId
    bets: Bets


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsConfirmed:
    """Unconfirmed chips became bets: ``added`` was debited (``debited``) and the player's
    bets on this hand are now ``bets`` [L]."""

    kind: ClassVar[str] = "bets_confirmed"

    at: float
    game: GameNumber
    player: PlayerId
    added: Bets
    bets: Bets
    debited: int
    fee: int = 0
    """[LB] The fee charged with ``added`` at a multiplier table, on top of ``debited``
    (the house's at once, never returned)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TieBetsChanged:
    """A player changed the main bets a tie left standing [M12]. ``reason``: ``None`` for
    the player's own change; the table's act otherwise (where the standing bets wait for
    the house's stake, ``TableSettings.standing_awaits_stake``): staked again
    (``standing_staked``, action ``keep``) or gone back to the player
    (``standing_not_staked``, action ``cancel``)."""

    kind: ClassVar[str] = "tie_bets_changed"

    at: float
    game: GameNumber
    player: PlayerId
    action: TieAction
    bets: Bets
    debited: int
    credited: int
    reason: Why | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BettingClosed:
    """No more bets. ``discarded``: unconfirmed chips that were not placed [L];
    ``by``: the VIP owner who flew the cards [O]; ``early``: before the countdown ended."""

    kind: ClassVar[str] = "betting_closed"

    at: float
    game: GameNumber
    by: PlayerId | None
    early: bool
    discarded: tuple[tuple[PlayerId, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BlankHandStarted:
    """A blank hand (colpo in bianco): dealt with no bets [S1]."""

    kind: ClassVar[str] = "blank_hand_started"

    at: float
    game: GameNumber
    reason: Why


# -- cards ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsHeld:
    """``player`` holds this hand's ``side`` cards; ``took_over_from``: the squeezer the
    bets designated, who was gone [O]."""

    kind: ClassVar[str] = "cards_held"

    at: float
    game: GameNumber
    side: Side
    player: PlayerId
    took_over_from: PlayerId | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlaced:
    """The coup machine placed a card [M7]; ``card`` is ``None`` where a projection hides
    a face-down card; ``rescan``: scanned again after a failed scan [L]."""

    kind: ClassVar[str] = "card_placed"

    at: float
    game: GameNumber
    position: Position
    card: Card | None
    face_up: bool
    rescan: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsRevealed:
    """Face-down cards were turned: by their holder (``by``), with a reader's ``call``
    [S], or by the dealer / supervisor (``by`` is ``None``)."""

    kind: ClassVar[str] = "cards_revealed"

    at: float
    game: GameNumber
    by: PlayerId | None
    call: ReadCall | None
    cards: tuple[tuple[Position, Card], ...]
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRestarted:
    """The hand is dealt again from the same cards [M10], [S7], [S8]."""

    kind: ClassVar[str] = "hand_restarted"

    at: float
    game: GameNumber
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResult:
    """The coup is complete and every card is face up; the cards speak [S9]."""

    kind: ClassVar[str] = "hand_result"

    at: float
    game: GameNumber
    outcome: Outcome
    pushes: tuple[Bet, ...] = ()
    """Main bets the result returns though it is no tie (EZ's Banker on a three-card 7
    [EZ]: :func:`punto.settlement.pushed_main_bets`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandSettled:
    """Every player's bets were settled (refunded when ``void_reason`` is set, as [S5]
    does) and each ``returned`` credited to the balance; ``last``: the shoe's last hand."""

    kind: ClassVar[str] = "hand_settled"

    at: float
    game: GameNumber
    results: tuple[PlayerResult, ...]
    void_reason: Why | None
    last: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class BetsRefunded:
    """Stakes returned before the hand's end (a fault, a forced leave). ``everyone``: the
    table returned every confirmed stake on its layout (a void or blank hand, the table
    closing), so no confirmed bet is left; otherwise the one player of ``refunds`` is
    being removed and their ``PlayerLeft`` follows. A viewer who sees only their own
    refund (:mod:`punto.table.views`) still knows what left the layout."""

    kind: ClassVar[str] = "bets_refunded"

    at: float
    game: GameNumber | None
    refunds: tuple[PlayerResult, ...]
    reason: Why
    everyone: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class HandVoided:
    """The hand is void [M10], [S6], [S7], [L]; its stakes were refunded."""

    kind: ClassVar[str] = "hand_voided"

    at: float
    game: GameNumber
    reason: Why


@dataclass(frozen=True, slots=True, kw_only=True)
class HandResettled:
    """A settled hand was settled again [O]: ``corrections`` moved to each balance
    (positive: paid to the player) and ``results`` replace the recorded ones."""

    kind: ClassVar[str] = "hand_resettled"

    at: float
    game: GameNumber
    outcome: Outcome
    results: tuple[PlayerResult, ...]
    corrections: tuple[tuple[PlayerId, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FaultReported:
    """A fault ([M10], [S1]–[S9], [L]) was reported; its ``effect`` follows in later events."""

    kind: ClassVar[str] = "fault_reported"

    at: float
    game: GameNumber | None
    fault: Fault
    rule: str
    effect: Effect
    detail: str
    player: PlayerId | None


Event = (
    TableOpened
    | TablePaused
    | TableResumed
    | PauseRequested
    | PauseCalledOff
    | TableClosed
    | DealerChanged
    | LimitsChanged
    | RulesChanged
    | BettingTimeChanged
    | ChangePending
    | VipSettingsChanged
    | ShoeOpened
    | CardsBurned
    | DemoHandDealt
    | CutCardOut
    | ShoeClosed
    | PlayerJoined
    | BalanceTransferred
    | PlayerSat
    | PlayerWatching
    | PlayerStood
    | PlayerConnection
    | PlayerLeft
    | BettingOpened
    | SideBetsClosed
    | BettingExtended
    | OpenCardsRequested
    | ChipChosen
    | ChipAdded
    | ChipsUndone
    | BetsCleared
    | BetsDoubled
    | RebetPlaced
    | BetsConfirmed
    | TieBetsChanged
    | BettingClosed
    | LightningDrawn
    | BlankHandStarted
    | CardsHeld
    | CardPlaced
    | CardsRevealed
    | HandRestarted
    | HandResult
    | HandSettled
    | BetsRefunded
    | HandVoided
    | HandResettled
    | FaultReported
)
"""Any table event."""

CHIP_EVENTS = (ChipChosen, ChipAdded, ChipsUndone, BetsCleared, BetsDoubled, RebetPlaced)
"""A player's unconfirmed chips and chip value: private to that player [L], and no
confirmed bet moves with them."""


_ENTERS: dict[type, Phase] = {
    TablePaused: Phase.PAUSED,
    TableClosed: Phase.CLOSED,
    ShoeOpened: Phase.SHOE_START,
    ShoeClosed: Phase.SHOE_END,
    BettingOpened: Phase.BETTING_OPEN,
    BettingClosed: Phase.BETTING_CLOSED,
    BlankHandStarted: Phase.BETTING_CLOSED,
    CardsRevealed: Phase.DEALING,
    HandRestarted: Phase.DEALING,
    HandResult: Phase.RESULT,
    HandSettled: Phase.SETTLED,
    HandVoided: Phase.SETTLED,
}
"""The phase each phase-moving kind of event leaves the table in (a card: below)."""


def phase_after(event: Event) -> Phase | None:
    """The table's phase after ``event`` (``None``: the event moves no phase). Clients
    take it from the event's ``phase`` (:func:`punto.codec.event_json`) and infer none.

    >>> card = CardPlaced(at=0.0, game=GameNumber("T1", 1, 1), position=Position.PLAYER_1,
    ...                   card=None, face_up=False, rescan=False)
    >>> phase_after(card).value
    'squeeze'
    """
    if isinstance(event, CardPlaced):  # a face-down card waits for its squeeze [M16]
        return Phase.DEALING if event.face_up else Phase.SQUEEZE
    return _ENTERS.get(type(event))
