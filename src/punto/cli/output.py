"""Text and JSON rendering shared by the subcommands (the imperative shell)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TextIO

from punto.errors import PuntoError
from punto.money import amount_decimal
from punto.outcome import Outcome

__all__ = [
    "answer_lines",
    "describe_outcome",
    "description_of",
    "error_object",
    "number",
    "odds_text",
    "write_json",
]


def describe_outcome(outcome: Outcome) -> str:
    """One line: both hands, their totals and the result.

    >>> from punto.cards import parse_cards
    >>> from punto.coup import deal_coup
    >>> print(describe_outcome(deal_coup(parse_cards("9S 8D KH 7C"))))
    Player 9S KH = 9 | Banker 8D 7C = 5 | player wins, natural
    """
    player = " ".join(c.code for c in outcome.player)
    banker = " ".join(c.code for c in outcome.banker)
    result = "tie" if outcome.winner.value == "tie" else f"{outcome.winner.value} wins"
    notes = [result]
    if outcome.natural:
        notes.append("natural")
    if outcome.player_pair:
        notes.append("player pair")
    if outcome.banker_pair:
        notes.append("banker pair")
    return (
        f"Player {player} = {outcome.player_total} | Banker {banker} = {outcome.banker_total}"
        f" | {', '.join(notes)}"
    )


def description_of(doc: str | None) -> str | None:
    """A command module's docstring as its ``--help`` description: the paragraphs after the
    first (the usage line, which argparse prints itself), without the reStructuredText
    literal marks a terminal would show as they are.

    >>> description_of('''``punto x [--y]``.
    ...
    ... With ``--y`` it does *more*.
    ... ''')
    'With --y it does *more*.'
    """
    if doc is None or "\n\n" not in doc:
        return None
    return doc.split("\n\n", 1)[1].replace("``", "").strip()


def error_object(exc: PuntoError) -> dict[str, str]:
    """The JSON answer for a line that failed: its message and error type."""
    return {"error": str(exc), "type": type(exc).__name__}


def write_json(obj: object, stream: TextIO | None = None) -> None:
    """Write ``obj`` as one line of JSON."""
    out = stream or sys.stdout
    out.write(json.dumps(obj, separators=(",", ":")) + "\n")


def number(minor: int, *, digits: int = 2) -> int | float:
    """Minor units as a JSON number of major units: an int when whole, else the float
    whose shortest repr is the exact decimal (``-475 -> -4.75``).

    >>> number(9500), number(-475)
    (95, -4.75)
    """
    value = amount_decimal(minor, digits=digits)
    if value == value.to_integral_value():
        return int(value)
    return float(value)


def odds_text(odds: Fraction) -> str:
    """Odds as a decimal when exact, else a fraction: ``19/20 -> '0.95'``.

    >>> odds_text(Fraction(19, 20)), odds_text(Fraction(8)), odds_text(Fraction(1, 3))
    ('0.95', '8', '1/3')
    """
    den = odds.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return str(odds)
    return f"{float(odds):f}".rstrip("0").rstrip(".")


def answer_lines(answer: Callable[[str], None], *, as_json: bool, separator: str = "") -> int:
    """Line mode: call ``answer`` for each line of standard input. A line that fails with a
    :class:`PuntoError` answers an error (an error object with ``as_json``) and the rest go
    on. Returns the exit status: 1 if any line failed, else 0."""
    failed = False
    for line in sys.stdin:
        try:
            answer(line)
        except PuntoError as exc:
            failed = True
            if as_json:
                write_json(error_object(exc))
            else:
                print(f"error: {exc}")
                if separator:
                    print(separator, end="")
        sys.stdout.flush()
    return 1 if failed else 0
