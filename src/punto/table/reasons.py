"""Why something happened at a table: a reason code with its parameters.

Events that say why (a burn, a void, a refund, a player's leaving, a shoe's closing …)
carry a :class:`Why`: a :class:`Reason` code, stable on the wire, and a small mapping of
parameters (``{"rule": "M8"}``, ``{"game": "macau-1-001-002"}``). The client translates
the code; the server never sends an English sentence. On the wire an event's ``reason``
is the code and ``reason_params`` the parameters (``void_reason`` / ``void_reason_params``
for :class:`~punto.table.events.HandSettled`), see docs/protocol.md.

Words a person typed (a dealer's pause reason, a supervisor's void reason) stay their
words: the code :attr:`Reason.TYPED` with the text in ``{"text": …}``.

Hand records stored before the codes hold English sentences; :func:`from_legacy` reads
them back as codes (or as typed text when the sentence is not one the server wrote).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from punto.table.fault_catalogue import FAULTS, Fault

__all__ = [
    "CLOSED_BY_SUPERVISOR",
    "NONE",
    "SHUTDOWN",
    "Reason",
    "Why",
    "as_why",
    "fault_reason",
    "from_legacy",
    "rule_id",
]


class Reason(enum.StrEnum):
    """A reason code; the value is the wire name (never renamed)."""

    TYPED = "typed"
    """Words a dealer, supervisor or administrator typed: params ``text``."""
    BURN_START = "burn_start"
    """The burn at the start of a shoe [M2]."""
    BURN_MID_SHOE = "burn_mid_shoe"
    """A burn in the middle of a shoe [M8]."""
    DISCARDED = "discarded"
    """Cards discarded after a fault: params ``rule`` (the rule id, e.g. ``S7``)."""
    BLANK_HAND = "blank_hand"
    """A blank hand's cards opened [S3]."""
    FAULT = "fault"
    """A fault's effect: params ``fault`` (its name, as GET /api/faults) and ``rule``."""
    SQUEEZED = "squeezed"
    """A holder turned the cards they hold."""
    READ = "read"
    """A holder's reading was taken and the cards opened."""
    DEALER = "dealer"
    """The dealer opened the cards."""
    LAST_HAND = "last_hand"
    """The shoe's last hand was played [M3]."""
    EXTRA_CARD = "extra_card"
    """A card came out after the hand was complete [L]."""
    SEVEN_CARDS_OR_VOID = "seven_cards_or_void"
    """The last hand had fewer than seven cards left and is void [S5]."""
    CHANGED_BY_HOUSE = "changed_by_house"
    """The house changed the shoe [M3]."""
    CHANGED_BY_OWNER = "changed_by_owner"
    """A VIP owner changed the shoe [O]: params ``by``."""
    LEFT = "left"
    """The player left."""
    GONE = "gone"
    """The player's connection was gone too long."""
    OTHER_TABLE = "other_table"
    """The balance follows the player's play at another table."""
    NO_SEATED_PLAYER = "no_seated_player"
    """No seated player is left at a VIP table [O]."""
    OWNER_LEFT = "owner_left"
    """The VIP owner left, and everyone leaves with them [O]."""
    DEPOSIT = "deposit"
    """A deposit into the player's wallet."""
    CORRECTION_OF = "correction_of"
    """A supervisor's correction of a settled hand: params ``game``."""
    VOID_OF = "void_of"
    """A supervisor's void of a settled hand: params ``game``."""
    CLOSED_BY_SUPERVISOR = "closed_by_supervisor"
    """A supervisor closed the table [S14]."""
    CLOSED_BY_ADMIN = "closed_by_admin"
    """The administrator closed the table [S14]."""
    SHUTDOWN = "shutdown"
    """The server is shutting down."""
    STOPPED = "stopped"
    """The table's server stopped during the hand (killed, or the machine failed): its
    restart voided the hand and returned every bet [L]."""
    ROLLED_BACK = "rolled_back"
    """A wallet transaction was rolled back before it arrived (ledger)."""
    WALLET_ROLLBACK = "wallet_rollback"
    """A wallet rollback (ledger)."""
    STANDING_CHANGED = "standing_changed"
    """A player's standing bets changed (ledger)."""
    STANDING_STAKED = "standing_staked"
    """The main bets a tie left standing were staked again on the new hand (the operator's
    debit made) [M12]."""
    STANDING_NOT_STAKED = "standing_not_staked"
    """The main bets a tie left standing went back to the player: the operator's debit was
    refused, or had not been answered when betting closed [M12]."""


@dataclass(frozen=True, slots=True)
class Why:
    """A reason code and its parameters.

    >>> Why(Reason.DISCARDED, {"rule": "S7"})
    Why(code=<Reason.DISCARDED: 'discarded'>, params={'rule': 'S7'})
    >>> Why.typed("coffee break").text
    'coffee break'
    """

    code: Reason
    params: Mapping[str, str] = field(default_factory=dict, hash=False)

    @classmethod
    def typed(cls, text: str) -> Why:
        """Words a person typed."""
        return cls(Reason.TYPED, {"text": text})

    @property
    def text(self) -> str:
        """The typed words ('' for a code)."""
        return self.params.get("text", "") if self.code is Reason.TYPED else ""

    def __bool__(self) -> bool:
        """False only for typed empty words (a pause without a reason)."""
        return self.code is not Reason.TYPED or bool(self.text)

    def __str__(self) -> str:
        """The typed words, or the code and its parameters (for logs and the ledger)."""
        if self.code is Reason.TYPED:
            return self.text
        if not self.params:
            return self.code.value
        return f"{self.code.value} " + " ".join(f"{k}={v}" for k, v in self.params.items())


NONE = Why.typed("")
"""No reason given."""

CLOSED_BY_SUPERVISOR = Why(Reason.CLOSED_BY_SUPERVISOR)
"""A supervisor closed the table [S14] (the default of a close)."""

SHUTDOWN = Why(Reason.SHUTDOWN)
"""The server is shutting down."""


def as_why(reason: Why | str) -> Why:
    """A reason; text is the words a person typed."""
    return reason if isinstance(reason, Why) else Why.typed(reason)


_LEGACY: dict[str, Reason] = {
    "start [M2]": Reason.BURN_START,
    "mid_shoe [M8]": Reason.BURN_MID_SHOE,
    "blank hand [S3]": Reason.BLANK_HAND,
    "squeezed": Reason.SQUEEZED,
    "read": Reason.READ,
    "dealer": Reason.DEALER,
    "last hand [M3]": Reason.LAST_HAND,
    "extra card after the hand [L]": Reason.EXTRA_CARD,
    "changed by the house [M3]": Reason.CHANGED_BY_HOUSE,
    "left": Reason.LEFT,
    "gone": Reason.GONE,
    "play at another table": Reason.OTHER_TABLE,
    "no seated player is left [O]": Reason.NO_SEATED_PLAYER,
    "deposit": Reason.DEPOSIT,
    "closed by the supervisor [S14]": Reason.CLOSED_BY_SUPERVISOR,
    "closed by the administrator [S14]": Reason.CLOSED_BY_ADMIN,
    "the server is shutting down": Reason.SHUTDOWN,
    "the VIP owner left [O]": Reason.OWNER_LEFT,
    "rolled back before it arrived": Reason.ROLLED_BACK,
    "wallet rollback": Reason.WALLET_ROLLBACK,
    "standing bets changed": Reason.STANDING_CHANGED,
}
_DISCARDED = re.compile(r"discarded \[([A-Z]\d*)\]")
_OWNER = re.compile(r"changed by the owner (\S+) \[O\]")
_SEVEN = re.compile(r"\[S5\] minimum seven cards or void: \d+ cards left in the shoe")
_AMENDED = re.compile(r"(correction|void) of (\S+)")
_OLD_FAULTS: dict[str, Fault] = {
    f"{spec.case} {spec.rule}": fault for fault, spec in FAULTS.items()
}


def rule_id(rule: str) -> str:
    """A rule's id without its brackets: ``[S7]`` → ``S7``."""
    return rule.strip("[]")


def fault_reason(fault: Fault) -> Why:
    """The reason of a fault's effect: the fault's name and its rule (the rule id, as
    ``S7``; the client names the fault)."""
    return Why(Reason.FAULT, {"fault": fault.value, "rule": rule_id(fault.spec.rule)})


def from_legacy(text: str) -> Why:
    """The reason an English sentence of an older record stands for (a sentence the
    server did not write is typed text).

    >>> from_legacy("mid_shoe [M8]")
    Why(code=<Reason.BURN_MID_SHOE: 'burn_mid_shoe'>, params={})
    >>> from_legacy("void of macau-1-001-002")
    Why(code=<Reason.VOID_OF: 'void_of'>, params={'game': 'macau-1-001-002'})
    >>> from_legacy("coffee").text
    'coffee'
    """
    if text in _LEGACY:
        return Why(_LEGACY[text])
    if m := _DISCARDED.fullmatch(text):
        return Why(Reason.DISCARDED, {"rule": m[1]})
    if _SEVEN.fullmatch(text):
        return Why(Reason.SEVEN_CARDS_OR_VOID)
    if m := _OWNER.fullmatch(text):
        return Why(Reason.CHANGED_BY_OWNER, {"by": m[1]})
    if m := _AMENDED.fullmatch(text):
        code = Reason.CORRECTION_OF if m[1] == "correction" else Reason.VOID_OF
        return Why(code, {"game": m[2]})
    if text in _OLD_FAULTS:
        return fault_reason(_OLD_FAULTS[text])
    return Why.typed(text)
