"""A launched player's jurisdiction switches enforced where their table is run: a bet
refused while a reality check is due, after the session's time, too soon after the last
hand's bet, or on a side bet the profile turns off; a chat line refused when chat is off
(:mod:`punto.server.operators.sessions` says why; the server's clock says when)."""

from __future__ import annotations

from collections import OrderedDict

from punto.bets import Bet
from punto.server.auth import Actor, Role
from punto.server.clock import ServerClock
from punto.server.fanout.protocol import AddChip, Command, Confirm, Double, Join, Rebet
from punto.server.operators.jurisdictions import Jurisdiction
from punto.server.operators.model import operator_of
from punto.server.operators.sessions import (
    PlaySession,
    bet_refusal,
    chat_refusal,
    side_bet_refusal,
)
from punto.server.store.jurisdictions import JurisdictionStore
from punto.server.tables.runner import TableRunner

__all__ = ["SessionRules"]

_BETS = (AddChip, Double, Rebet, Confirm)
"""The commands that put chips down (a bet)."""

Found = tuple[PlaySession, Jurisdiction]


def _bets_of(command: Command) -> list[Bet]:
    if isinstance(command, AddChip):
        return [command.bet]
    if isinstance(command, Confirm) and command.bets:
        return list(command.bets)
    return []


_UNGOVERNED_MAX = 100_000
"""How many launched players under no profile a process remembers (the oldest first out)."""


class SessionRules:
    """The jurisdiction switches of the players at the tables owned here.

    A launched player found under no profile is remembered so until they join a table
    again (a profile comes only with a launch, and a launched page joins its table anew):
    their bets cost no read of the database. A player under a profile is read at every
    bet, so an acknowledged check or a changed profile counts at once, from any process.
    """

    def __init__(self, store: JurisdictionStore, *, clock: ServerClock) -> None:
        self._store = store
        self._clock = clock
        self._ungoverned: OrderedDict[str, None] = OrderedDict()

    async def of(self, actor: Actor, *, fresh: bool = False) -> Found | None:
        """The actor's play session and its profile (only a launched player has one;
        ``fresh``: read again, even for a player remembered under none)."""
        user = actor.user_id
        if actor.role is not Role.PLAYER or user is None or operator_of(user) is None:
            return None
        if not fresh and user in self._ungoverned:
            return None
        found = await self._store.session(user)
        if found is not None:
            self._ungoverned.pop(user, None)
            return found
        self._ungoverned[user] = None
        self._ungoverned.move_to_end(user)
        if len(self._ungoverned) > _UNGOVERNED_MAX:
            self._ungoverned.popitem(last=False)
        return None

    async def before(self, runner: TableRunner, actor: Actor, command: Command) -> Found | None:
        """Refuse ``command`` if the actor's profile forbids it now (its typed
        :class:`~punto.errors.JurisdictionError`); a join tells the table whether the
        player is offered side bets."""
        if isinstance(command, Join):
            found = await self.of(actor, fresh=True)
            if actor.role is Role.PLAYER and actor.user_id is not None:
                offered = found is None or not found[1].off("side_bets")
                runner.offer_side_bets(actor.user_id, offered)
            return found
        if not isinstance(command, _BETS):
            return None
        found = await self.of(actor)
        if found is None:
            return None
        session, profile = found
        game = runner.table.game
        refusal = bet_refusal(
            session, profile, now=self._clock.now(), hand=None if game is None else str(game)
        ) or side_bet_refusal(profile, _bets_of(command))
        if refusal is not None:
            raise refusal
        return found

    async def after(
        self, runner: TableRunner, actor: Actor, command: Command, found: Found | None
    ) -> None:
        """Keep the hand and time of a confirmed bet (the least interval counts from it)."""
        game = runner.table.game
        if found is None or not isinstance(command, Confirm) or game is None:
            return
        if found[1].min_hand_interval is not None:
            assert actor.user_id is not None
            await self._store.bet(actor.user_id, str(game), now=self._clock.now())

    async def chat(self, actor: Actor) -> None:
        """Refuse a chat line when the actor's profile turns chat off."""
        found = await self.of(actor)
        if found is not None and (refusal := chat_refusal(found[1])) is not None:
            raise refusal
