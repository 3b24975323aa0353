"""What the house does by itself at a table, and at what pace.

A table's :attr:`~punto.table.TableSettings.automations` name the steps the house takes
without a person (as pokerkit's automations do): an RNG table shuffles, deals, reveals
at the end of the squeeze time and settles by itself; at a live table the dealer deals
and the house only closes betting when the countdown ends and settles a complete coup.
:meth:`~punto.table.Table.advance` takes the next automated step when it is due by the
table's clock and its :class:`Pace`, and says how long until the next one: a server only
calls it and waits.

>>> sorted(a.value for a in LIVE_AUTOMATIONS)
['close_betting', 'settle']
>>> Pace().after(Automation.SETTLE)
3.0
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from punto.errors import RulesError
from punto.rules import Rules

__all__ = ["LIVE_AUTOMATIONS", "RNG_AUTOMATIONS", "Automation", "Pace"]


class Automation(enum.Enum):
    """A step the house may take by itself."""

    START_SHOE = "start_shoe"
    """Shuffle, cut and burn a new shoe when none is in play [M2]."""
    DEMO_HANDS = "demo_hands"
    """Deal the shoe's demonstration hands, unbet [M2]."""
    OPEN_BETTING = "open_betting"
    """Open the next betting round, or the blank hand that is owed [L], [S1]."""
    CLOSE_BETTING = "close_betting"
    """Close betting when the countdown ends [L]."""
    DEAL_CARD = "deal_card"
    """Draw the next card the tableau calls for from the RNG shoe [M7], [M9]."""
    REVEAL = "reveal"
    """Turn the face-down cards when the squeeze time is up [O]."""
    SETTLE = "settle"
    """Settle a complete coup (a live table's last hand of a shoe waits for the dealer's
    count of the cards left [S5])."""


RNG_AUTOMATIONS = frozenset(Automation)
"""An RNG table: the house does everything."""
LIVE_AUTOMATIONS = frozenset({Automation.CLOSE_BETTING, Automation.SETTLE})
"""A live table: the dealer deals; the house closes betting on time and settles."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How long the house waits after each of its steps, in seconds: a card is seen
    before the next is drawn, a result before the next round opens, and a squeeze lasts
    at most ``squeeze_seconds`` before the table turns the cards [O]."""

    card_seconds: float = 0.6
    """After a card (and after closing betting, a demonstration or a blank hand)."""
    squeeze_seconds: float = 10.0
    """How long a holder may squeeze before the table turns the cards [O]."""
    result_seconds: float = 3.0
    """After settling, before the next betting round opens."""
    lightning_seconds: float = 3.0
    """[LB] How long a multiplier table shows the lightning cards before the first card."""

    def __post_init__(self) -> None:
        if (
            min(
                self.card_seconds, self.squeeze_seconds, self.result_seconds, self.lightning_seconds
            )
            < 0
        ):
            raise RulesError(f"a table's pace cannot be negative: {self}")

    def for_rules(self, rules: Rules) -> Pace:
        """This pace with the timings ``rules`` set in place of its own (a speed preset's
        cards at once and short result).

        >>> from punto.rules import preset
        >>> Pace().for_rules(preset("speed"))
        Pace(card_seconds=0.0, squeeze_seconds=10.0, result_seconds=2.0, lightning_seconds=3.0)
        """
        return Pace(
            card_seconds=self.card_seconds if rules.card_seconds is None else rules.card_seconds,
            squeeze_seconds=self.squeeze_seconds,
            result_seconds=(
                self.result_seconds if rules.result_seconds is None else rules.result_seconds
            ),
            lightning_seconds=self.lightning_seconds,
        )

    def after(self, automation: Automation) -> float:
        """How long the house waits after taking ``automation``."""
        if automation is Automation.START_SHOE:
            return 0.0
        if automation is Automation.SETTLE:
            return self.result_seconds
        return self.card_seconds
