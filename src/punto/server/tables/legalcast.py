"""The ``legal_actions`` messages a table sends after its events (docs/protocol.md).

After each pass of published events the runner asks :class:`LegalCast` for one envelope:
the new value of each kind of viewer whose value changed since it was last sent — the
dealer, the supervisors and administrators (``auditor``), and each player at the table
(``players``: that player's connections only). Spectators and players not at the table may
do nothing, whatever happens, so their value travels in the snapshot only. Equal values are
encoded once (one text object shared by every player who gets it), and an unchanged value
is not sent again: a chip one player adds costs one small message to that player.

**Asked again only when it may have changed.** A player's own chips and confirms (the
betting round's traffic, thousands of events a hand at a busy table), and their coming,
seat and going, change what that player may do, not what the others may: after a pass of
only such events, only their players are asked (a table of thousands fills up in linear
time). A card dealt in the middle of a coup, and the coup's result that comes with its last
card, change what the dealer may do and what the players who hold a side's cards [M16] or
own the table [O] may do, nobody else's (only a holder may squeeze or read, and the holders
are fixed for the hand once its first card is dealt): after a pass of only cards and the
result, only they are asked (a table of thousands deals each card, and shows the result,
without working out every watcher's unchanged value). A bid-squeeze table, where any
player with a bet may ask for the cards to be opened [O], still asks everyone. Any other
event (a phase, a limit, a shoe, the squeeze …) asks everyone.
(One answer of a player's value rests on the others' bets: ``confirm`` where a table limits
the difference between Banker and Player; it is as of that player's last event, and a
confirm the table refuses says why.)
"""

from __future__ import annotations

from collections.abc import Sequence

from punto.codec import legal_actions_json
from punto.server.fanout.envelopes import LegalEnvelope
from punto.server.fanout.hub import dumps
from punto.server.operators.sessions import without_side_bets
from punto.table import Table, Viewer
from punto.table.events import (
    CHIP_EVENTS,
    BetsConfirmed,
    CardPlaced,
    Event,
    HandResult,
    OpenCardsRequested,
    PlayerConnection,
    PlayerJoined,
    PlayerLeft,
    PlayerSat,
    PlayerStood,
    PlayerWatching,
)
from punto.table.kinds import TableKind
from punto.table.legal import NOTHING, LegalActions

__all__ = ["LegalCast"]

_KINDS = (("dealer", Viewer.DEALER), ("auditor", Viewer.AUDITOR))

_OWN = (
    *CHIP_EVENTS,
    BetsConfirmed,
    OpenCardsRequested,
    PlayerJoined,
    PlayerSat,
    PlayerWatching,
    PlayerStood,
    PlayerLeft,
    PlayerConnection,
)
"""Events that change what their own player may do, and nobody else's value: a player's
chips and confirms, their coming, sitting, standing, leaving and connection."""

_COUP = (CardPlaced, HandResult)
"""A coup's cards and its result: they change what the dealer, the card holders and the
owner may do, nobody else's (:class:`LegalCast`)."""


class LegalCast:
    """What each viewer of one table was last told it may do, and the envelope of what
    changed since."""

    def __init__(self) -> None:
        self._sent: dict[str, LegalActions] = {}
        self._players: dict[str, LegalActions] = {}
        self.no_side_bets: set[str] = set()
        """The players whose jurisdiction turns side bets off: their value leaves the
        side-bet areas out."""

    def envelope(
        self, table: Table, events: Sequence[Event], *, table_id: str, seq: int
    ) -> LegalEnvelope | None:
        """The envelope of the values ``events`` (the pass up to ``seq``) changed (``None``:
        none): ``legal`` maps a kind of viewer to its message text, ``players`` a player to
        theirs."""
        texts: dict[LegalActions, str] = {}

        def text(value: LegalActions) -> str:
            if value not in texts:
                texts[value] = dumps(
                    {
                        "type": "legal_actions",
                        "table": table_id,
                        "seq": seq,
                        "legal": legal_actions_json(value),
                    }
                )
            return texts[value]

        own = all(isinstance(e, _OWN) for e in events)
        kinds: dict[str, str] = {}
        for key, viewer in () if own else _KINDS:
            value = table.legal_actions(viewer)
            if self._sent.get(key) != value:
                self._sent[key] = value
                kinds[key] = text(value)
        players: dict[str, str] = {}
        present = table.seats.participants
        if own:
            asked = {e.player for e in events if isinstance(e, _OWN)}
        elif _coup_only(table, events):
            asked = {p for p in (*table.holders.values(), table.owner) if p is not None}
        else:
            asked = set(present) | self._players.keys()
        for player in asked:
            if player not in present:  # gone: told once that nothing is left to do
                if self._players.pop(player, None) is not None:
                    players[player] = text(NOTHING)
                continue
            value = table.legal_actions(Viewer.PLAYER, player)
            if player in self.no_side_bets:
                value = without_side_bets(value)
            if self._players.get(player, NOTHING) != value:
                self._players[player] = value
                players[player] = text(value)
        if not kinds and not players:
            return None
        return LegalEnvelope(table=table_id, seq=seq, legal=kinds, players=players)

    def known(self, player: str) -> LegalActions:
        """What ``player`` was last told they may do (nothing, if never told)."""
        return self._players.get(player, NOTHING)


def _coup_only(table: Table, events: Sequence[Event]) -> bool:
    """Whether the pass is only cards dealt and the coup's result, at a table where they
    change what the holders and the owner may do and nobody else's (:class:`LegalCast`)."""
    return table.settings.kind is not TableKind.BID_SQUEEZE and all(
        isinstance(e, _COUP) for e in events
    )
