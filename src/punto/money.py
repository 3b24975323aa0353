"""Exact money: integer minor units, amount parsing and the named rounding rules.

Amounts are kept as ``int`` counts of a currency's minor unit (cents when
``digits`` is 2). Payouts such as 0.95 or 0.5 to 1 are computed as exact
fractions, then brought to a whole minor unit by one named :class:`Rounding` rule.

>>> parse_amount("12.50")
1250
>>> format_amount(1250)
'12.50'
>>> Rounding.FLOOR.apply(Fraction(475, 100))
4
"""

from __future__ import annotations

import enum
import math
from decimal import Context, Decimal, Inexact, InvalidOperation
from fractions import Fraction

from punto.errors import AmountError

__all__ = [
    "DEFAULT_DIGITS",
    "Fraction",
    "Rounding",
    "amount_decimal",
    "display_amount",
    "format_amount",
    "parse_amount",
    "show_amount",
]

DEFAULT_DIGITS = 2
"""Decimal digits of the minor unit (2: cents)."""

_AMOUNT_PRECISION = 28
"""Most significant digits of an amount in minor units (``decimal``'s default precision)."""


class Rounding(enum.Enum):
    """How a payout that is not a whole number of minor units is brought to one.

    Applied in exactly one place (:func:`punto.settlement.settle`), the same way for
    every bet and every table.
    """

    FLOOR = "floor"
    """Round down: the player is paid the whole minor units, the house keeps the fraction."""
    HALF_UP = "half_up"
    """Round to nearest, halves up."""
    HALF_EVEN = "half_even"
    """Round to nearest, halves to even (banker's rounding)."""

    def apply(self, value: Fraction) -> int:
        """Round a non-negative exact amount of minor units to an integer.

        >>> [r.apply(Fraction(5, 2)) for r in Rounding]
        [2, 3, 2]
        """
        if self is Rounding.FLOOR:
            return math.floor(value)
        floor = math.floor(value)
        rest = value - floor
        if rest > Fraction(1, 2):
            return floor + 1
        if rest < Fraction(1, 2):
            return floor
        if self is Rounding.HALF_UP:
            return floor + 1
        return floor if floor % 2 == 0 else floor + 1


def parse_amount(text: str | int | Decimal, *, digits: int = DEFAULT_DIGITS) -> int:
    """Read a positive amount in major units and return it in minor units.

    Refuses zero, negative, non-numeric, non-finite, sub-minor-unit and too large (over
    28 digits in minor units) amounts with an :class:`~punto.errors.AmountError`.

    >>> parse_amount("100"), parse_amount(5), parse_amount("0.05")
    (10000, 500, 5)
    >>> parse_amount("0.005")
    Traceback (most recent call last):
    ...
    punto.errors.AmountError: amount '0.005' has more than 2 decimal places
    """
    if isinstance(text, bool):
        raise AmountError(f"amount {text!r} is not a number")
    raw = text if isinstance(text, str) else str(text)
    try:
        value = Decimal(raw.strip().replace("_", ""))
    except InvalidOperation:
        raise AmountError(f"amount {raw!r} is not a number") from None
    if not value.is_finite():
        raise AmountError(f"amount {raw!r} is not a finite number")
    if value <= 0:
        raise AmountError(f"amount {raw!r} must be positive")
    # Exact conversion: an amount needing rounding (sub-minor digits) or more digits than
    # the precision raises here instead of being silently rounded, as scaleb() would.
    exact_context = Context(prec=_AMOUNT_PRECISION, traps=[Inexact, InvalidOperation])
    try:
        exact = value.quantize(Decimal(1).scaleb(-digits), context=exact_context)
    except Inexact:
        raise AmountError(f"amount {raw!r} has more than {digits} decimal places") from None
    except InvalidOperation:
        raise AmountError(
            f"amount {raw!r} is too large: at most {_AMOUNT_PRECISION} digits "
            f"counting {digits} decimal places"
        ) from None
    return int(exact.scaleb(digits, context=exact_context))


def amount_decimal(minor: int, *, digits: int = DEFAULT_DIGITS) -> Decimal:
    """Minor units as an exact ``Decimal`` of major units.

    >>> amount_decimal(-475)
    Decimal('-4.75')
    """
    # Built from its digits, not with scaleb(), which rounds to the context's 28 digits.
    sign, coefficient, _ = Decimal(minor).as_tuple()
    return Decimal((sign, coefficient, -digits))


def format_amount(minor: int, *, digits: int = DEFAULT_DIGITS) -> str:
    """Minor units as text with all the currency's decimals: ``1250 -> '12.50'``."""
    return f"{amount_decimal(minor, digits=digits):.{digits}f}"


def show_amount(minor: int, *, digits: int = DEFAULT_DIGITS) -> str:
    """Minor units as the shortest exact text: ``15000 -> '150'``, ``1250 -> '12.5'``.

    >>> show_amount(15000), show_amount(1250), show_amount(-475)
    ('150', '12.5', '-4.75')
    """
    text = format_amount(minor, digits=digits)
    return text.rstrip("0").rstrip(".") if "." in text else text


def display_amount(minor: int, *, digits: int = DEFAULT_DIGITS) -> str:
    """Minor units as a person reads them in a message: major units with all the
    currency's decimals and the thousands grouped.

    >>> display_amount(20_000_000), display_amount(500), display_amount(-475)
    ('200,000.00', '5.00', '-4.75')
    >>> display_amount(1_000_000, digits=0)
    '1,000,000'
    """
    return f"{amount_decimal(minor, digits=digits):,.{digits}f}"
