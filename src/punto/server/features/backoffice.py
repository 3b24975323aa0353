"""The operator's back office over the stored records: a table's results against its
rules' exact figures (per shoe or per UTC day, one report per rules version), the drift
alarm raised when a shoe closes, the exact edge of rules being composed, and CSV export.

The statistics are :mod:`punto.drift` (pure); this module only reads the hand records
and the rules versions, and stores alarms.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import logging
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from punto.analysis import analyze
from punto.bets import Bet
from punto.drift import DriftReport, Expectations, ObservedHand, Wager, drift_report, expectations
from punto.rules import Rules
from punto.rules_document import rules_from_document, rules_to_document
from punto.server.fanout.protocol import outcome_from_json
from punto.server.store.storage import ServerStore

_LOG = logging.getLogger(__name__)

__all__ = [
    "check_drift",
    "day_range",
    "drift_csv",
    "drift_json",
    "edge_preview",
    "negative_edge_bets",
    "observed_hand",
    "rows_csv",
    "rules_of_hand",
]


def edge_preview(rules: Rules) -> dict[str, Any]:
    """Each offered bet's exact house edge, RTP, hit frequency and standard deviation for
    a fresh shoe (the figures of ``punto edge --json``), with the rules document."""
    result = analyze(rules)
    doc = result.as_dict()
    return {
        "document": rules_to_document(rules),
        "cards": doc["cards"],
        "outcomes": doc["outcomes"],
        "bets": {
            bet.value: {**figures.as_dict(), "paytable": figures.paytable}
            for bet, figures in result.bets.items()
        },
        "negative_edge": [bet.value for bet in negative_edge_bets(rules)],
    }


def negative_edge_bets(rules: Rules) -> list[Bet]:
    """The offered bets whose exact house edge is negative for a fresh shoe (the player
    is favoured)."""
    return [bet for bet, figures in analyze(rules).bets.items() if figures.house_edge < 0]


def observed_hand(record: Mapping[str, Any]) -> ObservedHand | None:
    """What a stored hand record counts for (``None``: void or never dealt)."""
    if record.get("void") or record.get("outcome") is None:
        return None
    wagers = [
        Wager(Bet(r["bet"]), int(r["stake"]), int(r["net"]))
        for result in record.get("results", {}).values()
        for r in result["settlement"]["results"]
    ]
    return ObservedHand.of(outcome_from_json(record["outcome"]), wagers)


@functools.lru_cache(maxsize=64)
def _expectations(document: str) -> Expectations:
    return expectations(rules_from_document(json.loads(document)))


def day_range(day: date) -> tuple[float, float]:
    """A UTC day as epoch seconds ``[start, end)``."""
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


async def _documents(store: ServerStore, table_id: str) -> dict[int, str]:
    docs = {
        v["version"]: json.dumps(v["document"], sort_keys=True)
        for v in await store.rules_versions(table_id)
    }
    config = await store.table(table_id)
    docs.setdefault(
        config.rules_version, json.dumps(rules_to_document(config.table_rules()), sort_keys=True)
    )
    return docs


async def rules_of_hand(store: ServerStore, game: str, table_id: str) -> Rules:
    """The rules a stored hand was dealt under (its record's rules version), for settling
    it again after a correction: a paytable changed since must not reprice it. The
    table's current rules when the hand or its version is not on record."""
    record = await store.hand(game)
    config = await store.table(table_id)
    version = None if record is None else record.get("rules_version")
    if version is None or version == config.rules_version:
        return config.table_rules()
    docs = await _documents(store, table_id)
    if version not in docs:
        return config.table_rules()
    return rules_from_document(json.loads(docs[version]))


async def drift_json(
    store: ServerStore,
    table_id: str,
    *,
    shoe: int | None = None,
    day: date | None = None,
) -> dict[str, Any]:
    """The table's results for one shoe or one UTC day against the exact figures, one
    report per rules version the hands were dealt under."""
    since, until = day_range(day) if day is not None else (None, None)
    records = await store.hand_records(table_id, shoe=shoe, since=since, until=until)
    docs = await _documents(store, table_id)
    by_version: dict[int, list[ObservedHand]] = {}
    for record in records:
        hand = observed_hand(record)
        if hand is not None:
            by_version.setdefault(int(record.get("rules_version") or 1), []).append(hand)
    reports: list[dict[str, Any]] = []
    for version, hands in sorted(by_version.items()):
        if version not in docs:
            continue
        report: DriftReport = drift_report(hands, _expectations(docs[version]))
        reports.append({"rules_version": version, **report.as_dict()})
    return {
        "table": table_id,
        "shoe": shoe,
        "date": None if day is None else day.isoformat(),
        "alarm": any(r["alarm"] for r in reports),
        "reports": reports,
    }


async def check_drift(store: ServerStore, table_id: str, *, shoe: int, at: float) -> None:
    """When a shoe closes: test the shoe, and the table's day so far; a drift raises a
    ``drift`` alarm for the supervisors."""
    day = datetime.fromtimestamp(at, UTC).date()
    try:
        scopes = (
            ("shoe", await drift_json(store, table_id, shoe=shoe)),
            ("day", await drift_json(store, table_id, day=day)),
        )
    except Exception:  # the statistics must never stop a table
        _LOG.exception("drift check failed", extra={"table": table_id, "shoe": shoe})
        return
    for scope, found in scopes:
        if found["alarm"]:
            reasons = sorted({r for report in found["reports"] for r in report["reasons"]})
            await store.add_alarm(
                table_id,
                kind="drift",
                shoe=shoe,
                at=at,
                detail={
                    "scope": scope,
                    "date": day.isoformat(),
                    "reasons": reasons,
                },
            )


_CSV_COLUMNS = (
    "table",
    "shoe",
    "date",
    "rules_version",
    "kind",
    "name",
    "count",
    "hands_or_wagers",
    "staked",
    "returned",
    "observed",
    "exact",
    "band_low",
    "band_high",
    "p_value",
    "outside",
    "alarm",
)


def drift_csv(found: Mapping[str, Any]) -> str:
    """:func:`drift_json`'s answer as CSV, one row per bet and per outcome."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_COLUMNS)
    head = [found["table"], found["shoe"] or "", found["date"] or ""]
    for report in found["reports"]:
        common = [*head, report["rules_version"]]
        for b in report["bets"]:
            band = b["band"] or ["", ""]
            writer.writerow(
                [
                    *common,
                    "rtp",
                    b["bet"],
                    b["wagers"],
                    b["wagers"],
                    b["staked"],
                    b["returned"],
                    b["observed_rtp"],
                    b["exact_rtp"],
                    band[0],
                    band[1],
                    b["p_value"],
                    b["outside_band"],
                    report["alarm"],
                ]
            )
        for o in report["outcomes"]:
            writer.writerow(
                [
                    *common,
                    o["test"],
                    o["name"],
                    o["count"],
                    o["hands"],
                    "",
                    "",
                    o["observed"],
                    o["expected"],
                    "",
                    "",
                    o["p_value"],
                    "",
                    report["alarm"],
                ]
            )
    return out.getvalue()


def rows_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Rows of one report (every row the same keys) as CSV; with ``columns``, those in
    that order, and the header row even when there are no rows."""
    out = io.StringIO()
    if rows or columns:
        fields = list(columns) if columns is not None else list(rows[0])
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
