"""What a card-reading shoe's reads mean to the table [L].

A studio shoe reads each card's code as the card leaves it and sends one line a read. A
read is a card (``9S``, ``TD``, ``10D``: :meth:`punto.cards.Card.parse`), the cut card
(``CUT``) or a read that failed: a code that is no card, or one the dealer marked bad
(the reader's "no read" code, or the dealer's button: ``BAD``). A failed read, a card that
duplicates one already on the layout of this hand, and a card the table refuses (one the
shoe cannot hold) are the [L] fault "card not scanned": it is reported, the table waits
for the card to be scanned again, and the next good read is dealt as that re-scan.

A duplicate asks for a re-scan rather than being refused: a shoe of several decks holds
the same card more than once, so the re-scan of the same code is dealt; the double read of
one card that a scanner makes is caught.

:func:`next_step` is the whole decision, pure: from one read, what the table may do now
(its ``legal`` actions for the dealer) and the cards on the layout, the one step to take.

>>> step = next_step(read_line("9S"), legal={"deal_card", "report_fault"}, layout=())
>>> step.kind.value, step.card
('deal', Card('9S'))
>>> next_step(read_line("BAD"), legal={"deal_card", "report_fault"}, layout=()).misread
<Misread.MARKED_BAD: 'marked_bad'>
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from punto.cards import Card
from punto.errors import CardError

__all__ = [
    "BAD_CODES",
    "CUT_CODES",
    "Misread",
    "Read",
    "Step",
    "StepKind",
    "next_step",
    "read_line",
    "refused",
]

BAD_CODES = frozenset({"BAD", "NOREAD", "NO READ", "ERROR", "ERR", "?"})
"""Codes a reader or its dealer sends for a read that failed (a scanner's "no read")."""

CUT_CODES = frozenset({"CUT", "CUTCARD", "CUT CARD"})
"""Codes of the cut card's own barcode: the cut card is out [M2]."""


class Misread(StrEnum):
    """Why a read is the fault "card not scanned" [L]."""

    UNKNOWN_CODE = "unknown_code"
    """The read is no card code."""
    MARKED_BAD = "marked_bad"
    """The reader or the dealer said the read failed."""
    DUPLICATE = "duplicate"
    """The card is one already on this hand's layout (a double read, until scanned again)."""
    REFUSED = "refused"
    """The table refused the card (a card the shoe cannot hold)."""


@dataclass(frozen=True, slots=True)
class Read:
    """One line from the reader: a card, the cut card, or a failed read."""

    text: str
    card: Card | None = None
    cut: bool = False
    misread: Misread | None = None


def read_line(line: str) -> Read | None:
    r"""The read a line of the reader is (``None``: an empty line, nothing read).

    >>> read_line(" kh\r\n")
    Read(text='kh', card=Card('KH'), cut=False, misread=None)
    >>> read_line("CUT").cut, read_line("X9").misread
    (True, <Misread.UNKNOWN_CODE: 'unknown_code'>)
    """
    text = line.strip().replace("\x00", "")
    if not text:
        return None
    code = " ".join(text.upper().split())
    if code in CUT_CODES:
        return Read(text, cut=True)
    if code in BAD_CODES:
        return Read(text, misread=Misread.MARKED_BAD)
    try:
        return Read(text, card=Card.parse(code))
    except CardError:
        return Read(text[:40], misread=Misread.UNKNOWN_CODE)


class StepKind(StrEnum):
    """What the reader does with a read."""

    DEAL = "deal"
    """Send the card: ``deal_card``, or ``rescan`` when the table waits for one."""
    REPORT = "report"
    """Report the fault "card not scanned" [L]: the table waits for the re-scan."""
    CUT = "cut"
    """Send ``cut_card_out``."""
    WAIT = "wait"
    """The table takes no card now: keep the read until it does (cards are dealt in order)."""
    SKIP = "skip"
    """A failed re-scan: the table still waits for the card (nothing to send)."""


@dataclass(frozen=True, slots=True)
class Step:
    """The step :func:`next_step` chose."""

    kind: StepKind
    card: Card | None = None
    rescan: bool = False
    misread: Misread | None = None


def next_step(read: Read, *, legal: Collection[str], layout: Sequence[Card]) -> Step:
    """The step to take with ``read`` while the table allows the dealer ``legal`` (action
    names) and ``layout`` holds this hand's cards."""
    if read.cut:
        return Step(StepKind.CUT) if "cut_card_out" in legal else Step(StepKind.WAIT)
    owed = "rescan" in legal
    if not owed and "deal_card" not in legal:
        return Step(StepKind.WAIT)
    if read.misread is not None:
        return _failed(read.misread, owed=owed)
    card = read.card
    assert card is not None
    if not owed and card in layout:
        return _failed(Misread.DUPLICATE, owed=False)
    return Step(StepKind.DEAL, card=card, rescan=owed)


def refused(*, legal: Collection[str]) -> Step:
    """The step after the table refused a card as one it cannot hold."""
    return _failed(Misread.REFUSED, owed="rescan" in legal)


def _failed(why: Misread, *, owed: bool) -> Step:
    # a re-scan already owed stays owed: the fault is reported once a card
    return Step(StepKind.SKIP if owed else StepKind.REPORT, misread=why)
