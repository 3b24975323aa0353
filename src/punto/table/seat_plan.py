"""Seats and watchers: who is at the table, where, and on which limit tier.

A player who joined the table is in the *lobby* until they sit or watch. Seats are
numbered from 1. A seated player may stand up and keep the seat *marked* for their
return; nobody else may take a marked seat, and a seat left unmarked is lost [S13].
Watchers may bet from the watchers' area or a free spot, never on a spot reserved for a
seated player [M15], and may never hold the cards [S13].

>>> seats = Seats(7)
>>> seats.join("ann"); seats.sit("ann", 3, tier="low")
>>> seats.stand("ann", mark=True)
3
>>> seats.verify_seat_free(3, "bob")
Traceback (most recent call last):
...
punto.errors.SeatError: seat 3 is marked as kept by another player [S13]
>>> seats.verify_spot("bob", 3)
Traceback (most recent call last):
...
punto.errors.SeatError: bob is not at the table: sit or watch to bet
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from punto.errors import SeatError
from punto.table.records import PlayerId

__all__ = ["Participant", "Place", "Seats"]


class Place(enum.Enum):
    """Where a player is at the table."""

    LOBBY = "lobby"
    """Joined (their balance is at the table) but neither seated nor watching."""
    SEATED = "seated"
    WATCHING = "watching"


@dataclass(slots=True)
class Participant:
    """A player at the table."""

    player: PlayerId
    place: Place = Place.LOBBY
    seat: int | None = None
    tier: str | None = None
    connected: bool = True
    gone_at: float | None = None
    """When the player's connection went (table clock), while it is gone."""

    @property
    def present(self) -> bool:
        """Seated and connected: may hold the cards."""
        return self.place is Place.SEATED and self.connected


class Seats:
    """The seats, their marks and every participant."""

    __slots__ = ("_marked", "_occupant", "count", "participants")

    def __init__(self, count: int) -> None:
        self.count = count
        self.participants: dict[PlayerId, Participant] = {}
        self._occupant: dict[int, PlayerId] = {}
        self._marked: dict[int, PlayerId] = {}

    # -- state ---------------------------------------------------------------

    def get(self, player: PlayerId) -> Participant:
        """The participant ``player``; raises :class:`SeatError` if not at the table."""
        found = self.participants.get(player)
        if found is None:
            raise SeatError(f"{player} is not at this table")
        return found

    def occupant(self, seat: int) -> PlayerId | None:
        """Who sits at ``seat``."""
        return self._occupant.get(seat)

    def marked_by(self, seat: int) -> PlayerId | None:
        """Who keeps ``seat`` marked while away [S13]."""
        return self._marked.get(seat)

    def marked_seat_of(self, player: PlayerId) -> int | None:
        """The seat ``player`` keeps marked, if any."""
        return next((s for s, p in self._marked.items() if p == player), None)

    def free_seats(self) -> list[int]:
        """Seats nobody sits at or keeps marked."""
        return [
            s for s in range(1, self.count + 1) if s not in self._occupant and s not in self._marked
        ]

    def seated(self) -> list[Participant]:
        """Seated participants, by seat."""
        return [self.participants[self._occupant[s]] for s in sorted(self._occupant)]

    def watchers(self) -> list[Participant]:
        """Watching participants."""
        return [p for p in self.participants.values() if p.place is Place.WATCHING]

    # -- checks --------------------------------------------------------------

    def verify_seat_free(self, seat: int, player: PlayerId) -> None:
        """Raise :class:`SeatError` unless ``player`` may take ``seat``."""
        if not 1 <= seat <= self.count:
            raise SeatError(f"seat {seat} does not exist: this table has seats 1-{self.count}")
        holder = self._occupant.get(seat)
        if holder is not None and holder != player:
            raise SeatError(f"seat {seat} is taken")
        marker = self._marked.get(seat)
        if marker is not None and marker != player:
            raise SeatError(f"seat {seat} is marked as kept by another player [S13]")

    def verify_spot(self, player: PlayerId, spot: int | None) -> int | None:
        """The spot ``player``'s chips go on; raises :class:`SeatError` for a spot they may
        not use: a seated player bets on their own spot, a watcher on the watchers' area
        or a free spot, never on a seated player's [M15]."""
        who = self.participants.get(player)
        if who is None or who.place is Place.LOBBY:
            raise SeatError(f"{player} is not at the table: sit or watch to bet")
        if who.place is Place.SEATED:
            if spot is not None and spot != who.seat:
                raise SeatError(f"a seated player bets on their own spot (seat {who.seat})")
            return who.seat
        if spot is None:
            return None
        if not 1 <= spot <= self.count:
            raise SeatError(f"spot {spot} does not exist: this table has seats 1-{self.count}")
        if spot in self._occupant or spot in self._marked:
            raise SeatError(
                f"spot {spot} belongs to a seated player: watchers may not bet on it [M15]"
            )
        return spot

    # -- changes -------------------------------------------------------------

    def join(self, player: PlayerId) -> None:
        """Add ``player`` to the lobby."""
        self.participants[player] = Participant(player)

    def sit(self, player: PlayerId, seat: int, *, tier: str) -> None:
        """Seat ``player`` (checked by :meth:`verify_seat_free` beforehand)."""
        who = self.get(player)
        if who.seat is not None:
            self._occupant.pop(who.seat, None)
        old_mark = self.marked_seat_of(player)
        if old_mark is not None:
            del self._marked[old_mark]
        self._occupant[seat] = player
        who.place, who.seat, who.tier = Place.SEATED, seat, tier

    def stand(self, player: PlayerId, *, mark: bool) -> int:
        """``player`` leaves their seat and watches; a marked seat stays theirs [S13]."""
        who = self.get(player)
        if who.seat is None or who.place is not Place.SEATED:
            raise SeatError(f"{player} is not seated")
        seat = who.seat
        del self._occupant[seat]
        if mark:
            self._marked[seat] = player
        who.place, who.seat = Place.WATCHING, None
        return seat

    def watch(self, player: PlayerId, *, tier: str) -> None:
        """``player`` watches (from the lobby or a seat, which is given up)."""
        who = self.get(player)
        if who.seat is not None:
            self._occupant.pop(who.seat, None)
        who.place, who.seat, who.tier = Place.WATCHING, None, tier

    def remove(self, player: PlayerId) -> None:
        """``player`` leaves the table: their seat and any mark are freed."""
        who = self.participants.pop(player)
        if who.seat is not None:
            self._occupant.pop(who.seat, None)
        mark = self.marked_seat_of(player)
        if mark is not None:
            del self._marked[mark]
