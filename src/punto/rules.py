"""Rules as data: a frozen, validated :class:`Rules` and its named presets.

Every variant the documents describe is a setting here, never a code branch
elsewhere. Presets are found by name:

>>> rules = preset("macau")
>>> rules.decks, rules.burn, rules.last_hand
(8, <BurnRule.FIRST_CARD_VALUE: 'first_card_value'>, <LastHandRule.ONE_MORE: 'one_more'>)
>>> preset_names()
['live_tiger', 'macau', 'no_commission', 'online_8deck', 'super_punto_banco']
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from types import MappingProxyType

from punto.errors import PresetError, RulesError

__all__ = [
    "MAX_DECKS",
    "MAX_DEMO_HANDS",
    "MIN_DECKS",
    "PLAY_MIN_DECKS",
    "PRESETS",
    "BurnRule",
    "LastHandRule",
    "Rules",
    "preset",
    "preset_names",
]

MIN_DECKS = 1
"""Fewest decks in a shoe (analysis may use fewer than a play table)."""
PLAY_MIN_DECKS = 6
"""Fewest decks a play table may use [M1]."""
MAX_DECKS = 12
"""Most decks in a shoe [M1]."""
MAX_DEMO_HANDS = 3
"""Most demonstration hands at the start of a shoe [M2]."""
MAX_CARDS_PER_COUP = 6


class BurnRule(enum.Enum):
    """How many cards are burned at the start of a shoe [M2]."""

    NONE = "none"
    """Nothing burned (live tables [L], continuous shufflers [M2])."""
    DECKS = "decks"
    """As many cards as there are decks."""
    FIRST_CARD_VALUE = "first_card_value"
    """Turn the first card and burn as many more as its value (ten and faces burn 10)."""


class LastHandRule(enum.Enum):
    """What happens when the cut card comes out [M3], [S5]."""

    LAST_HAND = "last_hand"
    """The current hand is the last one."""
    ONE_MORE = "one_more"
    """One more hand is played after the current one."""
    MIN_SEVEN_OR_VOID = "min_seven_or_void"
    """[S5] The current hand is the last; if the cut card came out during it and fewer
    than seven cards are left in the shoe before settling, the hand is void."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """A table's rules. Frozen and validated at construction.

    Cut card: placed by the shuffle at a random distance from the end of the shoe
    between ``cut_min_from_end`` and ``cut_max_from_end`` cards (inclusive) [M2].
    """

    name: str
    description: str = ""
    decks: int = 8
    cut_min_from_end: int = 14
    cut_max_from_end: int = 14
    burn: BurnRule = BurnRule.DECKS
    demo_hands: int = 0
    last_hand: LastHandRule = LastHandRule.LAST_HAND
    continuous_shuffler: bool = False
    mid_shoe_burns: bool = True

    def __post_init__(self) -> None:
        if not self.name:
            raise RulesError("a rules preset needs a name")
        if not MIN_DECKS <= self.decks <= MAX_DECKS:
            raise RulesError(f"decks must be {MIN_DECKS}-{MAX_DECKS}, not {self.decks}")
        if not 0 <= self.demo_hands <= MAX_DEMO_HANDS:
            raise RulesError(f"demo hands must be 0-{MAX_DEMO_HANDS}, not {self.demo_hands}")
        if self.cut_min_from_end > self.cut_max_from_end:
            raise RulesError(
                f"cut card range is empty: {self.cut_min_from_end} > {self.cut_max_from_end}"
            )
        need = self.min_cards_after_cut
        if self.cut_min_from_end < need:
            raise RulesError(
                f"the cut card must be at least {need} cards from the end for the "
                f"{self.last_hand.value} rule, not {self.cut_min_from_end}"
            )
        if self.cut_max_from_end >= self.cards:
            raise RulesError(
                f"the cut card ({self.cut_max_from_end} from the end) must be inside a shoe "
                f"of {self.cards} cards"
            )

    @property
    def cards(self) -> int:
        """Cards in a full shoe."""
        return self.decks * 52

    @property
    def min_cards_after_cut(self) -> int:
        """Cards that must stay behind the cut card so that the hands the last-hand rule
        still deals can be completed."""
        if self.continuous_shuffler:
            return 0
        hands_after = 2 if self.last_hand is LastHandRule.ONE_MORE else 1
        return MAX_CARDS_PER_COUP * hands_after

    @property
    def playable(self) -> bool:
        """Whether a play table may use these rules (6-12 decks [M1])."""
        return self.decks >= PLAY_MIN_DECKS

    def replace(self, **changes: object) -> Rules:
        """A copy with some settings changed, validated again.

        >>> preset("macau").replace(decks=6).decks
        6
        """
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


_PRESET_LIST = (
    Rules(
        name="macau",
        description="Macau statutory rules [M1]-[M18]: 8 decks, cut card 14 from the end, "
        "burn by the first card's value, one more hand after the cut card.",
        decks=8,
        cut_min_from_end=14,
        cut_max_from_end=16,
        burn=BurnRule.FIRST_CARD_VALUE,
        demo_hands=0,
        last_hand=LastHandRule.ONE_MORE,
    ),
    Rules(
        name="no_commission",
        description="Macau procedure with the no-commission Banker bet [L], [O].",
        decks=8,
        cut_min_from_end=14,
        cut_max_from_end=16,
        burn=BurnRule.FIRST_CARD_VALUE,
        last_hand=LastHandRule.ONE_MORE,
    ),
    Rules(
        name="super_punto_banco",
        description="Super Punto Banco [S]: 6 decks, guests read the Player cards, "
        "'minimum seven cards or void' on the last hand [S5].",
        decks=6,
        cut_min_from_end=14,
        cut_max_from_end=16,
        burn=BurnRule.FIRST_CARD_VALUE,
        last_hand=LastHandRule.MIN_SEVEN_OR_VOID,
    ),
    Rules(
        name="live_tiger",
        description="Live-dealer online table with the Tiger side bets [L]: 8 decks, "
        "no burns between hands.",
        decks=8,
        cut_min_from_end=14,
        cut_max_from_end=16,
        burn=BurnRule.DECKS,
        last_hand=LastHandRule.LAST_HAND,
        mid_shoe_burns=False,
    ),
    Rules(
        name="online_8deck",
        description="Online baccarat with roads [O]: 8 decks (416 cards), Big/Small and "
        "Super Tie closed from the 31st hand.",
        decks=8,
        cut_min_from_end=14,
        cut_max_from_end=16,
        burn=BurnRule.DECKS,
        last_hand=LastHandRule.LAST_HAND,
        mid_shoe_burns=False,
    ),
)

PRESETS: MappingProxyType[str, Rules] = MappingProxyType({r.name: r for r in _PRESET_LIST})
"""Every named preset, by name."""


def preset_names() -> list[str]:
    """The names of the presets, sorted."""
    return sorted(PRESETS)


def preset(name: str) -> Rules:
    """The preset called ``name``; raises :class:`PresetError` naming the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(preset_names())
        raise PresetError(f"unknown rules preset {name!r}; known presets: {known}") from None
