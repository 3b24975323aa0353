"""The WebSocket protocol without I/O: client messages parsed and validated into typed
commands, error codes, and what each viewer sees of an event (``docs/protocol.md``).
Domain objects become JSON in :mod:`punto.codec` (its functions are also named here).

>>> command = parse_command('{"type": "add_chip", "bet": "banker", "request_id": "r1"}')
>>> type(command).__name__, command.bet, command.request_id
('AddChip', <Bet.BANKER: 'banker'>, 'r1')
>>> parse_command('{"type": "deal_card"}')
Traceback (most recent call last):
...
punto.errors.ProtocolError: deal_card: card: Field required
>>> len(COMMAND_TYPES), "deal_card" in COMMAND_TYPES
(42, True)
>>> from punto.errors import BetLimitError
>>> error_code(ProtocolError("x")), error_code(BetLimitError("x", limit="max", value=1))
('bad_message', 'bet_limit')
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from punto.bets import Bet
from punto.codec import (
    bet_totals_json,
    bets_json,
    event_json,
    event_kind,
    hand_record_json,
    jsonable,
    outcome_from_json,
    outcome_json,
    result_json,
    settlement_json,
    streak_json,
    tier_json,
)
from punto.coup import Position
from punto.errors import (
    BetClosedError,
    BetLimitError,
    ChatError,
    JurisdictionError,
    PhaseError,
    ProtocolError,
    PuntoError,
    RateLimitedError,
    RemoteError,
    TableBalanceError,
    TooManyTablesError,
)
from punto.outcome import Side
from punto.table.events import (
    BetsConfirmed,
    BetsRefunded,
    BettingOpened,
    CardPlaced,
    Event,
    HandSettled,
    TieBetsChanged,
)
from punto.table.fault_catalogue import Fault
from punto.table.records import PlayerResult
from punto.table.squeeze import ReadCall
from punto.table.views import Viewer, project_one, refunded_summary, settled_summary

__all__ = [
    "CHAT_MAX_LENGTH",
    "COALESCED",
    "COMMAND_TYPES",
    "MAX_DEPTH",
    "MAX_MESSAGE",
    "Command",
    "bet_totals_json",
    "bets_json",
    "check_text",
    "control_character",
    "decode_json",
    "error_code",
    "error_message",
    "error_params",
    "event_json",
    "event_kind",
    "event_views",
    "hand_record_json",
    "jsonable",
    "outcome_from_json",
    "outcome_json",
    "parse_command",
    "result_json",
    "settlement_json",
    "shown_to",
    "standing_views",
    "streak_json",
    "tier_json",
]

_RequestId = Annotated[str | None, Field(default=None, max_length=64)]
_Text = Annotated[str, Field(max_length=500)]
_CardCode = Annotated[str, Field(min_length=2, max_length=3)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    request_id: _RequestId = None


# -- anyone -------------------------------------------------------------------------


class Ping(_Message):
    """Ask for a ``pong``."""

    type: Literal["ping"]


class Resync(_Message):
    """Ask for a new snapshot."""

    type: Literal["resync"]


class Roads(_Message):
    """Ask for the roads now, as data or SVG."""

    type: Literal["roads"]
    format: Literal["json", "svg"] = "json"


# -- players ------------------------------------------------------------------------


class Join(_Message):
    """Bring the wallet balance to the table."""

    type: Literal["join"]


class Sit(_Message):
    """Sit at a seat on a limit tier."""

    type: Literal["sit"]
    seat: Annotated[StrictInt, Field(ge=1, le=100)]
    tier: Annotated[str | None, Field(max_length=40)] = None
    password: Annotated[str | None, Field(max_length=200)] = None


class TakeTable(_Message):
    """Take an empty VIP table as its owner."""

    type: Literal["take_table"]
    seat: Annotated[StrictInt, Field(ge=1, le=100)]


class Watch(_Message):
    """Watch (and bet from the watchers' area)."""

    type: Literal["watch"]
    tier: Annotated[str | None, Field(max_length=40)] = None
    password: Annotated[str | None, Field(max_length=200)] = None


class Stand(_Message):
    """Stand up (``mark`` keeps the seat)."""

    type: Literal["stand"]
    mark: StrictBool = False


class Leave(_Message):
    """Leave with the whole table balance."""

    type: Literal["leave"]


class ChooseChip(_Message):
    """Pick a chip denomination."""

    type: Literal["choose_chip"]
    chip: Annotated[StrictInt, Field(gt=0)]


class AddChip(_Message):
    """Put the chosen chip on a bet."""

    type: Literal["add_chip"]
    bet: Bet
    spot: Annotated[StrictInt | None, Field(ge=1, le=100)] = None


class Undo(_Message):
    """Take back the last unconfirmed step."""

    type: Literal["undo"]


class Clear(_Message):
    """Take back every unconfirmed chip."""

    type: Literal["clear"]


class Double(_Message):
    """Double the unconfirmed chips."""

    type: Literal["double"]


class Rebet(_Message):
    """Put last hand's bets back as unconfirmed chips."""

    type: Literal["rebet"]


class Confirm(_Message):
    """Confirm the unconfirmed chips (ledger and wallet first); with ``bets``, put those
    down and confirm them at once (no unconfirmed chips may be on the layout)."""

    type: Literal["confirm"]
    bets: (
        Annotated[dict[Bet, Annotated[StrictInt, Field(gt=0)]], Field(min_length=1, max_length=20)]
        | None
    ) = None


class ChangeTieBets(_Message):
    """Change the main bets a tie left standing [M12]."""

    type: Literal["change_tie_bets"]
    bets: dict[Bet, Annotated[StrictInt, Field(ge=0)]]


class WaitForMe(_Message):
    """Ask for more betting time [O]."""

    type: Literal["wait_for_me"]


class OpenCards(_Message):
    """Ask the dealer to open the cards (bid-squeeze) [O]."""

    type: Literal["open_cards"]


class Fly(_Message):
    """The VIP owner has the cards dealt at once [O]."""

    type: Literal["fly"]


class Squeeze(_Message):
    """The holder turns their side's cards."""

    type: Literal["squeeze"]
    side: Side


class Read(_Message):
    """The [S] reader's call."""

    type: Literal["read"]
    call: ReadCall


class VipSettingsMessage(_Message):
    """The VIP owner's settings [O]."""

    type: Literal["vip_settings"]
    squeeze: StrictBool | None = None
    vertical_squeeze: StrictBool | None = None
    password: Annotated[str | None, Field(min_length=1, max_length=200)] = None
    clear_password: StrictBool = False


class ChangeShoe(_Message):
    """Change the shoe (the house, or the VIP owner after 30 hands)."""

    type: Literal["change_shoe"]


class ChangeDealer(_Message):
    """A new dealer (a dealer names them; a VIP owner gets the next of the roster)."""

    type: Literal["change_dealer"]
    name: Annotated[str | None, Field(min_length=1, max_length=100)] = None


# -- dealers and supervisors ----------------------------------------------------------


class StartShoe(_Message):
    """Shuffle, cut and burn a new shoe (live: the scanned burn cards)."""

    type: Literal["start_shoe"]
    burned: Annotated[list[_CardCode], Field(max_length=20)] = []


class DealDemoHand(_Message):
    """A demonstration hand [M2]."""

    type: Literal["deal_demo_hand"]
    cards: Annotated[list[_CardCode], Field(max_length=6)] = []


class OpenBetting(_Message):
    """Open the next hand's betting."""

    type: Literal["open_betting"]


class CloseBetting(_Message):
    """No more bets."""

    type: Literal["close_betting"]


class StartBlankHand(_Message):
    """Deal the owed blank hand [S1]."""

    type: Literal["start_blank_hand"]


class DealCard(_Message):
    """A scanned or typed card."""

    type: Literal["deal_card"]
    card: _CardCode
    position: Position | None = None


class Rescan(_Message):
    """A card scanned again after a failed scan [L]."""

    type: Literal["rescan"]
    card: _CardCode
    position: Position | None = None


class RevealCards(_Message):
    """The dealer turns face-down cards."""

    type: Literal["reveal_cards"]
    side: Side | None = None


class SettleHand(_Message):
    """Settle the hand (``cards_left`` when [S5] needs it)."""

    type: Literal["settle"]
    cards_left: Annotated[StrictInt | None, Field(ge=0, le=1000)] = None


class Burn(_Message):
    """Burn cards [M8]."""

    type: Literal["burn"]
    count: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    cards: Annotated[list[_CardCode], Field(max_length=20)] = []


class CutCardOut(_Message):
    """The live dealer saw the cut card."""

    type: Literal["cut_card_out"]


class ReportFault(_Message):
    """A fault case ([M10], [S1]–[S9], [L])."""

    type: Literal["report_fault"]
    fault: Fault
    detail: _Text = ""
    player: Annotated[str | None, Field(max_length=200)] = None
    count: Annotated[StrictInt, Field(ge=1, le=20)] = 1
    cards: Annotated[list[_CardCode], Field(max_length=20)] = []
    position: Position | None = None


class Pause(_Message):
    """Pause between hands."""

    type: Literal["pause"]
    reason: _Text = ""


class Resume(_Message):
    """Resume a paused table."""

    type: Literal["resume"]


# -- chat (anyone logged in at the table; the mute: supervisors) ------------------------

CHAT_MAX_LENGTH = 300
"""The longest chat message, in characters."""


class Chat(_Message):
    """A line of table chat (a player, the dealer or a supervisor)."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX_LENGTH)]


class ChatMute(_Message):
    """A supervisor mutes (``muted`` true) or unmutes a player's chat at this table."""

    type: Literal["chat_mute"]
    player: Annotated[str, Field(min_length=1, max_length=64)]
    muted: StrictBool = True


class CloseTable(_Message):
    """Close the table for good [S14] (``reason``: the words typed; none: the event's
    reason is ``closed_by_supervisor``)."""

    type: Literal["close_table"]
    reason: _Text = ""


Command = Annotated[
    Ping
    | Resync
    | Roads
    | Join
    | Sit
    | TakeTable
    | Watch
    | Stand
    | Leave
    | ChooseChip
    | AddChip
    | Undo
    | Clear
    | Double
    | Rebet
    | Confirm
    | ChangeTieBets
    | WaitForMe
    | OpenCards
    | Fly
    | Squeeze
    | Read
    | VipSettingsMessage
    | ChangeShoe
    | ChangeDealer
    | StartShoe
    | DealDemoHand
    | OpenBetting
    | CloseBetting
    | StartBlankHand
    | DealCard
    | Rescan
    | RevealCards
    | SettleHand
    | Burn
    | CutCardOut
    | ReportFault
    | Pause
    | Resume
    | CloseTable
    | Chat
    | ChatMute,
    Field(discriminator="type"),
]
"""Any client message."""

_COMMAND: TypeAdapter[Command] = TypeAdapter(Command)

COMMAND_TYPES: frozenset[str] = frozenset(
    typing.get_args(cls.model_fields["type"].annotation)[0]
    for cls in typing.get_args(typing.get_args(Command)[0])
)
"""Every client message's ``type`` (which role may send which is
:mod:`punto.server.tables.commands`'s)."""

MAX_MESSAGE = 16_384
"""The largest client message (bytes of UTF-8), and the WebSocket frame size limit."""
MAX_DEPTH = 16
"""How deeply JSON arrays and objects of a client message or request body may nest."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def control_character(text: str) -> str | None:
    r"""The first control character (NUL, ESC, newline, C1 and so on) in ``text``, if any: no
    text field of the protocol may hold one.

    >>> control_character("ann"), control_character("a\x00b")
    (None, '\\x00')
    """
    found = _CONTROL.search(text)
    return None if found is None else f"\\x{ord(found.group()):02x}"


def check_text(value: Any, *, where: str = "message") -> None:
    """Refuse (:class:`ProtocolError`) any string, key or value, holding a control
    character anywhere in a decoded JSON ``value``."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            bad = control_character(item)
            if bad is not None:
                raise ProtocolError(f"{where}: text may not hold control characters ({bad})")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _too_deep(text: str, limit: int) -> bool:
    """Whether ``text``'s JSON nests deeper than ``limit`` (strings skipped), checked
    before parsing so that no input can exhaust the parser's recursion."""
    if text.count("[") + text.count("{") <= limit:
        return False  # the usual message: too few brackets to nest too deep
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def decode_json(
    raw: str | bytes, *, limit: int = MAX_MESSAGE, where: str = "message", texts: bool = True
) -> Any:
    """Decode one JSON document safely: its size checked first (``limit`` bytes), then its
    nesting (:data:`MAX_DEPTH`), then parsed, then (``texts``) every text checked for
    control characters; :class:`ProtocolError` says what is wrong.

    >>> decode_json('{"type": "ping"}')
    {'type': 'ping'}
    >>> decode_json("[" * 5000)
    Traceback (most recent call last):
    ...
    punto.errors.ProtocolError: message: JSON may nest at most 16 levels
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ProtocolError(f"{where}: at most {limit} bytes")
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ProtocolError(f"{where}: not UTF-8 text") from None
    if _too_deep(text, MAX_DEPTH):
        raise ProtocolError(f"{where}: JSON may nest at most {MAX_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError(f"{where}: not JSON") from None
    if texts:
        check_text(data, where=where)
    return data


def parse_command(raw: str | bytes | Mapping[str, Any]) -> Command:
    """Parse and validate one client message; :class:`ProtocolError` says what is wrong."""
    if isinstance(raw, str | bytes):
        data = decode_json(raw)
    else:
        data = dict(raw)
        check_text(data)
    if not isinstance(data, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a string 'type'")
    try:
        return _COMMAND.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "union_tag_invalid":
            raise ProtocolError(f"unknown message type {kind!r}") from None
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError(f"{kind}: {where}: {first['msg']}") from None


def error_code(exc: BaseException) -> str:
    """The protocol's error code: the typed error's declared wire name
    (:attr:`punto.errors.PuntoError.kind`: ``BetLimitError`` → ``bet_limit``), the owning
    process's code for a :class:`RemoteError`, ``internal`` for anything that is not a
    :class:`PuntoError`."""
    if isinstance(exc, RemoteError):
        return exc.code
    if isinstance(exc, PuntoError):
        return exc.kind
    return "internal"


_BETS = frozenset(bet.value for bet in Bet)


def error_params(exc: BaseException) -> dict[str, Any] | None:
    """The refusal's figures, for a client to explain it in its own language and money
    format, or ``None``. A bet limit [L], [M14], [M18] gives ``limit`` (``min``, ``max``,
    ``max_imbalance`` or ``banker_multiple``), the ``bet`` it concerns when there is one,
    and the limit's ``value`` in minor units.

    >>> error_params(BetLimitError("x", limit="player_pair_max", value=50000))
    {'limit': 'max', 'bet': 'player_pair', 'value': 50000}
    >>> error_params(BetLimitError("x", limit="max_imbalance", value=100))
    {'limit': 'max_imbalance', 'value': 100}

    A refused chat message gives its ``reason`` (``empty`` or ``muted``); a rate limit the
    whole seconds to wait (``retry_after``); an action the table's phase refuses, the
    ``phase`` it is in.

    >>> error_params(PhaseError("x", phase="dealing"))
    {'phase': 'dealing'}

    >>> error_params(ChatError("x", reason="muted"))
    {'reason': 'muted'}

    Bets the table balance cannot cover give what they need and what the balance holds.

    >>> error_params(TableBalanceError("x", needed=1000, balance=500))
    {'needed': 1000, 'balance': 500}
    >>> error_params(RateLimitedError("x", retry_after=2.5))
    {'retry_after': 3}
    """
    if isinstance(exc, RemoteError):
        return dict(exc.params) if exc.params else None
    if isinstance(exc, ChatError):
        return {"reason": exc.reason}
    if isinstance(exc, JurisdictionError):
        found: dict[str, Any] = {"reason": exc.reason}
        if exc.retry_after is not None:
            found["retry_after"] = math.ceil(exc.retry_after * 10) / 10
        if exc.feature is not None:
            found["feature"] = exc.feature
        return found
    if isinstance(exc, RateLimitedError):
        return {"retry_after": math.ceil(exc.retry_after)}
    if isinstance(exc, PhaseError) and exc.phase is not None:
        return {"phase": exc.phase}
    if isinstance(exc, TableBalanceError) and exc.needed is not None:
        return {"needed": exc.needed, "balance": exc.balance}
    if isinstance(exc, TooManyTablesError):
        return {"max_tables": exc.limit}
    if isinstance(exc, BetClosedError):  # [O] closed from a hand, [EZ-C] by the shoe's edge
        return {"limit": exc.limit, "bet": exc.bet, "value": exc.value}
    if isinstance(exc, BetLimitError):
        bet, _, bound = exc.limit.rpartition("_")
        if bound in ("min", "max") and bet in _BETS:
            return {"limit": bound, "bet": bet, "value": exc.value}
        if exc.limit == "banker_multiple":
            return {"limit": exc.limit, "bet": Bet.BANKER.value, "value": exc.value}
        return {"limit": exc.limit, "value": exc.value}
    return None


def error_message(exc: BaseException, request_id: str | None = None) -> dict[str, Any]:
    """The ``error`` message for ``exc``; ``params`` only when the error has figures
    (:func:`error_params`)."""
    text = str(exc) if isinstance(exc, PuntoError) else "internal server error"
    message: dict[str, Any] = {
        "type": "error",
        "error": error_code(exc),
        "message": text,
        "request_id": request_id,
    }
    params = error_params(exc)
    if params is not None:
        message["params"] = params
    return message


# -- what each viewer sees ----------------------------------------------------------

COALESCED: tuple[type[Event], ...] = (BetsConfirmed, TieBetsChanged)
"""Events about one player's bets that the other players and spectators do not get one
by one: the player it concerns, the dealer and auditors get each; the others get the
table's ``bet_totals`` for a whole pass of them (docs/protocol.md), live and in a
snapshot's ``recent`` alike (thousands of confirms a hand at a busy table, and after a
tie thousands of changes to the bets it left standing [M12]). A new hand's
``betting_opened`` likewise carries only the viewer's own standing bets
(:func:`shown_to`)."""


def shown_to(event: Event, player: str | None) -> Event | None:
    """What a player (``player``) or a spectator (``None``) gets of ``event`` beside the
    table's totals: nothing of another player's :data:`COALESCED` event, and of a hand
    opened after a tie only their own standing bets [M12] (every player's are in the
    ``bet_totals`` that follows). The dealer and auditors get every event whole."""
    if isinstance(event, COALESCED):
        return event if getattr(event, "player", None) == player else None
    if isinstance(event, BettingOpened) and event.standing:
        mine = tuple(entry for entry in event.standing if entry[0] == player)
        return dataclasses.replace(event, standing=mine)
    return event


def event_views(
    event: Event, *, holder: str | None = None, piece: Callable[[Any], Any] | None = None
) -> dict[str, Any]:
    """What each viewer sees of one event, as JSON (``None``: not shown): ``auditor``,
    ``dealer``, ``watcher`` (also every player but the one it concerns) and, for an event
    about a player, ``self`` (that player's own view) and ``player`` (their id). A card
    dealt face down to a side ``holder`` holds is shown to them (``self``) [M16]. A
    settled hand concerns every player who bet, a refund every player refunded: ``own``
    maps each of them to their view (:func:`settled_views`, :func:`refunded_views`;
    ``piece``: how a settled hand's results are encoded once each, there)."""
    if isinstance(event, HandSettled):
        return settled_views(event, piece=piece)
    if isinstance(event, BetsRefunded):
        return refunded_views(event)
    if isinstance(event, BettingOpened) and event.standing:
        return standing_views(event)
    cache: list[tuple[Event, dict[str, Any]]] = []  # keeps each projection alive

    def view(viewer: Viewer, player: str | None = None) -> dict[str, Any] | None:
        shown = project_one(event, viewer, player)
        if shown is None:
            return None
        for seen, data in cache:
            if seen is shown:
                return data
        data = event_json(shown)
        cache.append((shown, data))
        return data

    out: dict[str, Any] = {
        "auditor": view(Viewer.AUDITOR),
        "dealer": view(Viewer.DEALER),
        "watcher": view(Viewer.WATCHER),
    }
    player = getattr(event, "player", None)
    if isinstance(player, str):
        out["self"] = view(Viewer.PLAYER, player)
        out["player"] = player
    elif holder is not None and isinstance(event, CardPlaced) and not event.face_up:
        out["self"] = event_json(event)
        out["player"] = holder
    return out


def settled_views(
    event: HandSettled, *, piece: Callable[[Any], Any] | None = None
) -> dict[str, Any]:
    """The views of a settled hand: the dealer and auditors see every player's result;
    a player sees their own (``own``: each player's view, by player) and, like every
    watcher, the hand's ``summary`` (:func:`punto.table.views.settled_summary`) — as
    :func:`punto.table.views.project` shows it, built from each result's JSON made once
    (a hand of 2,500 players has 2,500 own views).

    ``piece``, if given, encodes JSON data once into a part of a larger text (the server
    passes :func:`punto.server.store.storage.record_piece`): each result is then that text,
    which the player's view, the dealer's and the hand's record all carry as it is, and
    players with the same bets (one shared settlement) share their settlement's text.

    >>> from punto.table.records import GameNumber
    >>> settled = HandSettled(at=1.0, game=GameNumber("T1", 1, 1), results=(),
    ...                       void_reason=None, last=False)
    >>> views = settled_views(settled)
    >>> views["watcher"]["summary"], views["own"]
    ({'players': 0, 'areas_won': []}, {})
    """
    if piece is None:
        full = event_json(event)
        results = full["results"]
    else:
        results = _result_pieces(event.results, piece)
        full = {**event_json(dataclasses.replace(event, results=())), "results": results}
    summary = settled_summary(event)
    public = {
        **full,
        "results": [],
        "summary": {"players": summary.players, "areas_won": [b.value for b in summary.areas_won]},
    }
    own = {
        r.player: {**public, "results": [data]}
        for r, data in zip(event.results, results, strict=True)
    }
    return {"auditor": full, "dealer": full, "watcher": public, "own": own}


def _result_pieces(results: tuple[PlayerResult, ...], piece: Callable[[Any], Any]) -> list[Any]:
    """Each result encoded once by ``piece``; a settlement shared by several players (the
    same bets: :class:`punto.settlement.Settler`) encoded once for all of them."""
    shared: dict[int, Any] = {}  # ``results`` keeps each settlement alive: its id names it
    out = []
    for r in results:
        settlement = shared.get(id(r.settlement))
        if settlement is None:
            settlement = shared[id(r.settlement)] = piece(settlement_json(r.settlement))
        out.append(piece(result_json(r, settlement=settlement)))
    return out


def standing_views(event: BettingOpened) -> dict[str, Any]:
    """The views of a hand opened after a tie [M12]: the dealer and auditors see every
    player's standing bets; a player sees their own (``own``: each standing player's
    view, by player) and a spectator none, as :func:`shown_to` says — the table's totals
    follow in ``bet_totals``. Each player's standing bets are encoded once (a tie at a
    table of 2,500 players leaves thousands standing).

    >>> from types import MappingProxyType
    >>> from punto.table.records import GameNumber
    >>> opened = BettingOpened(at=1.0, game=GameNumber("T1", 1, 2), closes_at=16.0,
    ...     last_hand=False, standing=(("ann", MappingProxyType({Bet.BANKER: 500})),))
    >>> views = standing_views(opened)
    >>> views["watcher"]["standing"], views["own"]["ann"]["standing"]
    ([], [['ann', {'banker': 500}]])
    """
    full = event_json(event)
    public = {**full, "standing": []}
    own = {
        player: {**public, "standing": [entry]}
        for (player, _bets), entry in zip(event.standing, full["standing"], strict=True)
    }
    return {"auditor": full, "dealer": full, "watcher": public, "own": own}


def refunded_views(event: BetsRefunded) -> dict[str, Any]:
    """The views of a refund: the dealer and auditors see every player's refund; a
    player sees their own (``own``: each refunded player's view, by player) and, like
    every watcher, the refund's ``summary``
    (:func:`punto.table.views.refunded_summary`) — as :func:`punto.table.views.project`
    shows it, built from each refund's JSON made once (a void hand of 2,500 players has
    2,500 own views, each a few hundred bytes instead of every refund's megabyte).

    >>> from punto.table.reasons import Reason, Why
    >>> refunded = BetsRefunded(at=1.0, game=None, refunds=(), everyone=True,
    ...                         reason=Why(Reason.CLOSED_BY_SUPERVISOR))
    >>> views = refunded_views(refunded)
    >>> views["watcher"]["summary"], views["watcher"]["everyone"], views["own"]
    ({'players': 0}, True, {})
    """
    full = event_json(event)
    refunds = full["refunds"]
    summary = refunded_summary(event)
    public = {**full, "refunds": [], "summary": {"players": summary.players}}
    own = {
        r.player: {**public, "refunds": [data]}
        for r, data in zip(event.refunds, refunds, strict=True)
    }
    return {"auditor": full, "dealer": full, "watcher": public, "own": own}
