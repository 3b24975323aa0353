"""Paytables as named data: what each payout class of a bet pays, to 1 [M17] [L] [O] [EZ].

A table's rules choose one paytable per offered bet by name. Odds are exact
fractions; ``push`` pays 0 (the stake is returned) and ``lose`` costs the stake.

>>> table = paytable("banker_commission")
>>> table.odds("win"), table.odds("push"), table.odds("lose")
(Fraction(19, 20), Fraction(0, 1), Fraction(-1, 1))
>>> sorted(paytables_for(Bet.DRAGON_PLAYER))
['dragon_l', 'dragon_o']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from punto.bets import BANKER_THREE_CARD_7, LOSE, PUSH, SUPER_TIE_BETS, Bet
from punto.errors import PaytableError

__all__ = ["PAYTABLES", "Paytable", "paytable", "paytables_for"]


@dataclass(frozen=True, slots=True)
class Paytable:
    """The odds (to 1) of each winning payout class of one bet; ``source`` cites the rule."""

    name: str
    bet: Bet
    pays: Mapping[str, Fraction] = field(default_factory=dict)
    source: str = ""
    pushes: frozenset[str] = frozenset({PUSH})

    def odds(self, payout_class: str) -> Fraction:
        """Net result per unit staked for a payout class: odds, 0 for a push, -1 for a loss."""
        if payout_class in self.pays:
            return self.pays[payout_class]
        if payout_class in self.pushes:
            return Fraction(0)
        if payout_class == LOSE:
            return Fraction(-1)
        raise PaytableError(f"paytable {self.name!r} has no payout class {payout_class!r}")


def _table(name: str, bet: Bet, source: str, **pays: Fraction | int) -> Paytable:
    return Paytable(
        name=name,
        bet=bet,
        pays=MappingProxyType({k: Fraction(v) for k, v in pays.items()}),
        source=source,
    )


def _dragon(name: str, bet: Bet, source: str, odds: tuple[int, ...]) -> Paytable:
    margins = {f"win_by_{m}": Fraction(o) for m, o in zip((9, 8, 7, 6, 5, 4), odds, strict=True)}
    return _table(name, bet, source, natural_win=1, **margins)


_SUPER_TIE_ODDS = (150, 215, 225, 200, 120, 110, 45, 45, 80, 80)
"""Super Tie 0-9 odds [O] (seed 004, 超和 table)."""

_LIST: list[Paytable] = [
    _table("player", Bet.PLAYER, "[M17] 1 to 1", win=1),
    _table(
        "banker_commission",
        Bet.BANKER,
        "[M17], [M18] 1 to 1 less 5% commission",
        win=Fraction(19, 20),
        win_on_6=Fraction(19, 20),
        win_three_card_7=Fraction(19, 20),
    ),
    _table(
        "banker_no_commission",
        Bet.BANKER,
        "[L], [O] 1 to 1, half when Banker wins with 6",
        win=1,
        win_on_6=Fraction(1, 2),
        win_three_card_7=1,
    ),
    _table(
        "banker_even_money",
        Bet.BANKER,
        "promotion: Banker 1 to 1 with no commission at all (the player is favoured)",
        win=1,
        win_on_6=1,
        win_three_card_7=1,
    ),
    Paytable(
        name="banker_ez",
        bet=Bet.BANKER,
        pays=MappingProxyType({"win": Fraction(1), "win_on_6": Fraction(1)}),
        source="[EZ] EZ Baccarat: 1 to 1 with no commission, a win with a three-card 7 pushes",
        pushes=frozenset({PUSH, BANKER_THREE_CARD_7}),
    ),
    _table("tie_8", Bet.TIE, "[M17] 8 to 1", win=8),
    _table("tie_5", Bet.TIE, "[LB] multiplier baccarat: 5 to 1 before the multipliers", win=5),
    _table("tie_9", Bet.TIE, "tie 9 to 1 (common variant)", win=9),
    _table("player_pair_11", Bet.PLAYER_PAIR, "[M17] 11 to 1", win=11),
    _table("banker_pair_11", Bet.BANKER_PAIR, "[M17] 11 to 1", win=11),
    _dragon("dragon_l", Bet.DRAGON_PLAYER, "[L] Dragon Bonus 30/10/6/4/2/1", (30, 10, 6, 4, 2, 1)),
    _dragon("dragon_o", Bet.DRAGON_PLAYER, "[O] Dragon Bonus 30/10/5/3/2/1", (30, 10, 5, 3, 2, 1)),
    _dragon(
        "dragon_l_banker", Bet.DRAGON_BANKER, "[L] Dragon Bonus 30/10/6/4/2/1", (30, 10, 6, 4, 2, 1)
    ),
    _dragon(
        "dragon_o_banker", Bet.DRAGON_BANKER, "[O] Dragon Bonus 30/10/5/3/2/1", (30, 10, 5, 3, 2, 1)
    ),
    _table("lucky6_12_20", Bet.LUCKY6, "[L] Lucky 6 / Tiger 12 and 20", two_card=12, three_card=20),
    _table("big_tiger_50", Bet.BIG_TIGER, "[L] Big Tiger 50", win=50),
    _table("small_tiger_22", Bet.SMALL_TIGER, "[L] Small Tiger 22", win=22),
    _table("tiger_tie_35", Bet.TIGER_TIE, "[L] Tiger Tie 35", win=35),
    _table(
        "tiger_pair_4_20_100",
        Bet.TIGER_PAIR,
        "[L] Tiger Pair 4/20/100",
        one_pair=4,
        both_pairs=20,
        same_rank_pairs=100,
    ),
    _table("dragon7_40", Bet.DRAGON7, "[EZ] Dragon 7: Banker wins with a three-card 7", win=40),
    _table("panda8_25", Bet.PANDA8, "[EZ] Panda 8: Player wins with a three-card 8", win=25),
    _table("big_0.5", Bet.BIG, "[O] Big 0.5", win=Fraction(1, 2)),
    _table("small_1.5", Bet.SMALL, "[O] Small 1.5", win=Fraction(3, 2)),
    *(
        _table(f"super_tie_{k}_{odds}", bet, f"[O] Super Tie {k}", win=odds)
        for k, (bet, odds) in enumerate(zip(SUPER_TIE_BETS, _SUPER_TIE_ODDS, strict=True))
    ),
]

PAYTABLES: MappingProxyType[str, Paytable] = MappingProxyType({t.name: t for t in _LIST})
"""Every named paytable."""


def paytable(name: str) -> Paytable:
    """The paytable called ``name``."""
    try:
        return PAYTABLES[name]
    except KeyError:
        raise PaytableError(f"unknown paytable {name!r}") from None


def paytables_for(bet: Bet) -> list[str]:
    """Names of the paytables that exist for ``bet``."""
    return [t.name for t in _LIST if t.bet is bet]
