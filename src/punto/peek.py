"""Peek baccarat as rules data [PK]: a raise after the first cards are seen.

Each Player or Banker bet pays a ``stake_fee`` (a fraction of the stake, on top of it).
Once the first ``revealed`` cards of the coup are face up (dealing order P1, B1, P2,
B2 [M7]: 4 shows both hands' first two cards), the player may raise the bet by one of
``raises`` times its stake, paying ``raise_fee`` of the raise; the raise wins, pushes
and loses with the bet. Evolution's Peek Baccarat charges 20% of the stake and nothing
on a raise of x1 or x2, but shows one to four cards at random; a preset here shows a
fixed number.

>>> rules = PEEK_RULES["peek_four"]
>>> rules.raises, rules.stake_fee, rules.raise_fee, rules.revealed
((1, 2), Fraction(1, 5), Fraction(1, 2), 4)
>>> rules.cost(2)
Fraction(21, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from punto.bets import Bet
from punto.errors import RulesError

__all__ = ["PEEK_BETS", "PEEK_RULES", "PeekRules", "peek_cost"]

_N = TypeVar("_N", Fraction, float)

PEEK_BETS: tuple[Bet, ...] = (Bet.PLAYER, Bet.BANKER)
"""The bets a player may raise [PK]."""


def peek_cost(stake_fee: _N, raise_fee: _N, raised: int) -> _N:
    """[PK] What a unit bet costs in all: the stake, its fee, and ``raised`` stakes more
    with their fee (a plain function: exact with fractions, compiled with floats).

    >>> peek_cost(Fraction(1, 5), Fraction(1, 2), 1)
    Fraction(27, 10)
    """
    return 1 + stake_fee + raised * (1 + raise_fee)


def _fail(message: str) -> RulesError:
    return RulesError(f"peek: {message}", field="peek")


def _fraction(name: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        raise _fail(f"{name} must be a fraction, not {value!r}")
    fraction = Fraction(value)
    if not 0 <= fraction < 1:
        raise _fail(f"{name} must be 0 or more and below 1, not {fraction}")
    return fraction


@dataclass(frozen=True, kw_only=True, slots=True)
class PeekRules:
    """The raise a Peek table offers [PK]. Frozen, validated."""

    name: str
    raises: tuple[int, ...] = (1, 2)
    """The raises allowed, in stakes added (1: to twice the stake, 2: to three times)."""
    stake_fee: Fraction = Fraction(0)
    """Paid with each Player or Banker bet, as a fraction of its stake (never returned)."""
    raise_fee: Fraction = Fraction(1, 2)
    """Paid with a raise, as a fraction of the raise (never returned)."""
    revealed: int = 4
    """Cards face up when the player decides, in dealing order (1-4)."""
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise _fail("peek rules need a name")
        raises = tuple(self.raises) if isinstance(self.raises, tuple | list) else None
        if not raises or any(
            isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= 10 for r in raises
        ):
            raise _fail(f"raises must be whole numbers of stakes 1-10, not {self.raises!r}")
        if len(set(raises)) != len(raises):
            raise _fail(f"raises must differ: {raises}")
        object.__setattr__(self, "raises", tuple(sorted(raises)))
        object.__setattr__(self, "stake_fee", _fraction("stake_fee", self.stake_fee))
        object.__setattr__(self, "raise_fee", _fraction("raise_fee", self.raise_fee))
        if isinstance(self.revealed, bool) or self.revealed not in (1, 2, 3, 4):
            raise _fail(f"revealed must be 1-4 cards, not {self.revealed!r}")
        if not isinstance(self.source, str):
            raise _fail("the source must be text")

    def cost(self, raised: int) -> Fraction:
        """What a unit bet costs in all with a raise of ``raised`` stakes (0: none)."""
        return peek_cost(self.stake_fee, self.raise_fee, raised)


PEEK_RULES: MappingProxyType[str, PeekRules] = MappingProxyType(
    {
        rules.name: rules
        for rules in (
            PeekRules(
                name="peek_four",
                raises=(1, 2),
                stake_fee=Fraction(1, 5),
                raise_fee=Fraction(1, 2),
                revealed=4,
                source="[PK] Peek: a 20% fee on the stake (as Evolution's Peek Baccarat); "
                "both hands' first two cards shown; a raise of x1 or x2 the stake for a fee "
                "of half the raise",
            ),
        )
    }
)
"""Named peek rules."""
