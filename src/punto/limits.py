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
- [EZ-C] side bets closed for a hand whose shoe favours them;
- [L] the Tiger restriction for players who also bet the main game.

:func:`area_room` answers, from the same checks, how much more a player may stake on one
bet area now and what bounds it (the ``bets`` of a player's ``legal`` message,
docs/protocol.md): a client compares its chip with it and restates no limit.

Amounts are integer minor units.

>>> from punto.rules import preset
>>> rules = preset("macau")
>>> check_bets(rules, {Bet.BANKER: 2500}, tier="low", hand_number=1)
Traceback (most recent call last):
...
punto.errors.BetLimitError: Banker bet 25.00 must be a multiple of the table minimum 10.00
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from typing import NamedTuple

from punto.bets import MAIN_BETS, TIGER_BETS, Bet
from punto.errors import (
    AmountError,
    BetClosedError,
    BetCombinationError,
    BetError,
    BetLimitError,
    UnknownBetError,
)
from punto.money import display_amount
from punto.rules import Rules
from punto.tiers import LimitTier

__all__ = [
    "AreaLimit",
    "AreaRoom",
    "LimitTier",
    "Shortfall",
    "area_room",
    "area_rooms",
    "check_bet_maximum",
    "check_bets",
    "check_edge_open",
    "check_imbalance",
    "check_stake",
]


class AreaLimit(enum.StrEnum):
    """What bounds a player's stake on a bet area now (the wire code; the client words
    it, with the same texts as a refusal's ``limit``)."""

    MAX = "max"
    """The tier's maximum for the bet [L]."""
    CLOSED_FROM = "closed_from"
    """The bet is closed from this hand of the shoe [O]."""
    EDGE_CLOSED = "edge_closed"
    """[EZ-C] The side bet is closed this hand: the cards left favour it too much."""
    ONE_SIDE = "one_side"
    """Player or Banker, not both [S11]."""
    TIGER_WITH_MAIN = "tiger_with_main"
    """No Tiger side bets with Player or Banker [L]."""
    BETTING_CLOSED = "betting_closed"
    """The player may not put chips down now."""
    MIN = "min"
    """(a shortfall) below the tier's minimum for the bet."""
    BANKER_MULTIPLE = "banker_multiple"
    """(a shortfall) a Banker bet not a multiple of the table minimum [M18]."""


class Shortfall(NamedTuple):
    """Why a stake cannot be confirmed as it stands: ``limit`` (:attr:`AreaLimit.MIN` or
    :attr:`AreaLimit.BANKER_MULTIPLE`), its ``value`` and, for a minimum, how much is
    ``short``."""

    limit: AreaLimit
    value: int
    short: int = 0


class AreaRoom(NamedTuple):
    """How much more one player may stake on one bet area now (``room``), what bounds it
    (``limit``, with its ``value``: the maximum, the closing hand) and, when the stake
    there cannot be confirmed as it stands, why (``incomplete``).

    >>> from punto.rules import preset
    >>> room = area_room(preset("macau"), Bet.TIE, {Bet.TIE: 1000}, tier="low", hand_number=1)
    >>> room.room, room.limit.value, room.value
    (49000, 'max', 50000)
    """

    bet: Bet
    room: int
    limit: AreaLimit
    value: int | None = None
    incomplete: Shortfall | None = None


def _closed_from(rules: Rules, bet: Bet, hand_number: int) -> int | None:
    """The hand of the shoe ``bet`` is closed from, if ``hand_number`` is past it [O]."""
    opens_until = rules.close_from_hand.get(bet)
    if opens_until is not None and hand_number >= opens_until:
        return opens_until
    return None


def _one_side(rules: Rules, bet: Bet, others: Collection[Bet]) -> bool:
    """[S11] Whether ``bet`` is the other main side of one already in ``others``."""
    if not rules.one_side_only or bet not in MAIN_BETS:
        return False
    return (Bet.PLAYER if bet is Bet.BANKER else Bet.BANKER) in others


def _tiger_with_main(rules: Rules, bet: Bet, others: Collection[Bet]) -> bool:
    """[L] Whether ``bet`` is a Tiger bet with a main bet in ``others``, or the reverse."""
    if rules.tiger_with_main:
        return False
    if bet in MAIN_BETS:
        return any(b in TIGER_BETS for b in others)
    return bet in TIGER_BETS and any(b in MAIN_BETS for b in others)


def _shortfall(rules: Rules, tier: LimitTier, bet: Bet, amount: int) -> Shortfall | None:
    """Why ``amount`` on ``bet`` cannot be confirmed alone: below the tier's minimum, or
    a Banker bet not a multiple of the table minimum [M18]."""
    low = tier.limits_for(bet)[0]
    if amount < low:
        return Shortfall(AreaLimit.MIN, low, low - amount)
    if rules.banker_multiple_of_min and bet is Bet.BANKER and amount % tier.min_bet:
        return Shortfall(AreaLimit.BANKER_MULTIPLE, tier.min_bet)
    return None


def area_room(
    rules: Rules,
    bet: Bet,
    staked: Mapping[Bet, int],
    *,
    tier: LimitTier | str,
    hand_number: int,
    closed: frozenset[Bet] = frozenset(),
) -> AreaRoom:
    """How much more a player whose confirmed and unconfirmed chips are ``staked`` may
    put on ``bet`` in hand ``hand_number``, from the checks :func:`check_bets` and
    :func:`check_bet_maximum` apply (a closed bet, one side only, the Tiger restriction,
    the tier's maximum) and, if the stake there is not yet confirmable, why. ``closed``:
    the side bets closed for this hand by the shoe's edge [EZ-C]."""
    return area_rooms(rules, (bet,), staked, tier=tier, hand_number=hand_number, closed=closed)[0]


def area_rooms(
    rules: Rules,
    bets: Collection[Bet],
    staked: Mapping[Bet, int],
    *,
    tier: LimitTier | str,
    hand_number: int,
    closed: frozenset[Bet] = frozenset(),
) -> tuple[AreaRoom, ...]:
    """:func:`area_room` of each of ``bets``, in their order."""
    chosen = rules.tier(tier) if isinstance(tier, str) else tier
    order = tuple(bets)
    alone = _alone(rules, chosen, order, hand_number, closed)
    on = {b for b, a in staked.items() if a}
    if not on:
        return alone
    # players at a table stake the same few amounts: their rooms are worked out once
    key = (id(rules), id(chosen), order, tuple(staked.items()), hand_number, closed)
    found = _STAKED.get(key)
    if found is not None and found[0] is rules and found[1] is chosen:
        return found[2]
    rooms = _staked_rooms(rules, chosen, order, alone, staked, on, (hand_number, closed))
    if len(_STAKED) >= _STAKED_MAX:
        _STAKED.clear()
    _STAKED[key] = (rules, chosen, rooms)
    return rooms


def _staked_rooms(
    rules: Rules,
    chosen: LimitTier,
    order: tuple[Bet, ...],
    alone: tuple[AreaRoom, ...],
    staked: Mapping[Bet, int],
    on: set[Bet],
    when: tuple[int, frozenset[Bet]],
) -> tuple[AreaRoom, ...]:
    # the areas whose room the stakes can change: their own, and those an exclusion ties
    # to them (one side only [S11], Tiger and the main bets [L]); the rest are as alone
    moved = set(on)
    mains = not on.isdisjoint(MAIN_BETS)
    if rules.one_side_only and mains:
        moved |= MAIN_BETS
    if not rules.tiger_with_main and (mains or not on.isdisjoint(TIGER_BETS)):
        moved |= MAIN_BETS | TIGER_BETS
    return tuple(
        _room(rules, chosen, bet, staked.get(bet, 0), on, *when) if bet in moved else room
        for bet, room in zip(order, alone, strict=True)
    )


_ALONE: dict[
    tuple[int, int, tuple[Bet, ...], int, frozenset[Bet]],
    tuple[Rules, LimitTier, tuple[AreaRoom, ...]],
]
_ALONE = {}
_ALONE_MAX = 1024

_STAKED: dict[
    tuple[int, int, tuple[Bet, ...], tuple[tuple[Bet, int], ...], int, frozenset[Bet]],
    tuple[Rules, LimitTier, tuple[AreaRoom, ...]],
]
_STAKED = {}
_STAKED_MAX = 4096


def _alone(
    rules: Rules,
    tier: LimitTier,
    bets: tuple[Bet, ...],
    hand_number: int,
    closed: frozenset[Bet],
) -> tuple[AreaRoom, ...]:
    """The rooms of ``bets`` for a player with nothing staked, kept by the rules' and the
    tier's identity (both frozen; kept alive with their rooms, so no id is reused)."""
    key = (id(rules), id(tier), bets, hand_number, closed)
    found = _ALONE.get(key)
    if found is not None and found[0] is rules and found[1] is tier:
        return found[2]
    rooms = tuple(_room(rules, tier, bet, 0, (), hand_number, closed) for bet in bets)
    if len(_ALONE) >= _ALONE_MAX:
        _ALONE.clear()
    _ALONE[key] = (rules, tier, rooms)
    return rooms


def _room(
    rules: Rules,
    tier: LimitTier,
    bet: Bet,
    amount: int,
    on: Collection[Bet],
    hand_number: int,
    closed: frozenset[Bet] = frozenset(),
) -> AreaRoom:
    incomplete = _shortfall(rules, tier, bet, amount) if amount else None
    # ``on`` may hold ``bet`` itself: both exclusions look at other bets only
    closes = _closed_from(rules, bet, hand_number)
    if closes is not None:
        return AreaRoom(bet, 0, AreaLimit.CLOSED_FROM, closes, incomplete)
    if bet in closed:
        return AreaRoom(bet, 0, AreaLimit.EDGE_CLOSED, None, incomplete)
    if _one_side(rules, bet, on):
        return AreaRoom(bet, 0, AreaLimit.ONE_SIDE, None, incomplete)
    if _tiger_with_main(rules, bet, on):
        return AreaRoom(bet, 0, AreaLimit.TIGER_WITH_MAIN, None, incomplete)
    high = tier.limits_for(bet)[1]
    return AreaRoom(bet, max(0, high - amount), AreaLimit.MAX, high, incomplete)


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
            f"the difference between Banker ({display_amount(banker, digits=d)}) and Player "
            f"({display_amount(player, digits=d)}) bets would exceed this table's imbalance limit "
            f"of {display_amount(limit, digits=d)}",
            limit="max_imbalance",
            value=limit,
        )


def check_bet_maximum(
    rules: Rules, bet: Bet, amount: int, *, tier: LimitTier | str, digits: int | None = None
) -> None:
    """Raise :class:`BetLimitError` when ``amount`` on ``bet`` is above the tier's maximum:
    chips go on a bet area only up to the table limit [L]. ``digits``: the minor-unit
    digits of the player's currency (default the table's).

    >>> from punto.rules import preset
    >>> check_bet_maximum(preset("macau"), Bet.TIE, 10**9, tier="low")
    Traceback (most recent call last):
    ...
    punto.errors.BetLimitError: Tie bet 10,000,000.00 is above this table's maximum of 500.00
    """
    chosen = rules.tier(tier) if isinstance(tier, str) else tier
    high = chosen.limits_for(bet)[1]
    if amount > high:
        d = rules.currency_digits if digits is None else digits
        raise BetLimitError(
            f"{bet.label} bet {display_amount(amount, digits=d)} is above this table's maximum "
            f"of {display_amount(high, digits=d)}",
            limit=f"{bet.value}_max",
            value=high,
        )


def check_edge_open(rules: Rules, bet: Bet, edge_closed: Mapping[Bet, float]) -> None:
    """[EZ-C] Raise :class:`BetClosedError` (``limit`` ``edge_closed``) when ``bet`` is
    one of the side bets closed for this hand, ``edge_closed`` (each with its edge).

    >>> from punto.rules import preset
    >>> check_edge_open(preset("ez").replace(close_below_edge=0.0), Bet.DRAGON7,
    ...                 {Bet.DRAGON7: -0.0125})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    punto.errors.BetClosedError: Dragon 7 is closed this hand: ... -1.250%, below ... 0.000% [EZ-C]
    """
    edge = edge_closed.get(bet)
    if edge is not None:
        threshold = rules.close_below_edge or 0.0
        raise BetClosedError(
            f"{bet.label} is closed this hand: the cards left in the shoe give it a house "
            f"edge of {edge:.3%}, below this table's {threshold:.3%} [EZ-C]",
            limit=AreaLimit.EDGE_CLOSED.value,
            bet=bet.value,
            value=round(edge * 1_000_000),
        )


def check_bets(
    rules: Rules,
    bets: Mapping[Bet, int],
    *,
    tier: LimitTier | str,
    hand_number: int,
    table_banker: int = 0,
    table_player: int = 0,
    digits: int | None = None,
    edge_closed: Mapping[Bet, float] | None = None,
) -> None:
    """Check one player's bets for hand ``hand_number`` of the shoe; raise on the first
    broken limit. ``table_banker``/``table_player`` are the other players' totals on the
    two sides, for [M14]; ``digits`` those of the player's currency (default the table's);
    ``edge_closed`` the side bets closed for this hand, with their edges [EZ-C]."""
    if not _whole(hand_number) or hand_number < 1:
        raise BetError(f"hand numbers count from 1 in a shoe, not {hand_number!r}")
    chosen = rules.tier(tier) if isinstance(tier, str) else tier
    d = rules.currency_digits if digits is None else digits
    for bet, amount in bets.items():
        check_stake(rules, bet, amount)
        short = _shortfall(rules, chosen, bet, amount)
        if short is not None and short.limit is AreaLimit.MIN:
            raise BetLimitError(
                f"{bet.label} bet {display_amount(amount, digits=d)} is below this table's "
                f"minimum of {display_amount(short.value, digits=d)}",
                limit=f"{bet.value}_min",
                value=short.value,
            )
        check_bet_maximum(rules, bet, amount, tier=chosen, digits=d)
        opens_until = _closed_from(rules, bet, hand_number)
        if opens_until is not None:
            raise BetClosedError(  # [O]
                f"{bet.label} is closed from hand {opens_until} of the shoe; "
                f"this is hand {hand_number}",
                bet=bet.value,
                value=opens_until,
            )
        if edge_closed:
            check_edge_open(rules, bet, edge_closed)
    if Bet.BANKER in bets:
        short = _shortfall(rules, chosen, Bet.BANKER, bets[Bet.BANKER])
        if short is not None and short.limit is AreaLimit.BANKER_MULTIPLE:
            raise BetLimitError(
                f"Banker bet {display_amount(bets[Bet.BANKER], digits=d)} must be a multiple of "
                f"the table minimum {display_amount(short.value, digits=d)}",
                limit="banker_multiple",
                value=short.value,
            )
    if any(_one_side(rules, bet, bets) for bet in bets):
        raise BetCombinationError(  # [S11]
            "this table takes bets on Player or on Banker, not both (Tie is always allowed)"
        )
    if any(_tiger_with_main(rules, bet, bets) for bet in bets):
        raise BetCombinationError(  # [L]
            "this table refuses Tiger side bets to a player who also bets Player or Banker"
        )
    banker = table_banker + bets.get(Bet.BANKER, 0)
    player = table_player + bets.get(Bet.PLAYER, 0)
    # A bet that narrows the gap is always welcome, even at a table already over the limit
    # (after a lowered limit [S14] or a cleared bet).
    if abs(banker - player) > abs(table_banker - table_player):
        check_imbalance(rules, banker=banker, player=player)
