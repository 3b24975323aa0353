"""Who looks at the cards first: squeeze and reading rights [M16], [S], [O].

The table collects a :class:`Claim` for every seated bettor and asks
:func:`choose_holders` who holds each side's cards for this hand. Cards of a side with
a holder are dealt face down; the holder turns them. With no holder the dealer reads.

- [M16] the seated player with the largest bet holds the cards of that bet's side.
- [S] Super Punto Banco: the largest Player bettor reads the Player hand; equal bets go
  to the first in *button* order (the button moves one seat after every hand). The
  reader must call ``natural``, ``carta`` or ``no carta`` as the tableau says.
- [O] bid-squeeze: the largest Banker bettor squeezes Banker, the largest Player bettor
  Player; the earlier bet wins on equal amounts; one player with equal Banker and Player
  bets squeezes Player. Only players present at their seat qualify, so a squeezer who
  left is replaced and gets the cards back on return (both before the squeeze).
- [O] VIP: the owner squeezes the side(s) they bet on, when squeeze is on.

>>> claims = [Claim("ann", seat=2, player_bet=500, banker_bet=0, player_since=4),
...           Claim("bob", seat=5, player_bet=500, banker_bet=0, player_since=3)]
>>> choose_holders(Reading.BUTTON, claims, button=5, seats=7)
{<Side.PLAYER: 'player'>: 'bob'}
>>> choose_holders(Reading.BUTTON, claims, button=1, seats=7)
{<Side.PLAYER: 'player'>: 'ann'}
>>> expected_call([4, 3])
<ReadCall.NO_CARTA: 'no_carta'>
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from punto.errors import SqueezeError
from punto.outcome import Side
from punto.table.records import PlayerId
from punto.tableau import hand_total, is_natural, player_draws

__all__ = ["Claim", "ReadCall", "Reading", "choose_holders", "expected_call", "verify_read"]


class Reading(enum.Enum):
    """Who may hold the cards at a table."""

    DEALER = "dealer"
    """The dealer turns every card."""
    LARGEST_BETTOR = "largest_bettor"
    """[M16] The seated player with the largest bet holds that bet's side."""
    BUTTON = "button"
    """[S] The largest Player bettor reads the Player hand; ties by the button."""
    BID = "bid"
    """[O] Bid-squeeze: the largest bettor of each side squeezes it."""
    OWNER = "owner"
    """[O] VIP: the owner squeezes the side(s) they bet on."""


class ReadCall(enum.Enum):
    """What a Super Punto Banco reader says of the Player's two cards [S]."""

    NATURAL = "natural"
    """8 or 9: both hands stand."""
    CARTA = "carta"
    """0-5: the Player draws."""
    NO_CARTA = "no_carta"
    """6-7: the Player stands."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A seated bettor's claim to the cards: their Player and Banker stakes, when each was
    first confirmed (a sequence number: lower is earlier), and whether they are at their
    seat and connected now."""

    player: PlayerId
    seat: int
    player_bet: int = 0
    banker_bet: int = 0
    player_since: int = 0
    banker_since: int = 0
    present: bool = True

    def stake(self, side: Side) -> int:
        """The stake on one side."""
        return self.player_bet if side is Side.PLAYER else self.banker_bet

    def since(self, side: Side) -> int:
        """When the stake on one side was first confirmed."""
        return self.player_since if side is Side.PLAYER else self.banker_since


def _largest(claims: Sequence[Claim], side: Side) -> Claim | None:
    """The largest bettor on ``side``; the earlier bet wins on equal amounts [O]."""
    bettors = [c for c in claims if c.stake(side) > 0]
    if not bettors:
        return None
    return min(bettors, key=lambda c: (-c.stake(side), c.since(side), c.seat))


def choose_holders(
    reading: Reading,
    claims: Sequence[Claim],
    *,
    button: int = 1,
    seats: int = 7,
    owner: PlayerId | None = None,
    squeeze_on: bool = True,
    present_only: bool = True,
) -> dict[Side, PlayerId]:
    """Who holds each side's cards; a side missing from the answer is read by the dealer.

    ``present_only=False`` answers who the bets designate even if they left their seat
    (the squeezer a takeover replaces [O]).
    """
    pool = [c for c in claims if c.present or not present_only]
    if reading is Reading.DEALER or not pool:
        return {}
    if reading is Reading.LARGEST_BETTOR:
        best = min(
            (c for c in pool if c.player_bet or c.banker_bet),
            key=lambda c: (
                -max(c.player_bet, c.banker_bet),
                c.since(_side_of_largest(c)),
                c.seat,
            ),
            default=None,
        )
        return {} if best is None else {_side_of_largest(best): best.player}
    if reading is Reading.BUTTON:
        bettors = [c for c in pool if c.player_bet > 0]
        if not bettors:
            return {}
        reader = min(bettors, key=lambda c: (-c.player_bet, (c.seat - button) % seats))
        return {Side.PLAYER: reader.player}
    if reading is Reading.OWNER:
        mine = [c for c in pool if c.player == owner]
        if not squeeze_on or not mine:
            return {}
        return {side: mine[0].player for side in Side if mine[0].stake(side) > 0}
    # Reading.BID
    holders: dict[Side, PlayerId] = {}
    p_best = _largest(pool, Side.PLAYER)
    if p_best is not None:
        holders[Side.PLAYER] = p_best.player
    b_best = _largest(pool, Side.BANKER)
    if b_best is not None and p_best is b_best and b_best.player_bet == b_best.banker_bet:
        # One player with equal Banker and Player bets squeezes Player [O].
        b_best = _largest([c for c in pool if c is not b_best], Side.BANKER)
    if b_best is not None:
        holders[Side.BANKER] = b_best.player
    return holders


def _side_of_largest(claim: Claim) -> Side:
    return Side.BANKER if claim.banker_bet > claim.player_bet else Side.PLAYER


def expected_call(values: Sequence[int]) -> ReadCall:
    """The call the tableau makes for the Player's two card values [S], [M9]."""
    total = hand_total(list(values))
    if is_natural(total):
        return ReadCall.NATURAL
    return ReadCall.CARTA if player_draws(total) else ReadCall.NO_CARTA


def verify_read(call: ReadCall, values: Sequence[int]) -> None:
    """Raise :class:`SqueezeError` if ``call`` decides against the tableau [S].

    >>> verify_read(ReadCall.CARTA, [9, 8])
    Traceback (most recent call last):
    ...
    punto.errors.SqueezeError: 'carta' is against the tableau: the Player's two cards total 7, \
so the call is 'no_carta' [S]
    """
    expected = expected_call(values)
    if call is not expected:
        total = hand_total(list(values))
        raise SqueezeError(
            f"{call.value!r} is against the tableau: the Player's two cards total {total}, "
            f"so the call is {expected.value!r} [S]"
        )
