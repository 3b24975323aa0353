"""Rules as data: a frozen, validated :class:`Rules` and its named presets.

Every variant the documents describe is a setting here, never a code branch
elsewhere. Presets are found by name:

>>> rules = preset("macau")
>>> rules.decks, rules.burn, rules.last_hand
(8, <BurnRule.FIRST_CARD_VALUE: 'first_card_value'>, <LastHandRule.ONE_MORE: 'one_more'>)
>>> preset_names()  # doctest: +NORMALIZE_WHITESPACE
['ez', 'lightning', 'live_tiger', 'macau', 'no_commission', 'online_8deck',
 'online_no_commission', 'peek', 'speed', 'super_punto_banco']
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from punto.bets import SUPER_TIE_BETS, Bet
from punto.errors import BetNotOfferedError, PresetError, RulesError
from punto.money import Rounding
from punto.multipliers import LIGHTNING_TABLES, LightningTable
from punto.paytables import Paytable, paytable, paytables_for
from punto.peek import PEEK_BETS, PEEK_RULES, PeekRules
from punto.shoe import MAX_DECKS, MIN_DECKS
from punto.tie_options import TIE_POLICIES, TiePolicy
from punto.tiers import LimitTier

__all__ = [
    "DEFAULT_TIERS",
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

PLAY_MIN_DECKS = 6
"""Fewest decks a play table may use [M1]."""
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
    paytables: Mapping[Bet, str] = field(default_factory=lambda: _paytables(_CLASSIC))
    """The bets the table offers, each with the name of its paytable."""
    rounding: Rounding = Rounding.FLOOR
    currency_digits: int = 2
    limit_tiers: tuple[LimitTier, ...] = field(default_factory=lambda: DEFAULT_TIERS)
    max_imbalance: int | None = None
    """[M14] Largest difference between the table's Banker and Player totals (minor units)."""
    banker_multiple_of_min: bool = False
    """[M18] Banker bets only in multiples of the table minimum."""
    one_side_only: bool = False
    """[S11] Player or Banker, not both."""
    close_from_hand: Mapping[Bet, int] = field(default_factory=lambda: MappingProxyType({}))
    """[O] Bets closed from this hand number of the shoe on."""
    tiger_with_main: bool = True
    """[L] Whether a player betting the main game may also bet the Tiger side bets."""
    tie_policy: TiePolicy = field(default_factory=lambda: TIE_POLICIES["return"])
    """[M12] What happens to Player/Banker bets standing in a tie."""
    betting_seconds: float | None = None
    """[L] The betting countdown of a table dealing these rules (``None``: the table's own)."""
    card_seconds: float | None = None
    """Seconds the house waits after each card it deals (0: the cards come out at once;
    ``None``: the server's pace)."""
    result_seconds: float | None = None
    """Seconds a result shows before the next round opens (``None``: the server's pace)."""
    close_below_edge: float | None = None
    """[EZ-C] A side bet whose exact house edge on the cards not yet seen falls below this
    (a fraction of the stake: ``0.0`` closes a bet the shoe made player-favourable) is
    closed for that hand (``None``: never)."""
    lightning: LightningTable | None = None
    """[LB] The lightning draw, fee and cap of a multiplier table (``None``: none)."""
    peek: PeekRules | None = None
    """[PK] The raise offered once the first cards are seen (``None``: none)."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise RulesError("a rules preset needs a name", field="name")
        self._check_types()
        # Frozen all the way down: a dict given here is copied, so changing it later
        # cannot change the table's rules.
        object.__setattr__(self, "paytables", MappingProxyType(dict(self.paytables)))
        object.__setattr__(self, "close_from_hand", MappingProxyType(dict(self.close_from_hand)))
        object.__setattr__(self, "limit_tiers", tuple(self.limit_tiers))
        if not MIN_DECKS <= self.decks <= MAX_DECKS:
            raise RulesError(
                f"decks must be {MIN_DECKS}-{MAX_DECKS}, not {self.decks}", field="decks"
            )
        if not 0 <= self.demo_hands <= MAX_DEMO_HANDS:
            raise RulesError(
                f"demo hands must be 0-{MAX_DEMO_HANDS}, not {self.demo_hands}", field="demo_hands"
            )
        if self.cut_min_from_end < 0:
            raise RulesError(
                f"the cut card distance cannot be negative ({self.cut_min_from_end})",
                field="cut_min_from_end",
            )
        if self.cut_min_from_end > self.cut_max_from_end:
            raise RulesError(
                f"cut card range is empty: {self.cut_min_from_end} > {self.cut_max_from_end}",
                field="cut_max_from_end",
            )
        need = self.min_cards_after_cut
        if self.cut_min_from_end < need:
            raise RulesError(
                f"the cut card must be at least {need} cards from the end for the "
                f"{self.last_hand.value} rule, not {self.cut_min_from_end}",
                field="cut_min_from_end",
            )
        if not self.paytables:
            raise RulesError("a table must offer at least one bet", field="paytables")
        for bet, name in self.paytables.items():
            table = paytable(name)
            if table.bet is not bet and not (
                {table.bet, bet} == {Bet.DRAGON_PLAYER, Bet.DRAGON_BANKER}
            ):
                raise RulesError(
                    f"paytable {name!r} is for {table.bet.value}, not {bet.value}",
                    field="paytables",
                )
        if not self.limit_tiers:
            raise RulesError("a table needs at least one limit tier", field="limit_tiers")
        names = [tier.name for tier in self.limit_tiers]
        if len(set(names)) != len(names):
            raise RulesError(
                f"limit tier names must differ: {', '.join(names)}", field="limit_tiers"
            )
        for bet, hand in self.close_from_hand.items():
            if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
                raise RulesError(
                    f"{bet.label} closes from a hand number of 1 or more, not {hand!r} [O]",
                    field="close_from_hand",
                )
        if not 0 <= self.currency_digits <= 6:
            raise RulesError(
                f"currency digits must be 0-6, not {self.currency_digits}",
                field="currency_digits",
            )
        if self.max_imbalance is not None and self.max_imbalance <= 0:
            raise RulesError(
                f"the imbalance limit must be positive, not {self.max_imbalance}",
                field="max_imbalance",
            )
        if self.betting_seconds is not None and self.betting_seconds <= 0:
            raise RulesError(
                f"the betting time must be positive, not {self.betting_seconds}",
                field="betting_seconds",
            )
        edge = self.close_below_edge
        if edge is not None and not (math.isfinite(edge) and -1 < edge < 1):
            raise RulesError(
                f"the edge below which side bets close must be a fraction between -1 and 1 "
                f"(0.01 is 1%), not {edge!r} [EZ-C]",
                field="close_below_edge",
            )
        for name in ("card_seconds", "result_seconds"):
            if (getattr(self, name) or 0) < 0:
                raise RulesError(f"{name} cannot be negative ({getattr(self, name)})", field=name)
        if self.lightning is not None and self.peek is not None:
            raise RulesError(
                "a table deals lightning cards or offers a peek, not both", field="peek"
            )
        if self.peek is not None and not any(bet in self.paytables for bet in PEEK_BETS):
            raise RulesError("a peek table must offer Player or Banker [PK]", field="peek")
        if self.lightning is not None and not any(
            bet in self.paytables for bet in self.lightning.multiplied_odds
        ):
            raise RulesError(
                "a lightning table must offer a multiplied bet [LB]", field="lightning"
            )
        if self.cut_max_from_end >= self.cards:
            raise RulesError(
                f"the cut card ({self.cut_max_from_end} from the end) must be inside a shoe "
                f"of {self.cards} cards",
                field="cut_max_from_end",
            )

    def _check_types(self) -> None:
        """Refuse a setting of the wrong type with a clear message (not a crash later)."""
        kinds: tuple[tuple[str, type | tuple[type, ...]], ...] = (
            ("description", str),
            ("burn", BurnRule),
            ("last_hand", LastHandRule),
            ("continuous_shuffler", bool),
            ("mid_shoe_burns", bool),
            ("rounding", Rounding),
            ("banker_multiple_of_min", bool),
            ("one_side_only", bool),
            ("tiger_with_main", bool),
            ("tie_policy", TiePolicy),
            ("paytables", Mapping),
            ("close_from_hand", Mapping),
            ("limit_tiers", (tuple, list)),
            ("lightning", (LightningTable, type(None))),
            ("peek", (PeekRules, type(None))),
        )
        for name, kind in kinds:
            value = getattr(self, name)
            if not isinstance(value, kind):
                raise RulesError(f"rules setting {name} cannot be {value!r}", field=name)
        for name in ("decks", "cut_min_from_end", "cut_max_from_end", "demo_hands"):
            _check_whole(name, getattr(self, name))
        _check_whole("currency_digits", self.currency_digits)
        if self.max_imbalance is not None:
            _check_whole("max_imbalance", self.max_imbalance)
        for name in ("betting_seconds", "card_seconds", "result_seconds"):
            seconds = getattr(self, name)
            if seconds is not None and (
                isinstance(seconds, bool) or not isinstance(seconds, int | float)
            ):
                raise RulesError(
                    f"rules setting {name} must be a number of seconds, not {seconds!r}", field=name
                )
        edge = self.close_below_edge
        if edge is not None and (isinstance(edge, bool) or not isinstance(edge, int | float)):
            raise RulesError(
                f"rules setting close_below_edge must be a fraction or None, not {edge!r}",
                field="close_below_edge",
            )
        for key in (*self.paytables, *self.close_from_hand):
            if not isinstance(key, Bet):
                raise RulesError(f"rules settings name bets by Bet, not {key!r}")
        for name in self.paytables.values():
            if not isinstance(name, str):
                raise RulesError(
                    f"a paytable is named by a string, not {name!r}", field="paytables"
                )
        for tier in self.limit_tiers:
            if not isinstance(tier, LimitTier):
                raise RulesError(
                    f"a limit tier must be a LimitTier, not {tier!r}", field="limit_tiers"
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

    @property
    def offered_bets(self) -> tuple[Bet, ...]:
        """The bets this table offers, in the standard order."""
        return tuple(bet for bet in Bet if bet in self.paytables)

    def paytable_for(self, bet: Bet) -> Paytable:
        """The paytable of an offered bet; raises :class:`BetNotOfferedError` otherwise."""
        name = self.paytables.get(bet)
        if name is None:
            raise BetNotOfferedError(f"{bet.label} is not offered at a {self.name} table")
        return paytable(name)

    def tier(self, name: str) -> LimitTier:
        """The limit tier called ``name``."""
        for tier in self.limit_tiers:
            if tier.name == name:
                return tier
        known = ", ".join(t.name for t in self.limit_tiers)
        raise RulesError(f"unknown limit tier {name!r}; this table has: {known}")

    def replace(self, **changes: object) -> Rules:
        """A copy with some settings changed, validated again.

        >>> preset("macau").replace(decks=6).decks
        6
        """
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


def _check_whole(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"rules setting {name} must be a whole number, not {value!r}", field=name)


def _major(amount: int) -> int:
    """Whole currency units to minor units (2 decimals)."""
    return amount * 100


def _tier(
    name: str, main: tuple[int, int], side: tuple[int, int], tie: tuple[int, int]
) -> LimitTier:
    """A tier from its (min, max) pairs in whole currency units."""
    return LimitTier(
        name=name,
        min_bet=_major(main[0]),
        max_bet=_major(main[1]),
        side_min=_major(side[0]),
        side_max=_major(side[1]),
        bet_limits=MappingProxyType({Bet.TIE: (_major(tie[0]), _major(tie[1]))}),
    )


DEFAULT_TIERS: tuple[LimitTier, ...] = (
    _tier("low", main=(10, 1_000), side=(5, 250), tie=(5, 500)),
    _tier("standard", main=(50, 10_000), side=(10, 2_000), tie=(10, 5_000)),
    _tier("high", main=(500, 100_000), side=(100, 20_000), tie=(100, 50_000)),
    _tier("vip", main=(1_000, 500_000), side=(500, 50_000), tie=(500, 100_000)),
)
"""Demonstration limit tiers (a real table sets its own)."""

_CLASSIC: dict[Bet, str] = {
    Bet.PLAYER: "player",
    Bet.BANKER: "banker_commission",
    Bet.TIE: "tie_8",
    Bet.PLAYER_PAIR: "player_pair_11",
    Bet.BANKER_PAIR: "banker_pair_11",
}
_NO_COMMISSION = {**_CLASSIC, Bet.BANKER: "banker_no_commission"}
_EZ = {
    Bet.PLAYER: "player",
    Bet.BANKER: "banker_ez",
    Bet.TIE: "tie_8",
    Bet.DRAGON7: "dragon7_40",
    Bet.PANDA8: "panda8_25",
}
_TIGER = {
    Bet.DRAGON_PLAYER: "dragon_l",
    Bet.DRAGON_BANKER: "dragon_l_banker",
    Bet.LUCKY6: "lucky6_12_20",
    Bet.BIG_TIGER: "big_tiger_50",
    Bet.SMALL_TIGER: "small_tiger_22",
    Bet.TIGER_TIE: "tiger_tie_35",
    Bet.TIGER_PAIR: "tiger_pair_4_20_100",
}
_ONLINE = {
    Bet.DRAGON_PLAYER: "dragon_o",
    Bet.DRAGON_BANKER: "dragon_o_banker",
    Bet.BIG: "big_0.5",
    Bet.SMALL: "small_1.5",
    **{bet: paytables_for(bet)[0] for bet in SUPER_TIE_BETS},
}
_ONLINE_CLOSE_FROM_HAND = MappingProxyType(dict.fromkeys((Bet.BIG, Bet.SMALL, *SUPER_TIE_BETS), 31))


def _paytables(choice: Mapping[Bet, str]) -> MappingProxyType[Bet, str]:
    return MappingProxyType(dict(choice))


_MACAU_SHOE = Rules(
    name="macau_shoe",
    description="The Macau shoe procedure [M2], [M3]: cut card 14-16 from the end, burn by "
    "the first card's value, one more hand after the cut card.",
    decks=8,
    cut_min_from_end=14,
    cut_max_from_end=16,
    burn=BurnRule.FIRST_CARD_VALUE,
    last_hand=LastHandRule.ONE_MORE,
)
"""The shoe the Macau-procedure presets share; each states only what it changes."""

_LIVE_SHOE = Rules(
    name="live_shoe",
    description="The live-dealer online shoe [L], [O]: 8 decks, cut card 14-16 from the end, "
    "burn as many cards as decks, no burns between hands, the cut card's hand is the last.",
    decks=8,
    cut_min_from_end=14,
    cut_max_from_end=16,
    burn=BurnRule.DECKS,
    last_hand=LastHandRule.LAST_HAND,
    mid_shoe_burns=False,
)
"""The shoe the live-dealer online presets share; each states only what it changes."""

_PRESET_LIST = (
    _MACAU_SHOE.replace(
        name="macau",
        description="Macau statutory rules [M1]-[M18]: 8 decks, cut card 14-16 from the end, "
        "burn by the first card's value, one more hand after the cut card.",
        max_imbalance=_major(200_000),
        banker_multiple_of_min=True,
        tie_policy=TIE_POLICIES["macau"],
    ),
    _MACAU_SHOE.replace(
        name="no_commission",
        description="Macau procedure with the no-commission Banker bet [L], [O].",
        paytables=_paytables(_NO_COMMISSION),
        max_imbalance=_major(200_000),
    ),
    _MACAU_SHOE.replace(
        name="super_punto_banco",
        description="Super Punto Banco [S]: 6 decks, guests read the Player cards, "
        "'minimum seven cards or void' on the last hand [S5].",
        decks=6,
        last_hand=LastHandRule.MIN_SEVEN_OR_VOID,
        paytables=_paytables(
            {Bet.PLAYER: "player", Bet.BANKER: "banker_commission", Bet.TIE: "tie_8"}
        ),
        one_side_only=True,
    ),
    _LIVE_SHOE.replace(
        name="live_tiger",
        description="Live-dealer online table with the Tiger side bets [L]: 8 decks, "
        "no burns between hands.",
        paytables=_paytables({**_NO_COMMISSION, **_TIGER}),
    ),
    _LIVE_SHOE.replace(
        name="online_8deck",
        description="Online baccarat with roads [O]: 8 decks (416 cards), Big/Small and "
        "Super Tie closed from the 31st hand.",
        paytables=_paytables({**_CLASSIC, **_ONLINE}),
        close_from_hand=_ONLINE_CLOSE_FROM_HAND,
    ),
    _LIVE_SHOE.replace(
        name="online_no_commission",
        description="Online baccarat [O] in its no-commission mode: Banker pays half on a "
        "winning 6.",
        paytables=_paytables({**_NO_COMMISSION, **_ONLINE}),
        close_from_hand=_ONLINE_CLOSE_FROM_HAND,
    ),
    _LIVE_SHOE.replace(
        name="speed",
        description="Speed baccarat [L]: a short round (about 27 seconds with a live dealer): "
        "10 seconds to bet, the cards turned at once, 2 seconds to see the result.",
        betting_seconds=10.0,
        card_seconds=0.0,
        result_seconds=2.0,
    ),
    _MACAU_SHOE.replace(
        name="ez",
        description="EZ Baccarat [EZ]: no commission, a Banker win with a three-card 7 "
        "pushes; Dragon 7 (40 to 1) and Panda 8 (25 to 1) offered.",
        paytables=_paytables(_EZ),
    ),
    _LIVE_SHOE.replace(
        name="lightning",
        description="Multiplier baccarat [LB] (as Lightning Baccarat): 1-5 lightning cards "
        "drawn before each hand, x2 to x8 each; a 20% fee on every bet; Player 1:1, "
        "Banker 0.95:1, Tie 5:1 times the lightning cards' multipliers.",
        paytables=_paytables(
            {Bet.PLAYER: "player", Bet.BANKER: "banker_commission", Bet.TIE: "tie_5"}
        ),
        lightning=LIGHTNING_TABLES["evolution_lightning"],
    ),
    _LIVE_SHOE.replace(
        name="peek",
        description="Peek baccarat [PK]: a 20% fee on Player and Banker bets; once both "
        "hands' first two cards are shown, such a bet may be raised to two or three times "
        "its stake for a fee of half the raise.",
        paytables=_paytables(
            {Bet.PLAYER: "player", Bet.BANKER: "banker_commission", Bet.TIE: "tie_8"}
        ),
        peek=PEEK_RULES["peek_four"],
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
