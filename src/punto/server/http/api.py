"""The REST API (``docs/protocol.md`` §2): accounts, lobby, tables, history, records,
administration and supervision (the reports are :mod:`punto.server.http.reports`). Every
body is validated; every refusal is a typed error with a stable code and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt

from punto.bets import Bet
from punto.cards import Card, parse_cards
from punto.coup import coup_of_hands
from punto.errors import (
    AmountError,
    AuthError,
    ForbiddenError,
    NegativeEdgeError,
    NotFoundError,
    ProtocolError,
    PuntoError,
    RulesError,
)
from punto.limits import LimitTier
from punto.outcome import Outcome
from punto.paytables import paytables_for
from punto.rules import PRESETS, Rules
from punto.rules_document import compose, overrides_of, rules_from_document, rules_to_document
from punto.server.auth import ANONYMOUS, Actor, Role, require_role
from punto.server.fanout.protocol import parse_command
from punto.server.features.backoffice import edge_preview, negative_edge_bets
from punto.server.features.reports import player_transactions
from punto.server.http.records import hand_record, own_view
from punto.server.node import Node
from punto.server.operators.model import minor_units
from punto.server.store.operators import OperatorStore
from punto.server.tables.configs import TableConfig, tiers_from_json
from punto.server.tables.snapshot import purse_json
from punto.shoe import ShoeReveal, verify_commitment
from punto.table import FAULTS, Viewer
from punto.table.reasons import Reason, Why
from punto.tie_options import TIE_POLICIES

__all__ = ["router"]

router = APIRouter()


def node_of(request: Request) -> Node:
    """The process's :class:`Node`."""
    node: Node = request.app.state.node
    return node


async def actor_of(request: Request) -> Actor:
    """Who calls: the bearer token's user, or anonymous."""
    header = request.headers.get("authorization", "")
    if not header:
        return ANONYMOUS
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise AuthError("send the session token as 'Authorization: Bearer <token>'")
    return await node_of(request).authenticate(token)


NodeDep = Annotated[Node, Depends(node_of)]
ActorDep = Annotated[Actor, Depends(actor_of)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Login(_Body):
    """``POST /api/auth/login``."""

    username: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class Register(_Body):
    """``POST /api/auth/register``: a new player."""

    username: Annotated[str, Field(min_length=3, max_length=32)]
    password: Annotated[str, Field(min_length=6, max_length=200)]
    display_name: Annotated[str | None, Field(min_length=1, max_length=100)] = None


class NewUser(Register):
    """``POST /api/admin/users``."""

    role: Literal["player", "dealer", "supervisor", "admin"]


class Transfer(_Body):
    """A deposit or withdrawal (internal wallet)."""

    amount: Annotated[StrictInt, Field(gt=0, le=10**15)]
    transaction_id: Annotated[str, Field(min_length=1, max_length=120)]


class TierBody(_Body):
    """A limit tier."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    min_bet: Annotated[StrictInt, Field(gt=0)]
    max_bet: Annotated[StrictInt, Field(gt=0)]
    side_min: Annotated[StrictInt, Field(gt=0)]
    side_max: Annotated[StrictInt, Field(gt=0)]
    bet_limits: dict[str, tuple[StrictInt, StrictInt]] = {}


class RulesBody(_Body):
    """A table's rules: a ``preset`` plus ``overrides`` of any rules document key, or a
    whole ``document`` (``preset`` then names its starting point);
    ``confirm_negative_edge`` opens a table whose rules favour the player on purpose."""

    preset: Annotated[str | None, Field(min_length=1, max_length=64)] = None
    overrides: dict[str, Any] | None = None
    document: dict[str, Any] | None = None
    confirm_negative_edge: bool = False


class VideoQualityBody(_Body):
    """One more quality of a table's video."""

    name: Annotated[str, Field(min_length=1, max_length=20)]
    whep_url: Annotated[str | None, Field(max_length=500)] = None
    hls_url: Annotated[str | None, Field(max_length=500)] = None


class VideoBody(_Body):
    """A table's live video: a WHEP endpoint (WebRTC), an HLS playlist (the fallback),
    other qualities, a still image for the lobby; in a PATCH, the keys sent replace theirs
    (``""`` takes one off)."""

    whep_url: Annotated[str | None, Field(max_length=500)] = None
    hls_url: Annotated[str | None, Field(max_length=500)] = None
    qualities: Annotated[list[VideoQualityBody] | None, Field(max_length=6)] = None
    still_url: Annotated[str | None, Field(max_length=500)] = None


class TableBody(_Body):
    """A table configuration (``POST /api/admin/tables``): ``rules`` (or ``preset``) names
    the preset, ``overrides`` / ``document`` compose the rules as in :class:`RulesBody`."""

    id: Annotated[str, Field(min_length=1, max_length=40)]
    name: Annotated[str, Field(min_length=1, max_length=100)]
    rules: Annotated[str | None, Field(min_length=1, max_length=64)] = None
    preset: Annotated[str | None, Field(min_length=1, max_length=64)] = None
    overrides: dict[str, Any] | None = None
    document: dict[str, Any] | None = None
    confirm_negative_edge: bool = False
    kind: Literal["normal", "vip", "bid_squeeze"] = "normal"
    dealing: Literal["rng", "live"] = "rng"
    reading: Literal["dealer", "largest_bettor", "button", "owner", "bid"] | None = None
    seats: Annotated[StrictInt, Field(ge=1, le=14)] = 7
    betting_seconds: Annotated[StrictFloat, Field(gt=0, le=600)] = 15.0
    vip_min_balance: Annotated[StrictInt, Field(ge=0)] = 0
    limits: list[TierBody] | None = None
    enabled: StrictBool = True
    video: VideoBody | None = None
    stream_url: Annotated[str | None, Field(max_length=500)] = None
    """The HLS playlist of before: ``video.hls_url``."""
    names: dict[str, str] | None = None
    """The display name per language (``en``, ``zh``, ``zh-Hant``); ``name`` is the default."""


class TablePatch(_Body):
    """``PATCH /api/admin/tables/{id}``."""

    name: Annotated[str | None, Field(min_length=1, max_length=100)] = None
    limits: list[TierBody] | None = None
    betting_seconds: Annotated[StrictFloat | None, Field(gt=0, le=600)] = None
    enabled: StrictBool | None = None
    video: VideoBody | None = None
    """The live video's keys to change (:class:`VideoBody`)."""
    stream_url: Annotated[str | None, Field(max_length=500)] = None
    """The HLS playlist of before: ``video.hls_url`` (an empty string takes it off)."""
    names: dict[str, str] | None = None
    """The display names per language, all of them (``{}`` takes them off)."""


class FaultBody(_Body):
    """``POST /api/supervisor/tables/{id}/faults``."""

    fault: str
    detail: Annotated[str, Field(max_length=500)] = ""
    player: Annotated[str | None, Field(max_length=200)] = None
    count: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    cards: Annotated[list[str], Field(max_length=20)] = []
    position: str | None = None


class ReasonBody(_Body):
    """A reason (pause, close, void)."""

    reason: Annotated[str, Field(max_length=500)] = ""


class CorrectBody(_Body):
    """``POST /api/supervisor/hands/{game}/correct``: the cards as the video shows them."""

    player: Annotated[list[str], Field(min_length=2, max_length=3)]
    banker: Annotated[list[str], Field(min_length=2, max_length=3)]
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    correction_id: Annotated[str | None, Field(min_length=1, max_length=100)] = None


class VoidBody(_Body):
    """``POST /api/supervisor/hands/{game}/void``."""

    reason: Annotated[str, Field(min_length=1, max_length=500)]


# -- health and metrics ---------------------------------------------------------------


@router.get("/healthz", tags=["operations"])
async def healthz(node: NodeDep) -> JSONResponse:
    """Liveness and readiness of this process."""
    body = {
        "status": "shutting_down" if node.shutting_down else "ok",
        "process": node.id,
        "tables_owned": len(node.runners),
        "database": node.settings.backend,
        "redis": node.settings.redis_url is not None,
        "shutting_down": node.shutting_down,
    }
    return JSONResponse(body, status_code=503 if node.shutting_down else 200)


@router.get("/metrics", tags=["operations"])
async def metrics(node: NodeDep) -> Response:
    """Prometheus metrics."""
    node.metrics.ws_connections.set(node.hub.count())
    return Response(node.metrics.render(), media_type="text/plain; version=0.0.4")


# -- authentication -------------------------------------------------------------------


def _session(node: Node, user_id: str, role: Role, name: str) -> dict[str, Any]:
    token, expires = node.signer.issue(user_id, role, name)
    return {
        "token": token,
        "user_id": user_id,
        "role": role.value,
        "display_name": name,
        "expires_at": expires,
    }


@router.post(
    "/api/auth/login",
    tags=["accounts"],
    responses={401: {"description": "wrong username or password"}, 429: {"description": "wait"}},
)
async def login(body: Login, request: Request, node: NodeDep) -> dict[str, Any]:
    """A session token for a username and password (any role). Failed attempts are
    limited per account and per address (429 with ``Retry-After``)."""
    address = request.client.host if request.client is not None else "unknown"
    user = await node.check_login(body.username, body.password, address=address)
    assert user.user_id is not None
    assert user.role is not None
    return _session(node, user.user_id, user.role, user.name)


@router.post("/api/auth/renew", tags=["accounts"])
async def renew(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """A new session token for a valid one (the old one is revoked): a client renews
    before its token expires."""
    require_role(actor, *Role, action="renew a session")
    assert actor.user_id is not None
    user = await node.store.user(actor.user_id)
    if user is None:
        raise AuthError("this account no longer exists")
    session = _session(node, user.id, user.role, user.display_name)
    await node.revoke(actor, close=False)
    return session


@router.post("/api/auth/logout", tags=["accounts"])
async def logout(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """End this session: the token is refused from now on."""
    require_role(actor, *Role, action="log out")
    await node.revoke(actor)
    return {"logged_out": True}


@router.post("/api/auth/register", tags=["accounts"], status_code=201)
async def register(body: Register, node: NodeDep) -> dict[str, Any]:
    """A new player with the demo balance (only on a server with demo accounts)."""
    if not node.settings.demo:
        raise ForbiddenError("players are registered by the operator on this server")
    name = body.display_name or body.username
    await node.create_user(body.username, body.password, role=Role.PLAYER, name=name)
    return _session(node, body.username, Role.PLAYER, name)


# -- the current user -------------------------------------------------------------------


@router.get("/api/me", tags=["accounts"])
async def me(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Who the token names, their balance (players) and the tables they are at (``table``:
    the first of them); a launched player's ``jurisdiction`` profile, if any."""
    require_role(actor, *Role, action="see your account")
    assert actor.user_id is not None
    user = await node.store.user(actor.user_id)
    if user is None:
        raise AuthError("this account no longer exists")
    player = actor.role is Role.PLAYER
    tables = await node.store.tables_of(user.id) if player else []
    launched = await OperatorStore(node.engine).player(user.id) if player else None
    session = await node.jurisdictions.session(user.id) if launched else None
    return {
        "user_id": user.id,
        "role": user.role.value,
        "display_name": user.display_name,
        "balance": await node.bank.balance(user.id) if player else None,
        "wallet": node.settings.wallet,
        "table": tables[0] if tables else None,
        "tables": tables,
        "max_tables": node.settings.max_tables,
        "operator": launched.operator_id if launched else None,
        "currency": launched.currency if launched else node.settings.currency,
        "digits": minor_units(launched.currency if launched else node.settings.currency),
        "limits": await _my_limits(node, user.id) if launched else None,
        "language": launched.language if launched else None,
        "jurisdiction": None if session is None else session[1].to_json(),
    }


async def _my_limits(node: Node, user_id: str) -> dict[str, Any] | None:
    """A launched player's chips and tier amounts in their currency (``None``: the tables'
    own; a currency without limits here is ``None`` too: the table refuses the join)."""
    try:
        purse = await node.purses.purse(user_id)
    except PuntoError:
        return None
    return None if purse is None else purse_json(purse)


@router.get("/api/me/bets", tags=["records"])
async def my_bets(
    actor: ActorDep,
    node: NodeDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[float | None, Query()] = None,
) -> dict[str, Any]:
    """The player's bet records, newest first [L]."""
    player = actor.player
    records = await node.store.player_hands(player, limit=limit, before=before)
    return {"records": [own_view(r, player) for r in records]}


@router.get("/api/me/transactions", tags=["records"])
async def my_transactions(
    actor: ActorDep, node: NodeDep, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> dict[str, Any]:
    """The player's ledger transactions, newest first."""
    player = actor.player
    return {"transactions": await player_transactions(node.store, player, limit=limit)}


# -- lobby and tables --------------------------------------------------------------------


@router.get("/api/lobby", tags=["tables"])
async def lobby(node: NodeDep) -> dict[str, Any]:
    """Every open table with its live status."""
    return {"tables": await node.lobby()}


@router.get("/api/tables/{table_id}", tags=["tables"])
async def table(table_id: str, node: NodeDep) -> dict[str, Any]:
    """Everything a client needs to draw a table."""
    return await node.describe(table_id)


@router.get("/api/tables/{table_id}/roads", tags=["tables"], response_model=None)
async def roads(
    table_id: str, node: NodeDep, format: Literal["json", "svg"] = "json"
) -> dict[str, Any] | Response:
    """The current shoe's five roads and ask-roads (JSON, or an SVG picture)."""
    message = await node.roads(table_id, svg=format == "svg")
    if format == "svg":
        return Response(str(message["svg"]), media_type="image/svg+xml")
    return dict(message["roads"])


@router.get("/api/tables/{table_id}/history", tags=["tables"])
async def history(
    table_id: str, node: NodeDep, limit: Annotated[int, Query(ge=1, le=500)] = 20
) -> dict[str, Any]:
    """Recent hands, public part (nobody's bets)."""
    await node.config(table_id)
    hands = await node.store.hands(table_id, limit=limit)
    public = (
        *("game", "opened_at", "closed_at", "dealer", "cards", "outcome", "blank", "void"),
        "amended",
    )
    return {
        "hands": [
            {
                **{k: h.get(k) for k in public},
                "void_reason": h.get("void_reason", ""),
                "void_reason_params": h.get("void_reason_params"),
                "faults": h.get("faults", []),
            }
            for h in hands
        ]
    }


@router.get("/api/tables/{table_id}/shoes", tags=["tables"])
async def shoes(
    table_id: str, node: NodeDep, limit: Annotated[int, Query(ge=1, le=100)] = 10
) -> dict[str, Any]:
    """Shoe commitments, and their reveals once closed (anyone can verify them)."""
    await node.config(table_id)
    out = []
    for row in await node.store.shoes(table_id, limit=limit):
        shoe: dict[str, Any] = {
            "table": row["table_id"],
            "shoe": row["shoe"],
            "cards": row["cards"],
            "opened_at": row["opened_at"],
            "commitment": row["commitment"],
            "closed_at": row["closed_at"],
            "hands": row["hands"],
            "reason": row["reason"],
            "rules_version": row["rules_version"],
            "audit": {None: None, True: "verified", False: "failed"}[row["verified"]],
            "reveal": None,
        }
        if row["reveal_order"] is not None and row["reveal_salt"] is not None:
            shoe["reveal"] = {"order": row["reveal_order"], "salt": row["reveal_salt"]}
            reveal = ShoeReveal(tuple(parse_cards(row["reveal_order"])), row["reveal_salt"])
            shoe["verified"] = row["commitment"] is not None and verify_commitment(
                row["commitment"], reveal
            )
        out.append(shoe)
    return {"shoes": out}


@router.get("/api/hands/{game}", tags=["records"])
async def hand(game: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """A hand's full record by game number [L] (players: only their own bets)."""
    require_role(actor, *Role, action="read a hand's record")
    record = await hand_record(node, game)
    if actor.role is Role.PLAYER:
        assert actor.user_id is not None
        return own_view(record, actor.user_id)
    if actor.viewer is not Viewer.AUDITOR:
        record.pop("events", None)
    return record


# -- administration ------------------------------------------------------------------------


def _tiers(items: list[TierBody] | None) -> tuple[LimitTier, ...] | None:
    if items is None:
        return None
    return tiers_from_json([i.model_dump() for i in items])


@router.get("/api/admin/presets", tags=["administration"])
async def presets(actor: ActorDep) -> dict[str, Any]:
    """Every rules preset with its rules document, every paytable of every bet and the
    tie policies (what a rules editor offers)."""
    require_role(actor, Role.ADMIN, action="list presets")
    return {
        "presets": [
            {
                "name": r.name,
                "description": r.description,
                "decks": r.decks,
                "bets": [b.value for b in r.offered_bets],
                "tiers": [t.name for t in r.limit_tiers],
                "document": rules_to_document(r),
            }
            for r in PRESETS.values()
        ],
        "paytables": {bet.value: paytables_for(bet) for bet in Bet},
        "tie_policies": list(TIE_POLICIES),
    }


def _rules_refusal(exc: RulesError) -> JSONResponse:
    """A refused rules setting: 400 naming the document key to blame (``field``); a bet
    favouring the player without the confirmation: 409 naming the bets."""
    body: dict[str, Any] = {
        "type": "error",
        "error": "rules",
        "message": str(exc),
        "field": exc.field,
        "request_id": None,
    }
    if isinstance(exc, NegativeEdgeError):
        body.update(error="negative_edge", bets=list(exc.bets))
        return JSONResponse(body, status_code=409)
    return JSONResponse(body, status_code=400)


def _composed(
    preset: str | None, overrides: dict[str, Any] | None, document: dict[str, Any] | None
) -> tuple[str, dict[str, Any], Rules]:
    """The preset, the overrides that really differ from it, and the rules they make."""
    if document is not None:
        if overrides:
            raise ProtocolError("send either overrides of a preset or a whole document")
        rules = rules_from_document(document)
        named = document.get("name")
        base = preset or (named if isinstance(named, str) and named in PRESETS else "macau")
    else:
        if preset is None:
            raise RulesError("name the preset the rules start from", field="preset")
        base = preset
        rules = compose(base, overrides)
    changes = overrides_of(base, rules)
    return base, changes, compose(base, changes)


def _check_edge(rules: Rules, *, confirmed: bool) -> None:
    """Refuse rules under which a bet favours the player, unless confirmed on purpose."""
    favoured = negative_edge_bets(rules)
    if favoured and not confirmed:
        names = ", ".join(b.label for b in favoured)
        raise NegativeEdgeError(
            f"the house edge of {names} is negative for a fresh shoe: confirm to open the "
            "table with these rules on purpose",
            bets=tuple(b.value for b in favoured),
        )


@router.post("/api/admin/rules/preview", tags=["administration"], response_model=None)
async def rules_preview(body: RulesBody, actor: ActorDep) -> dict[str, Any] | JSONResponse:
    """The exact house edge, RTP, hit frequency and standard deviation of every offered
    bet for a fresh shoe under rules being composed (``punto edge --json``'s figures)."""
    require_role(actor, Role.ADMIN, action="preview rules")
    try:
        base, changes, rules = _composed(body.preset, body.overrides, body.document)
    except RulesError as exc:
        return _rules_refusal(exc)
    return {"preset": base, "overrides": changes, **edge_preview(rules)}


@router.get("/api/admin/tables", tags=["administration"])
async def admin_tables(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Every table configuration (closed ones too)."""
    require_role(actor, Role.ADMIN, action="list tables")
    return {"tables": [t.to_json() for t in await node.store.tables()]}


@router.post("/api/admin/tables", tags=["administration"], status_code=201, response_model=None)
async def admin_create_table(
    body: TableBody, actor: ActorDep, node: NodeDep
) -> dict[str, Any] | JSONResponse:
    """Open a new table."""
    require_role(actor, Role.ADMIN, action="create tables")
    if body.rules and body.preset and body.rules != body.preset:
        raise ProtocolError("rules and preset name the same preset: send one")
    data = body.model_dump(exclude={"preset", "document", "confirm_negative_edge"})
    if body.video is None:
        del data["video"]  # the stream URL of before, if any, is the HLS one
    try:
        base, data["overrides"], _ = _composed(
            body.preset or body.rules, body.overrides, body.document
        )
        data["rules"] = base
        config = TableConfig.from_json(data)
        _check_edge(config.table_rules(), confirmed=body.confirm_negative_edge)
    except RulesError as exc:
        return _rules_refusal(exc)
    except PuntoError as exc:
        raise ProtocolError(str(exc)) from None
    return (await node.create_table(config)).to_json()


@router.put("/api/admin/tables/{table_id}/rules", tags=["administration"], response_model=None)
async def admin_table_rules(
    table_id: str, body: RulesBody, actor: ActorDep, node: NodeDep
) -> dict[str, Any] | JSONResponse:
    """New rules for a table: a new rules version, dealt from the next shoe on."""
    require_role(actor, Role.ADMIN, action="change tables")
    config = await node.store.table(table_id)
    try:
        base, changes, _ = _composed(body.preset or config.rules, body.overrides, body.document)
        changed = config.replace(rules=base, overrides=changes)
        _check_edge(changed.table_rules(), confirmed=body.confirm_negative_edge)
    except RulesError as exc:
        return _rules_refusal(exc)
    if changed.table_rules() == config.table_rules():
        return config.to_json()
    changed = changed.replace(rules_version=config.rules_version + 1)
    return (await node.update_table(changed)).to_json()


@router.get("/api/admin/tables/{table_id}/rules", tags=["administration"])
async def admin_table_rules_versions(
    table_id: str, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Every version of a table's rules, oldest first."""
    require_role(actor, Role.ADMIN, Role.SUPERVISOR, action="read a table's rules")
    config = await node.store.table(table_id)
    return {
        "table": table_id,
        "rules_version": config.rules_version,
        "versions": await node.store.rules_versions(table_id),
    }


@router.patch("/api/admin/tables/{table_id}", tags=["administration"])
async def admin_update_table(
    table_id: str, body: TablePatch, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Change limits [S14], the betting time, the name and the display names per language
    or the live video (WHEP, HLS, qualities); close or reopen a table."""
    require_role(actor, Role.ADMIN, action="change tables")
    config = await node.store.table(table_id)
    changes: dict[str, object] = {}
    if body.name is not None:
        changes["name"] = body.name
    if body.names is not None:
        changes["names"] = body.names
    if body.limits is not None:
        changes["limits"] = _tiers(body.limits)
    if body.betting_seconds is not None:
        ruled = config.table_rules().betting_seconds
        if ruled is not None and body.betting_seconds != ruled:
            raise ProtocolError(
                f"the {config.rules} rules set the betting time ({ruled:g} s): change "
                "betting_seconds in the table's rules"
            )
        changes["betting_seconds"] = body.betting_seconds
    if body.enabled is not None:
        changes["enabled"] = body.enabled
    video: dict[str, Any] = {}
    if body.stream_url is not None:
        video["hls_url"] = body.stream_url
    if body.video is not None:
        video.update(body.video.model_dump(exclude_unset=True))
    try:
        if video:
            changes["video"] = config.video.patched(video)
        config = config.replace(**changes)
    except PuntoError as exc:
        raise ProtocolError(str(exc)) from None
    return (await node.update_table(config)).to_json()


@router.get("/api/admin/users", tags=["administration"])
async def admin_users(actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Every user."""
    require_role(actor, Role.ADMIN, action="list users")
    return {"users": [u.to_json() for u in await node.store.users()]}


@router.post("/api/admin/users", tags=["administration"], status_code=201)
async def admin_create_user(body: NewUser, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """A new player, dealer, supervisor or administrator."""
    require_role(actor, Role.ADMIN, action="create users")
    role = Role(body.role)
    name = body.display_name or body.username
    await node.create_user(body.username, body.password, role=role, name=name)
    return {"user_id": body.username, "role": role.value, "display_name": name}


_TURN_WAIT = 5.0
"""How long a deposit or withdrawal waits for a join of the same player to end."""


async def _player(node: Node, player: str) -> None:
    user = await node.store.user(player)
    if user is None or user.role is not Role.PLAYER:
        raise NotFoundError(f"no player {player!r}")
    if node.bank.seamless:
        raise ForbiddenError("with the seamless wallet the operator keeps the balances")


@router.post("/api/admin/players/{player}/deposit", tags=["administration"])
async def deposit(player: str, body: Transfer, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Transfer money in (internal wallet; idempotent by ``transaction_id``), in the
    player's currency (a launched player's latest launch's, else the house currency)."""
    require_role(actor, Role.ADMIN, action="deposit")
    await _player(node, player)
    async with node.store.turn(player, wait=_TURN_WAIT):  # no join in between
        receipt = await node.wallet.credit(
            player,
            body.amount,
            transaction_id=f"admin:{body.transaction_id}",
            currency=await node.purses.currency(player),
        )
        if receipt.status == "ok":  # a replay moved nothing
            await node.transfer(player, body.amount, reason=Why(Reason.DEPOSIT))
    return {"balance": receipt.balance, "status": receipt.status}


@router.post("/api/admin/players/{player}/withdraw", tags=["administration"])
async def withdraw(player: str, body: Transfer, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Transfer money out (internal wallet; idempotent by ``transaction_id``)."""
    require_role(actor, Role.ADMIN, action="withdraw")
    await _player(node, player)
    async with node.store.turn(player, wait=_TURN_WAIT):  # no join in between
        if await node.store.table_of(player) is not None:
            raise AmountError(f"{player} is at a table: withdraw once they have left it")
        receipt = await node.wallet.debit(
            player,
            body.amount,
            transaction_id=f"admin:{body.transaction_id}",
            currency=await node.purses.currency(player),
        )
    return {"balance": receipt.balance, "status": receipt.status}


# -- supervision ------------------------------------------------------------------------------


@router.get("/api/faults", tags=["supervision"])
async def faults() -> dict[str, Any]:
    """Every fault case ([M10], [S1]–[S9], [L]) and its effect."""
    return {
        "faults": [
            {
                "fault": fault.value,
                "rule": spec.rule,
                "case": spec.case,
                "effect": spec.effect.value,
                "effect_text": spec.effect_text,
                "phases": sorted(p.value for p in spec.phases),
            }
            for fault, spec in FAULTS.items()
        ]
    }


async def _table_command(
    node: Node, actor: Actor, table_id: str, message: dict[str, Any]
) -> dict[str, Any]:
    require_role(actor, Role.SUPERVISOR, action="supervise a table")
    await node.config(table_id)
    command = parse_command(message)
    return {"events": await node.command(table_id, actor, command)}


@router.post("/api/supervisor/tables/{table_id}/faults", tags=["supervision"])
async def report_fault(
    table_id: str, body: FaultBody, actor: ActorDep, node: NodeDep
) -> dict[str, Any]:
    """Report a fault; its documented effect applies (voids refund every stake)."""
    message = {"type": "report_fault", **body.model_dump(exclude_none=True)}
    return await _table_command(node, actor, table_id, message)


@router.post("/api/supervisor/tables/{table_id}/pause", tags=["supervision"])
async def pause(table_id: str, body: ReasonBody, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Pause a table between hands."""
    return await _table_command(node, actor, table_id, {"type": "pause", "reason": body.reason})


@router.post("/api/supervisor/tables/{table_id}/resume", tags=["supervision"])
async def resume(table_id: str, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Resume a paused table."""
    return await _table_command(node, actor, table_id, {"type": "resume"})


@router.post("/api/supervisor/tables/{table_id}/close", tags=["supervision"])
async def close(table_id: str, body: ReasonBody, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """End the game at a table [S14]: a hand in play is void and refunded."""
    message = {"type": "close_table", "reason": body.reason}
    return await _table_command(node, actor, table_id, message)


def _outcome(body: CorrectBody) -> Outcome:
    """The corrected hands, which the tableau must be able to deal [M9]."""
    try:
        player = [Card.parse(c) for c in body.player]
        banker = [Card.parse(c) for c in body.banker]
        return coup_of_hands(player, banker)
    except PuntoError as exc:
        raise ProtocolError(f"corrected cards: {exc}") from None


@router.post("/api/supervisor/hands/{game}/correct", tags=["supervision"])
async def correct(game: str, body: CorrectBody, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Re-settle a settled hand from the corrected cards: only the difference moves [O]."""
    require_role(actor, Role.SUPERVISOR, action="correct a hand")
    assert actor.user_id is not None
    return await node.correct(
        game,
        _outcome(body),
        author=actor.user_id,
        reason=body.reason,
        correction_id=body.correction_id,
    )


@router.post("/api/supervisor/hands/{game}/void", tags=["supervision"])
async def void(game: str, body: VoidBody, actor: ActorDep, node: NodeDep) -> dict[str, Any]:
    """Void a settled hand: every player back to a full refund, as new transactions."""
    require_role(actor, Role.SUPERVISOR, action="void a hand")
    assert actor.user_id is not None
    return await node.void_hand(game, author=actor.user_id, reason=body.reason)


@router.get("/api/supervisor/alarms", tags=["supervision"])
async def alarms(
    actor: ActorDep,
    node: NodeDep,
    table_id: Annotated[str | None, Query(alias="table")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """Drift and shoe-audit alarms, newest first."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read alarms")
    return {"alarms": await node.store.alarms(table_id=table_id, limit=limit)}


@router.get("/api/supervisor/amendments", tags=["supervision"])
async def amendments(
    actor: ActorDep,
    node: NodeDep,
    table_id: Annotated[str | None, Query(alias="table")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """Corrections and voids, newest first: who, why, what moved."""
    require_role(actor, Role.SUPERVISOR, Role.ADMIN, action="read amendments")
    return {"amendments": await node.store.amendments(table_id=table_id, limit=limit)}
