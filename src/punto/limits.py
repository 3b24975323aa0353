"""Table limits and the rules on which bets may be placed together.

Each player picks a :class:`~punto.tiers.LimitTier` when sitting [L] [O] (the tier
is data of the rules, :mod:`punto.tiers`; it is also importable from here). :func:`check_bets`
checks one player's bets for one hand against every limit, each failure a typed
error that names the limit and its value:

- per-bet minimum and maximum of the tier;
- [M14] the imbalance between Banker and Player bets at the table;
- [M18] Banker bets in multiples of the table minimum, Player bets at least the minimum;
- [S11] one side only (Tie always allowed);
- [O] Big/Small and Super Tie closed from the 31st hand;
- [L] the Tiger restriction for players who also bet the main game.

Amounts are integer minor units.

>>> from punto.rules import preset
>>> rules = preset("macau")
>>> check_bets(rules, {Bet.BANKER: 2500}, tier="low", hand_number=1)
Traceback (most recent call last):
...
punto.errors.BetLimitError: Banker bet 25 must be a multiple of the table minimum 10 [M18]
"""

from __future__ import annotations

from collections.abc import Mapping

from punto.bets import MAIN_BETS, TIGER_BETS, Bet
from punto.errors import (
    AmountError,
    BetClosedError,
    BetCombinationError,
    BetError,
    BetLimitError,
    UnknownBetError,
)
from punto.money import show_amount
from punto.rules import Rules
from punto.tiers import LimitTier

__all__ = ["LimitTier", "check_bet_maximum", "check_bets", "check_imbalance", "check_stake"]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_stake(rules: Rules, bet: object, amount: object) -> None:
    """Raise unless ``bet`` is a bet these rules offer and ``amount`` a positive whole
    number of minor units (what any stake must be, before any limit)."""
    if not isinstance(bet, Bet):
        raise UnknownBetError(f"not a bet: {bet!r}")
    rules.paytable_for(bet)  # raises BetNotOfferedError
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise AmountError(f"{bet.label} amount {amount!r} is not a whole number of units")
    if amount <= 0:
        raise AmountError(f"{bet.label} amount must be positive, not {amount}")


def check_imbalance(rules: Rules, *, banker: int, player: int) -> None:
    """[M14] Refuse table totals whose Banker/Player difference exceeds the table limit."""
    limit = rules.max_imbalance
    if limit is not None and abs(banker - player) > limit:
        d = rules.currency_digits
        raise BetLimitError(
            f"the difference between Banker ({show_amount(banker, digits=d)}) and Player "
            f"({show_amount(player, digits=d)}) bets would exceed this table's imbalance limit "
            f"of {show_amount(limit, digits=d)} [M14]",
            limit="max_imbalance",
            value=limit,
        )


def check_bet_maximum(rules: Rules, bet: Bet, amount: int, *, tier: LimitTier | str) -> None:
    """Raise :class:`BetLimitError` when ``amount`` on ``bet`` is above the tier's maximum:
    chips go on a bet area only up to the table limit [L].

    >>> from punto.rules import preset
    >>> check_bet_maximum(preset("macau"), Bet.TIE, 10**9, tier="low")
    Traceback (most recent call last):
    ...
    punto.errors.BetLimitError: Tie bet 10000000 is above this table's maximum of 500
    """
    chosen = rules.tier(tier) if isinstance(tier, str) else tier
    high = chosen.limits_for(bet)[1]
    if amount > high:
        d = rules.currency_digits
        raise BetLimitError(
            f"{bet.label} bet {show_amount(amount, digits=d)} is above this table's maximum "
            f"of {show_amount(high, digits=d)}",
            limit=f"{bet.value}_max",
            value=high,
        )


def check_bets(
    rules: Rules,
    bets: Mapping[Bet, int],
    *,
    tier: LimitTier | str,
    hand_number: int,
    table_banker: int = 0,
    table_player: int = 0,
) -> None:
    """Check one player's bets for hand ``hand_number`` of the shoe; raise on the first
    broken limit. ``table_banker``/``table_player`` are the other players' totals on the
    two sides, for [M14]."""
    if not _whole(hand_number) or hand_number < 1:
        raise BetError(f"hand numbers count from 1 in a shoe, not {hand_number!r}")
    chosen = rules.tier(tier) if isinstance(tier, str) else tier
    d = rules.currency_digits
    for bet, amount in bets.items():
        check_stake(rules, bet, amount)
        low = chosen.limits_for(bet)[0]
        if amount < low:
            raise BetLimitError(
                f"{bet.label} bet {show_amount(amount, digits=d)} is below this table's "
                f"minimum of {show_amount(low, digits=d)}",
                limit=f"{bet.value}_min",
                value=low,
            )
        check_bet_maximum(rules, bet, amount, tier=chosen)
        opens_until = rules.close_from_hand.get(bet)
        if opens_until is not None and hand_number >= opens_until:
            raise BetClosedError(
                f"{bet.label} is closed from hand {opens_until} of the shoe; "
                f"this is hand {hand_number} [O]"
            )
    if rules.banker_multiple_of_min and Bet.BANKER in bets:
        minimum = chosen.min_bet
        if bets[Bet.BANKER] % minimum:
            raise BetLimitError(
                f"Banker bet {show_amount(bets[Bet.BANKER], digits=d)} must be a multiple of "
                f"the table minimum {show_amount(minimum, digits=d)} [M18]",
                limit="banker_multiple",
                value=minimum,
            )
    if rules.one_side_only and Bet.BANKER in bets and Bet.PLAYER in bets:
        raise BetCombinationError(
            "this table takes bets on Player or on Banker, not both (Tie is always allowed) [S11]"
        )
    if not rules.tiger_with_main and MAIN_BETS.intersection(bets) and TIGER_BETS.intersection(bets):
        raise BetCombinationError(
            "this table refuses Tiger side bets to a player who also bets Player or Banker [L]"
        )
    banker = table_banker + bets.get(Bet.BANKER, 0)
    player = table_player + bets.get(Bet.PLAYER, 0)
    # A bet that narrows the gap is always welcome, even at a table already over the limit
    # (after a lowered limit [S14] or a cleared bet).
    if abs(banker - player) > abs(table_banker - table_player):
        check_imbalance(rules, banker=banker, player=player)
