"""A live table's events by number: numbers count the events the table forgot too."""

from __future__ import annotations

from punto.table import Table
from punto.table.events import Event

__all__ = ["event_at", "events_from"]


def events_from(table: Table, number: int) -> list[Event]:
    """The events of ``table`` from event ``number`` on."""
    return table.events[max(0, number - table.events_forgotten) :]


def event_at(table: Table, number: int) -> Event:
    """Event ``number`` of ``table`` (not forgotten yet)."""
    return table.events[number - table.events_forgotten]
