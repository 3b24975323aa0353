"""Prometheus metrics of one server process (``GET /metrics``).

Each application has its own registry, so several apps (tests) never collide.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["Metrics"]


class Metrics:
    """The counters, gauges and histograms the server updates."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.bets_confirmed = Counter(
            "punto_bets_confirmed", "Bets confirmed (ledger stake posted).", registry=r
        )
        self.confirm_seconds = Histogram(
            "punto_bet_confirm_seconds",
            "Time to confirm a player's bets: table check, ledger, wallet.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=r,
        )
        self.hands_settled = Counter(
            "punto_hands_settled", "Hands settled or voided.", ["table"], registry=r
        )
        self.settle_seconds = Histogram(
            "punto_settle_seconds", "Time to settle a hand in the ledger.", registry=r
        )
        self.ws_connections = Gauge(
            "punto_ws_connections", "Open WebSocket connections.", registry=r
        )
        self.ws_messages = Counter(
            "punto_ws_messages", "WebSocket messages.", ["direction"], registry=r
        )
        self.slow_consumers = Counter(
            "punto_ws_slow_consumers", "Clients dropped for reading too slowly.", registry=r
        )
        self.broadcast_seconds = Histogram(
            "punto_broadcast_seconds", "Time to fan one table event out.", registry=r
        )
        self.tables_owned = Gauge("punto_tables_owned", "Tables this process owns.", registry=r)

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)
