"""[EZ-C] A side bet closed because the shoe favours it, in Chromium: a live EZ table whose
operator closes side bets below a 0% house edge is dealt thirteen naturals without a seven
(over the dealer's WebSocket); the next hand's Dragon 7 area is shown closed with the
reason in the player's language, at phone and desktop sizes, in English and Chinese."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from web.pages import log_in, new_page, new_player, save, sit
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser
    from websockets.sync.connection import Connection

pytestmark = pytest.mark.slow

NATURALS = (
    "9S 8H KD KC",
    "4S 5H 4D 3C",
    "2S 6H 6D 2C",
    "AS QH 8D 8C",
    "JS 9H 8D QC",
    "TS 9H 9D TC",
    "KS QH 8D 9C",
)
"""Two-card naturals without a seven (shoe order P1 B1 P2 B2)."""
TURNS_AFTER = 13
"""Hands of them after which Dragon 7's house edge is below zero."""
REASON = {
    "en": "Closed this hand: the shoe favours this bet",
    "zh": "本局暂停：牌靴对此注有利",
}
SIZES = ((390, 844), (1366, 768))


class _Dealer:
    """The dealer's commands over the table's WebSocket, each waited for its answer."""

    def __init__(self, ws: Connection) -> None:
        self.ws = ws
        self.n = 0

    def ok(self, message: dict[str, Any]) -> None:
        self.n += 1
        rid = f"d{self.n}"
        self.ws.send(json.dumps({**message, "request_id": rid}))
        while True:
            answer = json.loads(self.ws.recv(timeout=30))
            if answer.get("request_id") == rid:
                assert answer["type"] == "ok", answer
                return

    def until_event(self, kind: str) -> None:
        while True:
            message = json.loads(self.ws.recv(timeout=60))
            if message.get("type") == "event" and message["event"]["kind"] == kind:
                return


@pytest.fixture
def dealer(server: Server) -> Iterator[_Dealer]:
    from websockets.sync.client import connect

    admin = server.headers("admin")
    body = {
        "id": "ez-turns",
        "name": "EZ live",
        "rules": "ez",
        "dealing": "live",
        "betting_seconds": 600,
        "overrides": {"close_below_edge": 0},
    }
    created = httpx.post(server.url("/api/admin/tables"), json=body, headers=admin)
    assert created.status_code == 201, created.text
    url = (
        server.base.replace("http://", "ws://")
        + f"/ws/tables/ez-turns?token={server.token('dana')}"
    )
    try:
        with connect(url, max_size=2**24) as ws:
            yield _Dealer(ws)
    finally:
        httpx.patch(
            server.url("/api/admin/tables/ez-turns"), json={"enabled": False}, headers=admin
        )


def test_ez_c_a_closed_dragon7_shows_its_reason_in_the_players_language(
    server: Server, browser: Browser, dealer: _Dealer, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("PUNTO_SHOTS", str(tmp_path)))
    from playwright.sync_api import expect

    dealer.ok({"type": "start_shoe"})
    for i in range(TURNS_AFTER):
        dealer.ok({"type": "open_betting"})
        dealer.ok({"type": "close_betting"})
        for card in NATURALS[i % len(NATURALS)].split():
            dealer.ok({"type": "deal_card", "card": card})
        dealer.until_event("hand_settled")
    dealer.ok({"type": "open_betting"})

    errors: list[str] = []
    page = new_page(browser, errors)
    try:
        log_in(page, server, new_player(server, "ezc"))
        sit(page, server, "ez-turns", 2)
        for code, reason in REASON.items():
            page.locator(f'[data-lang="{code}"]').click()
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.locator('[data-tab="side"]').click()
                side = page.locator("#bet-panel-side")
                dragon = side.locator('[data-bet="dragon7"]')
                expect(dragon).to_have_attribute("data-closed", "edge_closed")
                expect(dragon).to_be_disabled()
                expect(page.get_by_test_id("closed-dragon7")).to_have_text(reason)
                # Panda 8 is not closed for the edge (whether betting is still open when the
                # page gets here depends on the machine's speed, not on the closing)
                panda = side.locator('[data-bet="panda8"]')
                expect(panda).not_to_have_attribute("data-closed", "edge_closed")
                assert side.locator('[data-testid="closed-panda8"]').count() == 0
                save(page, shots, f"ez-closed-{code}-{width}")
                text = page.locator("body").inner_text()
                assert "edge_closed" not in text
                assert "EZ-C" not in text
                page.locator('[data-tab="main"]').click()
        assert not errors, errors
    finally:
        page.close()
