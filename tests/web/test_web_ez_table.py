"""An EZ Baccarat [EZ] table in Chromium, at phone and desktop sizes in English, simplified
and traditional Chinese: the Dragon 7 and Panda 8 areas and the limits-and-payouts card
name the bets in the language, never by their codes."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import log_in, new_page, new_player, save, sit
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow

NAMES = {
    "en": ("Dragon 7", "Panda 8"),
    "zh": ("龙 7", "熊猫 8"),
    "zh-Hant": ("龍 7", "熊貓 8"),
}
SIZES = ((390, 844), (1280, 900))
CODES = ("dragon7", "panda8", "banker_ez", "dragon7_40", "panda8_25")


def test_the_ez_side_bets_are_named_in_every_language_and_size(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    admin = server.headers("admin")
    body = {"id": "ez-web", "name": "EZ Baccarat", "preset": "ez"}
    created = httpx.post(server.url("/api/admin/tables"), json=body, headers=admin)
    assert created.status_code == 201, created.text
    errors: list[str] = []
    page = new_page(browser, errors)
    try:
        log_in(page, server, new_player(server, "ez"))
        sit(page, server, "ez-web", 3)
        for code, (dragon, panda) in NAMES.items():
            page.locator(f'[data-lang="{code}"]').click()
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                page.locator('[data-tab="side"]').click()
                expect(page.locator("#bet-panel-side")).to_be_visible()
                side = page.locator("#bet-panel-side")
                expect(side.locator('[data-bet="dragon7"] .bet-name')).to_have_text(dragon)
                expect(side.locator('[data-bet="panda8"] .bet-name')).to_have_text(panda)
                save(page, tmp_path, f"ez-side-{code}-{width}")
                card = page.get_by_test_id("limits-card")
                card.locator("summary").click()
                expect(card.locator('tr[data-bet-row="dragon7"] td').first).to_have_text(dragon)
                text = page.locator("body").inner_text()
                assert not [c for c in CODES if c in text], (code, width)
                card.locator("summary").click()
                page.locator('[data-tab="main"]').click()
        assert not errors, errors
    finally:
        httpx.patch(server.url("/api/admin/tables/ez-web"), json={"enabled": False}, headers=admin)
