"""Every fault case ([M10], [S1]–[S9], [L]) as data: the case, the rule that decides it, its effect.

A fault is reported with :meth:`punto.table.Table.report_fault`; the table applies the
:class:`Effect` listed here and nothing else, so this table *is* the documented
behaviour. No effect creates or loses money: a void hand refunds every stake, a result
that stands is settled normally, and a re-settlement moves exactly the difference.

>>> spec = Fault.L_TWO_CARDS_OUT.spec
>>> spec.rule, spec.effect
('[L]', <Effect.VOID_NEW_SHOE: 'void_new_shoe'>)
>>> Fault.S3_DROPPED_FIRST_CARD.spec.effect_text
'bets are returned and the hand is dealt as a blank hand'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from punto.table.phases import BETWEEN_HANDS, IN_HAND, Phase

__all__ = ["FAULTS", "Effect", "Fault", "FaultSpec"]


class Effect(enum.Enum):
    """What a fault does to the table."""

    RECORD = "record"
    """Recorded only: play on / corrected by the supervisor / the cards speak / valid."""
    BLANK_NEXT_HAND = "blank_next_hand"
    """The next hand is a blank hand (colpo in bianco): dealt with no bets [S1]."""
    REFUND_BLANK_HAND = "refund_blank_hand"
    """Every stake of this hand is returned; the hand is finished as a blank hand [S3]."""
    RESTART_HAND = "restart_hand"
    """The hand is dealt again from the same cards, under the supervisor [M10], [S7], [S8]."""
    DISCARD = "discard"
    """Cards taken out of play (stuck cards that cannot be reordered [S2])."""
    VOID_REFUND = "void_refund"
    """The hand is void, every stake refunded; the shoe goes on [M10], [S6], [S7]."""
    VOID_NEW_SHOE = "void_new_shoe"
    """The hand is void, every stake refunded, and the shoe is replaced [L]."""
    VOID_CLOSE_TABLE = "void_close_table"
    """The hand is void, every stake refunded, and the table closes [L]."""
    RESULT_STANDS_NEW_SHOE = "result_stands_new_shoe"
    """The hand is settled on its result; then the shoe is replaced [L]."""
    RESHUFFLE = "reshuffle"
    """The shoe is shuffled again before its first hand (a new order) [L]."""
    REVEAL = "reveal"
    """Face-down cards are turned now; the hand is valid [M4], [L]."""
    RESCAN = "rescan"
    """The dealer scans the card again; nothing else changes [L]."""
    RESETTLE = "resettle"
    """A settled hand is settled again from its recorded result [O]."""


_DEALING = frozenset({Phase.BETTING_CLOSED, Phase.DEALING, Phase.SQUEEZE})
_CARDS_OUT = frozenset({Phase.DEALING, Phase.SQUEEZE})
_AFTER_RESULT = frozenset({Phase.RESULT, Phase.SETTLED})
_ANY_OPEN = frozenset(Phase) - {Phase.CLOSED}


@dataclass(frozen=True, slots=True)
class FaultSpec:
    """One fault case: where it is written, what happened, what the table does, and in
    which phases it can be reported."""

    rule: str
    case: str
    effect: Effect
    effect_text: str
    phases: frozenset[Phase]


class Fault(enum.Enum):
    """Every fault case of [M10], [S1]–[S9] and [L] (plus [M4] and the soiled card of [M3]/[S4])."""

    M4_CARD_EXPOSED = "m4_card_exposed"
    M10_MISDEAL_CORRECTED = "m10_misdeal_corrected"
    M10_MISDEAL_VOID = "m10_misdeal_void"
    S1_CARD_DRAWN_UNSEEN = "s1_card_drawn_unseen"
    S1_CARD_DRAWN_SEEN = "s1_card_drawn_seen"
    S1_FIRST_CARD_SEEN = "s1_first_card_seen"
    S2_STUCK_REORDERED = "s2_stuck_reordered"
    S2_STUCK_DISCARDED = "s2_stuck_discarded"
    S3_DROPPED_CARD = "s3_dropped_card"
    S3_DROPPED_FIRST_CARD = "s3_dropped_first_card"
    S4_SOILED_CARD = "s4_soiled_card"
    S6_SWAPPED_CORRECTED = "s6_swapped_corrected"
    S6_SWAPPED_VOID = "s6_swapped_void"
    S7_CARD_COUNT_RESTARTED = "s7_card_count_restarted"
    S7_CARD_COUNT_VOID = "s7_card_count_void"
    S8_THIRD_CARD_AGAINST_TABLEAU = "s8_third_card_against_tableau"
    S9_WRONG_TOTAL_ANNOUNCED = "s9_wrong_total_announced"
    L_CARD_NOT_SCANNED = "l_card_not_scanned"
    L_PLAYER_DEVICE_FAULT = "l_player_device_fault"
    L_OPERATOR_SYSTEM_FAULT = "l_operator_system_fault"
    L_TWO_CARDS_OUT = "l_two_cards_out"
    L_CARD_EXPOSED_WHILE_SHUFFLING = "l_card_exposed_while_shuffling"
    L_CARD_DROPPED_UNDER_TABLE = "l_card_dropped_under_table"
    L_EXTRA_CARD_AFTER_HAND = "l_extra_card_after_hand"
    L_CARD_ON_WRONG_SPOT = "l_card_on_wrong_spot"
    L_DEALER_REVEALS_EARLY = "l_dealer_reveals_early"
    L_DEALER_FORGETS_REVEAL = "l_dealer_forgets_reveal"
    L_CARDS_CLEARED_BEFORE_REVEAL = "l_cards_cleared_before_reveal"
    L_CARDS_CLEARED_AFTER_REVEAL = "l_cards_cleared_after_reveal"
    O_SETTLEMENT_ERROR = "o_settlement_error"

    @property
    def spec(self) -> FaultSpec:
        """The documented case and effect."""
        return FAULTS[self]


def _spec(
    rule: str, case: str, effect: Effect, effect_text: str, phases: frozenset[Phase]
) -> FaultSpec:
    return FaultSpec(rule, case, effect, effect_text, phases)


_F = Fault
_E = Effect
FAULTS: Mapping[Fault, FaultSpec] = MappingProxyType(
    {
        _F.M4_CARD_EXPOSED: _spec(
            "[M4]",
            "a card comes out face up",
            _E.REVEAL,
            "the card is valid, and so are the hand and its bets",
            _CARDS_OUT,
        ),
        _F.M10_MISDEAL_CORRECTED: _spec(
            "[M10]",
            "a misdeal or a wrong draw that can be corrected at once",
            _E.RESTART_HAND,
            "corrected at once: the hand is dealt again from the same cards",
            _CARDS_OUT | {Phase.RESULT},
        ),
        _F.M10_MISDEAL_VOID: _spec(
            "[M10]",
            "a misdeal or a wrong draw that cannot be corrected",
            _E.VOID_REFUND,
            "the hand is void and every stake is refunded",
            IN_HAND,
        ),
        _F.S1_CARD_DRAWN_UNSEEN: _spec(
            "[S1]",
            "a card drawn by mistake, unseen",
            _E.RECORD,
            "play on; the card goes back under the shoe and is used in the next hand",
            IN_HAND | {Phase.SETTLED},
        ),
        _F.S1_CARD_DRAWN_SEEN: _spec(
            "[S1]",
            "a card drawn by mistake and seen",
            _E.BLANK_NEXT_HAND,
            "the card is used in the next hand, which is a blank hand (no bets)",
            IN_HAND | {Phase.SETTLED, Phase.SHOE_START},
        ),
        _F.S1_FIRST_CARD_SEEN: _spec(
            "[S1]",
            "the first card of the shoe is seen",
            _E.BLANK_NEXT_HAND,
            "the first hand is a blank hand (no bets)",
            frozenset({Phase.SHOE_START}),
        ),
        _F.S2_STUCK_REORDERED: _spec(
            "[S2]",
            "cards stuck together, put back in order",
            _E.RECORD,
            "play on with the cards reordered",
            _DEALING,
        ),
        _F.S2_STUCK_DISCARDED: _spec(
            "[S2]",
            "cards stuck together that cannot be reordered",
            _E.DISCARD,
            "the stuck cards are discarded; the hand goes on",
            _DEALING,
        ),
        _F.S3_DROPPED_CARD: _spec(
            "[S3]",
            "a dropped card",
            _E.RECORD,
            "the card is picked up and goes back into play",
            _CARDS_OUT,
        ),
        _F.S3_DROPPED_FIRST_CARD: _spec(
            "[S3]",
            "the first card of Player or Banker is dropped",
            _E.REFUND_BLANK_HAND,
            "bets are returned and the hand is dealt as a blank hand",
            _CARDS_OUT,
        ),
        _F.S4_SOILED_CARD: _spec(
            "[M3], [S4]",
            "a creased or soiled card",
            _E.RECORD,
            "the card is replaced",
            _ANY_OPEN,
        ),
        _F.S6_SWAPPED_CORRECTED: _spec(
            "[S6]",
            "Player and Banker cards swapped, corrected",
            _E.RECORD,
            "the supervisor puts the cards where the tableau placed them",
            _CARDS_OUT | {Phase.RESULT},
        ),
        _F.S6_SWAPPED_VOID: _spec(
            "[S6]",
            "swapped cards that cannot be corrected",
            _E.VOID_REFUND,
            "the hand is void, the cards discarded, every stake refunded",
            _CARDS_OUT | {Phase.RESULT},
        ),
        _F.S7_CARD_COUNT_RESTARTED: _spec(
            "[S7]",
            "more or fewer than two cards dealt to a hand",
            _E.RESTART_HAND,
            "the hand is dealt again from the same cards, under the supervisor",
            _CARDS_OUT,
        ),
        _F.S7_CARD_COUNT_VOID: _spec(
            "[S7]",
            "a wrong number of cards that cannot be restarted",
            _E.VOID_REFUND,
            "the hand is void, the cards discarded, every stake refunded",
            _CARDS_OUT,
        ),
        _F.S8_THIRD_CARD_AGAINST_TABLEAU: _spec(
            "[S8]",
            "a third card dealt against the tableau",
            _E.RESTART_HAND,
            "the hand is dealt again under the supervisor (the scan itself is refused)",
            _CARDS_OUT | {Phase.RESULT},
        ),
        _F.S9_WRONG_TOTAL_ANNOUNCED: _spec(
            "[S9]",
            "a wrong total announced",
            _E.RECORD,
            "the cards speak: the result is the one the cards make",
            frozenset({Phase.SQUEEZE, Phase.DEALING, Phase.RESULT, Phase.SETTLED}),
        ),
        _F.L_CARD_NOT_SCANNED: _spec(
            "[L]",
            "a card not scanned",
            _E.RESCAN,
            "the card is scanned again",
            _DEALING,
        ),
        _F.L_PLAYER_DEVICE_FAULT: _spec(
            "[L]",
            "a fault of the player's own device or connection",
            _E.RECORD,
            "no result changes; the bet record shows the bets",
            _ANY_OPEN,
        ),
        _F.L_OPERATOR_SYSTEM_FAULT: _spec(
            "[L]",
            "a fault of the operator's system",
            _E.VOID_CLOSE_TABLE,
            "the hand is void, every stake refunded, and the table closes",
            _ANY_OPEN,
        ),
        _F.L_TWO_CARDS_OUT: _spec(
            "[L]",
            "two or more cards out at once",
            _E.VOID_NEW_SHOE,
            "the hand is aborted, every bet refunded, and a new shoe is used",
            _DEALING,
        ),
        _F.L_CARD_EXPOSED_WHILE_SHUFFLING: _spec(
            "[L]",
            "a card exposed while shuffling",
            _E.RESHUFFLE,
            "the cards are shuffled again",
            frozenset({Phase.SHOE_START}),
        ),
        _F.L_CARD_DROPPED_UNDER_TABLE: _spec(
            "[L]",
            "a card dropped under the table",
            _E.VOID_NEW_SHOE,
            "the hand is void, every stake refunded, and a new shoe is used",
            _DEALING,
        ),
        _F.L_EXTRA_CARD_AFTER_HAND: _spec(
            "[L]",
            "an extra card dealt after the hand",
            _E.RESULT_STANDS_NEW_SHOE,
            "the result stands; then a new shoe is used",
            _AFTER_RESULT,
        ),
        _F.L_CARD_ON_WRONG_SPOT: _spec(
            "[L]",
            "a card put on the wrong spot",
            _E.RECORD,
            "the supervisor moves it where the screen shows it",
            _CARDS_OUT | {Phase.RESULT},
        ),
        _F.L_DEALER_REVEALS_EARLY: _spec(
            "[L]",
            "the dealer reveals cards early",
            _E.REVEAL,
            "the cards are valid and the hand goes on",
            _CARDS_OUT,
        ),
        _F.L_DEALER_FORGETS_REVEAL: _spec(
            "[L]",
            "the dealer forgets to reveal the cards",
            _E.REVEAL,
            "the supervisor reveals them",
            _CARDS_OUT,
        ),
        _F.L_CARDS_CLEARED_BEFORE_REVEAL: _spec(
            "[L]",
            "cards cleared before the reveal",
            _E.VOID_NEW_SHOE,
            "the hand is void, every stake refunded, and a new shoe is used",
            _CARDS_OUT,
        ),
        _F.L_CARDS_CLEARED_AFTER_REVEAL: _spec(
            "[L]",
            "cards cleared after the reveal",
            _E.RECORD,
            "the cards are restored and the result stands",
            _AFTER_RESULT,
        ),
        _F.O_SETTLEMENT_ERROR: _spec(
            "[O]",
            "a settlement error",
            _E.RESETTLE,
            "the hand is settled again from its recorded result; only the difference moves",
            BETWEEN_HANDS | {Phase.PAUSED},
        ),
    }
)
"""Every fault's documented case and effect."""
