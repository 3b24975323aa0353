"""The reports' routes: the daily report per table and currency, the operators' report
per day, operator and currency (JSON and CSV; the signed operator call reads it through
:func:`operator_rows`), and observed-against-exact drift. The figures are made in
:mod:`punto.server.features.reports` and :mod:`punto.server.features.backoffice`."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from punto.errors import NotFoundError, ProtocolError
from punto.server.auth import Role, require_role
from punto.server.features.backoffice import drift_csv, drift_json, rows_csv
from punto.server.features.reports import (
    OPERATOR_REPORT_COLUMNS,
    closings_text,
    daily_report,
    operator_report,
    report_span,
)
from punto.server.http.api import ActorDep, NodeDep
from punto.server.node import Node
from punto.server.store.operators import OperatorStore

__all__ = ["operator_csv", "operator_rows", "router"]

router = APIRouter()

_Day = Annotated[str | None, Query(alias="date")]
_Table = Annotated[str | None, Query(alias="table")]
_From = Annotated[str | None, Query(alias="from", max_length=10)]
_To = Annotated[str | None, Query(alias="to", max_length=10)]
_OperatorId = Annotated[str | None, Query(min_length=1, max_length=16)]


@router.get("/api/reports/daily", tags=["reports"])
async def report_daily(
    actor: ActorDep,
    node: NodeDep,
    date_: _Day = None,
    table_id: _Table = None,
) -> dict[str, Any]:
    """Turnover, payouts and observed RTP per table and currency for one UTC day (a row
    per table and currency: no figure sums two currencies)."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read reports")
    try:
        day = date.fromisoformat(date_) if date_ else _today(node)
    except ValueError:
        raise ProtocolError(f"date must be YYYY-MM-DD, not {date_!r}") from None
    found = await daily_report(node.store, day=day, table=table_id, currency=node.settings.currency)
    return {"days": found}


@router.get("/api/reports/daily.csv", tags=["reports"])
async def report_daily_csv(
    actor: ActorDep,
    node: NodeDep,
    date_: _Day = None,
    table_id: _Table = None,
) -> Response:
    """The daily report as CSV."""
    days = (await report_daily(actor, node, date_, table_id))["days"]
    flat = [
        {**row, "side_bets_closed": closings_text(row["side_bets_closed"], row["hands"])}
        for row in days
    ]
    return Response(rows_csv(flat), media_type="text/csv; charset=utf-8")


async def operator_rows(
    node: Node, first: str | None, last: str | None, operator: str | None
) -> dict[str, Any]:
    """The operator report of the UTC days ``first`` .. ``last`` (default today), of one
    operator when given (404 for one not registered)."""
    start, end = report_span(first, last, today=_today(node))
    if operator is not None and await OperatorStore(node.engine).get(operator) is None:
        raise NotFoundError(f"no operator {operator!r}")
    rows = await operator_report(
        node.store, first=start, last=end, currency=node.settings.currency, operator=operator
    )
    return {"from": start.isoformat(), "to": end.isoformat(), "rows": rows}


def operator_csv(rows: list[dict[str, Any]]) -> Response:
    """An operator report's rows as CSV, its header row first."""
    text = rows_csv(rows, OPERATOR_REPORT_COLUMNS)
    return Response(text, media_type="text/csv; charset=utf-8")


_OPERATOR_REPORT_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"description": "a bad date, from after to, or more than 92 days"},
    404: {"description": "no such operator"},
}


@router.get(
    "/api/reports/operators",
    tags=["reports"],
    response_model=None,
    responses=_OPERATOR_REPORT_ERRORS,
)
async def report_operators(
    actor: ActorDep,
    node: NodeDep,
    first: _From = None,
    last: _To = None,
    operator: _OperatorId = None,
    format: Literal["json", "csv"] = "json",
) -> dict[str, Any] | Response:
    """Bets, players, turnover, payouts, GGR and observed RTP per UTC day, operator and
    currency, ``from`` .. ``to`` (``YYYY-MM-DD``, both included, at most 92 days)."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read reports")
    found = await operator_rows(node, first, last, operator)
    if format == "csv":
        return operator_csv(found["rows"])
    return found


@router.get(
    "/api/reports/operators.csv",
    tags=["reports"],
    response_class=Response,
    responses=_OPERATOR_REPORT_ERRORS,
)
async def report_operators_csv(
    actor: ActorDep,
    node: NodeDep,
    first: _From = None,
    last: _To = None,
    operator: _OperatorId = None,
) -> Response:
    """The operator report as CSV (a header row, then a row per day, operator, currency)."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read reports")
    return operator_csv((await operator_rows(node, first, last, operator))["rows"])


def _today(node: Node) -> date:
    """The UTC day it is on the server's clock."""
    return datetime.fromtimestamp(node.clock.now(), UTC).date()


def _day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ProtocolError(f"date must be YYYY-MM-DD, not {text!r}") from None


@router.get("/api/reports/drift", tags=["reports"], response_model=None)
async def report_drift(
    actor: ActorDep,
    node: NodeDep,
    table_id: Annotated[str, Query(alias="table", min_length=1, max_length=40)],
    shoe: Annotated[int | None, Query(ge=1)] = None,
    date_: _Day = None,
    format: Literal["json", "csv"] = "json",
) -> dict[str, Any] | Response:
    """Observed against exact for a table's shoe or UTC day (default: today): each bet's
    observed RTP with its 99% band, and the outcome frequency tests."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read reports")
    await node.config(table_id)
    day = _day(date_)
    if shoe is None and day is None:
        day = _today(node)
    if shoe is not None and day is not None:
        raise ProtocolError("ask for one shoe or one day, not both")
    found = await drift_json(node.store, table_id, shoe=shoe, day=day)
    if format == "csv":
        return Response(drift_csv(found), media_type="text/csv; charset=utf-8")
    return found
