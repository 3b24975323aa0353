"""A table's client commands: who may send what, and what each does to the table.

:class:`Commands` turns a validated message into table actions — players' messages, the
dealer console's and the supervisor's — each checked against the sender's role and then
looked up in one table keyed by its wire ``type`` (an :class:`~punto.table.legal.Action`
value). A confirm goes to the confirm pipeline
(:class:`~punto.server.tables.confirming.ConfirmPipeline`); a join and a change of tie bets
[M12] move money first, here.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from types import CoroutineType
from typing import Any

from punto.bets import MAIN_BETS, Bet
from punto.cards import Card
from punto.errors import ForbiddenError
from punto.server.auth import Actor, Role
from punto.server.fanout.protocol import Command
from punto.server.money.bank import Stake
from punto.server.services import DEALER_ROSTER, Services
from punto.server.tables.payouts import Payouts
from punto.server.tables.stakes import RoundStakes
from punto.server.tables.standing import StandingStakes
from punto.server.tables.tablecast import TableCast
from punto.table import Fault, Table
from punto.table.events import Event
from punto.table.legal import STAFF_ACTIONS, Action, house_actions
from punto.table.reasons import CLOSED_BY_SUPERVISOR

__all__ = ["Commands"]

Locked = Callable[[Actor, Callable[[], Awaitable[None]]], Awaitable[tuple[Event, ...]]]
"""Make a change to the table under its lock and run its effects; the events it made."""

_PLAYER_ACTIONS = frozenset(
    {
        "join",
        "sit",
        "take_table",
        "watch",
        "vip_settings",
        Action.STAND,
        Action.LEAVE,
        Action.CHOOSE_CHIP,
        Action.ADD_CHIP,
        Action.UNDO,
        Action.CLEAR,
        Action.DOUBLE,
        Action.REBET,
        Action.CONFIRM,
        Action.CHANGE_TIE_BETS,
        Action.WAIT_FOR_ME,
        Action.OPEN_CARDS,
        Action.FLY,
        Action.SQUEEZE,
        Action.READ,
    }
)
"""What only a player at the table may send."""

_OWNER_ACTIONS = frozenset({Action.CHANGE_SHOE, Action.CHANGE_DEALER})

_HAND_OPENERS = frozenset(
    {Action.START_SHOE, Action.OPEN_BETTING, Action.START_BLANK_HAND, Action.DEAL_DEMO_HAND}
)
"""A live dealer's commands that begin a shoe or a hand: the one who sends them deals it."""
"""Dealer's steps a VIP owner may ask for too [O]."""


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


class Commands:
    """The client commands of one table. Handed the table, the round's stakes, the
    payouts, the standing bets [M12] and the fan-out (an ``open_betting`` starts the countdown), and
    ``locked``, which makes a change under the table's lock and runs its effects."""

    def __init__(
        self,
        table: Table,
        services: Services,
        *,
        stakes: RoundStakes,
        payouts: Payouts,
        standing: StandingStakes,
        cast: TableCast,
        locked: Locked,
    ) -> None:
        self.table = table
        self._s = services
        self._stakes = stakes
        self._payouts = payouts
        self._standing = standing
        self._cast = cast
        self._locked = locked

    async def run(self, actor: Actor, command: Command) -> None:
        """Apply ``command`` to the table (under its lock), if ``actor``'s role may send it."""
        role = actor.role
        kind = command.type
        if kind in _PLAYER_ACTIONS:
            if role is not Role.PLAYER:
                raise ForbiddenError(f"{kind}: only a player at the table may do this")
        elif not (kind in _OWNER_ACTIONS and role is Role.PLAYER):  # a VIP owner [O]
            if not (role is Role.DEALER or (role is Role.SUPERVISOR and kind in STAFF_ACTIONS)):
                who = "anonymous watcher" if role is None else role.value
                raise ForbiddenError(f"{kind}: a {who} may not do this")
            if kind in {a.value for a in house_actions(self.table.settings)}:
                raise ForbiddenError(
                    f"{kind}: an RNG table deals by itself; its dealer may report "
                    "faults, pause, resume, change dealer or close it"
                )
        if role is Role.DEALER and kind in _HAND_OPENERS:
            self._dealer_takes_the_table(actor)
        handler = _COMMANDS.get(kind)
        if handler is None:  # a join or a confirm is the runner's, the rest no table's
            sender = "player" if role is Role.PLAYER else "dealer"
            raise ForbiddenError(f"{kind}: not a {sender}'s message")
        done = handler(self, actor, command)
        if type(done) is CoroutineType:
            await done

    def _dealer_takes_the_table(self, actor: Actor) -> None:
        """The signed-in dealer who begins a hand is the table's dealer: the hand's record
        and a complaint about it name them [L], not the roster's name the table had."""
        name = actor.name.strip()
        if name and self.table.dealer != name and self.table.can_change_dealer(name):
            self.table.change_dealer(name)

    def next_dealer(self) -> str:
        """The dealer after the one at the table, in the roster's order."""
        roster = list(self._s.roster()) or list(DEALER_ROSTER)
        if self.table.dealer in roster:
            return roster[(roster.index(self.table.dealer) + 1) % len(roster)]
        return roster[0]

    async def open_betting(self) -> None:
        """The dealer opens betting; the countdown starts at once."""
        self.table.open_betting()
        await self._cast.countdown(self.table.clock.now(), force=True)

    def report_fault(self, command: Any) -> None:
        """The dealer reports a fault (a settlement error is a supervisor's correction)."""
        if command.fault is Fault.O_SETTLEMENT_ERROR:
            raise ForbiddenError(
                "a settlement error is a supervisor's correction: "
                "POST /api/supervisor/hands/{game}/correct [O]"
            )
        self.table.report_fault(
            command.fault,
            player=command.player,
            detail=command.detail,
            count=command.count,
            cards=_cards(command.cards),
            position=command.position,
        )

    async def join(self, actor: Actor) -> tuple[Event, ...]:
        """A player comes to the table: their place among the tables they are at and their
        wallet's balance are written and read *outside* the table's lock, which is taken
        only to put them at the table. A join waits for the database (two commits) and,
        with the seamless wallet, for the player's operator: under the lock, each join of a
        crowd arriving together would hold up every other command of the table — the
        dealer's, other players' bets — and one slow operator would freeze it."""
        p = actor.player
        table_id = self.table.settings.table_id
        purse = await self._s.purse(p)
        self.table.verify_join(p, balance=0, purse=purse)
        # The player's turn: no deposit or withdrawal moves their wallet between reading
        # it and the table taking it (refused at once: a deposit or withdrawal is quick,
        # and the player may simply join again); their place among the tables they are at
        # is written in the same commit.
        async with self._s.store.turn(p, entering=table_id, limit=self._s.settings.max_tables):

            async def join() -> None:
                self.table.join(p, balance=balance, purse=purse)

            try:
                currency = None if purse is None else purse.currency
                balance = await self._s.bank.balance(p, currency)
                return await self._locked(actor, join)
            except BaseException:
                # refused (or cut short) before the table took them: their place goes
                # back; no other join of theirs can be in between, their turn is held
                if p not in self.table.seats.participants:
                    await self._s.store.leave_table(p, table_id)
                raise

    async def change_tie_bets(self, p: str, bets: Mapping[Bet, int]) -> None:
        """[M12]: the round's stakes of ``p`` are replaced by a stake of the new bets, in
        one ledger transaction (whole, or refused with nothing moved). With the operator's
        wallet no operator call is made here, under the table's lock: the old stakes go
        back in the ledger, the table takes the change with the player's bets waiting for
        the house's stake (``TableSettings.standing_awaits_stake``), and a task of the
        player's own credits the old stakes at the operator and then debits and stakes
        the new ones (a raise never needs the money twice); a slow operator delays only
        that player's bets, refused they go back to the player."""
        table = self.table
        table.verify_change_tie_bets(p, bets)
        new = {b: a for b, a in table.bets(p).items() if b not in MAIN_BETS} | {
            b: a for b, a in bets.items() if a
        }
        bank = self._s.bank
        stakes = self._stakes
        game = stakes.round()
        stake = None
        if new and not bank.seamless:
            stake = Stake(p, new, stakes.new_id(p, "tie"), table.currency_of(p))
        started = time.perf_counter()
        cancels, wallet = await bank.change_stakes(
            game,
            table_id=table.settings.table_id,
            cancel=stakes.of(p),
            stake=stake,
        )
        self._s.metrics.confirm_seconds.observe(time.perf_counter() - started)
        stakes.forget(p)
        if stake is not None:
            stakes.add(p, stake.confirmation_id)
            if wallet is not None:
                self._payouts.learnt(p, wallet)
        table.change_tie_bets(p, bets)
        if bank.seamless:
            credits = tuple(posted.transaction for posted in cancels if not posted.replayed)
            self._standing.restake_changed(p, game, credits, new)


_Handler = Callable[[Commands, Actor, Any], object]

_COMMANDS: dict[str, _Handler] = {
    # a player at the table
    "sit": lambda c, a, m: c.table.sit(a.player, m.seat, tier=m.tier, password=m.password),
    "take_table": lambda c, a, m: c.table.take_table(a.player, m.seat),
    "watch": lambda c, a, m: c.table.watch(a.player, tier=m.tier, password=m.password),
    Action.STAND: lambda c, a, m: c.table.stand(a.player, mark=m.mark),
    Action.LEAVE: lambda c, a, m: c.table.leave(a.player),
    Action.CHOOSE_CHIP: lambda c, a, m: c.table.choose_chip(a.player, m.chip),
    Action.ADD_CHIP: lambda c, a, m: c.table.add_chip(a.player, m.bet, spot=m.spot),
    Action.UNDO: lambda c, a, m: c.table.undo(a.player),
    Action.CLEAR: lambda c, a, m: c.table.clear(a.player),
    Action.DOUBLE: lambda c, a, m: c.table.double(a.player),
    Action.REBET: lambda c, a, m: c.table.rebet(a.player),
    Action.CHANGE_TIE_BETS: lambda c, a, m: c.change_tie_bets(a.player, m.bets),
    Action.WAIT_FOR_ME: lambda c, a, m: c.table.wait_for_me(a.player),
    Action.OPEN_CARDS: lambda c, a, m: c.table.request_open_cards(a.player),
    Action.FLY: lambda c, a, m: c.table.fly(a.player),
    Action.SQUEEZE: lambda c, a, m: c.table.squeeze(a.player, m.side),
    Action.READ: lambda c, a, m: c.table.read(a.player, m.call),
    "vip_settings": lambda c, a, m: c.table.set_vip_settings(
        a.player,
        squeeze=m.squeeze,
        vertical_squeeze=m.vertical_squeeze,
        password=m.password,
        clear_password=m.clear_password,
    ),
    # the dealer (a VIP owner too: change_shoe, change_dealer [O])
    Action.START_SHOE: lambda c, a, m: c.table.start_shoe(burned=_cards(m.burned)),
    Action.DEAL_DEMO_HAND: lambda c, a, m: c.table.deal_demo_hand(cards=_cards(m.cards)),
    Action.OPEN_BETTING: lambda c, a, m: c.open_betting(),
    Action.CLOSE_BETTING: lambda c, a, m: c.table.close_betting(),
    Action.START_BLANK_HAND: lambda c, a, m: c.table.start_blank_hand(),
    Action.DEAL_CARD: lambda c, a, m: c.table.deal_card(Card.parse(m.card), position=m.position),
    Action.RESCAN: lambda c, a, m: c.table.rescan(Card.parse(m.card), position=m.position),
    Action.REVEAL_CARDS: lambda c, a, m: c.table.reveal_cards(side=m.side),
    Action.SETTLE: lambda c, a, m: c.table.settle(cards_left=m.cards_left),
    Action.BURN: lambda c, a, m: c.table.burn(m.count, cards=_cards(m.cards)),
    Action.CUT_CARD_OUT: lambda c, a, m: c.table.cut_card_out(),
    Action.CHANGE_SHOE: lambda c, a, m: (
        c.table.change_shoe(by=a.player) if a.role is Role.PLAYER else c.table.change_shoe()
    ),
    Action.CHANGE_DEALER: lambda c, a, m: (
        c.table.change_dealer(c.next_dealer(), by=a.player)
        if a.role is Role.PLAYER
        else c.table.change_dealer(m.name or c.next_dealer())
    ),
    # the dealer and the supervisor
    Action.REPORT_FAULT: lambda c, a, m: c.report_fault(m),
    Action.PAUSE: lambda c, a, m: c.table.request_pause(m.reason),  # when the hand ends [S14]
    Action.RESUME: lambda c, a, m: c.table.resume(),  # (or calls off the pause asked [S14])
    Action.CLOSE_TABLE: lambda c, a, m: c.table.close_table(m.reason or CLOSED_BY_SUPERVISOR),
}
"""What each command does, by its wire ``type``: one entry a command (the role checks are
:meth:`Commands.run`'s)."""
