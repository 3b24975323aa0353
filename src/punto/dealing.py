"""Shoe procedure: start of shoe, demonstration hands, hands, burns, last hand [M2], [M3],
[M7.2], [M8], [S5].

:class:`ShoeDealer` applies a :class:`~punto.rules.Rules` to a :class:`~punto.shoe.Shoe`.
Every action returns a frozen event, also appended to :attr:`ShoeDealer.events`.
It can deal a whole hand itself (:meth:`ShoeDealer.deal_hand`) or card by card
(:meth:`ShoeDealer.begin_hand`, :meth:`ShoeDealer.draw`, :meth:`ShoeDealer.end_hand`)
for a table that drives a :class:`~punto.coup.Coup` itself.

>>> from punto.rules import preset
>>> dealer = ShoeDealer(preset("macau").replace(decks=1, cut_min_from_end=12,
...                                             cut_max_from_end=12), seed=1)
>>> events = dealer.start()
>>> hands = [e for e in dealer.deal_all() if isinstance(e, HandDealt)]
>>> hands[-1].last, dealer.finished
(True, True)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from punto.cards import Card
from punto.coup import Coup
from punto.errors import ShoeError
from punto.outcome import Outcome
from punto.rules import BurnRule, LastHandRule, Rules
from punto.shoe import Shoe, ShoeReveal

__all__ = [
    "VOID_MIN_CARDS",
    "CardsBurned",
    "CutCardOut",
    "DealerPhase",
    "DemoHandDealt",
    "HandDealt",
    "ShoeDealer",
    "ShoeEnded",
    "ShoeEvent",
    "ShoeStarted",
    "last_hand_after_cut",
]

VOID_MIN_CARDS = 7
"""[S5] Fewer cards than this left after the last hand (cut card out during it): void."""


@dataclass(frozen=True, slots=True)
class ShoeStarted:
    """Event: a shoe was put in play. ``commitment`` is ``None`` for a continuous shuffler."""

    cards: int
    decks: int | None
    cut_index: int
    commitment: str | None


@dataclass(frozen=True, slots=True)
class CardsBurned:
    """Event: cards taken out of play (``reason``: ``start`` or ``mid_shoe``) [M2], [M8]."""

    cards: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class DemoHandDealt:
    """Event: a demonstration hand, with no bets [M2]."""

    number: int
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class CutCardOut:
    """Event: the cut card came out; ``last_hand`` is the number of the shoe's last hand."""

    during_hand: int | None
    last_hand: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """Event: hand ``number`` of the shoe was dealt.

    ``last`` marks the shoe's last hand; ``void`` is set when [S5] voids it.
    """

    number: int
    outcome: Outcome
    last: bool
    void: bool = False
    void_reason: str = ""


@dataclass(frozen=True, slots=True)
class ShoeEnded:
    """Event: the shoe is finished; ``reveal`` opens its commitment (``None`` for a
    continuous shuffler)."""

    hands: int
    cards_left: int
    reveal: ShoeReveal | None


ShoeEvent = ShoeStarted | CardsBurned | DemoHandDealt | CutCardOut | HandDealt | ShoeEnded


class DealerPhase(enum.Enum):
    """Where the shoe procedure is."""

    NEW = "new"
    READY = "ready"
    """Between hands."""
    IN_HAND = "in_hand"
    FINISHED = "finished"


class ShoeDealer:
    """The shoe procedure for one shoe under one set of rules."""

    def __init__(
        self,
        rules: Rules,
        shoe: Shoe | None = None,
        *,
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        if shoe is not None:
            _check_given_shoe(rules, shoe, given_random=rng is not None or seed is not None)
        self.rules = rules
        if shoe is None:
            # A continuous shuffler has no cut card: it never comes out [M2].
            cut = (
                (0, 0)
                if rules.continuous_shuffler
                else (rules.cut_min_from_end, rules.cut_max_from_end)
            )
            shoe = Shoe.shuffled(decks=rules.decks, cut_from_end=cut, rng=rng, seed=seed)
        self.shoe = shoe
        self.events: list[ShoeEvent] = []
        self.phase = DealerPhase.NEW
        self.hands_dealt = 0
        self.demo_hands_dealt = 0
        self._hand_start = 0
        self._cut_hand: int | None = None
        self._cut_during = False
        self._last_hand: int | None = None

    # -- state ---------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Whether the shoe is over."""
        return self.phase is DealerPhase.FINISHED

    @property
    def next_hand_number(self) -> int:
        """Number of the next (or current) hand, counting from 1."""
        return self.hands_dealt + 1

    @property
    def last_hand_number(self) -> int | None:
        """The shoe's last hand, once the cut card has come out."""
        return self._last_hand

    @property
    def next_is_last(self) -> bool:
        """Whether the next hand is the last one (counting a cut card that has shown
        between hands but is not announced yet). Reading it changes nothing."""
        last = self._last_hand
        if last is None and self._cut_showing_between_hands():
            last = self._last_hand_after_cut(self.next_hand_number)
        return last is not None and self.next_hand_number >= last

    def announce_cut_card(self) -> CutCardOut | None:
        """Announce a cut card that has shown between hands (the coming hand becomes the
        current one [M3]); ``None`` when there is nothing to announce."""
        if not self._cut_showing_between_hands():
            return None
        return self._set_cut(self.next_hand_number, during=False)

    def _emit(self, event: ShoeEvent) -> ShoeEvent:
        self.events.append(event)
        return event

    def _require(self, *phases: DealerPhase) -> None:
        if self.phase not in phases:
            allowed = " or ".join(p.value for p in phases)
            raise ShoeError(f"not allowed while the shoe is {self.phase.value} (needs {allowed})")

    # -- actions -------------------------------------------------------------

    def start(self) -> tuple[ShoeEvent, ...]:
        """Put the shoe in play: publish the commitment and burn per the rules [M2]."""
        self._require(DealerPhase.NEW)
        csm = self.rules.continuous_shuffler
        out: list[ShoeEvent] = [
            self._emit(
                ShoeStarted(
                    cards=len(self.shoe),
                    decks=self.shoe.decks,
                    cut_index=self.shoe.cut_index,
                    commitment=None if csm else self.shoe.commitment,
                )
            )
        ]
        burned: tuple[Card, ...] = ()
        if not csm:
            if self.rules.burn is BurnRule.DECKS:
                burned = self.shoe.burn(self.rules.decks)
            elif self.rules.burn is BurnRule.FIRST_CARD_VALUE:
                first = self.shoe.draw()
                burned = (first, *self.shoe.burn(first.value or 10))
        if burned:
            out.append(self._emit(CardsBurned(burned, "start")))
        self.phase = DealerPhase.READY
        return tuple(out)

    def verify_deal_demo_hand(self) -> None:
        """Raise :class:`ShoeError` unless a demonstration hand may be dealt now [M2]."""
        self._require(DealerPhase.READY)
        if self.hands_dealt:
            raise ShoeError("demonstration hands come before the first hand of the shoe")
        if self.demo_hands_dealt >= self.rules.demo_hands:
            raise ShoeError(f"at most {self.rules.demo_hands} demonstration hands in this shoe")

    def can_deal_demo_hand(self) -> bool:
        """Whether :meth:`deal_demo_hand` would deal one."""
        return _can(self.verify_deal_demo_hand)

    def deal_demo_hand(self) -> DemoHandDealt:
        """Deal a demonstration hand (no bets) before the first hand [M2]."""
        self.verify_deal_demo_hand()
        coup = Coup()
        while not coup.is_complete:
            coup.deal(self.shoe.draw())
        self.demo_hands_dealt += 1
        self._after_coup()
        event = DemoHandDealt(self.demo_hands_dealt, coup.outcome)
        self._emit(event)
        return event

    def verify_burn(self, count: int = 1) -> None:
        """Raise :class:`ShoeError` unless ``count`` cards may be burned now [M8]."""
        self._require(DealerPhase.READY)
        if self.rules.continuous_shuffler:
            # [M2], [M7.2]: every hand is dealt from a full shoe, so nothing is burned.
            raise ShoeError("a continuous shuffler deals every hand from a full shoe: no burns")
        if not self.rules.mid_shoe_burns:
            raise ShoeError(f"the {self.rules.name} rules burn no cards between hands")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ShoeError(f"burn at least one card, not {count!r}")
        if self.shoe.cut_card_out or self.shoe.dealt + count > self.shoe.cut_index:
            raise ShoeError("no burn may take the shoe past its cut card")

    def can_burn(self, count: int = 1) -> bool:
        """Whether :meth:`burn` would burn ``count`` cards now."""
        return _can(lambda: self.verify_burn(count))

    def burn(self, count: int = 1) -> CardsBurned:
        """Burn cards before a hand [M8]; refused where the rules forbid it ([L]), with a
        continuous shuffler [M2] or once the cut card is out."""
        self.verify_burn(count)
        event = CardsBurned(self.shoe.burn(count), "mid_shoe")
        self._emit(event)
        return event

    def begin_hand(self) -> int:
        """Start the next hand; returns its number."""
        self._require(DealerPhase.READY)
        self.announce_cut_card()
        self._hand_start = self.shoe.dealt
        self.phase = DealerPhase.IN_HAND
        return self.next_hand_number

    def draw(self) -> Card:
        """Take the next card of the current hand from the shoe."""
        self._require(DealerPhase.IN_HAND)
        return self.shoe.draw()

    def end_hand(self, outcome: Outcome) -> HandDealt:
        """Finish the current hand with its outcome; decides the last hand and [S5] voids."""
        self._require(DealerPhase.IN_HAND)
        number = self.next_hand_number
        self.hands_dealt = number
        cut = self.shoe.cut_index
        if self._cut_hand is None and self._hand_start < cut < self.shoe.dealt:
            # The cut card came out while this hand was being dealt.
            self._set_cut(number, during=True)
        last = self._last_hand is not None and number >= self._last_hand
        void = False
        reason = ""
        if (
            last
            and self.rules.last_hand is LastHandRule.MIN_SEVEN_OR_VOID
            and self._cut_during
            and self.shoe.remaining < VOID_MIN_CARDS
        ):
            void = True
            reason = (
                f"[S5] minimum seven cards or void: {self.shoe.remaining} cards left in the shoe"
            )
        event = HandDealt(number, outcome, last=last, void=void, void_reason=reason)
        self._emit(event)
        self.phase = DealerPhase.READY
        self._after_coup()
        if last:
            self.end_shoe()
        return event

    def deal_hand(self) -> HandDealt:
        """Deal the next hand by the tableau, card by card from the shoe."""
        self.begin_hand()
        coup = Coup()
        while not coup.is_complete:
            coup.deal(self.draw())
        return self.end_hand(coup.outcome)

    def end_shoe(self) -> ShoeEnded:
        """Close the shoe (after its last hand, or when the house changes it [M3])."""
        self._require(DealerPhase.READY, DealerPhase.NEW)
        self.shoe.close()
        self.phase = DealerPhase.FINISHED
        reveal = None if self.rules.continuous_shuffler else self.shoe.reveal()
        event = ShoeEnded(self.hands_dealt, self.shoe.remaining, reveal)
        self._emit(event)
        return event

    def deal_all(self, *, max_hands: int | None = None) -> Iterator[ShoeEvent]:
        """Deal the demonstration hands, then hands to the end of the shoe (or
        ``max_hands``, needed for a continuous shuffler), yielding each new event."""
        if max_hands is not None and (
            isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 0
        ):
            raise ShoeError(f"the number of hands to deal must be 0 or more, not {max_hands!r}")
        if self.rules.continuous_shuffler and max_hands is None:
            # Refused before the shoe is started, so a retry still yields ShoeStarted.
            raise ShoeError("a continuous shuffler never ends: give a number of hands")
        if self.phase is DealerPhase.NEW:
            yield from self.start()
        seen = len(self.events)
        while self.demo_hands_dealt < self.rules.demo_hands and not self.hands_dealt:
            self.deal_demo_hand()
        while not self.finished and (max_hands is None or self.hands_dealt < max_hands):
            self.deal_hand()
            yield from self.events[seen:]
            seen = len(self.events)
        if not self.finished:
            self.end_shoe()
        yield from self.events[seen:]

    # -- internals -----------------------------------------------------------

    def _after_coup(self) -> None:
        if self.rules.continuous_shuffler:
            self.shoe.return_and_reshuffle()  # [M7.2] every hand from a full shoe

    def _cut_showing_between_hands(self) -> bool:
        return (
            self._cut_hand is None
            and self.phase is not DealerPhase.IN_HAND
            and self.shoe.cut_card_out
            and not self.rules.continuous_shuffler
        )

    def _last_hand_after_cut(self, hand: int) -> int:
        return last_hand_after_cut(self.rules, hand)

    def _set_cut(self, hand: int, *, during: bool) -> CutCardOut:
        self._cut_hand = hand
        self._cut_during = during
        self._last_hand = self._last_hand_after_cut(hand)
        event = CutCardOut(hand if during else None, self._last_hand)
        self._emit(event)
        return event


def _can(verify: Callable[[], None]) -> bool:
    try:
        verify()
    except ShoeError:
        return False
    return True


def _check_given_shoe(rules: Rules, shoe: Shoe, *, given_random: bool) -> None:
    """Refuse a given shoe that the rules cannot deal, before anything is dealt."""
    if given_random:
        # The shoe is already shuffled (or scanned): a random source would be ignored.
        raise ShoeError("give either a shoe or a random source (rng or seed), not both")
    if shoe.dealt or shoe.closed:
        raise ShoeError("the shoe must be new: cards were already taken from it")
    if shoe.decks is not None and shoe.decks != rules.decks:
        raise ShoeError(
            f"the {rules.name} rules deal {rules.decks} decks; this shoe holds {shoe.decks}"
        )
    if rules.continuous_shuffler and not shoe.can_reshuffle:
        # [M7.2] cards go back after every hand: a fixed order cannot be dealt twice.
        raise ShoeError(
            "a continuous shuffler reshuffles after every hand: give it a shuffled shoe, "
            "not a fixed card order"
        )


def last_hand_after_cut(rules: Rules, hand: int) -> int:
    """The shoe's last hand when the cut card came out with ``hand`` current [M3]: that
    hand, or one more under the ``one_more`` rule.

    >>> from punto.rules import preset
    >>> last_hand_after_cut(preset("macau"), 60), last_hand_after_cut(preset("live_tiger"), 60)
    (61, 60)
    """
    return hand + (1 if rules.last_hand is LastHandRule.ONE_MORE else 0)
