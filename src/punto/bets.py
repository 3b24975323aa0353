"""Every bet of the rules ([M13], [M17], [M18], [L], [O], [EZ]) and the rule that decides it.

A bet's rule maps the facts of a finished coup to a *payout class* (``"win"``,
``"push"``, ``"lose"``, ``"win_by_9"``, ``"three_card"`` …). How much each class
pays is not decided here: that is a named paytable (:mod:`punto.paytables`), chosen
by the table's rules. So a paytable change is data, never a code branch.

>>> from punto.cards import parse_cards
>>> from punto.coup import deal_coup
>>> facts = CoupFacts.of(deal_coup(parse_cards("5S 4H 2D 3C")))
>>> classify(Bet.BANKER, facts), classify(Bet.PLAYER, facts), classify(Bet.DRAGON_PLAYER, facts)
('push', 'push', 'lose')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from punto.errors import UnknownBetError
from punto.outcome import Outcome, Winner

__all__ = [
    "BANKER_THREE_CARD_7",
    "EZ_BETS",
    "LOSE",
    "MAIN_BETS",
    "PUSH",
    "SUPER_TIE_BETS",
    "TIGER_BETS",
    "Bet",
    "CoupFacts",
    "classify",
    "parse_bet",
]

PUSH = "push"
"""Payout class of a bet that is returned (net 0)."""
LOSE = "lose"
"""Payout class of a lost bet."""


class Bet(enum.Enum):
    """Bet names used by the CLI and the API."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    DRAGON_PLAYER = "dragon_player"
    DRAGON_BANKER = "dragon_banker"
    LUCKY6 = "lucky6"
    BIG_TIGER = "big_tiger"
    SMALL_TIGER = "small_tiger"
    TIGER_TIE = "tiger_tie"
    TIGER_PAIR = "tiger_pair"
    BIG = "big"
    SMALL = "small"
    SUPER_TIE_0 = "super_tie_0"
    SUPER_TIE_1 = "super_tie_1"
    SUPER_TIE_2 = "super_tie_2"
    SUPER_TIE_3 = "super_tie_3"
    SUPER_TIE_4 = "super_tie_4"
    SUPER_TIE_5 = "super_tie_5"
    SUPER_TIE_6 = "super_tie_6"
    SUPER_TIE_7 = "super_tie_7"
    SUPER_TIE_8 = "super_tie_8"
    SUPER_TIE_9 = "super_tie_9"
    DRAGON7 = "dragon7"
    PANDA8 = "panda8"

    # Members are singletons, equal only to themselves: the identity hash (in C) agrees
    # with that, and spares the Python call of Enum's own hash in every dict of bets (a
    # settlement of thousands of players looks bets up tens of thousands of times).
    __hash__ = object.__hash__

    @property
    def label(self) -> str:
        """A display name: ``Super Tie 7``, ``Player Pair``."""
        return _LABELS.get(self) or self.value.replace("_", " ").title()


_LABELS = {Bet.LUCKY6: "Lucky 6", Bet.DRAGON7: "Dragon 7", Bet.PANDA8: "Panda 8"}

MAIN_BETS = frozenset({Bet.PLAYER, Bet.BANKER})
"""The two sides of the main game."""
TIGER_BETS = frozenset({Bet.LUCKY6, Bet.BIG_TIGER, Bet.SMALL_TIGER, Bet.TIGER_TIE, Bet.TIGER_PAIR})
"""The Tiger side bets [L]."""
SUPER_TIE_BETS = tuple(Bet(f"super_tie_{k}") for k in range(10))
"""Super Tie 0-9 [O], indexed by total."""
EZ_BETS = frozenset({Bet.DRAGON7, Bet.PANDA8})
"""The EZ Baccarat side bets [EZ]: Dragon 7 and Panda 8."""
BANKER_THREE_CARD_7 = "win_three_card_7"
"""Payout class of a Banker win with a three-card 7: EZ Baccarat pushes it [EZ], every
other Banker paytable pays it as a win."""


def parse_bet(name: str) -> Bet:
    """The bet called ``name``; raises :class:`UnknownBetError` listing the names.

    >>> parse_bet("tiger_pair")
    <Bet.TIGER_PAIR: 'tiger_pair'>
    """
    try:
        return Bet(name.strip().lower())
    except ValueError:
        names = ", ".join(b.value for b in Bet if not b.value.startswith("super_tie_"))
        raise UnknownBetError(
            f"unknown bet {name!r}; bets are {names}, super_tie_0 … super_tie_9"
        ) from None


@dataclass(frozen=True, slots=True)
class CoupFacts:
    """What any bet may look at in a finished coup.

    Exact analysis builds these straight from card values; live play takes them from an
    :class:`~punto.outcome.Outcome` with :meth:`of`.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_natural: bool
    banker_natural: bool
    player_pair: bool
    banker_pair: bool
    same_rank_pairs: bool = False
    """Both hands paired, with the same rank (Tiger Pair's top class)."""

    @classmethod
    def of(cls, outcome: Outcome) -> CoupFacts:
        """The facts of an outcome."""
        same = (
            outcome.player_pair
            and outcome.banker_pair
            and outcome.player[0].rank == outcome.banker[0].rank
        )
        return cls(
            player_total=outcome.player_total,
            banker_total=outcome.banker_total,
            player_cards=len(outcome.player),
            banker_cards=len(outcome.banker),
            player_natural=outcome.player_natural,
            banker_natural=outcome.banker_natural,
            player_pair=outcome.player_pair,
            banker_pair=outcome.banker_pair,
            same_rank_pairs=same,
        )

    @property
    def winner(self) -> Winner:
        """Who won [M11], [M12]."""
        if self.player_total > self.banker_total:
            return Winner.PLAYER
        if self.banker_total > self.player_total:
            return Winner.BANKER
        return Winner.TIE

    @property
    def natural(self) -> bool:
        """Either hand is a natural."""
        return self.player_natural or self.banker_natural

    @property
    def cards(self) -> int:
        """Cards dealt (4-6)."""
        return self.player_cards + self.banker_cards


def _dragon(facts: CoupFacts, *, player_side: bool) -> str:
    """Dragon Bonus [L], [O]: natural win, natural tie push, non-natural win by 4-9."""
    mine = facts.player_total if player_side else facts.banker_total
    theirs = facts.banker_total if player_side else facts.player_total
    my_natural = facts.player_natural if player_side else facts.banker_natural
    if mine == theirs:
        return PUSH if facts.natural else LOSE
    if mine < theirs:
        return LOSE
    if my_natural:
        return "natural_win"
    margin = mine - theirs
    return f"win_by_{margin}" if margin >= 4 else LOSE


def classify(bet: Bet, facts: CoupFacts) -> str:
    """The payout class of ``bet`` for a finished coup — the one place each bet's rule
    is written."""
    winner = facts.winner
    banker_six = winner is Winner.BANKER and facts.banker_total == 6
    banker_three_card_7 = facts.banker_cards == 3 and facts.banker_total == 7
    if bet is Bet.PLAYER:
        return {Winner.PLAYER: "win", Winner.TIE: PUSH}.get(winner, LOSE)
    if bet is Bet.BANKER:
        if winner is Winner.TIE:
            return PUSH
        if winner is Winner.BANKER:
            if banker_six:
                return "win_on_6"
            return BANKER_THREE_CARD_7 if banker_three_card_7 else "win"
        return LOSE
    if bet is Bet.TIE:
        return "win" if winner is Winner.TIE else LOSE
    if bet is Bet.PLAYER_PAIR:
        return "win" if facts.player_pair else LOSE
    if bet is Bet.BANKER_PAIR:
        return "win" if facts.banker_pair else LOSE
    if bet is Bet.DRAGON_PLAYER:
        return _dragon(facts, player_side=True)
    if bet is Bet.DRAGON_BANKER:
        return _dragon(facts, player_side=False)
    if bet is Bet.LUCKY6:
        if not banker_six:
            return LOSE
        return "two_card" if facts.banker_cards == 2 else "three_card"
    if bet is Bet.BIG_TIGER:
        return "win" if banker_six and facts.banker_cards == 3 else LOSE
    if bet is Bet.SMALL_TIGER:
        return "win" if banker_six and facts.banker_cards == 2 else LOSE
    if bet is Bet.TIGER_TIE:
        return "win" if winner is Winner.TIE and facts.banker_total == 6 else LOSE
    if bet is Bet.TIGER_PAIR:
        if facts.player_pair and facts.banker_pair:
            return "same_rank_pairs" if facts.same_rank_pairs else "both_pairs"
        return "one_pair" if facts.player_pair or facts.banker_pair else LOSE
    if bet is Bet.DRAGON7:
        return "win" if winner is Winner.BANKER and banker_three_card_7 else LOSE
    if bet is Bet.PANDA8:
        player_three_card_8 = facts.player_cards == 3 and facts.player_total == 8
        return "win" if winner is Winner.PLAYER and player_three_card_8 else LOSE
    if bet is Bet.BIG:
        return "win" if facts.cards >= 5 else LOSE
    if bet is Bet.SMALL:
        return "win" if facts.cards == 4 else LOSE
    # Super Tie k [O]
    k = int(bet.value.rsplit("_", 1)[1])
    return "win" if winner is Winner.TIE and facts.banker_total == k else LOSE
