"""The live table: betting rounds, seats, squeeze rights, table kinds and faults.

A pure state machine (no I/O; time from an injected clock, shuffles from an injected
random source) that a server drives. Every action is ``verify_X`` / ``can_X`` / ``X``,
and every ``X`` returns a frozen event appended to :attr:`Table.events`, the one record
of the table's life. See ``docs/table.md``.

- :mod:`~punto.table.phases` — the :class:`Phase` enum and its transitions;
- :mod:`~punto.table.events` — every event;
- :mod:`~punto.table.slip` — a player's chips and bets on one hand [L];
- :mod:`~punto.table.seat_plan` — seats, marks, watchers [M15], [S13];
- :mod:`~punto.table.squeeze` — who holds the cards [M16], [S], [O];
- :mod:`~punto.table.kinds` — normal, VIP and bid-squeeze tables; RNG or live [O];
- :mod:`~punto.table.fault_catalogue` — every fault case ([M10], [S1]–[S9], [L]) and its effect;
- :mod:`~punto.table.shoes` — the RNG shoe and the scanned live shoe;
- :mod:`~punto.table.records` — game numbers and hand records [L];
- :mod:`~punto.table.legal` — what each viewer may do now, and the dealer's guidance;
- :mod:`~punto.table.views` — what a player, a watcher, the dealer, an auditor see;
- :mod:`~punto.table.table` — :class:`Table`, tying them together.
"""

from punto.table.automation import Automation, Pace
from punto.table.clock import Clock, ManualClock, SystemClock
from punto.table.events import Event
from punto.table.fault_catalogue import FAULTS, Effect, Fault, FaultSpec
from punto.table.kinds import Dealing, TableKind, TableSettings, VipSettings
from punto.table.legal import Action, Guidance, GuideReason, LegalActions
from punto.table.phases import TRANSITIONS, Phase, Step
from punto.table.records import GameNumber, HandFacts, HandRecord, PlayerResult
from punto.table.seat_plan import Place
from punto.table.squeeze import ReadCall, Reading
from punto.table.table import Table
from punto.table.views import (
    Viewer,
    bet_records,
    hand_facts,
    hand_records,
    project,
    project_one,
)

__all__ = [
    "FAULTS",
    "TRANSITIONS",
    "Action",
    "Automation",
    "Clock",
    "Dealing",
    "Effect",
    "Event",
    "Fault",
    "FaultSpec",
    "GameNumber",
    "Guidance",
    "GuideReason",
    "HandFacts",
    "HandRecord",
    "LegalActions",
    "ManualClock",
    "Pace",
    "Phase",
    "Place",
    "PlayerResult",
    "ReadCall",
    "Reading",
    "Step",
    "SystemClock",
    "Table",
    "TableKind",
    "TableSettings",
    "Viewer",
    "VipSettings",
    "bet_records",
    "hand_facts",
    "hand_records",
    "project",
    "project_one",
]
