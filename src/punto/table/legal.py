"""What a viewer may do at a table now, and where the dealer's next card goes.

:meth:`LegalQueries.legal_actions` (a :class:`~punto.table.Table` method) answers, for
one viewer, which commands the table would accept now
(python-chess's ``legal_moves``; pokerkit's ``can_*`` queries): each entry is decided by
the table's own ``can_*`` method, so no client restates a rule. For the dealer it adds
the :class:`Guidance` of the coup in progress: the next card's position and why, from
:class:`punto.coup.Coup` (the drawing rules [M9] live there only).

The answer covers the commands the table can decide without the viewer's own input:
sitting, watching, taking a VIP table and the VIP settings need a seat, a tier or a
password that only the viewer knows, and the table decides them when they arrive.

>>> import random
>>> from punto.rules import preset
>>> from punto.table import ManualClock, Table, TableSettings, Viewer
>>> table = Table(TableSettings(table_id="T1", rules=preset("macau")), clock=ManualClock(),
...               rng=random.Random(7))
>>> sorted(a.value for a in table.legal_actions(Viewer.DEALER).actions)[:3]
['change_dealer', 'close_table', 'pause']
>>> table.legal_actions(Viewer.WATCHER)
LegalActions(actions=frozenset(), guidance=None, bets=())
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from punto.coup import DrawReason, Position
from punto.limits import AreaRoom
from punto.outcome import Side
from punto.table.automation import Automation
from punto.table.fault_catalogue import Fault
from punto.table.fault_handling import FaultHandling
from punto.table.hand import HandDealing
from punto.table.house import House
from punto.table.kinds import TableSettings
from punto.table.phases import IN_HAND
from punto.table.records import PlayerId
from punto.table.round import BettingRound
from punto.table.seating import Seating
from punto.table.squeeze import ReadCall
from punto.table.views import Viewer

__all__ = [
    "HOUSE_AUTOMATED",
    "STAFF_ACTIONS",
    "Action",
    "Guidance",
    "GuideReason",
    "LegalActions",
    "LegalQueries",
    "guidance",
    "house_actions",
]


class Action(enum.StrEnum):
    """A command a client may send; the value is its wire ``type`` (docs/protocol.md)."""

    # a player at the table
    STAND = "stand"
    LEAVE = "leave"
    CHOOSE_CHIP = "choose_chip"
    ADD_CHIP = "add_chip"
    UNDO = "undo"
    CLEAR = "clear"
    DOUBLE = "double"
    REBET = "rebet"
    CONFIRM = "confirm"
    CHANGE_TIE_BETS = "change_tie_bets"
    WAIT_FOR_ME = "wait_for_me"
    OPEN_CARDS = "open_cards"
    FLY = "fly"
    SQUEEZE = "squeeze"
    READ = "read"
    # the dealer (and a VIP owner: change_shoe, change_dealer [O])
    START_SHOE = "start_shoe"
    DEAL_DEMO_HAND = "deal_demo_hand"
    OPEN_BETTING = "open_betting"
    CLOSE_BETTING = "close_betting"
    START_BLANK_HAND = "start_blank_hand"
    DEAL_CARD = "deal_card"
    RESCAN = "rescan"
    REVEAL_CARDS = "reveal_cards"
    SETTLE = "settle"
    BURN = "burn"
    CUT_CARD_OUT = "cut_card_out"
    CHANGE_SHOE = "change_shoe"
    CHANGE_DEALER = "change_dealer"
    # the dealer and the supervisor
    REPORT_FAULT = "report_fault"
    PAUSE = "pause"
    RESUME = "resume"
    CLOSE_TABLE = "close_table"


HOUSE_AUTOMATED = frozenset(
    {
        Action.START_SHOE,
        Action.DEAL_DEMO_HAND,
        Action.OPEN_BETTING,
        Action.CLOSE_BETTING,
        Action.START_BLANK_HAND,
        Action.DEAL_CARD,
        Action.RESCAN,
        Action.REVEAL_CARDS,
        Action.SETTLE,
        Action.BURN,
        Action.CUT_CARD_OUT,
        Action.CHANGE_SHOE,
    }
)
"""Dealer steps an RNG table takes by itself: its dealer may not send them."""

STAFF_ACTIONS = frozenset({Action.REPORT_FAULT, Action.PAUSE, Action.RESUME, Action.CLOSE_TABLE})
"""What a supervisor may send (the dealer may too)."""


class GuideReason(enum.StrEnum):
    """Why the dealer's next card goes where it goes, or why none goes now (the wire
    value; the client words it). The coup's own reasons are :class:`~punto.coup.DrawReason`'s
    values; two more say the coup waits for face-down cards."""

    DEAL = DrawReason.DEAL.value
    NATURAL = DrawReason.NATURAL.value
    PLAYER_DRAWS = DrawReason.PLAYER_DRAWS.value
    BANKER_DRAWS = DrawReason.BANKER_DRAWS.value
    BOTH_STAND = DrawReason.BOTH_STAND.value
    BANKER_STANDS = DrawReason.BANKER_STANDS.value
    COMPLETE = DrawReason.COMPLETE.value
    HELD = "held"
    """Face-down cards wait for the players who hold them (or the dealer's reveal) [M16]."""
    FACE_DOWN = "face_down"
    """Face-down cards wait to be turned by the dealer [M16]."""


@dataclass(frozen=True, slots=True)
class Guidance:
    """The dealer's guidance: the position of the next card (``None``: no card now) and
    why [M7], [M9].

    >>> Guidance(Position.PLAYER_3, GuideReason.PLAYER_DRAWS).next.value
    'P3'
    """

    next: Position | None
    reason: GuideReason


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What one viewer may do now, (for the dealer, during a hand) the guidance and (for
    a player at the table) how much more each bet area takes now, and why not when it
    takes none (``bets``: :meth:`~punto.table.round.BettingRound.bet_rooms`).

    >>> Action.CONFIRM in LegalActions(frozenset({Action.CONFIRM}))
    True
    """

    actions: frozenset[Action] = frozenset()
    guidance: Guidance | None = None
    bets: tuple[AreaRoom, ...] = ()

    def __contains__(self, action: object) -> bool:
        """Whether ``action`` is allowed now."""
        return action in self.actions


NOTHING = LegalActions()
"""Nothing to do (a spectator, a closed table)."""


def guidance(table: LegalQueries) -> Guidance | None:
    """The dealer's guidance for the hand being dealt (``None`` outside a hand's coup)."""
    coup = table.coup
    if table.phase not in IN_HAND or coup is None:
        return None
    if table.awaiting_squeeze:
        held = any(p is not None for p in table.awaiting_squeeze.values())
        return Guidance(None, GuideReason.HELD if held else GuideReason.FACE_DOWN)
    return Guidance(coup.next_position, GuideReason(coup.reason.value))


def _house(table: LegalQueries, *, staff_only: bool) -> frozenset[Action]:
    """The dealer's (or, ``staff_only``, the supervisor's) actions now."""
    allowed = {
        Action.REPORT_FAULT: any(table.can_report_fault(f) for f in Fault),
        Action.PAUSE: table.can_request_pause(),  # now, or when the hand ends [S14]
        Action.RESUME: table.can_resume(),
        Action.CLOSE_TABLE: table.can_close_table(),
    }
    if not staff_only:
        settle_with = 0 if table.needs_cards_left else None
        allowed |= {
            Action.START_SHOE: table.can_start_shoe(),
            Action.DEAL_DEMO_HAND: table.can_deal_demo_next(),
            Action.OPEN_BETTING: table.can_open_betting(),
            Action.CLOSE_BETTING: table.can_close_betting(),
            Action.START_BLANK_HAND: table.can_start_blank_hand(),
            Action.DEAL_CARD: table.can_deal_next(),
            Action.RESCAN: table.can_rescan_next(),
            Action.REVEAL_CARDS: table.can_reveal_cards(),
            Action.SETTLE: table.can_settle(cards_left=settle_with),
            Action.BURN: table.can_burn(),
            Action.CUT_CARD_OUT: table.can_cut_card_out(),
            Action.CHANGE_SHOE: table.can_change_shoe(),
            Action.CHANGE_DEALER: table.can_change_dealer(table.dealer or "dealer"),
        }
    return frozenset(a for a, ok in allowed.items() if ok) - house_actions(table.settings)


def house_actions(settings: TableSettings) -> frozenset[Action]:
    """The dealer's actions the house alone takes at this table: every step of a shoe
    that deals itself (an RNG table), none at a live one (its dealer may also close
    betting and settle, which the house does on time)."""
    return HOUSE_AUTOMATED if Automation.DEAL_CARD in settings.automated else frozenset()


def _player(table: LegalQueries, player: PlayerId) -> frozenset[Action]:
    """A player's actions now (nothing for someone not at the table)."""
    if player not in table.seats.participants:
        return frozenset()
    p = player
    allowed = {
        Action.STAND: table.can_stand(p),
        Action.LEAVE: table.can_leave(p),
        Action.CHOOSE_CHIP: table.can_choose_chip(p, table.chips_of(p)[0]),
        Action.ADD_CHIP: table.can_bet(p),
        Action.UNDO: table.can_undo(p),
        Action.CLEAR: table.can_clear(p),
        Action.DOUBLE: table.can_double(p),
        Action.REBET: table.can_rebet(p),
        Action.CONFIRM: table.can_confirm(p),
        Action.CHANGE_TIE_BETS: table.can_change_standing(p),
        Action.WAIT_FOR_ME: table.can_wait_for_me(p),
        Action.OPEN_CARDS: table.can_request_open_cards(p),
    }
    if p == table.owner:  # only a VIP owner may [O]; the table decides the rest
        allowed[Action.FLY] = table.can_fly(p)
        allowed[Action.CHANGE_SHOE] = table.can_change_shoe(by=p)
        allowed[Action.CHANGE_DEALER] = table.can_change_dealer(table.dealer or "dealer", by=p)
    if p in table.awaiting_squeeze.values():  # only a holder may; the table decides the rest [M16]
        # The answer says nothing of the cards (exactly one call is the right one).
        allowed[Action.SQUEEZE] = any(table.can_squeeze(p, side) for side in Side)
        allowed[Action.READ] = any(table.can_read(p, call) for call in ReadCall)
    return frozenset(a for a, ok in allowed.items() if ok)


class LegalQueries(Seating, BettingRound, HandDealing, House, FaultHandling):
    """The table's actions, and what each viewer may do of them now
    (:class:`~punto.table.Table` is this class)."""

    def legal_actions(self, viewer: Viewer, player: PlayerId | None = None) -> LegalActions:
        """What ``viewer`` (``player``, for :attr:`Viewer.PLAYER`) may do now; the dealer
        also gets the :func:`guidance` [M7], [M9]. Every entry is the table's own ``can_*``
        answer: clients enable their buttons from it."""
        if viewer is Viewer.DEALER:
            return LegalActions(_house(self, staff_only=False), guidance(self))
        if viewer is Viewer.AUDITOR:
            return LegalActions(_house(self, staff_only=True))
        if viewer is Viewer.PLAYER and player is not None:
            actions = _player(self, player)
            if not actions:
                return NOTHING
            return LegalActions(
                actions, bets=self.bet_rooms(player, can_bet=Action.ADD_CHIP in actions)
            )
        return NOTHING
