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

from punto.table.legal import LegalQueries

__all__ = ["Table"]


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
