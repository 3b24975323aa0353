"""Domain objects as JSON and back: the one codec of the wire and of stored records.

Pure data in, plain JSON data (dicts, lists, strings, numbers) out, and back; no I/O.
Every event is sent as an object whose ``kind`` is its class's declared wire name
(:attr:`~punto.table.events.TableOpened.kind`), never a name derived from the class, so a
renamed class changes neither the protocol nor the stored hand records.

>>> from punto.table.events import ChipChosen
>>> event_json(ChipChosen(at=1.5, player="ann", chip=1000))
{'kind': 'chip_chosen', 'at': 1.5, 'player': 'ann', 'chip': 1000}
>>> event_from_json({"kind": "chip_chosen", "at": 1.5, "player": "ann", "chip": 1000})
ChipChosen(at=1.5, player='ann', chip=1000)
>>> from punto.cards import parse_cards
>>> outcome = Outcome.from_hands(parse_cards("9S KH"), parse_cards("8D 7C"))
>>> outcome_json(outcome)["winner"], outcome_from_json(outcome_json(outcome)) == outcome
('player', True)
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from punto.bets import Bet
from punto.cards import RANKS, Card
from punto.coup import Position
from punto.errors import ProtocolError, RulesError
from punto.limits import AreaLimit, AreaRoom, Shortfall
from punto.outcome import Outcome, Side
from punto.roads import RoadStreak
from punto.settlement import BetResult, Settlement
from punto.shoe import ShoeReveal
from punto.table import events as _events
from punto.table.events import Event, phase_after
from punto.table.legal import Action, Guidance, GuideReason, LegalActions
from punto.table.reasons import Reason, Why, from_legacy
from punto.table.records import Bets, GameNumber, HandFacts, HandRecord, PlayerResult
from punto.tiers import LimitTier

__all__ = [
    "EVENT_CLASSES",
    "bet_totals_json",
    "bets_from_json",
    "bets_json",
    "card_values_json",
    "event_class",
    "event_from_json",
    "event_json",
    "event_kind",
    "hand_facts_from_json",
    "hand_facts_json",
    "hand_record_json",
    "jsonable",
    "legal_actions_from_json",
    "legal_actions_json",
    "outcome_from_json",
    "outcome_json",
    "result_from_json",
    "result_json",
    "reveal_from_json",
    "reveal_json",
    "settlement_from_json",
    "settlement_json",
    "streak_json",
    "tier_from_json",
    "tier_json",
    "why_from_json",
]

EVENT_CLASSES: tuple[type[Event], ...] = typing.get_args(Event)
"""Every event class, in the order of :data:`punto.table.events.Event`."""

_BY_KIND: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_CLASSES}


# -- values ----------------------------------------------------------------------------


def card_values_json() -> dict[str, int]:
    """Each rank's baccarat value [M5], keyed by the rank's character of a card's code
    (``"9S"``: ``"9"``): what a client adds up to show a hand's total.

    >>> values = card_values_json()
    >>> values["A"], values["9"], values["T"], values["K"]
    (1, 9, 0, 0)
    """
    return {rank.char: rank.value_points for rank in RANKS}


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """An outcome as JSON: its one form, :meth:`~punto.outcome.Outcome.to_json`."""
    return outcome.to_json()


def outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    """An outcome from :func:`outcome_json` (:meth:`~punto.outcome.Outcome.from_json`)."""
    return Outcome.from_json(data)


def bet_totals_json(totals: Mapping[Bet, tuple[int, int]]) -> dict[str, Any]:
    """The ``totals`` and ``split`` of a ``bet_totals`` message (and of a snapshot): per
    bet area every player's confirmed total and the number of bettors; the Player and
    Banker totals side by side.

    >>> out = bet_totals_json({Bet.BANKER: (1500, 2), Bet.TIE: (100, 1)})
    >>> out["totals"]
    {'banker': {'amount': 1500, 'bettors': 2}, 'tie': {'amount': 100, 'bettors': 1}}
    >>> out["split"]
    {'player': 0, 'banker': 1500}
    """
    return {
        "totals": {
            bet.value: {"amount": amount, "bettors": bettors}
            for bet, (amount, bettors) in sorted(totals.items(), key=lambda kv: kv[0].value)
        },
        "split": {
            "player": totals.get(Bet.PLAYER, (0, 0))[0],
            "banker": totals.get(Bet.BANKER, (0, 0))[0],
        },
    }


def streak_json(streak: RoadStreak) -> dict[str, Any]:
    """The Big Road's current streak as the lobby shows it (``punto.roads.RoadStreak``).

    >>> from punto.roads import RoadBoard, parse_results
    >>> streak_json(RoadBoard.replay(parse_results("PBBBB")).streak)
    {'side': 'banker', 'length': 4, 'ping_pong': 0}
    """
    side = None if streak.side is None else streak.side.value
    return {"side": side, "length": streak.length, "ping_pong": streak.ping_pong}


def bets_json(bets: Mapping[Bet, int]) -> dict[str, int]:
    """Bets as ``{bet: amount}``."""
    names = _BET_NAMES
    return {names[bet]: amount for bet, amount in bets.items()}


_BET_NAMES: dict[Bet, str] = {bet: bet.value for bet in Bet}
"""Each bet's wire name (an enum's ``value`` is a descriptor call; a settled hand of
thousands of players names tens of thousands of bets)."""


def _odds_text(odds: Fraction) -> str:
    """``str(odds)``, made once per ratio: a paytable has a handful, and a settled hand
    of thousands of players writes each thousands of times.

    >>> _odds_text(Fraction(19, 20)), _odds_text(Fraction(8)), _odds_text(Fraction(-3, 7))
    ('19/20', '8', '-3/7')
    """
    key = (odds.numerator, odds.denominator)
    text = _ODDS_TEXT.get(key)
    if text is None:
        if len(_ODDS_TEXT) >= 4096:  # odds from elsewhere (a simulation's): stay small
            _ODDS_TEXT.clear()
        text = _ODDS_TEXT[key] = str(odds)
    return text


_ODDS_TEXT: dict[tuple[int, int], str] = {}


def bets_from_json(data: Mapping[str, Any]) -> Bets:
    """Bets from :func:`bets_json` (a read-only mapping, in the order given)."""
    return MappingProxyType({Bet(bet): _int(amount) for bet, amount in data.items()})


def settlement_json(settlement: Settlement) -> dict[str, Any]:
    """A settlement as JSON (odds as exact fractions in text; totals for the reader)."""
    names = _BET_NAMES
    return {
        "total_stake": settlement.total_stake,
        "total_net": settlement.total_net,
        "total_returned": settlement.total_returned,
        "results": [
            {
                "bet": names[r.bet],
                "stake": r.stake,
                "payout_class": r.payout_class,
                "odds": _odds_text(r.odds),
                "net": r.net,
            }
            for r in settlement.results
        ],
    }


def settlement_from_json(data: Mapping[str, Any]) -> Settlement:
    """A settlement from :func:`settlement_json` (the totals are computed again)."""
    return Settlement(
        tuple(
            BetResult(
                Bet(r["bet"]),
                _int(r["stake"]),
                str(r["payout_class"]),
                Fraction(str(r["odds"])),
                _int(r["net"]),
            )
            for r in data["results"]
        )
    )


def result_json(result: PlayerResult, *, settlement: object = None) -> dict[str, Any]:
    """A player's result as JSON; ``settlement``: its settlement's JSON made already (or
    its encoded text: players with the same bets share one settlement)."""
    return {
        "player": result.player,
        "returned": result.returned,
        "standing": bets_json(result.standing),
        "settlement": settlement_json(result.settlement) if settlement is None else settlement,
    }


def result_from_json(data: Mapping[str, Any]) -> PlayerResult:
    """A player's result from :func:`result_json`."""
    return PlayerResult(
        player=str(data["player"]),
        settlement=settlement_from_json(data["settlement"]),
        returned=_int(data["returned"]),
        standing=bets_from_json(data["standing"]),
    )


def legal_actions_json(legal: LegalActions) -> dict[str, Any]:
    """What a viewer may do now (the ``legal`` of a snapshot and of a ``legal_actions``
    message): the command names, sorted, and the dealer's guidance or ``None``; for a
    player at the table, ``bets``: each offered area's room (how much more it takes now),
    the ``limit`` that bounds it with its ``value``, and what keeps its stake from being
    confirmed (``incomplete``), if anything.

    >>> legal_actions_json(LegalActions(frozenset({Action.DEAL_CARD}),
    ...                    Guidance(Position.PLAYER_3, GuideReason.PLAYER_DRAWS)))
    {'actions': ['deal_card'], 'guidance': {'next': 'P3', 'reason': 'player_draws'}}
    >>> from punto.limits import AreaLimit, AreaRoom
    >>> legal_actions_json(LegalActions(bets=(AreaRoom(Bet.TIE, 0, AreaLimit.ONE_SIDE),)))
    {'actions': [], 'guidance': None, 'bets': {'tie': {'room': 0, 'limit': 'one_side'}}}
    """
    guide = legal.guidance
    out: dict[str, Any] = {
        "actions": sorted(a.value for a in legal.actions),
        "guidance": None
        if guide is None
        else {
            "next": None if guide.next is None else guide.next.value,
            "reason": guide.reason.value,
        },
    }
    if legal.bets:
        out["bets"] = {room.bet.value: _room_json(room) for room in legal.bets}
    return out


@functools.lru_cache(maxsize=4096)
def _room_json(room: AreaRoom) -> dict[str, Any]:
    # shared by every value that has the same area (callers never change it)
    out: dict[str, Any] = {"room": room.room, "limit": room.limit.value}
    if room.value is not None:
        out["value"] = room.value
    short = room.incomplete
    if short is not None:
        out["incomplete"] = {"limit": short.limit.value, "value": short.value, "short": short.short}
    return out


def _room_from_json(bet: str, data: Mapping[str, Any]) -> AreaRoom:
    short = data.get("incomplete")
    return AreaRoom(
        Bet(bet),
        _int(data["room"]),
        AreaLimit(data["limit"]),
        None if data.get("value") is None else _int(data["value"]),
        None
        if short is None
        else Shortfall(AreaLimit(short["limit"]), _int(short["value"]), _int(short["short"])),
    )


def legal_actions_from_json(data: Mapping[str, Any]) -> LegalActions:
    """The :class:`~punto.table.legal.LegalActions` of :func:`legal_actions_json`'s data
    (:class:`~punto.errors.ProtocolError` for a name this version does not know)."""
    try:
        actions = frozenset(Action(name) for name in data["actions"])
        guide = data.get("guidance")
        guidance = (
            None
            if guide is None
            else Guidance(
                None if guide["next"] is None else Position(guide["next"]),
                GuideReason(guide["reason"]),
            )
        )
        bets = tuple(_room_from_json(bet, room) for bet, room in data.get("bets", {}).items())
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"not a legal_actions value: {exc}") from exc
    return LegalActions(actions, guidance, bets)


def tier_json(tier: LimitTier) -> dict[str, Any]:
    """A limit tier as JSON: amounts in minor units, ``bet_limits`` bet to ``[min, max]``
    (the one form of a tier on the wire, in a rules document and in the store).

    >>> low = LimitTier(name="low", min_bet=100, max_bet=900, side_min=50, side_max=90)
    >>> tier_from_json(tier_json(low)) == low, tier_json(low)["bet_limits"]
    (True, {})
    """
    return {
        "name": tier.name,
        "min_bet": tier.min_bet,
        "max_bet": tier.max_bet,
        "side_min": tier.side_min,
        "side_max": tier.side_max,
        "bet_limits": {b.value: [lo, hi] for b, (lo, hi) in tier.bet_limits.items()},
    }


def tier_from_json(data: object) -> LimitTier:
    """A limit tier from :func:`tier_json`'s data, checked key by key and again as any
    tier is; :class:`~punto.errors.RulesError` says what is wrong.

    >>> tier_from_json({"name": "low", "min_bet": 100, "max_bet": 900}).max_bet
    Traceback (most recent call last):
    ...
    punto.errors.RulesError: a limit tier needs side_max, side_min
    """
    if not isinstance(data, Mapping):
        raise RulesError(f"must be an object, not {data!r}")
    unknown = sorted(set(data) - _TIER_KEYS)
    if unknown:
        raise RulesError(f"unknown limit tier key {unknown[0]!r}")
    missing = sorted(_TIER_KEYS - {"bet_limits"} - set(data))
    if missing:
        raise RulesError(f"a limit tier needs {', '.join(missing)}")
    pairs = data.get("bet_limits", {})
    if not isinstance(pairs, Mapping):
        raise RulesError(f"must be an object, not {pairs!r}")
    limits: dict[Bet, tuple[int, int]] = {}
    for key, pair in pairs.items():
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise RulesError(f"the limits of {key} are [minimum, maximum], not {pair!r}")
        limits[_tier_bet(key)] = (_tier_amount(pair[0]), _tier_amount(pair[1]))
    name = data["name"]
    if not isinstance(name, str):
        raise RulesError(f"a limit tier's name is a string, not {name!r}")
    return LimitTier(
        name=name,
        min_bet=_tier_amount(data["min_bet"]),
        max_bet=_tier_amount(data["max_bet"]),
        side_min=_tier_amount(data["side_min"]),
        side_max=_tier_amount(data["side_max"]),
        bet_limits=MappingProxyType(limits),
    )


_TIER_KEYS = frozenset({"name", "min_bet", "max_bet", "side_min", "side_max", "bet_limits"})


def _tier_bet(key: object) -> Bet:
    try:
        return Bet(key)
    except ValueError:
        raise RulesError(f"{key!r} is not a bet") from None


def _tier_amount(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"must be a whole number, not {value!r}")
    return value


def reveal_json(reveal: ShoeReveal) -> dict[str, Any]:
    """A closed shoe's reveal as JSON: the committed card order text and the salt."""
    return {"order": reveal.order_text, "salt": reveal.salt}


def reveal_from_json(data: Mapping[str, Any]) -> ShoeReveal:
    """A shoe's reveal from :func:`reveal_json`."""
    order = str(data["order"]).split()
    return ShoeReveal(order=tuple(Card.parse(code) for code in order), salt=str(data["salt"]))


def jsonable(value: object) -> Any:
    """Any value of an event as JSON data.

    How a value is encoded depends on its type alone, so each type is looked up once
    (:func:`_encoder`) and its encoder kept: an event's fields cost a dictionary lookup
    each, not a row of ``isinstance`` checks (an abstract class's among them).

    >>> jsonable({Bet.PLAYER: 10, Bet.TIE: 5})
    {'player': 10, 'tie': 5}
    >>> jsonable((Card.parse("9S"), None, 1.5))
    ['9S', None, 1.5]
    """
    kind = type(value)
    encode = _ENCODERS.get(kind)
    if encode is None:
        encode = _ENCODERS[kind] = _encoder(kind)
    return encode(value)


def _same(value: Any) -> Any:
    return value


def _mapping_json(value: Any) -> dict[Any, Any]:
    return {jsonable(k): jsonable(v) for k, v in value.items()}


def _sequence_json(value: Any) -> list[Any]:
    return [jsonable(v) for v in value]


def _unserializable(value: Any) -> Any:
    raise TypeError(f"cannot serialize {type(value).__name__}")


def _encoder(kind: type) -> Callable[[Any], Any]:
    """How :func:`jsonable` encodes a value of type ``kind`` (the first that applies)."""
    table: tuple[tuple[type | tuple[type, ...], Callable[[Any], Any]], ...] = (
        ((type(None), bool, int, float, str), _same),
        (enum.Enum, lambda v: v.value),
        (Card, lambda v: v.code),
        (GameNumber, str),
        (Outcome, outcome_json),
        (PlayerResult, result_json),
        (Settlement, settlement_json),
        (LimitTier, tier_json),
        (ShoeReveal, reveal_json),
        (Fraction, str),
        (Mapping, _mapping_json),
        ((tuple, list, frozenset, set), _sequence_json),
    )
    for types_, encode in table:
        if issubclass(kind, types_):
            return encode
    return _unserializable


_ENCODERS: dict[type, Callable[[Any], Any]] = {}
""":func:`jsonable`'s encoder of each type met so far."""


# -- events ----------------------------------------------------------------------------


def event_kind(event: Event) -> str:
    """An event's wire name, as its class declares it.

    >>> from punto.table.events import BetsConfirmed
    >>> BetsConfirmed.kind
    'bets_confirmed'
    """
    return event.kind


def event_class(kind: str) -> type[Event]:
    """The event class whose wire name is ``kind``; :class:`ProtocolError` if none is."""
    try:
        return _BY_KIND[kind]
    except KeyError:
        raise ProtocolError(f"unknown event kind {kind!r}") from None


def event_json(event: Event) -> dict[str, Any]:
    """An event as the ``event`` object of an ``event`` message: ``kind`` and its fields.

    A reason (:class:`~punto.table.reasons.Why`) is two fields: ``reason`` (the code)
    and ``reason_params`` (its parameters); ``void_reason`` likewise. An event that moves
    the table's phase also carries ``phase``, the phase it leaves the table in
    (:func:`~punto.table.events.phase_after`).

    >>> from punto.table.events import CardsBurned
    >>> from punto.table.reasons import Reason, Why
    >>> burn = CardsBurned(at=0.0, shoe=1, count=3, cards=None, reason=Why(Reason.BURN_MID_SHOE))
    >>> event_json(burn)["reason"], event_json(burn)["reason_params"]
    ('burn_mid_shoe', {})
    """
    out: dict[str, Any] = {"kind": event.kind}
    names = _FIELDS.get(type(event))
    if names is None:
        names = _FIELDS[type(event)] = tuple(
            (f.name, f.name in _WHY_FIELDS) for f in dataclasses.fields(event)
        )
    for name, why in names:
        value = getattr(event, name)
        if why:
            out[name] = None if value is None else value.code.value
            out[f"{name}_params"] = {} if value is None else dict(value.params)
        else:
            out[name] = jsonable(value)
    phase = phase_after(event)
    if phase is not None:
        out["phase"] = phase.value
    return out


_WHY_FIELDS = frozenset({"reason", "void_reason"})

_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
"""Each event class's fields, in order, and whether each is a reason (:func:`event_json`)."""


def why_from_json(code: object, params: object) -> Why | None:
    """A reason from its wire code and parameters; an English sentence of a record
    stored before the codes is read as the code it stands for (or as typed text)."""
    if code is None or code == "":
        return None
    if not isinstance(code, str):
        raise TypeError(f"expected a reason code, not {code!r}")
    if code not in Reason._value2member_map_:
        return from_legacy(code)
    if params is None:
        params = {}
    if not isinstance(params, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in params.items()
    ):
        raise TypeError(f"reason parameters must map text to text, not {params!r}")
    return Why(Reason(code), dict(params))


def event_from_json(data: Mapping[str, Any]) -> Event:
    """The event :func:`event_json` wrote (also a viewer's projection, whose hidden
    fields are ``None``); :class:`ProtocolError` says what cannot be read."""
    kind = data.get("kind")
    if not isinstance(kind, str):
        raise ProtocolError("an event needs a string 'kind'")
    cls = event_class(kind)
    hints = _HINTS[cls]
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        optional = f.default is not dataclasses.MISSING  # (a field added later)
        if f.name not in data:
            if optional:
                continue
            raise ProtocolError(f"{kind}: {f.name}: missing")
        try:
            if f.name in _WHY_FIELDS:
                why = why_from_json(data[f.name], data.get(f"{f.name}_params"))
                if why is None and f.name == "reason" and not optional:
                    why = Why.typed("")
                values[f.name] = why
                continue
            values[f.name] = _decode(hints[f.name], data[f.name])
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(f"{kind}: {f.name}: {exc}") from None
    return cls(**values)


def hand_record_json(
    record: HandRecord, *, results: Callable[[PlayerResult], object] = result_json
) -> dict[str, Any]:
    """A hand record as JSON (every player's bets: project it before showing it);
    ``results`` encodes a player's result (one already encoded may be handed back, or
    its encoded text)."""
    return {
        "game": str(record.game),
        "table": record.game.table,
        "dealer": record.dealer,
        "opened_at": record.opened_at,
        "closed_at": record.closed_at,
        "cards": [[p.value, c.code] for p, c in record.cards],
        "outcome": None if record.outcome is None else outcome_json(record.outcome),
        "bets": {p: bets_json(b) for p, b in record.bets.items()},
        "results": {p: results(r) for p, r in record.results.items()},
        "holders": {s.value: p for s, p in record.holders.items()},
        "faults": [f.value for f in record.faults],
        "blank": record.blank,
        "void": record.void,
        "void_reason": None if record.void_reason is None else record.void_reason.code.value,
        "void_reason_params": {} if record.void_reason is None else dict(record.void_reason.params),
        "corrections": dict(record.corrections),
        "times": {
            "start": record.opened_at,
            "cards": [[p.value, at] for p, at in record.card_times.items()],
            "end": record.closed_at,
        },
        "lightning": [[card.code, multiplier] for card, multiplier in record.lightning],
        "fees": dict(record.fees),
    }


def hand_facts_json(facts: HandFacts) -> dict[str, Any]:
    """:class:`HandFacts` as JSON, kept with a round's result in the ledger."""
    return {
        "dealer": facts.dealer,
        "opened_at": facts.opened_at,
        "card_times": [[p.value, at] for p, at in facts.card_times.items()],
        "holders": {s.value: p for s, p in facts.holders.items()},
    }


def hand_facts_from_json(data: object) -> HandFacts:
    """The :class:`HandFacts` kept with a round's result (:func:`hand_facts_json`);
    :class:`ProtocolError` for anything of another shape."""
    try:
        if not isinstance(data, Mapping):
            raise TypeError("not an object")
        dealer, opened = data.get("dealer", ""), data.get("opened_at")
        times, holders = data.get("card_times", []), data.get("holders", {})
        if not isinstance(dealer, str) or not isinstance(times, list):
            raise TypeError("a dealer's name and a list of card times")
        if not isinstance(holders, Mapping) or not all(
            isinstance(p, str) for p in holders.values()
        ):
            raise TypeError("holders by side")
        return HandFacts(
            dealer=dealer,
            opened_at=None if opened is None else _number(opened),
            card_times={Position(p): _number(at) for p, at in times},
            holders={Side(s): p for s, p in holders.items()},
        )
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"hand facts: {exc}") from None


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, not {value!r}")
    return float(value)


# -- decoding by the fields' types ------------------------------------------------------

_DECODERS: dict[type, Any] = {
    Card: Card.parse,
    GameNumber: GameNumber.parse,
    Outcome: outcome_from_json,
    PlayerResult: result_from_json,
    Settlement: settlement_from_json,
    LimitTier: tier_from_json,
    ShoeReveal: reveal_from_json,
    Fraction: lambda text: Fraction(str(text)),
}


_HINTS: dict[type[Event], dict[str, Any]] = {
    cls: typing.get_type_hints(cls, vars(_events)) for cls in EVENT_CLASSES
}


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, not {value!r}")
    return value


def _decode(hint: Any, value: Any) -> Any:
    """``value`` (JSON data) as the type ``hint`` of an event field."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is types.UnionType or origin is typing.Union:
        if value is None:
            if type(None) in args:
                return None
            raise TypeError("may not be null")
        (only,) = (arg for arg in args if arg is not type(None))
        return _decode(only, value)
    if hint is int:
        return _int(value)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError(f"expected a number, not {value!r}")
        return float(value)
    if hint is bool or hint is str:
        if not isinstance(value, hint):
            raise TypeError(f"expected {hint.__name__}, not {value!r}")
        return value
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if hint in _DECODERS:
        return _DECODERS[hint](value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, not {value!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], item) for item in value)
        if len(args) != len(value):
            raise TypeError(f"expected {len(args)} items, not {len(value)}")
        return tuple(_decode(arg, item) for arg, item in zip(args, value, strict=True))
    if origin is Mapping or origin is dict:
        if not isinstance(value, Mapping):
            raise TypeError(f"expected an object, not {value!r}")
        key, item = args
        return MappingProxyType({_decode(key, k): _decode(item, v) for k, v in value.items()})
    raise TypeError(f"cannot decode {hint!r}")
