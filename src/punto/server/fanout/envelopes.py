"""The envelopes a table publishes on the bus and the hub delivers (docs/server.md).

Three shapes, one per way a message reaches a table's clients:

- :class:`EventEnvelope` — one table event, encoded once per kind of viewer
  (``auditor``, ``dealer``, ``watcher``) and once for ``self``, the player it concerns
  (a settled hand or a refund, which concerns every player who bet: once for each,
  ``own``);
- :class:`LegalEnvelope` — ``legal_actions`` texts: one per kind of viewer whose value
  changed, one per player whose value changed (:mod:`punto.server.tables.legalcast`);
- :class:`MessageEnvelope` — a ready server message (``countdown``, ``balance``,
  ``roads``, a snapshot …) for everyone at the table, or for one player (``to``);
  ``renumber`` tells every connection the table's events count from 0 again.

Between processes they travel as JSON over Redis; :func:`envelope_from_json` checks one
that comes back and refuses anything else with a :class:`~punto.errors.ProtocolError`.

>>> envelope_from_json({"table": "t1", "message": {"type": "countdown"}})["table"]
't1'
>>> envelope_from_json({"table": "t1"})
Traceback (most recent call last):
...
punto.errors.ProtocolError: an envelope needs texts, legal or message
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast, final

from punto.errors import ProtocolError

__all__ = [
    "VIEW_KINDS",
    "Envelope",
    "EventEnvelope",
    "LegalEnvelope",
    "MessageEnvelope",
    "envelope_from_json",
]

VIEW_KINDS = ("auditor", "dealer", "watcher", "self")
"""The views of one event: supervisors and administrators, the dealer, players and
spectators, and the player the event concerns (or the holder of face-down cards)."""


@final
class EventEnvelope(TypedDict):
    """One table event, each kind of viewer's text made once (``None``: that kind does
    not see it); ``player`` gets ``self`` on their own connections."""

    table: str
    seq: int
    texts: dict[str, str | None]
    player: str | None
    own: NotRequired[dict[str, str]]
    """An event that concerns many players (a settled hand, a refund): each one's own text,
    sent to their connections instead of ``watcher``'s."""


@final
class LegalEnvelope(TypedDict):
    """The ``legal_actions`` texts the events up to ``seq`` changed."""

    table: str
    seq: int
    legal: dict[str, str]
    """A kind of viewer (``dealer``, ``auditor``) to its text."""
    players: dict[str, str]
    """A player at the table to their text."""


@final
class MessageEnvelope(TypedDict):
    """A ready server message for the table's clients (or one player's)."""

    table: str
    message: Mapping[str, Any]
    seq: NotRequired[int]
    """The event this message follows (``bet_totals``): a client drops it when it has
    not seen that event yet."""
    to: NotRequired[str]
    """Only this player's connections."""
    renumber: NotRequired[bool]
    """The table was opened again: its events count from 0; clients ask for a snapshot."""


Envelope = EventEnvelope | LegalEnvelope | MessageEnvelope
"""Anything a table publishes."""

_Texts = Mapping[str, str | None]
_Strings = Mapping[str, str]


def envelope_from_json(data: object) -> Envelope:
    """An envelope received as JSON, checked; :class:`ProtocolError` if it is not one."""
    if not isinstance(data, Mapping) or not isinstance(data.get("table"), str):
        raise ProtocolError("an envelope is an object naming its table")
    table: str = data["table"]
    seq = data.get("seq")
    if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
        raise ProtocolError(f"an envelope's seq is an integer, not {seq!r}")
    if "texts" in data:
        texts, player = data["texts"], data.get("player")
        if (
            seq is None
            or not _strings(texts, optional=True)
            or not (player is None or isinstance(player, str))
        ):
            raise ProtocolError("an event envelope has seq, texts and player")
        event = EventEnvelope(table=table, seq=seq, texts=dict(cast(_Texts, texts)), player=player)
        if "own" in data:
            own = data["own"]
            if not _strings(own):
                raise ProtocolError("an event envelope's own maps players to texts")
            event["own"] = dict(cast(_Strings, own))
        return event
    if "legal" in data:
        legal, players = data["legal"], data.get("players")
        if seq is None or not _strings(legal) or not _strings(players):
            raise ProtocolError("a legal_actions envelope has seq, legal and players")
        return LegalEnvelope(
            table=table,
            seq=seq,
            legal=dict(cast(_Strings, legal)),
            players=dict(cast(_Strings, players)),
        )
    message = data.get("message")
    if message is None:
        raise ProtocolError("an envelope needs texts, legal or message")
    if not isinstance(message, Mapping):
        raise ProtocolError("an envelope's message is an object")
    out = MessageEnvelope(table=table, message=message)
    if seq is not None:
        out["seq"] = seq
    to = data.get("to")
    if to is not None:
        if not isinstance(to, str):
            raise ProtocolError("an envelope's to names a player")
        out["to"] = to
    if data.get("renumber") is True:
        out["renumber"] = True
    return out


def _strings(value: object, *, optional: bool = False) -> bool:
    """Whether ``value`` maps strings to strings (or ``None`` when ``optional``)."""
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and (isinstance(v, str) or (optional and v is None))
        for k, v in value.items()
    )
