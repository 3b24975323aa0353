"""One player's bets on one hand: unconfirmed chips and confirmed bets [L].

Chips go on bet areas one click at a time; **undo** takes back the last step (a chip, a
doubling or a rebet), **clear** takes back every unconfirmed chip, **double** doubles the
unconfirmed chips, **rebet** puts last hand's confirmed bets back as chips. **Confirm**
turns the unconfirmed chips into bets; chips added after a confirm need another confirm,
and confirmed bets can be neither undone nor doubled. The table checks the balance and
the limits before it calls :meth:`BetSlip.confirm`.

>>> from punto.bets import Bet
>>> slip = BetSlip("ann")
>>> slip.add(Bet.BANKER, 1000); slip.add(Bet.BANKER, 500); slip.double()
>>> dict(slip.pending)
{<Bet.BANKER: 'banker'>: 3000}
>>> slip.undo()  # the doubling
((<Bet.BANKER: 'banker'>, 1500),)
>>> dict(slip.confirm(seq=7)), slip.confirmed_total, slip.pending_total
({<Bet.BANKER: 'banker'>: 1500}, 1500, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from punto.bets import MAIN_BETS, Bet
from punto.errors import BettingError
from punto.table.records import Bets, PlayerId, freeze_bets

__all__ = ["BetSlip", "Chips"]

Chips = tuple[tuple[Bet, int], ...]
"""One undoable step: the chips it put down, in order."""


def _totals(steps: list[Chips]) -> dict[Bet, int]:
    out: dict[Bet, int] = {}
    for step in steps:
        for bet, amount in step:
            out[bet] = out.get(bet, 0) + amount
    return out


@dataclass(slots=True)
class BetSlip:
    """A player's confirmed bets and unconfirmed chips on the current hand.

    ``spot`` is the seat whose betting spot the chips are on (``None``: the watchers'
    area) [M15]; ``standing`` are main bets a tie left on the layout [M12], already part
    of ``confirmed``; ``first_confirmed`` records when each bet was first confirmed (the
    table's event sequence number), for "the earlier bet wins" [O]; ``from_seat``: bets
    were confirmed by the player from their seat (a watcher's bets on a free spot never
    give a right to the cards [S13], [O]).
    """

    player: PlayerId
    spot: int | None = None
    confirmed: dict[Bet, int] = field(default_factory=dict)
    standing: dict[Bet, int] = field(default_factory=dict)
    first_confirmed: dict[Bet, int] = field(default_factory=dict)
    steps: list[Chips] = field(default_factory=list)
    from_seat: bool = False
    awaiting: dict[Bet, int] = field(default_factory=dict)
    """Bets on the layout that wait for the house to stake them on this hand
    (``TableSettings.standing_awaits_stake``) [M12]: the ``standing`` bets when the hand
    opens; after the player changed them, every bet of theirs on the hand (the house stakes
    the changed bets anew). Part of ``confirmed``."""

    # -- state ---------------------------------------------------------------

    @property
    def pending(self) -> Bets:
        """Unconfirmed chips per bet."""
        return freeze_bets(_totals(self.steps))

    @property
    def pending_total(self) -> int:
        """Sum of the unconfirmed chips."""
        return sum(amount for step in self.steps for _, amount in step)

    @property
    def confirmed_total(self) -> int:
        """Sum of the confirmed bets (the money at stake on this hand)."""
        return sum(self.confirmed.values())

    def combined(self) -> Bets:
        """Confirmed bets plus unconfirmed chips: what a confirm would leave on the hand."""
        out = dict(self.confirmed)
        for bet, amount in _totals(self.steps).items():
            out[bet] = out.get(bet, 0) + amount
        return freeze_bets(out)

    @property
    def awaiting_stake(self) -> bool:
        """Whether bets of this slip wait for the house's stake [M12]."""
        return bool(self.awaiting)

    @property
    def main_confirmed(self) -> Bets:
        """The confirmed Player and Banker bets."""
        return freeze_bets({b: a for b, a in self.confirmed.items() if b in MAIN_BETS})

    # -- checks --------------------------------------------------------------

    def verify_pending(self, action: str) -> None:
        """Raise :class:`BettingError` when there is no unconfirmed chip to ``action``."""
        if not self.steps:
            raise BettingError(
                f"nothing to {action}: no unconfirmed chips (confirmed bets stay as they are) [L]"
            )

    # -- changes -------------------------------------------------------------

    def add(self, bet: Bet, amount: int) -> None:
        """Put one chip of ``amount`` on ``bet``."""
        self.steps.append(((bet, amount),))

    def add_step(self, bets: Mapping[Bet, int]) -> None:
        """Put several chips down as one undoable step (a rebet)."""
        self.steps.append(tuple((bet, amount) for bet, amount in bets.items() if amount))

    def double(self) -> None:
        """Double the unconfirmed chips, as one undoable step."""
        self.verify_pending("double")
        self.steps.append(tuple(_totals(self.steps).items()))

    def undo(self) -> Chips:
        """Take back the last step; returns its chips."""
        self.verify_pending("undo")
        return self.steps.pop()

    def clear(self) -> int:
        """Take back every unconfirmed chip; returns their total."""
        self.verify_pending("clear")
        return self.discard()

    def discard(self) -> int:
        """Drop the unconfirmed chips (betting closed before a confirm); returns their total."""
        total = self.pending_total
        self.steps.clear()
        return total

    def confirm(self, *, seq: int) -> Bets:
        """Turn the unconfirmed chips into bets; returns what was added."""
        self.verify_pending("confirm")
        added = _totals(self.steps)
        for bet, amount in added.items():
            self.confirmed[bet] = self.confirmed.get(bet, 0) + amount
            self.first_confirmed.setdefault(bet, seq)
        self.steps.clear()
        return freeze_bets(added)

    def replace_main(self, bets: Mapping[Bet, int], *, seq: int) -> None:
        """Put ``bets`` in place of the confirmed main bets (a tie option [M12])."""
        for bet in MAIN_BETS:
            self.confirmed.pop(bet, None)
            self.standing.pop(bet, None)
        for bet, amount in bets.items():
            if amount:
                self.confirmed[bet] = amount
                self.first_confirmed.setdefault(bet, seq)
