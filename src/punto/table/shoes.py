"""Where a table's cards come from: an RNG shoe or a live, scanned shoe.

- :class:`RngShoe` deals from a shoe shuffled by the injected random source, through
  :class:`~punto.dealing.ShoeDealer` (start burns, demonstration hands, burns, the cut
  card, the last hand and the [S5] void all stay there).
- :class:`LiveShoe` follows a physical shoe: the dealer scans each card, and the shoe
  refuses a card it cannot hold (more copies than it has decks); the dealer reports the
  cut card when it shows, and the cards left for [S5].

Both answer the same questions for :class:`~punto.table.Table`.

>>> from punto.cards import Card
>>> from punto.rules import preset
>>> live = LiveShoe(preset("macau").replace(decks=6))
>>> for _ in range(6):
...     live.take(Card.parse("AS"))
Card('AS')
Card('AS')
Card('AS')
Card('AS')
Card('AS')
Card('AS')
>>> live.verify_card(Card.parse("AS"))
Traceback (most recent call last):
...
punto.errors.CardError: AS would be the 7th copy in a 6-deck shoe: it cannot be in this shoe
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from punto.analysis.composition import Composition
from punto.cards import RANKS, Card, Rank
from punto.coup import Coup
from punto.dealing import (
    VOID_MIN_CARDS,
    CardsBurned,
    CutCardOut,
    DealerPhase,
    HandDealt,
    ShoeDealer,
    ShoeEnded,
    ShoeEvent,
    last_hand_after_cut,
)
from punto.errors import CardError, IncompleteCoupError, ShoeError, TableError
from punto.outcome import Outcome
from punto.rules import LastHandRule, Rules
from punto.shoe import ShoeReveal
from punto.table.reasons import Reason, Why

__all__ = ["CutNotice", "HandEnd", "LiveShoe", "RngShoe", "ShoeStart", "TableShoe"]

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class ShoeStart:
    """What a new shoe publishes [M2]."""

    cards: int
    decks: int
    cut_index: int | None
    commitment: str | None
    burned: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CutNotice:
    """The cut card came out (``during_hand``: in that hand, else between hands) and hand
    ``last_hand`` of the shoe is its last [M3]."""

    during_hand: int | None
    last_hand: int


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How the shoe saw a hand end: its last hand? voided by [S5]? cut card notices."""

    last: bool
    void_reason: Why | None
    cuts: tuple[CutNotice, ...]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _unseen(rules: Rules, shown: Counter[Rank]) -> Composition:
    """The shoe less the cards its hands showed [EZ-C] (a card shown more often than a
    shoe holds it, as a hand dealt again may, leaves none of its rank)."""
    full = 4 * rules.decks
    return Composition(tuple(max(0, full - shown[rank]) for rank in RANKS))


def _show(shown: Counter[Rank], cards: Sequence[Card]) -> None:
    shown.update(card.rank for card in cards)


class RngShoe:
    """A shuffled shoe dealt by :class:`~punto.dealing.ShoeDealer`."""

    live = False

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rules = rules
        self._rng = rng
        self.dealer = ShoeDealer(rules, rng=rng)
        self._seen_events = 0
        self._replay: list[Card] = []
        self._shown: Counter[Rank] = Counter()

    # -- state ---------------------------------------------------------------

    @property
    def hands_dealt(self) -> int:
        """Hands finished in this shoe (blank and void hands count)."""
        return self.dealer.hands_dealt

    @property
    def next_hand_number(self) -> int:
        """The number of the next (or current) hand."""
        return self.dealer.next_hand_number

    @property
    def demo_hands_dealt(self) -> int:
        """Demonstration hands dealt from this shoe."""
        return self.dealer.demo_hands_dealt

    @property
    def hand_open(self) -> bool:
        """Whether a hand has begun and not ended."""
        return self.dealer.phase is DealerPhase.IN_HAND

    @property
    def finished(self) -> bool:
        """Whether the shoe is over."""
        return self.dealer.finished

    @property
    def cards_left(self) -> int:
        """Cards still in the shoe."""
        return self.dealer.shoe.remaining + len(self._replay)

    @property
    def unseen(self) -> Composition:
        """The cards not yet shown by this shoe's hands (burned cards among them) [EZ-C]."""
        return _unseen(self.rules, self._shown)

    def next_is_last(self) -> tuple[bool, tuple[CutNotice, ...]]:
        """Whether the next hand is the shoe's last, and any cut card that just showed."""
        self.dealer.announce_cut_card()
        last = self.dealer.next_is_last
        return last, self._cuts()

    def _new_events(self) -> list[ShoeEvent]:
        events = self.dealer.events[self._seen_events :]
        self._seen_events = len(self.dealer.events)
        return events

    def _cuts(self, events: list[ShoeEvent] | None = None) -> tuple[CutNotice, ...]:
        found = self._new_events() if events is None else events
        return tuple(
            CutNotice(e.during_hand, e.last_hand) for e in found if isinstance(e, CutCardOut)
        )

    def _dry_run(self, action: Callable[[ShoeDealer], _T]) -> None:
        """Try ``action`` on a copy of the dealer, so that a check says exactly what the
        dealer itself would refuse (never a second statement of its rules)."""
        # The rules are frozen and shared: only the dealer's own state is copied. A seeded
        # source is copied too, so a check never moves its stream; the system source has
        # no state to copy (nor any stream a check could make predictable).
        memo: dict[int, object] = {id(self.rules): self.rules}
        if isinstance(self._rng, random.SystemRandom):
            memo[id(self._rng)] = self._rng
        action(copy.deepcopy(self.dealer, memo))

    # -- actions -------------------------------------------------------------

    @staticmethod
    def verify_start(burned: Sequence[Card]) -> None:
        """An RNG shoe burns its own cards."""
        if burned:
            raise TableError("an RNG shoe burns its own cards: give no burned cards")

    def start(self, burned: Sequence[Card] = ()) -> ShoeStart:
        """Put the shoe in play [M2]."""
        self.verify_start(burned)
        self.dealer.start()
        burned_cards: tuple[Card, ...] = ()
        for event in self._new_events():
            if isinstance(event, CardsBurned):
                burned_cards = event.cards
        shoe = self.dealer.shoe
        csm = self.rules.continuous_shuffler
        return ShoeStart(
            cards=len(shoe),
            decks=self.rules.decks,
            cut_index=None if csm else shoe.cut_index,
            commitment=None if csm else shoe.commitment,
            burned=burned_cards,
        )

    def verify_demo(self, cards: Sequence[Card]) -> None:
        """Raise unless a demonstration hand may be dealt now."""
        if cards:
            raise TableError("an RNG shoe deals its own demonstration hands: give no cards")
        self._dry_run(lambda d: d.deal_demo_hand())

    def verify_demo_turn(self) -> None:
        """Raise unless a demonstration hand may be dealt now, whatever its cards."""
        self.verify_demo(())

    def demo(self, cards: Sequence[Card] = ()) -> Outcome:
        """Deal a demonstration hand [M2]."""
        self.verify_demo(cards)
        outcome = self.dealer.deal_demo_hand().outcome
        self._new_events()
        _show(self._shown, (*outcome.player, *outcome.banker))
        return outcome

    def verify_burn(self, count: int, cards: Sequence[Card]) -> None:
        """Raise unless ``count`` cards may be burned now [M8], [L]."""
        if cards:
            raise TableError("an RNG shoe burns its own cards: give a count, not cards")
        self._dry_run(lambda d: d.burn(count))

    def burn(self, count: int, cards: Sequence[Card] = ()) -> tuple[Card, ...]:
        """Burn ``count`` cards before a hand [M8]."""
        self.verify_burn(count, cards)
        burned = self.dealer.burn(count).cards
        self._new_events()
        return burned

    def verify_card(self, card: Card | None) -> None:
        """An RNG shoe draws its own cards, while any are left."""
        if card is not None:
            raise TableError("an RNG table draws its own cards: deal without a card")
        if not self._replay and self.dealer.shoe.remaining == 0:
            raise ShoeError("the shoe is empty")

    def begin_hand(self) -> tuple[CutNotice, ...]:
        """Begin the next hand if it has not begun; returns any cut card notice."""
        if not self.hand_open:
            self.dealer.begin_hand()
        return self._cuts()

    def take(self, card: Card | None = None) -> Card:
        """The next card of the hand (again, after a restart)."""
        self.verify_card(card)
        self.begin_hand()
        return self._replay.pop(0) if self._replay else self.dealer.draw()

    def verify_discard(self, count: int, cards: Sequence[Card]) -> None:
        """Raise unless ``count`` cards can be taken out of the shoe now."""
        if cards:
            raise TableError("an RNG shoe discards its own cards: give a count, not cards")
        if count < 1:
            raise TableError(f"discard at least one card, not {count}")
        if count > self.cards_left:
            raise ShoeError(f"cannot discard {count} cards: {self.cards_left} left")

    def discard(self, count: int, cards: Sequence[Card] = ()) -> tuple[Card, ...]:
        """Take ``count`` cards out of play during a hand [S2]."""
        self.verify_discard(count, cards)
        return tuple(self.take() for _ in range(count))

    def return_cards(self, cards: Sequence[Card]) -> None:
        """The hand is dealt again: its cards come back first, in the same order."""
        self._replay[:0] = list(cards)

    def verify_end_hand(self, cards_left: int | None) -> None:
        """The RNG dealer counts the cards left itself [S5]."""
        if cards_left is not None:
            raise TableError("an RNG shoe counts its own cards: settle without cards_left")

    def end_hand(self, outcome: Outcome, cards_left: int | None = None) -> HandEnd:
        """Finish the hand; the dealer decides the last hand and the [S5] void."""
        self.verify_end_hand(cards_left)
        if not self.hand_open:
            self.dealer.begin_hand()
        self._replay.clear()  # cards of a hand cut short are discarded with it
        self.dealer.end_hand(outcome)
        _show(self._shown, (*outcome.player, *outcome.banker))
        if self.rules.continuous_shuffler:
            self._shown.clear()  # [M7.2] every hand is dealt from a full shoe
        events = self._new_events()
        dealt = next(e for e in events if isinstance(e, HandDealt))
        void = Why(Reason.SEVEN_CARDS_OR_VOID) if dealt.void_reason else None  # [S5]
        return HandEnd(dealt.last, void, self._cuts(events))

    def close(self) -> ShoeReveal | None:
        """Finish the shoe (if the last hand did not) and reveal its order."""
        if not self.dealer.finished:
            self.dealer.end_shoe()
        ended = next(e for e in reversed(self.dealer.events) if isinstance(e, ShoeEnded))
        self._new_events()
        return ended.reveal


class LiveShoe:
    """A physical shoe followed card by card from the dealer's scans."""

    live = True

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.hands_dealt = 0
        self.demo_hands_dealt = 0
        self.hand_open = False
        self.finished = False
        self._seen: Counter[Card] = Counter()
        self._shown: Counter[Rank] = Counter()
        self._last_hand: int | None = None
        self._cut_during: int | None = None

    # -- state ---------------------------------------------------------------

    @property
    def next_hand_number(self) -> int:
        """The number of the next (or current) hand."""
        return self.hands_dealt + 1

    @property
    def cards_seen(self) -> int:
        """Cards scanned out of this shoe so far."""
        return sum(self._seen.values())

    @property
    def unseen(self) -> Composition:
        """The cards not yet shown by this shoe's hands (burned cards among them) [EZ-C]."""
        return _unseen(self.rules, self._shown)

    def next_is_last(self) -> tuple[bool, tuple[CutNotice, ...]]:
        """Whether the next hand is announced as the shoe's last."""
        last = self._last_hand is not None and self.next_hand_number >= self._last_hand
        return last, ()

    @property
    def needs_cards_left(self) -> bool:
        """[S5] The current hand is the last, the cut card came out during it and the
        rules say "minimum seven cards or void": the dealer must count the cards left."""
        hand = self.next_hand_number
        return (
            self.rules.last_hand is LastHandRule.MIN_SEVEN_OR_VOID
            and self._cut_during == hand
            and self._last_hand == hand
        )

    # -- checks --------------------------------------------------------------

    def verify_card(self, card: Card | None) -> None:
        """Raise :class:`CardError` for a card this shoe cannot hold (one copy per deck)."""
        if not isinstance(card, Card):
            raise CardError(f"a live table deals the card the dealer scans, not {card!r}")
        self._verify_cards([card])

    def _verify_cards(self, cards: Sequence[Card]) -> None:
        counts = Counter(cards)
        for card, extra in counts.items():
            if not isinstance(card, Card):
                raise CardError(f"not a card: {card!r}")
            total = self._seen[card] + extra
            if total > self.rules.decks:
                raise CardError(
                    f"{card.code} would be the {_ordinal(total)} copy in a {self.rules.decks}-deck"
                    " shoe: it cannot be in this shoe"
                )

    # -- actions -------------------------------------------------------------

    def verify_start(self, burned: Sequence[Card]) -> None:
        """Raise for burned cards the shoe cannot hold."""
        self._verify_cards(burned)

    def start(self, burned: Sequence[Card] = ()) -> ShoeStart:
        """Put the shoe in play; ``burned`` are the scanned burn cards, if any [M2]."""
        self.verify_start(burned)
        self._seen.update(burned)
        return ShoeStart(
            cards=self.rules.cards,
            decks=self.rules.decks,
            cut_index=None,
            commitment=None,
            burned=tuple(burned),
        )

    def verify_demo(self, cards: Sequence[Card]) -> None:
        """Raise unless ``cards`` make exactly one demonstration hand now [M2]."""
        self.verify_demo_turn()
        self._verify_cards(cards)
        self._coup_of(cards)

    def verify_demo_turn(self) -> None:
        """Raise unless a demonstration hand may be dealt now, whatever its cards [M2]."""
        if self.hands_dealt:
            raise ShoeError("demonstration hands come before the first hand of the shoe")
        if self.demo_hands_dealt >= self.rules.demo_hands:
            raise ShoeError(f"at most {self.rules.demo_hands} demonstration hands in this shoe")

    @staticmethod
    def _coup_of(cards: Sequence[Card]) -> Outcome:
        coup = Coup()
        for card in cards:
            coup.deal(card)  # raises TableauError for a card after the coup is complete
        if not coup.is_complete:
            raise IncompleteCoupError(f"a demonstration hand needs more cards ({coup.guidance})")
        return coup.outcome

    def demo(self, cards: Sequence[Card] = ()) -> Outcome:
        """Record a scanned demonstration hand."""
        self.verify_demo(cards)
        self._seen.update(cards)
        _show(self._shown, cards)
        self.demo_hands_dealt += 1
        return self._coup_of(cards)

    def verify_burn(self, count: int, cards: Sequence[Card]) -> None:
        """Raise unless cards may be burned between hands here [M8], [L]."""
        if self.rules.continuous_shuffler or not self.rules.mid_shoe_burns:
            raise ShoeError(f"the {self.rules.name} rules burn no cards between hands")
        if cards and len(cards) != count:
            raise TableError(f"{len(cards)} scanned cards for a burn of {count}")
        if count < 1:
            raise ShoeError(f"burn at least one card, not {count}")
        self._verify_cards(cards)

    def burn(self, count: int, cards: Sequence[Card] = ()) -> tuple[Card, ...]:
        """Record a burn [M8] (the burned cards, when scanned)."""
        self.verify_burn(count, cards)
        self._seen.update(cards)
        return tuple(cards)

    def verify_cut_card_out(self) -> None:
        """Raise unless the cut card may come out now (once per shoe; never with a
        continuous shuffler [M2])."""
        if self.rules.continuous_shuffler:
            raise ShoeError("a continuous shuffler has no cut card [M2]")
        if self._last_hand is not None:
            raise ShoeError(f"the cut card already came out: hand {self._last_hand} is the last")

    def cut_card_out(self, *, in_hand: bool) -> CutNotice:
        """The dealer saw the cut card: in the current hand, or between hands [M3]."""
        self.verify_cut_card_out()
        hand = self.next_hand_number
        self._last_hand = last_hand_after_cut(self.rules, hand)  # [M3]
        self._cut_during = hand if in_hand else None
        return CutNotice(hand if in_hand else None, self._last_hand)

    def begin_hand(self) -> tuple[CutNotice, ...]:
        """Begin the next hand if it has not begun."""
        self.hand_open = True
        return ()

    def take(self, card: Card | None = None) -> Card:
        """Record the scanned ``card`` as the next card of the hand."""
        self.verify_card(card)
        assert card is not None
        self.begin_hand()
        self._seen[card] += 1
        return card

    def verify_discard(self, count: int, cards: Sequence[Card]) -> None:
        """Raise for discarded cards the shoe cannot hold."""
        if count < 1:
            raise TableError(f"discard at least one card, not {count}")
        if cards and len(cards) != count:
            raise TableError(f"{len(cards)} scanned cards for a discard of {count}")
        self._verify_cards(cards)

    def discard(self, count: int, cards: Sequence[Card] = ()) -> tuple[Card, ...]:
        """Record cards taken out of play during a hand [S2]."""
        self.verify_discard(count, cards)
        self._seen.update(cards)
        return tuple(cards)

    def return_cards(self, cards: Sequence[Card]) -> None:
        """The hand is dealt again: its cards will be scanned again."""
        self._seen.subtract(cards)

    def verify_end_hand(self, cards_left: int | None) -> None:
        """[S5] The dealer's count of the cards left is needed exactly when it decides."""
        if self.needs_cards_left and cards_left is None:
            raise TableError(
                "[S5] the cut card came out during the last hand: count the cards left in "
                "the shoe before settling"
            )
        if cards_left is not None and cards_left < 0:
            raise TableError(f"cards left cannot be negative ({cards_left})")

    def end_hand(self, outcome: Outcome, cards_left: int | None = None) -> HandEnd:
        """Finish the hand (a live shoe decides nothing from ``outcome``); ``cards_left`` is
        the dealer's count for [S5]."""
        void = None
        if self.needs_cards_left and cards_left is not None and cards_left < VOID_MIN_CARDS:
            void = Why(Reason.SEVEN_CARDS_OR_VOID)  # [S5] minimum seven cards or void
        self.hand_open = False
        self.hands_dealt += 1
        _show(self._shown, (*outcome.player, *outcome.banker))
        if self.rules.continuous_shuffler:
            self._seen.clear()  # [M7.2] the cards go back into the machine
            self._shown.clear()
        last = self._last_hand is not None and self.hands_dealt >= self._last_hand
        return HandEnd(last, void, ())

    def close(self) -> ShoeReveal | None:
        """Finish the shoe; a live shoe has no committed order to reveal."""
        self.finished = True
        return None


TableShoe = RngShoe | LiveShoe
"""Either kind of shoe."""
