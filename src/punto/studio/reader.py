"""The card-reader process (``punto studio reader``): a shoe's reads dealt as the table's
dealer [L].

It signs in as the table's dealer, keeps the table's WebSocket open (the same one the
dealer's console uses), and takes the reads in order: each is dealt when the table takes a
card (its ``legal`` actions for the dealer), a read that fails is the fault "card not
scanned" and the next good read is its re-scan (:mod:`punto.studio.reads`). A card read
before the table takes cards (betting still open) waits for it: cards are dealt in the
order they left the shoe. The dealer's console shows every card and fault as the reader
sends them, and keeps its manual entry for when the reader is down.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from punto.cards import Card
from punto.errors import AuthError, ReaderError
from punto.studio.reads import Read, Step, StepKind, next_step, read_line, refused

__all__ = ["ReaderReport", "run_reader", "sign_in"]

_REFUSED_CARDS = frozenset({"card", "card_not_in_shoe"})
"""The error codes of a card the table cannot take whatever the moment (the shoe holds
no such card): the fault "card not scanned", not a wait."""


@dataclass
class ReaderReport:
    """What the reader did: cards dealt (re-scans among them), faults reported, failed
    re-scans and the cut card."""

    dealt: int = 0
    rescans: int = 0
    faults: int = 0
    skipped: int = 0
    cut: int = 0
    steps: list[dict[str, Any]] = field(default_factory=list)


async def sign_in(base_url: str, user: str, password: str) -> str:
    """A session token for the dealer ``user`` (``POST /api/auth/login``)."""
    import httpx

    async with httpx.AsyncClient(base_url=base_url, timeout=20) as http:
        try:
            answer = await http.post(
                "/api/auth/login", json={"username": user, "password": password}
            )
        except httpx.TransportError as exc:
            raise ReaderError(f"the table server at {base_url} does not answer: {exc}") from None
    if answer.status_code != 200:
        raise AuthError(f"{user} could not sign in: {_message(answer.json())}")
    return str(answer.json()["token"])


def _message(body: object) -> str:
    if isinstance(body, Mapping):
        return str(body.get("message") or body.get("error") or body)
    return str(body)


def _ws_url(base_url: str, table: str, token: str) -> str:
    parts = urlsplit(base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    path = parts.path.rstrip("/") + f"/ws/tables/{quote(table, safe='')}"
    return urlunsplit((scheme, parts.netloc, path, f"token={quote(token, safe='')}", ""))


class _Table:
    """What the reader knows of the table from its messages: the dealer's legal actions,
    this hand's cards, and the answers to its requests."""

    def __init__(self) -> None:
        self.legal: frozenset[str] = frozenset()
        self.game: str | None = None
        self.layout: list[Card] = []
        self.changed = asyncio.Event()
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.closed: str | None = None

    def take(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            state = message.get("state") or {}
            self._legal(state.get("legal"))
            self.game = state.get("game")
            self.layout = [Card.parse(c["card"]) for c in state.get("cards") or () if c["card"]]
        elif kind == "legal_actions":
            self._legal(message.get("legal"))
        elif kind == "event":
            self._event(message.get("event") or {})
        elif kind in ("ok", "error"):
            future = self.answers.pop(str(message.get("request_id")), None)
            if future is not None and not future.done():
                future.set_result(dict(message))
        self.changed.set()

    def _legal(self, legal: object) -> None:
        if isinstance(legal, Mapping):
            self.legal = frozenset(str(a) for a in legal.get("actions") or ())

    def _event(self, event: Mapping[str, Any]) -> None:
        game = event.get("game")
        if game is not None and game != self.game:
            self.game, self.layout = str(game), []
        if event.get("kind") == "hand_restarted":
            self.layout = []
        elif event.get("kind") == "card_placed" and event.get("card"):
            self.layout.append(Card.parse(str(event["card"])))


async def run_reader(
    base_url: str,
    table: str,
    token: str,
    reads: AsyncIterator[str],
    *,
    say: Callable[[dict[str, Any]], None] = lambda step: None,
) -> ReaderReport:
    """Deal ``reads`` (the reader's lines) at ``table`` as the dealer whose session is
    ``token``, until the lines end and every read is dealt; ``say`` hears of each step."""
    import websockets

    state = _Table()
    report = ReaderReport()
    url = _ws_url(base_url, table, token)
    try:
        ws = await websockets.connect(url, max_size=2**24, max_queue=None)
    except (OSError, websockets.InvalidHandshake) as exc:
        raise ReaderError(f"cannot open table {table} at {base_url}: {exc}") from None
    async with ws:
        receiving = asyncio.create_task(_receive(ws, state))
        try:
            dealer = _Dealer(ws, state, report, say)
            async for line in reads:
                read = read_line(line)
                if read is not None:
                    await dealer.handle(read)
                if state.closed is not None:
                    break
        finally:
            receiving.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await receiving
    if state.closed is not None:
        raise ReaderError(f"table {table} closed the reader's connection: {state.closed}")
    return report


async def _receive(ws: Any, state: _Table) -> None:
    try:
        async for raw in ws:
            state.take(json.loads(raw))
    except Exception as exc:  # the connection ended: the reader stops with the reason
        state.closed = str(exc) or type(exc).__name__
    else:
        state.closed = "the connection closed"
    finally:  # cancelled when the reads are done; otherwise the reader is told
        state.changed.set()
        for future in state.answers.values():
            if not future.done():
                future.set_result({"type": "error", "error": "closed", "message": state.closed})


class _Dealer:
    """Takes one read at a time to the table (:func:`next_step`)."""

    def __init__(
        self,
        ws: Any,
        state: _Table,
        report: ReaderReport,
        say: Callable[[dict[str, Any]], None],
    ) -> None:
        self._ws = ws
        self._state = state
        self._report = report
        self._say = say
        self._n = 0
        self._owed = False
        """A fault this reader reported waits for its re-scan (until the table says so)."""

    def _legal(self) -> frozenset[str]:
        legal = self._state.legal
        if self._owed and "deal_card" in legal:
            return legal | {"rescan"}
        return legal

    async def handle(self, read: Read) -> None:
        step = next_step(read, legal=self._legal(), layout=self._state.layout)
        while True:
            if self._state.closed is not None:
                return
            if step.kind is StepKind.WAIT:
                await self._changed()
                step = next_step(read, legal=self._legal(), layout=self._state.layout)
                continue
            answer = await self._send(step)
            if answer is None:  # nothing to send
                return
            if answer["type"] == "ok":
                self._done(read, step)
                return
            code = str(answer.get("error"))
            if step.rescan and code == "fault":  # the re-scan was made meanwhile (the console)
                self._owed = False
                step = next_step(read, legal=self._legal(), layout=self._state.layout)
                continue
            if step.kind is StepKind.DEAL and code in _REFUSED_CARDS:
                self._tell(read, step, refused=answer.get("message"))
                step = refused(legal=self._legal())
                continue
            # refused for the moment (the table moved on meanwhile): try again once it moves
            self._tell(read, step, waiting=answer.get("message"))
            await self._changed()
            step = next_step(read, legal=self._legal(), layout=self._state.layout)

    async def _changed(self) -> None:
        """Until what the table allows, its hand or its cards change (or it is gone)."""
        state = self._state
        before = (state.legal, state.game, len(state.layout))
        while state.closed is None and (state.legal, state.game, len(state.layout)) == before:
            state.changed.clear()
            await state.changed.wait()

    async def _send(self, step: Step) -> dict[str, Any] | None:
        if step.kind is StepKind.SKIP:
            self._report.skipped += 1
            self._say({"step": "skip", "misread": step.misread, "rescan_owed": True})
            return None
        if step.kind is StepKind.CUT:
            message: dict[str, Any] = {"type": "cut_card_out"}
        elif step.kind is StepKind.REPORT:
            message = {
                "type": "report_fault",
                "fault": "l_card_not_scanned",
                "detail": f"card reader: {step.misread}",
            }
        else:
            assert step.card is not None
            message = {"type": "rescan" if step.rescan else "deal_card", "card": step.card.code}
        self._n += 1
        rid = f"reader-{self._n}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._state.answers[rid] = future
        await self._ws.send(json.dumps({**message, "request_id": rid}))
        return await future

    def _done(self, read: Read, step: Step) -> None:
        report = self._report
        if step.kind is StepKind.REPORT:
            self._owed = True
            report.faults += 1
            self._say({"step": "fault", "misread": step.misread, "read": read.text})
        elif step.kind is StepKind.CUT:
            report.cut += 1
            self._say({"step": "cut_card_out"})
        else:
            assert step.card is not None
            self._owed = False
            report.dealt += 1
            report.rescans += step.rescan
            self._state.layout.append(step.card)  # its event may show it face down
            self._say({"step": "rescan" if step.rescan else "deal", "card": step.card.code})
        report.steps.append({"step": step.kind.value, "read": read.text})

    def _tell(self, read: Read, step: Step, **why: object) -> None:
        self._say({"step": "refused", "read": read.text, **why})
