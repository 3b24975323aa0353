"""Reading ``NAME=AMOUNT[,NAME=AMOUNT…]`` bet lists from the command line."""

from __future__ import annotations

from punto.bets import Bet, parse_bet
from punto.errors import AmountError
from punto.money import parse_amount

__all__ = ["parse_bet_list", "parse_stake"]


def parse_stake(bet: Bet, amount: str, *, digits: int = 2) -> int:
    """The stake of one bet in minor units; an error names the bet.

    >>> parse_stake(Bet.TIE, "12.5")
    1250
    >>> parse_stake(Bet.TIE, "0")
    Traceback (most recent call last):
    ...
    punto.errors.AmountError: Tie bet: amount '0' must be positive
    """
    try:
        return parse_amount(amount, digits=digits)
    except AmountError as exc:
        raise AmountError(f"{bet.label} bet: {exc}") from None


def parse_bet_list(text: str, *, digits: int = 2) -> dict[Bet, int]:
    """``"player=100,tie=10"`` -> ``{Bet.PLAYER: 10000, Bet.TIE: 1000}`` (minor units).

    Amounts on the same bet add up. Bad names and amounts raise typed errors.

    >>> parse_bet_list("banker=100, tie=12.5")
    {<Bet.BANKER: 'banker'>: 10000, <Bet.TIE: 'tie'>: 1250}
    """
    bets: dict[Bet, int] = {}
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise AmountError("no bets given: expected NAME=AMOUNT[,NAME=AMOUNT…]")
    for item in items:
        name, sep, amount = item.partition("=")
        if not sep:
            raise AmountError(f"bet {item!r} is not NAME=AMOUNT")
        bet = parse_bet(name)
        bets[bet] = bets.get(bet, 0) + parse_stake(bet, amount, digits=digits)
    return bets
