"""What may happen to Player/Banker bets standing in a tie [M12].

Online tables return them (a push, [L], [O]). The Macau rules let the house instead
keep them on the layout for the next coup and offer the player to cancel them, keep
them, or change them (raise, lower, switch side); the SJM variant allows only raising.

>>> from punto.bets import Bet
>>> policy = TIE_POLICIES["sjm"]
>>> verify_tie_change(policy, {Bet.BANKER: 100}, {Bet.BANKER: 200})
>>> verify_tie_change(policy, {Bet.BANKER: 100}, {Bet.PLAYER: 100})
Traceback (most recent call last):
...
punto.errors.TieOptionError: after a tie this table allows only: keep, raise [M12]
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from punto.bets import MAIN_BETS, Bet
from punto.errors import TieOptionError

__all__ = ["TIE_POLICIES", "TieAction", "TiePolicy", "tie_action", "verify_tie_change"]


class TieAction(enum.Enum):
    """A player's choice for main bets standing after a tie [M12]."""

    CANCEL = "cancel"
    KEEP = "keep"
    RAISE = "raise"
    LOWER = "lower"
    SWITCH = "switch"


@dataclass(frozen=True, slots=True)
class TiePolicy:
    """``stand``: Player/Banker bets stay on the layout after a tie (else they are
    returned); ``allowed``: what a player may then do with them."""

    name: str
    stand: bool
    allowed: frozenset[TieAction]


TIE_POLICIES: MappingProxyType[str, TiePolicy] = MappingProxyType(
    {
        "return": TiePolicy("return", stand=False, allowed=frozenset()),
        "macau": TiePolicy("macau", stand=True, allowed=frozenset(TieAction)),
        "sjm": TiePolicy("sjm", stand=True, allowed=frozenset({TieAction.KEEP, TieAction.RAISE})),
        "cancel_or_keep": TiePolicy(
            "cancel_or_keep", stand=True, allowed=frozenset({TieAction.CANCEL, TieAction.KEEP})
        ),
    }
)
"""Named tie policies: ``return`` (online), ``macau`` (every option), ``sjm`` (raise only)."""


def tie_action(standing: Mapping[Bet, int], new: Mapping[Bet, int]) -> TieAction:
    """Classify a change of the main bets standing after a tie."""
    old = {b: a for b, a in standing.items() if b in MAIN_BETS}
    now = {b: a for b, a in new.items() if b in MAIN_BETS}
    if not now:
        return TieAction.CANCEL
    if set(now) != set(old):
        return TieAction.SWITCH
    if now == old:
        return TieAction.KEEP
    if all(now[b] >= old[b] for b in old):
        return TieAction.RAISE
    return TieAction.LOWER


def verify_tie_change(
    policy: TiePolicy, standing: Mapping[Bet, int], new: Mapping[Bet, int]
) -> None:
    """Raise :class:`TieOptionError` unless ``policy`` allows changing ``standing`` main bets
    into ``new`` ones."""
    if not policy.stand:
        raise TieOptionError("bets on Player and Banker are returned after a tie at this table")
    action = tie_action(standing, new)
    if action not in policy.allowed:
        allowed = ", ".join(a.value for a in TieAction if a in policy.allowed)
        raise TieOptionError(f"after a tie this table allows only: {allowed} [M12]")
