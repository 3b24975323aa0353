"""The live table: a pure state machine a server drives, one action at a time.

The actions are grouped by concept — :class:`~punto.table.seating.Seating`,
:class:`~punto.table.round.BettingRound`, :class:`~punto.table.hand.HandDealing`,
:class:`~punto.table.house.House`, :class:`~punto.table.fault_handling.FaultHandling`
— over one state, :class:`~punto.table.core.TableCore`.

Every action comes as three methods, as in pokerkit: ``verify_X(...)`` raises a typed
error (a :class:`~punto.errors.PuntoError`), ``can_X(...)`` answers yes or no, and
``X(...)`` applies the action and returns a frozen event, also appended to
:attr:`Table.events`. An action that fails changes nothing. Some actions set off
consequences, appended after their own event (a void hand's refunds, a shoe that ends
after its last hand).

The table keeps each player's *table balance* in minor units: :meth:`Table.join` brings
money in, a confirm debits it, settlement and refunds credit it, :meth:`Table.leave`
takes it out. Every move goes through one object, :attr:`Table.money`
(:class:`~punto.table.money.TableMoney`). At every step::

    brought_in - cashed_out == sum(balances) + money_in_play() + house_result

>>> import random
>>> from punto.bets import Bet
>>> from punto.rules import preset
>>> from punto.table import ManualClock, Phase, TableSettings
>>> clock = ManualClock()
>>> table = Table(TableSettings(table_id="T1", rules=preset("macau")), clock=clock,
...               rng=random.Random(7))
>>> _ = table.join("ann", balance=100_000); _ = table.sit("ann", 1, tier="low")
>>> _ = table.start_shoe(); _ = table.open_betting()
>>> _ = table.choose_chip("ann", 5_000); _ = table.add_chip("ann", Bet.PLAYER)
>>> table.confirm("ann").debited
5000
>>> clock.advance(15); _ = table.close_betting()
>>> while table.phase is Phase.DEALING or table.phase is Phase.BETTING_CLOSED:
...     _ = table.deal_card()
>>> table.phase
<Phase.RESULT: 'result'>
>>> settled = table.settle()
>>> table.balance("ann") == 100_000 + settled.results[0].settlement.total_net
True
"""

from __future__ import annotations

from punto.table.automation import Automation
from punto.table.legal import LegalQueries
from punto.table.phases import Phase, Step

__all__ = ["Table"]

_AUTOMATION_OF = {
    Step.START_SHOE: Automation.START_SHOE,
    Step.OPEN_BETTING: Automation.OPEN_BETTING,
    Step.START_BLANK_HAND: Automation.OPEN_BETTING,
    Step.CLOSE_BETTING: Automation.CLOSE_BETTING,
    Step.DEAL_CARD: Automation.DEAL_CARD,
    Step.SQUEEZE: Automation.REVEAL,
    Step.SETTLE: Automation.SETTLE,
}
"""The automation that takes each step (the others wait for a person)."""


class Table(LegalQueries):
    """One table: seats, betting rounds, the shoe, the coup, squeeze rights and faults.

    Build it with ``Table(settings, clock=…, rng=…, dealer=…)``: ``clock`` gives the time
    of every event and runs the countdown, ``rng`` shuffles the shoes of an RNG table.
    Every action ``X`` has ``verify_X`` (raises) and ``can_X`` (answers); ``X`` returns
    its event, appended to :attr:`events`; :meth:`legal_actions` says which a viewer
    may take now. The actions live in :class:`~punto.table.seating.Seating`,
    :class:`~punto.table.round.BettingRound`, :class:`~punto.table.hand.HandDealing`,
    :class:`~punto.table.house.House` and :class:`~punto.table.fault_handling.FaultHandling`.
    """

    def advance(self, *, hurry: bool = False) -> float | None:
        """Take the next step the house takes by itself
        (:attr:`~punto.table.TableSettings.automations`), if it is due by the table's
        clock and :class:`~punto.table.automation.Pace`; return how many seconds until
        the next automated step is due (``0.0``: now; ``None``: the table waits for a
        person — the dealer, a squeezer, a resume — or is closed).

        ``hurry`` takes a due-later step now: a server that closes the table finishes the
        hand in play without its pauses (it never opens a new one in a hurry).

        >>> import random
        >>> from punto.rules import preset
        >>> from punto.table import ManualClock, TableSettings
        >>> clock = ManualClock()
        >>> table = Table(TableSettings(table_id="T1", rules=preset("macau")), clock=clock,
        ...               rng=random.Random(7))
        >>> table.advance(), table.phase.value  # shuffled, cut and burned [M2]
        (0.0, 'shoe_start')
        >>> table.advance(), table.phase.value
        (15.0, 'betting_open')
        >>> table.advance()  # the countdown runs [L]
        15.0
        >>> clock.advance(15); table.advance(), table.phase.value
        (0.6, 'betting_closed')
        """
        pace = self.settings.pace
        step = self.next_step
        now = self._now()
        if step is not Step.SQUEEZE:
            self._squeeze_until = None
        automation = _AUTOMATION_OF.get(step)
        if step is Step.BETTING:
            automation = Automation.CLOSE_BETTING
        elif (
            step is Step.OPEN_BETTING
            and self.phase is Phase.SHOE_START
            and self.can_deal_demo_hand()
        ):
            automation = Automation.DEMO_HANDS  # before the first hand [M2]
        if automation is None or automation not in self.settings.automated:
            return None
        if step is Step.BETTING:
            closes_at = self.closes_at
            assert closes_at is not None  # betting is open
            if not hurry:
                return closes_at - now
        elif step is Step.SQUEEZE:
            if self._squeeze_until is None:
                self._squeeze_until = now + pace.squeeze_seconds
            if not hurry and now < self._squeeze_until:
                return self._squeeze_until - now
        elif not hurry and step is not Step.CLOSE_BETTING and now < self._ready_at:
            return self._ready_at - now  # (the countdown alone paces closing [L], [O])
        if automation is Automation.SETTLE and not self.can_settle():
            return None  # the dealer's count of the cards left comes first [S5]
        if hurry and self._game is not None:
            self._game.lightning_until = 0.0  # a closing table cuts the show short [LB]
        self._take(automation)
        if automation is Automation.OPEN_BETTING and self.phase is Phase.BETTING_OPEN:
            closes_at = self.closes_at
            assert closes_at is not None
            return 0.0 if hurry else closes_at - now
        wait = 0.0 if hurry else pace.after(automation)
        game = self._game
        if game is not None and not game.started:  # the lightning cards' moment [LB]
            wait = max(wait, game.lightning_until - now)
        self._ready_at = now + wait
        return wait

    def _take(self, automation: Automation) -> None:
        """Take one automated step (it is due and allowed)."""
        if automation is Automation.START_SHOE:
            self.start_shoe()
        elif automation is Automation.DEMO_HANDS:
            self.deal_demo_hand()
        elif automation is Automation.OPEN_BETTING:
            if self.blank_owed:
                self.start_blank_hand()  # [S1]
            else:
                self.open_betting()
        elif automation is Automation.CLOSE_BETTING:
            self.close_betting()
        elif automation is Automation.DEAL_CARD:
            self.deal_card()
        elif automation is Automation.REVEAL:
            self._squeeze_until = None
            self.reveal_cards()
        else:
            self.settle()
