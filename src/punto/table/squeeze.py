"""Who looks at the cards first: squeeze and reading rights [M16], [S], [O].

The table collects a :class:`Claim` for every bettor (:func:`claims_of` its bet slips
and seats) and asks :func:`choose_holders` (:func:`holder_choice`: now and as the bets
designate) who holds each side's cards for this hand. Cards of a side with a holder are
dealt face down (:func:`is_face_down`); the holder turns them. With no holder the dealer
reads. Before a side's squeeze begins, :func:`takeovers` says whose cards change hands
and :func:`may_hand_over` whether a holder may leave the seat [O].

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
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from punto.bets import Bet
from punto.coup import Position
from punto.errors import SqueezeError
from punto.outcome import Side
from punto.table.records import PlayerId
from punto.table.seat_plan import Place, Seats
from punto.table.slip import BetSlip
from punto.tableau import hand_total, is_natural, player_draws

__all__ = [
    "FIRST_TWO",
    "Claim",
    "HolderChoice",
    "ReadCall",
    "Reading",
    "choose_holders",
    "claims_of",
    "expected_call",
    "holder_choice",
    "is_face_down",
    "may_hand_over",
    "takeovers",
    "verify_read",
]

FIRST_TWO = frozenset({Position.PLAYER_1, Position.PLAYER_2})
"""The Player cards an [S] reader reads."""


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


def claims_of(slips: Iterable[BetSlip], seats: Seats) -> list[tuple[Claim, bool]]:
    """Every main-game bettor's claim to the cards, and whether they bet from a seat.

    A player at the table with a confirmed Player or Banker bet claims; their seat is the
    one they sit at, else the one they keep marked [S13], else the spot they bet on, else
    one past the last seat (last in button order).
    """
    out: list[tuple[Claim, bool]] = []
    spare = seats.count + 1
    for slip in slips:
        p_bet = slip.confirmed.get(Bet.PLAYER, 0)
        b_bet = slip.confirmed.get(Bet.BANKER, 0)
        who = seats.participants.get(slip.player)
        if who is None or not (p_bet or b_bet):
            continue
        seat = who.seat or seats.marked_seat_of(slip.player) or slip.spot or spare
        claim = Claim(
            player=slip.player,
            seat=seat,
            player_bet=p_bet,
            banker_bet=b_bet,
            player_since=slip.first_confirmed.get(Bet.PLAYER, 0),
            banker_since=slip.first_confirmed.get(Bet.BANKER, 0),
            present=who.present,
        )
        out.append((claim, slip.from_seat or who.place is Place.SEATED))
    return out


class HolderChoice(NamedTuple):
    """Who holds each side's cards now, and who the bets designate."""

    now: dict[Side, PlayerId]
    """Among the bettors present at their seat (see :func:`choose_holders`)."""
    designated: dict[Side, PlayerId]
    """Among the bettors who bet from a seat, present or not: the squeezer a takeover
    replaces [O]."""


def holder_choice(
    reading: Reading,
    claims: Sequence[tuple[Claim, bool]],
    *,
    button: int = 1,
    seats: int = 7,
    owner: PlayerId | None = None,
    squeeze_on: bool = True,
) -> HolderChoice:
    """Who holds each side now, and who the bets designate (``claims`` as
    :func:`claims_of` gives them: a watcher's free-spot bet never designates [O]).

    >>> ann = Claim("ann", seat=1, banker_bet=900, present=False)
    >>> bob = Claim("bob", seat=2, banker_bet=500)
    >>> holder_choice(Reading.BID, [(ann, True), (bob, True)])
    HolderChoice(now={<Side.BANKER: 'banker'>: 'bob'}, designated={<Side.BANKER: 'banker'>: 'ann'})
    """

    def choose(pool: list[Claim], *, present_only: bool) -> dict[Side, PlayerId]:
        return choose_holders(
            reading,
            pool,
            button=button,
            seats=seats,
            owner=owner,
            squeeze_on=squeeze_on,
            present_only=present_only,
        )

    now = choose([c for c, _ in claims], present_only=True)
    designated = choose([c for c, seated in claims if seated], present_only=False)
    return HolderChoice(now, designated)


def takeovers(
    reading: Reading,
    holders: Mapping[Side, PlayerId],
    now: Mapping[Side, PlayerId],
    turned: Collection[Side],
) -> dict[Side, PlayerId]:
    """[O] Bid-squeeze: the sides whose cards change hands, and to whom. Until a side's
    squeeze begins (none of its face-down cards turned, ``turned``), its cards go to the
    largest seated, connected bettor on that side (``now``): a squeezer who stood up or
    lost the connection is replaced, and gets the cards back on return. A side nobody
    present may take stays with its squeezer.

    >>> takeovers(Reading.BID, {Side.BANKER: "ann"}, {Side.BANKER: "bob"}, turned=())
    {<Side.BANKER: 'banker'>: 'bob'}
    >>> takeovers(Reading.BID, {Side.BANKER: "ann"}, {}, turned=())
    {}
    """
    if reading is not Reading.BID:
        return {}
    return {
        side: new
        for side, holder in holders.items()
        if side not in turned and (new := now.get(side)) is not None and new != holder
    }


def may_hand_over(
    reading: Reading, holders: Mapping[Side, PlayerId], turned: Collection[Side], player: PlayerId
) -> bool:
    """[O] A bid-squeeze holder may leave the seat before the squeeze of their side
    begins: the next seated bettor takes the cards over."""
    return reading is Reading.BID and not any(
        side in turned for side, p in holders.items() if p == player
    )


def is_face_down(reading: Reading, holders: Mapping[Side, PlayerId], position: Position) -> bool:
    """Whether the card at ``position`` is dealt face down for its holder: a side with a
    holder is; at an [S] table the reader reads only the Player's first two cards and the
    dealer turns the rest."""
    if position.side not in holders:
        return False
    return reading is not Reading.BUTTON or position in FIRST_TWO


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
