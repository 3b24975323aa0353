"""The operators' HTTP API (``docs/operators.md``): the signed game launch, the launch
token's exchange for a session, and the administrators' registry of operators."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from punto.errors import ConflictError, NotFoundError, ProtocolError
from punto.ledger.signing import SIGNATURE_HEADER, new_secret
from punto.server.auth import Role, require_role
from punto.server.features.reports import player_transactions
from punto.server.http.api import ActorDep, NodeDep
from punto.server.http.records import hand_record, players_view
from punto.server.http.reports import operator_csv, operator_rows
from punto.server.operators.framing import FrameAncestors
from punto.server.operators.launch import Launcher
from punto.server.operators.limits import limit_groups_from_json
from punto.server.operators.model import LANGUAGES, Operator, check_player_id, user_id_of
from punto.server.operators.registry import check_limit_groups, register

__all__ = ["OPERATOR_HEADER", "router"]

OPERATOR_HEADER = "X-Punto-Operator"

router = APIRouter()


def launcher_of(request: Request) -> Launcher:
    """The process's :class:`Launcher`."""
    launcher: Launcher = request.app.state.launcher
    return launcher


def framing_of(request: Request) -> FrameAncestors:
    """The process's :class:`FrameAncestors`."""
    framing: FrameAncestors = request.app.state.framing
    return framing


class LaunchToken(BaseModel):
    """``POST /api/auth/launch``."""

    model_config = ConfigDict(extra="forbid")
    launch: Annotated[str, Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post(
    "/api/operator/v1/launch",
    tags=["operators"],
    responses={
        400: {"description": "a bad field, a currency or language not enabled"},
        401: {"description": "unsigned, badly signed or stale"},
        409: {"description": "a replayed call"},
    },
)
async def launch(request: Request, node: NodeDep) -> dict[str, Any]:
    """A URL that puts the operator's player at the game (signed server to server:
    ``X-Punto-Operator`` and ``X-Punto-Signature: sha256=<hex HMAC-SHA256(secret, body)>``).
    The player exists from its first launch."""
    body = await request.body()
    launcher = launcher_of(request)
    signature = request.headers.get(SIGNATURE_HEADER)
    operator = await launcher.authenticate(request.headers.get(OPERATOR_HEADER), body, signature)
    asked = launcher.parse(body)
    assert signature is not None
    await launcher.fresh(operator, asked.timestamp, signature)
    if (
        node.bank.seamless
        and operator.id != node.settings.operator_id
        and operator.wallet_url is None
    ):
        raise ConflictError(
            f"this server's seamless wallet is operator {node.settings.operator_id!r}'s: "
            f"operator {operator.id!r} has no wallet here"
        )
    if asked.table is not None:
        await node.store.table(asked.table)  # NotFoundError for a table that is not here
    granted = await launcher.launch(operator, asked, root=f"{request.base_url}app/")
    if granted.first and node.settings.demo and not node.bank.seamless:
        await node.wallet.credit(
            granted.user_id,
            node.settings.demo_balance,
            transaction_id=f"demo:{granted.user_id}",
            currency=asked.currency.upper(),
        )
    return {"url": granted.url, "expires_at": granted.expires_at}


@router.post(
    "/api/auth/launch",
    tags=["accounts"],
    responses={401: {"description": "a used, expired or unknown launch token"}},
)
async def redeem(body: LaunchToken, request: Request, node: NodeDep) -> dict[str, Any]:
    """A player's session for a launch URL's one-time token, with the operator's choices
    of the launch (currency, language, the lobby, cashier and responsible-gaming links, the
    jurisdiction profile: its play session starts now)."""
    record = await launcher_of(request).redeem(body.launch)
    user = await node.store.user(record.user_id)
    if user is None:
        raise NotFoundError("the launched player no longer exists")
    token, expires = node.signer.issue(user.id, Role.PLAYER, user.display_name)
    named = record.details.get("jurisdiction")
    profile = None if named is None else await node.jurisdictions.get(named)
    await node.jurisdictions.start(
        user.id, None if profile is None else profile.id, now=node.clock.now()
    )
    return {
        "token": token,
        "user_id": user.id,
        "role": Role.PLAYER.value,
        "display_name": user.display_name,
        "expires_at": expires,
        "operator": record.operator_id,
        "currency": record.details["currency"],
        "language": record.details["language"],
        "links": record.details["links"],
        "jurisdiction": None if profile is None else profile.to_json(),
    }


# -- look-ups for the operators' support desks ----------------------------------------


async def _signed_get(request: Request) -> Operator:
    """The operator that signed this ``GET`` (its path and query, ``timestamp`` among them)."""
    target = bytes(request.scope.get("raw_path") or request.url.path.encode())
    query = bytes(request.scope.get("query_string") or b"")
    signed = target + (b"?" + query if query else b"")
    launcher = launcher_of(request)
    operator = await launcher.authenticate(
        request.headers.get(OPERATOR_HEADER), signed, request.headers.get(SIGNATURE_HEADER)
    )
    stamp = request.query_params.get("timestamp", "")
    if not stamp.isdigit():
        raise ProtocolError("add timestamp=<Unix seconds> to the query (it is signed with it)")
    launcher.recent(int(stamp))
    return operator


def _as_theirs(view: dict[str, Any], prefix: str) -> dict[str, Any]:
    """A record's player keys as the operator knows its players (without ``prefix``)."""

    def theirs(player: str) -> str:
        return player[len(prefix) :]

    for key in ("bets", "results", "corrections"):
        view[key] = {theirs(p): v for p, v in view.get(key, {}).items()}
    view["amendments"] = [
        {**a, "corrections": {theirs(p): v for p, v in a.get("corrections", {}).items()}}
        for a in view.get("amendments", [])
    ]
    view["ledger"] = [{**t, "player": theirs(t["player"])} for t in view.get("ledger", [])]
    return view


@router.get("/api/operator/v1/rounds/{round_id}", tags=["operators"])
async def operator_round(round_id: str, request: Request, node: NodeDep) -> dict[str, Any]:
    """A round (hand) its players played, for the operator's support desk: the cards, its
    players' bets, results and transactions, and the video link; 404 for a round none of
    its players played (another operator's rounds are not told apart from none)."""
    operator = await _signed_get(request)
    prefix = f"{operator.id}."
    try:
        record = await hand_record(node, round_id)
    except NotFoundError:
        record = None
    if record is None or not any(p.startswith(prefix) for p in record.get("bets", {})):
        raise NotFoundError(f"no round {round_id!r} of operator {operator.id!r}")
    return _as_theirs(players_view(record, lambda p: p.startswith(prefix)), prefix)


def _instant(text: str | None, name: str) -> datetime | None:
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ProtocolError(f"{name} is an ISO 8601 date or time: 2026-12-01T00:00:00Z") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@router.get("/api/operator/v1/players/{player_id}/transactions", tags=["operators"])
async def operator_player_transactions(
    player_id: str, request: Request, node: NodeDep
) -> dict[str, Any]:
    """A player's transactions, newest first (``from`` / ``to``: ISO 8601; at most
    ``limit``, 500, a call); 404 for a player the operator never launched."""
    operator = await _signed_get(request)
    check_player_id(player_id)
    user_id = user_id_of(operator.id, player_id)
    if await launcher_of(request).store.player(user_id) is None:
        raise NotFoundError(f"no player {player_id!r} of operator {operator.id!r}")
    since = _instant(request.query_params.get("from"), "from")
    until = _instant(request.query_params.get("to"), "to")
    limit_text = request.query_params.get("limit", "100")
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= 500:
        raise ProtocolError("limit is a whole number from 1 to 500")
    found = await player_transactions(
        node.store, user_id, limit=int(limit_text), since=since, until=until
    )
    return {"player_id": player_id, "transactions": found}


@router.get(
    "/api/operator/v1/reports",
    tags=["operators"],
    response_model=None,
    responses={
        400: {"description": "a bad date, from after to, or more than 92 days"},
        401: {"description": "unsigned, badly signed or stale"},
    },
)
async def operator_reports(request: Request, node: NodeDep) -> dict[str, Any] | Response:
    """The operator's own report: bets, players, turnover, payouts, GGR and observed RTP
    per UTC day and currency, ``from`` .. ``to`` (``YYYY-MM-DD``, both included, at most
    92 days; ``format=csv`` for CSV). Only the signing operator's players are read: any
    ``operator`` in the query is ignored."""
    operator = await _signed_get(request)
    query = request.query_params
    format_ = query.get("format", "json")
    if format_ not in ("json", "csv"):
        raise ProtocolError(f"format is json or csv, not {format_!r}")
    found = await operator_rows(node, query.get("from"), query.get("to"), operator.id)
    if format_ == "csv":
        return operator_csv(found["rows"])
    return {"operator": operator.id, **found}


# -- the administrators' registry --------------------------------------------------


@router.get("/api/admin/operators", tags=["admin"])
async def operators(request: Request, actor: ActorDep) -> dict[str, Any]:
    """Every operator (never a secret)."""
    require_role(actor, Role.ADMIN, action="see the operators")
    found = await launcher_of(request).store.all()
    return {"operators": [operator.to_json() for operator in found]}


class NewOperator(BaseModel):
    """``POST /api/admin/operators``."""

    model_config = ConfigDict(extra="forbid")
    id: Annotated[str, Field(min_length=2, max_length=16)]
    name: Annotated[str, Field(min_length=1, max_length=100)]
    currencies: Annotated[list[Annotated[str, Field(max_length=3)]], Field(min_length=1)]
    languages: Annotated[list[str], Field(min_length=1, max_length=3)] = list(LANGUAGES)
    origins: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=20)] = []
    wallet_url: Annotated[str | None, Field(max_length=500)] = None
    dialect: str = "punto"
    limit_groups: dict[str, Any] = {}
    """Chips and tier amounts by currency, by group (docs/operators.md)."""


@router.post("/api/admin/operators", tags=["admin"], status_code=201)
async def add_operator(
    body: NewOperator, request: Request, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Register an operator; the answer carries its secret, shown this once."""
    require_role(actor, Role.ADMIN, action="add an operator")
    operator, secret = await register(
        launcher_of(request).store,
        body.id,
        name=body.name,
        currencies=body.currencies,
        languages=body.languages,
        origins=body.origins,
        wallet_url=body.wallet_url,
        dialect=body.dialect,
        limit_groups=limit_groups_from_json(body.limit_groups),
        now=node.clock.now(),
    )
    framing_of(request).forget()
    return {**operator.to_json(), "secret": secret}


@router.put("/api/admin/operators/{operator_id}/limit-groups", tags=["admin"])
async def set_limit_groups(
    operator_id: str, body: dict[str, Any], request: Request, actor: ActorDep
) -> dict[str, Any]:
    """Replace the operator's limit groups (the body: the groups by name)."""
    require_role(actor, Role.ADMIN, action="change an operator's limit groups")
    store = launcher_of(request).store
    found = await store.get(operator_id)
    if found is None:
        raise NotFoundError(f"no operator {operator_id!r}")
    groups = limit_groups_from_json(body)
    check_limit_groups(found.currencies, groups)
    return (await store.set_limit_groups(operator_id, groups)).to_json()


@router.post("/api/admin/operators/{operator_id}/rotate-secret", tags=["admin"])
async def rotate_secret(operator_id: str, request: Request, actor: ActorDep) -> dict[str, Any]:
    """A new secret for the operator, shown this once; the old one signs nothing now."""
    require_role(actor, Role.ADMIN, action="rotate an operator's secret")
    secret = new_secret()
    operator = await launcher_of(request).store.rotate(operator_id, secret)
    return {**operator.to_json(), "secret": secret}


async def _set_disabled(
    operator_id: str, request: Request, actor: ActorDep, *, disabled: bool
) -> dict[str, Any]:
    action = "disable" if disabled else "enable"
    require_role(actor, Role.ADMIN, action=f"{action} an operator")
    operator = await launcher_of(request).store.set_disabled(operator_id, disabled)
    framing_of(request).forget()  # its origins frame the game, or no longer do
    return operator.to_json()


@router.post("/api/admin/operators/{operator_id}/disable", tags=["admin"])
async def disable(operator_id: str, request: Request, actor: ActorDep) -> dict[str, Any]:
    """Disable an operator: it launches no one and its pages may no longer frame the game."""
    return await _set_disabled(operator_id, request, actor, disabled=True)


@router.post("/api/admin/operators/{operator_id}/enable", tags=["admin"])
async def enable(operator_id: str, request: Request, actor: ActorDep) -> dict[str, Any]:
    """Enable a disabled operator again: it launches its players and frames the game."""
    return await _set_disabled(operator_id, request, actor, disabled=False)
