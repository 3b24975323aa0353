"""The phases of a live table and the transitions between them.

A table moves through one hand as ``betting_open → betting_closed → dealing →
(squeeze ↔ dealing) → result → settled``; a shoe opens with ``shoe_start`` (shuffle,
cut, burn, demonstration hands) and ends with ``shoe_end``. Faults may cut a hand short
(a void hand goes straight to ``settled``, ``shoe_end`` or ``closed``). Every change of
phase is checked against :data:`TRANSITIONS`; anything else raises
:class:`~punto.errors.PhaseError`.

>>> Phase.BETTING_OPEN in TRANSITIONS[Phase.SETTLED]
True
>>> verify_transition(Phase.WAITING, Phase.DEALING)
Traceback (most recent call last):
...
punto.errors.PhaseError: a table cannot go from waiting to dealing
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from types import MappingProxyType

from punto.errors import PhaseError

__all__ = [
    "BETWEEN_HANDS",
    "IN_HAND",
    "TRANSITIONS",
    "Phase",
    "Step",
    "require_phase",
    "verify_transition",
]


class Phase(enum.Enum):
    """Where a table is."""

    WAITING = "waiting"
    """Open, no shoe in play yet."""
    SHOE_START = "shoe_start"
    """A shoe was shuffled, cut and burned; demonstration hands may be dealt [M2]."""
    BETTING_OPEN = "betting_open"
    """The countdown runs: chips may be placed and confirmed [L]."""
    BETTING_CLOSED = "betting_closed"
    """No more bets; the first card is about to be dealt."""
    DEALING = "dealing"
    """Cards are being dealt (scanned or drawn) by the tableau [M7], [M9]."""
    SQUEEZE = "squeeze"
    """Someone holds face-down cards; dealing waits for them [M16], [S], [O]."""
    RESULT = "result"
    """The coup is complete and every card is face up."""
    SETTLED = "settled"
    """The hand is settled (or void and refunded); the next hand may open."""
    SHOE_END = "shoe_end"
    """The shoe is finished (last hand, changed, or a fault); a new one may start."""
    PAUSED = "paused"
    """Paused between hands; resumes where it was."""
    CLOSED = "closed"
    """Closed for good: every player has left with their balance."""


_P = Phase
TRANSITIONS: Mapping[Phase, frozenset[Phase]] = MappingProxyType(
    {
        _P.WAITING: frozenset({_P.SHOE_START, _P.PAUSED, _P.CLOSED}),
        _P.SHOE_START: frozenset(
            {_P.BETTING_OPEN, _P.BETTING_CLOSED, _P.SHOE_END, _P.PAUSED, _P.CLOSED}
        ),
        _P.BETTING_OPEN: frozenset({_P.BETTING_CLOSED, _P.CLOSED}),
        _P.BETTING_CLOSED: frozenset({_P.DEALING, _P.SETTLED, _P.SHOE_END, _P.CLOSED}),
        _P.DEALING: frozenset({_P.SQUEEZE, _P.RESULT, _P.SETTLED, _P.SHOE_END, _P.CLOSED}),
        _P.SQUEEZE: frozenset({_P.DEALING, _P.RESULT, _P.SETTLED, _P.SHOE_END, _P.CLOSED}),
        _P.RESULT: frozenset({_P.DEALING, _P.SETTLED, _P.CLOSED}),
        _P.SETTLED: frozenset(
            {_P.BETTING_OPEN, _P.BETTING_CLOSED, _P.SHOE_END, _P.PAUSED, _P.CLOSED}
        ),
        _P.SHOE_END: frozenset({_P.SHOE_START, _P.PAUSED, _P.CLOSED}),
        _P.PAUSED: frozenset({_P.WAITING, _P.SHOE_START, _P.SETTLED, _P.SHOE_END, _P.CLOSED}),
        _P.CLOSED: frozenset(),
    }
)
"""Every phase a phase may change to (staying in a phase is not a transition)."""

BETWEEN_HANDS = frozenset({Phase.WAITING, Phase.SHOE_START, Phase.SETTLED, Phase.SHOE_END})
"""Phases with no hand on the layout: seats, limits, dealer and shoe may change."""
IN_HAND = frozenset({Phase.BETTING_CLOSED, Phase.DEALING, Phase.SQUEEZE, Phase.RESULT})
"""Phases of a hand whose bets are closed and not yet settled."""


class Step(enum.Enum):
    """What a table waits for next, and the action that moves it on (see
    :attr:`punto.table.Table.next_step`): a server or an automatic dealer reads it instead
    of restating the phase rules.

    >>> Step.DEAL_CARD.value
    'deal_card'
    """

    START_SHOE = "start_shoe"
    """No shoe in play: :meth:`~punto.table.Table.start_shoe` [M2]."""
    OPEN_BETTING = "open_betting"
    """Between hands: :meth:`~punto.table.Table.open_betting` [L]."""
    START_BLANK_HAND = "start_blank_hand"
    """A blank hand is owed: :meth:`~punto.table.Table.start_blank_hand` [S1]."""
    BETTING = "betting"
    """The countdown runs: players bet until ``closes_at`` [L]."""
    CLOSE_BETTING = "close_betting"
    """The countdown has ended: :meth:`~punto.table.Table.close_betting` [L]."""
    DEAL_CARD = "deal_card"
    """The next card: :meth:`~punto.table.Table.deal_card` (or ``rescan``) [M7]."""
    SQUEEZE = "squeeze"
    """Face-down cards wait for their holder (``squeeze`` / ``read``), or for the dealer's
    :meth:`~punto.table.Table.reveal_cards` [M16], [S], [O]."""
    SETTLE = "settle"
    """The coup is complete: :meth:`~punto.table.Table.settle` (with ``cards_left`` when
    ``needs_cards_left``) [S5]."""
    RESUME = "resume"
    """Paused: :meth:`~punto.table.Table.resume`."""
    NONE = "none"
    """Closed for good: nothing more happens."""


def verify_transition(current: Phase, new: Phase) -> None:
    """Raise :class:`PhaseError` unless a table may go from ``current`` to ``new``."""
    if new is not current and new not in TRANSITIONS[current]:
        raise PhaseError(f"a table cannot go from {current.value} to {new.value}")


def require_phase(current: Phase, allowed: frozenset[Phase] | set[Phase], action: str) -> None:
    """Raise :class:`PhaseError` naming ``action`` unless ``current`` is one of ``allowed``.

    >>> require_phase(Phase.DEALING, {Phase.BETTING_OPEN}, "confirm bets")
    Traceback (most recent call last):
    ...
    punto.errors.PhaseError: cannot confirm bets while the table is dealing (needs betting_open)
    """
    if current not in allowed:
        needs = _needs(frozenset(allowed))
        raise PhaseError(
            f"cannot {action} while the table is {current.value} (needs {needs})",
            phase=current.value,
        )


@functools.cache
def _needs(allowed: frozenset[Phase]) -> str:
    """The phases an action needs, as words (made once per set: a table asks every
    player's ``can_*`` after each phase change, most answered by this refusal)."""
    return " or ".join(sorted(p.value for p in allowed))
