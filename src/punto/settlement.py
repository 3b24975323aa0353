"""Settlement: a pure function of the rules, the coup and the bets.

Each bet's payout class (:func:`punto.bets.classify`) is priced by the table's paytable
for that bet; the exact result ``stake × odds`` is brought to whole minor units by the
table's one :class:`~punto.money.Rounding` rule. Nothing else moves money.

At a multiplier table [LB] the hand's lightning draw is passed in: a winning multiplied
bet's odds become :meth:`~punto.multipliers.LightningTable.net_odds` of the lightning
cards in its hand, and one player's winnings of the round are capped at the table's cap
(the excess taken from the last winning bets first). The fee is charged with the bet,
not here. Without a draw a coup settles at the paytable's odds (no card lit).

>>> from punto.cards import parse_cards
>>> from punto.coup import deal_coup
>>> from punto.rules import preset
>>> coup = deal_coup(parse_cards("2S 9H 3D 9C"))  # Banker 8 natural beats Player 5
>>> s = settle(preset("macau"), coup, {Bet.BANKER: 10000, Bet.PLAYER: 10000})
>>> [(r.bet.value, r.net) for r in s.results], s.total_net
([('banker', 9500), ('player', -10000)], -500)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from punto.bets import LOSE, MAIN_BETS, Bet, CoupFacts, classify
from punto.errors import AmountError, RulesError, UnknownBetError
from punto.multipliers import COUNTED_HAND, LightningDraw
from punto.outcome import Outcome, Winner

if TYPE_CHECKING:
    from punto.rules import Rules

__all__ = ["VOID", "BetResult", "Settlement", "Settler", "pushed_main_bets", "refund", "settle"]

VOID = "void"
"""Payout class of a bet refunded because its hand was void."""


@dataclass(frozen=True, slots=True)
class BetResult:
    """One bet's settlement: ``net`` is what the player wins (negative: loses), in minor
    units; ``returned`` is what goes back to the player (stake plus net, 0 when lost)."""

    bet: Bet
    stake: int
    payout_class: str
    odds: Fraction
    net: int

    @property
    def returned(self) -> int:
        """Stake plus winnings; 0 for a lost bet."""
        return self.stake + self.net


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every bet's result for one player in one coup, and its totals (summed once: a
    settlement of thousands of players reads each several times)."""

    results: tuple[BetResult, ...]
    total_stake: int = field(init=False, repr=False, compare=False)
    """Sum of the stakes."""
    total_net: int = field(init=False, repr=False, compare=False)
    """Sum of the player's net results (the house's result is its negative)."""
    total_returned: int = field(init=False, repr=False, compare=False)
    """What is paid back to the player: stakes plus net results."""

    def __post_init__(self) -> None:
        stake = sum(r.stake for r in self.results)
        net = sum(r.net for r in self.results)
        object.__setattr__(self, "total_stake", stake)
        object.__setattr__(self, "total_net", net)
        object.__setattr__(self, "total_returned", stake + net)

    def net_of(self, bet: Bet) -> int:
        """The net result of one bet (0 if it was not placed)."""
        return sum(r.net for r in self.results if r.bet is bet)


def _stake(bet: Bet, amount: int) -> int:
    if not isinstance(bet, Bet):
        raise UnknownBetError(f"not a bet: {bet!r}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise AmountError(f"{bet.label} stake must be a positive whole number of units")
    return amount


def settle(
    rules: Rules,
    coup: Outcome | CoupFacts,
    bets: Mapping[Bet, int],
    *,
    lightning: LightningDraw | None = None,
) -> Settlement:
    """Settle ``bets`` (minor units) on a finished coup under ``rules`` (at a multiplier
    table, with the hand's ``lightning`` draw [LB]).

    >>> from punto.cards import parse_cards
    >>> from punto.coup import deal_coup
    >>> from punto.rules import preset
    >>> coup = deal_coup(parse_cards("7S 2H AD 3C"))  # Player 8 beats Banker 5
    >>> settle(preset("lightning"), coup, {Bet.PLAYER: 1000},
    ...        lightning=LightningDraw.parse("7S=8,AD=2")).total_net
    16000
    """
    return Settler(rules, coup, lightning=lightning).settle(bets)


class Settler:
    """Settles many players' bets on one coup: each bet area's payout class and odds are
    found once (every bet on an area pays the same ratio on one outcome), and identical
    bets share one (immutable) result — the same exact integer arithmetic as
    :func:`settle`, without doing it again for each of thousands of players.

    >>> from punto.coup import deal_coup
    >>> from punto.cards import parse_cards
    >>> from punto.rules import preset
    >>> settler = Settler(preset("macau"), deal_coup(parse_cards("9S 8D KH 7C")))
    >>> a = settler.settle({Bet.PLAYER: 1000, Bet.TIE: 100})
    >>> a.total_net, settler.settle({Bet.PLAYER: 1000, Bet.TIE: 100}) is a
    (900, True)
    """

    def __init__(
        self,
        rules: Rules,
        coup: Outcome | CoupFacts,
        *,
        lightning: LightningDraw | None = None,
    ) -> None:
        self._rules = rules
        self._facts = coup if isinstance(coup, CoupFacts) else CoupFacts.of(coup)
        self._products: dict[Bet, int] = {}
        self._cap: int | None = None
        if lightning is not None:
            table = rules.lightning
            if table is None:
                raise RulesError(f"the {rules.name} rules deal no lightning cards [LB]")
            if not isinstance(coup, Outcome):
                raise RulesError("a multiplier table settles on the coup's cards [LB]")
            table.check(lightning)
            hands = {"player": coup.player, "banker": coup.banker}
            for bet in table.multiplied_odds:
                hand = COUNTED_HAND[bet]
                cards = (*coup.player, *coup.banker) if hand == "both" else hands[hand]
                self._products[bet] = lightning.product(cards)
            self._cap = table.cap
        self._areas: dict[Bet, tuple[str, Fraction]] = {}
        self._results: dict[tuple[Bet, int], BetResult] = {}
        self._slips: dict[tuple[tuple[Bet, int], ...], Settlement] = {}

    def settle(self, bets: Mapping[Bet, int]) -> Settlement:
        """One player's settlement (each stake checked, as :func:`settle` does)."""
        key = tuple(bets.items())
        for bet, amount in key:
            _stake(bet, amount)
        found = self._slips.get(key)
        if found is not None:
            return found
        results = []
        for bet, amount in key:
            result = self._results.get((bet, amount))
            if result is None:
                area = self._areas.get(bet)
                if area is None:
                    payout_class = classify(bet, self._facts)
                    odds = self._rules.paytable_for(bet).odds(payout_class)
                    if bet in self._products and self._rules.lightning is not None:
                        odds = self._rules.lightning.net_odds(bet, odds, self._products[bet])
                    area = self._areas[bet] = (payout_class, odds)
                payout_class, odds = area
                net = -amount if payout_class == LOSE else self._rules.rounding.apply(amount * odds)
                result = BetResult(bet, amount, payout_class, odds, net)
                self._results[(bet, amount)] = result
            results.append(result)
        if self._cap is not None:
            results = _capped(results, self._cap)
        settlement = self._slips[key] = Settlement(tuple(results))
        return settlement


def _capped(results: list[BetResult], cap: int) -> list[BetResult]:
    """[LB] One player's winnings of a round held to ``cap``: the excess is taken from
    the last winning bets first."""
    excess = sum(r.net for r in results if r.net > 0) - cap
    if excess <= 0:
        return results
    out = list(results)
    for i in range(len(out) - 1, -1, -1):
        r = out[i]
        if excess <= 0:
            break
        if r.net > 0:
            cut = min(r.net, excess)
            out[i] = BetResult(r.bet, r.stake, r.payout_class, r.odds, r.net - cut)
            excess -= cut
    return out


def refund(bets: Mapping[Bet, int]) -> Settlement:
    """A void hand: every stake is returned (net 0) [M10], [S5], [L]."""
    return Settlement(
        tuple(
            BetResult(bet, _stake(bet, amount), VOID, Fraction(0), 0)
            for bet, amount in bets.items()
        )
    )


def pushed_main_bets(rules: Rules, outcome: Outcome) -> tuple[Bet, ...]:
    """The main bets ``outcome`` returns though it is no tie: EZ Baccarat's Banker on a
    Banker win with a three-card 7 [EZ] (what the table shows as a push, not a win).

    >>> from punto.cards import parse_cards
    >>> from punto.coup import deal_coup
    >>> from punto.rules import preset
    >>> seven = deal_coup(parse_cards("KS 2H 6D 2C 3S"))  # Banker 4 draws a 3: 7 beats 6
    >>> pushed_main_bets(preset("ez"), seven), pushed_main_bets(preset("macau"), seven)
    ((<Bet.BANKER: 'banker'>,), ())
    """
    if outcome.winner is Winner.TIE:
        return ()
    facts = CoupFacts.of(outcome)
    return tuple(
        bet
        for bet in rules.offered_bets
        if bet in MAIN_BETS and rules.paytable_for(bet).odds(classify(bet, facts)) == 0
    )
