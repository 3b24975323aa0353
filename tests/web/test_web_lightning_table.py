"""A multiplier table [LB] in Chromium: a live table of the ``lightning`` preset, made
through the back office's API, dealt from the dealer console. The player's page shows the
fee on the bet, the strip of lightning cards with their multipliers before any card is
dealt, the lit card marked in the winning hand and the multiplied win; at phone and
desktop sizes, in English and Chinese (the pictures are saved for a look)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from lightning_support import player_natural_with

from punto.cards import Card
from web.pages import betting_open, log_in, new_page, new_player, save, sit
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow

TABLE = "bolt-web"
WORDS = {
    "en": ("Lightning cards", "fee 2.00", "Lightning ×"),
    "zh": ("闪电牌", "手续费 2.00", "闪电 ×"),
}
SIZES = ((390, 844), (1366, 768))


def _console(page: Page, server: Server) -> None:
    log_in(page, server, "dana")
    page.get_by_test_id(f"deal-{TABLE}").click()
    page.get_by_test_id("card-input").wait_for()
    page.locator('[data-action="start_shoe"]:not([disabled])').click()
    page.locator('[data-action="open_betting"]:not([disabled])').wait_for()


def _scan(page: Page, card: str, position: str) -> None:
    """Scan ``card``, again while the table still shows its lightning cards (refused)."""
    slot = page.locator(f'.slot[data-position="{position}"] .card[data-card="{card}"]')
    for _ in range(40):
        page.get_by_test_id("card-input").fill(card)
        page.get_by_test_id("card-input").press("Enter")
        try:
            slot.wait_for(timeout=500)
            return
        except Exception:  # the show is on: the table said so, nothing was dealt
            continue
    slot.wait_for()


def test_lb_the_strip_comes_before_the_first_card_and_the_win_is_multiplied(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    admin = {"Authorization": f"Bearer {server.token('admin')}"}
    body = {"id": TABLE, "name": "Lightning", "rules": "lightning", "dealing": "live"}
    created = httpx.post(server.url("/api/admin/tables"), json=body, headers=admin)
    assert created.status_code == 201, created.text
    errors: list[str] = []
    dealer = new_page(browser, errors, height=1200)
    player = new_page(browser, errors)
    try:
        _console(dealer, server)
        log_in(player, server, new_player(server, "lb"))
        sit(player, server, TABLE, 2)
        # every card the page is shown, in order, and whether the strip was up then
        player.evaluate(
            """() => { window.__lb = []; new MutationObserver(() => {
                 const cards = document.querySelectorAll('.hands .hand-cards .card').length;
                 const strip = Boolean(document.querySelector('[data-testid=lightning-strip]'));
                 const last = window.__lb[window.__lb.length - 1];
                 if (!last || last.cards !== cards || last.strip !== strip)
                   window.__lb.push({ cards, strip });
               }).observe(document.body, { subtree: true, childList: true }); }"""
        )
        dealer.locator('[data-action="open_betting"]').click()
        betting_open(player, seconds=2)
        player.locator('.chip[data-chip="1000"]').click()
        player.locator('[data-bet="player"]').click()
        expect(player.get_by_test_id("bet-fee")).to_have_text("fee 2.00")  # before confirm
        player.locator('[data-action="confirm"]').click()
        expect(player.get_by_test_id("confirmed-player")).to_have_text("10.00")
        expect(player.get_by_test_id("bet-fee")).to_have_text("fee 2.00")
        dealer.locator('[data-action="close_betting"]').click()
        strip = player.get_by_test_id("lightning-strip")
        expect(strip).to_be_visible()
        player.wait_for_function(  # the strip's entrance played out, for the picture
            "() => document.querySelector('.lightning-strip').getAnimations().length === 0"
        )
        for width, height in SIZES:  # the show: the strip up, no card yet
            player.set_viewport_size({"width": width, "height": height})
            save(player, tmp_path, f"lightning-show-en-{width}")
        drawn = [
            (
                Card.parse(str(c.get_attribute("data-card"))),
                int(str(c.get_attribute("data-multiplier"))),
            )
            for c in strip.locator(".lightning-card").all()
        ]
        assert drawn
        codes, multiplier = player_natural_with(drawn)
        for card, position in zip(codes.split(), ("P1", "B1", "P2", "B2"), strict=True):
            _scan(dealer, card, position)
        lit = player.locator(f'.hand-player .card-lit[data-card="{codes.split()[0]}"]')
        expect(lit).to_have_attribute("data-multiplier", str(multiplier))
        won = f"+{10 * multiplier:.2f}"
        expect(player.get_by_test_id("win-amount")).to_have_text(won)
        expect(player.get_by_test_id("win-multiplier")).to_have_text(f"Lightning ×{multiplier}")
        seen = player.evaluate("() => window.__lb")
        first_card = next(i for i, s in enumerate(seen) if s["cards"] > 0)
        assert seen[first_card]["strip"], seen  # the strip was up before the first card
        assert any(s["strip"] and s["cards"] == 0 for s in seen[:first_card]), seen
        for code, (title, fee, lightning) in WORDS.items():
            player.locator(f'[data-lang="{code}"]').click()
            expect(strip).to_contain_text(title)
            expect(player.get_by_test_id("win-multiplier")).to_contain_text(lightning)
            expect(player.get_by_test_id("bet-fee")).to_have_text(fee)
            for width, height in SIZES:
                player.set_viewport_size({"width": width, "height": height})
                save(player, tmp_path, f"lightning-{code}-{width}")
        assert not errors, errors
    finally:
        httpx.patch(
            server.url(f"/api/admin/tables/{TABLE}"), json={"enabled": False}, headers=admin
        )
