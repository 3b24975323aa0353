"""Table kinds and settings: normal, VIP and bid-squeeze tables [O]; RNG or live dealing.

:class:`TableSettings` is frozen and validated, like :class:`~punto.rules.Rules`; a
table's rules (decks, paytables, limit tiers, tie policy [M12]…) are one of its settings.

- **normal**: players sit (7 seats by default [M1]) or watch, each on a limit tier.
- **VIP** [O]: an empty table can only be *taken* by an owner, who plays on the VIP tier
  and may squeeze, "fly" cards, set squeeze / vertical squeeze / a password, change the
  dealer and, after 30 hands, the shoe; when the owner leaves, everyone leaves.
- **bid-squeeze** [O]: sitting needs a minimum balance (seated players play on the VIP
  tier, watchers on the normal ones); an empty table can only be sat at; watchers are
  removed when no seated player is left; the largest bettors squeeze.

>>> from punto.rules import preset
>>> s = TableSettings(table_id="V1", rules=preset("online_8deck"), kind=TableKind.VIP)
>>> s.reading, s.vip_tier, s.normal_tiers
(<Reading.OWNER: 'owner'>, 'vip', ('low', 'standard', 'high'))
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from dataclasses import dataclass

from punto.errors import RulesError
from punto.rules import Rules
from punto.table.automation import LIVE_AUTOMATIONS, RNG_AUTOMATIONS, Automation, Pace
from punto.table.squeeze import Reading

__all__ = [
    "DEFAULT_CHIPS",
    "Dealing",
    "TableKind",
    "TableSettings",
    "VipSettings",
    "password_digest",
]

DEFAULT_CHIPS = (500, 1_000, 2_500, 5_000, 10_000, 50_000, 100_000)
"""Chip denominations in minor units (5 to 1,000 with 2 decimals)."""


class TableKind(enum.Enum):
    """What kind of table it is [O]."""

    NORMAL = "normal"
    VIP = "vip"
    BID_SQUEEZE = "bid_squeeze"


class Dealing(enum.Enum):
    """Where the cards come from."""

    RNG = "rng"
    """A shoe shuffled by the injected random source and dealt by the table."""
    LIVE = "live"
    """A physical shoe: the dealer scans each card and the coup machine places it."""


_PACE = Pace()

_DEFAULT_READING = {
    TableKind.NORMAL: Reading.DEALER,
    TableKind.VIP: Reading.OWNER,
    TableKind.BID_SQUEEZE: Reading.BID,
}


@dataclass(frozen=True, kw_only=True, slots=True)
class TableSettings:
    """A table's fixed settings. ``reading`` defaults to the kind's rule (dealer, owner,
    bid); a normal table may choose [M16] or [S] reading instead. Amounts are minor units,
    times are seconds."""

    table_id: str
    rules: Rules
    kind: TableKind = TableKind.NORMAL
    dealing: Dealing = Dealing.RNG
    reading: Reading | None = None
    seats: int = 7
    chips: tuple[int, ...] = DEFAULT_CHIPS
    betting_seconds: float = 15.0
    wait_seconds: float = 10.0
    """How much one "wait for me" adds to the countdown [O]."""
    max_waits: int = 2
    """How many "wait for me" requests one betting round accepts (the bound)."""
    vip_tier: str = "vip"
    """The limit tier of the VIP owner / bid-squeeze seated players [O]."""
    vip_min_balance: int = 0
    """Bid-squeeze: the table balance needed to sit [O]."""
    owner_shoe_change_after: int = 30
    """[O] A VIP owner may change the shoe once it has dealt this many hands."""
    rules_version: int = 1
    """Which version of the table's rules these are (the back office counts each change;
    a change applies from the next shoe and every hand's record names its version)."""
    automations: frozenset[Automation] | None = None
    """The steps the house takes by itself (:meth:`~punto.table.Table.advance`); by
    default every step at an RNG table, closing betting and settling at a live one."""
    pace: Pace = _PACE
    """How long the house waits after each of its steps."""
    standing_awaits_stake: bool = False
    """[M12] The main bets a tie left standing stay on the layout when the next hand
    opens but wait for the house to stake them again (:meth:`~punto.table.Table.
    stake_standing`: a server whose wallet is the operator's makes the debit without
    holding the table); those still waiting when betting closes go back to their player.
    A player's change of them (:meth:`~punto.table.Table.change_tie_bets`) leaves every
    bet of theirs on the hand waiting for that stake likewise. Off: they are staked with
    the opening (the server's own ledger, in one transaction) and with a change."""

    def __post_init__(self) -> None:
        if not self.table_id or any(ch.isspace() for ch in self.table_id):
            raise RulesError(f"a table id must be a non-empty word, not {self.table_id!r}")
        if not self.rules.playable:
            raise RulesError(
                f"a play table needs 6 to 12 decks [M1]; the {self.rules.name} rules "
                f"have {self.rules.decks}",
                field="decks",
            )
        reading = self.reading or _DEFAULT_READING[self.kind]
        object.__setattr__(self, "reading", reading)
        if self.automations is None:
            automations = RNG_AUTOMATIONS if self.dealing is Dealing.RNG else LIVE_AUTOMATIONS
            object.__setattr__(self, "automations", automations)
        elif Automation.DEAL_CARD in self.automations and self.dealing is not Dealing.RNG:
            raise RulesError("only an RNG shoe deals its cards by itself", field="automations")
        if self.kind is TableKind.VIP and reading is not Reading.OWNER:
            raise RulesError("a VIP table's cards are squeezed by its owner [O]")
        if self.kind is TableKind.BID_SQUEEZE and reading is not Reading.BID:
            raise RulesError("a bid-squeeze table's cards go to the largest bettors [O]")
        if self.kind is TableKind.NORMAL and reading in (Reading.OWNER, Reading.BID):
            raise RulesError(f"{reading.value} reading needs a VIP or bid-squeeze table")
        if self.seats < 1:
            raise RulesError(f"a table needs at least one seat, not {self.seats}")
        if (
            not self.chips
            or any(c <= 0 for c in self.chips)
            or len(set(self.chips)) != len(self.chips)
        ):
            raise RulesError(f"chips must be distinct positive amounts, not {self.chips}")
        if self.betting_seconds <= 0 or self.wait_seconds < 0 or self.max_waits < 0:
            raise RulesError("betting and waiting times must be positive")
        if self.kind is not TableKind.NORMAL:
            self.rules.tier(self.vip_tier)  # raises RulesError naming the known tiers
            if not self.normal_tiers:
                raise RulesError("a VIP or bid-squeeze table needs a normal tier besides VIP")
        if self.vip_min_balance < 0 or self.owner_shoe_change_after < 0:
            raise RulesError("minimum balance and hand counts cannot be negative")

    @property
    def table_reading(self) -> Reading:
        """The resolved reading rule."""
        assert self.reading is not None  # resolved in __post_init__
        return self.reading

    @property
    def automated(self) -> frozenset[Automation]:
        """The resolved automations."""
        assert self.automations is not None  # resolved in __post_init__
        return self.automations

    @property
    def normal_tiers(self) -> tuple[str, ...]:
        """Tiers a normal (non-VIP) player may pick; every tier at a normal table."""
        names = tuple(t.name for t in self.rules.limit_tiers)
        if self.kind is TableKind.NORMAL:
            return names
        return tuple(n for n in names if n != self.vip_tier)

    def replace(self, **changes: object) -> TableSettings:
        """A copy with some settings changed, validated again."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class VipSettings:
    """What a VIP owner sets [O]: squeeze on/off, vertical squeeze, a password (kept
    only as a digest)."""

    squeeze: bool = True
    vertical_squeeze: bool = False
    password_digest: str | None = None


def password_digest(table_id: str, password: str) -> str:
    """SHA-256 of a table password, salted with the table id (never stored in clear).

    >>> password_digest("V1", "open sesame")[:12]
    '005530f2451d'
    """
    return hashlib.sha256(f"{table_id}:{password}".encode()).hexdigest()
