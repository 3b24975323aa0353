"""Tap a chip, tap a spot: a logged-in player who is not at the table bets with the first
tap on a spot (the page takes a watcher's place for them); chips not confirmed when
betting closes are announced as not placed; auto-confirm sends them in time."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from web.pages import betting_open, log_in, new_page, new_player
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow

TABLE = "macau-1"


@pytest.mark.parametrize(
    ("width", "height", "locale", "not_placed"),
    [(1366, 768, "en-GB", "Not placed: 10.00"), (390, 844, "zh-CN", "未下注：10.00")],
)
def test_a_first_tap_on_a_spot_places_a_chip_and_unconfirmed_chips_are_announced(
    server: Server, browser: Browser, width: int, height: int, locale: str, not_placed: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768, locale=locale)
    log_in(page, server, new_player(server, "tap"))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server.url(f"/app/#/table/{TABLE}"))
    expect(page.locator('[data-action="watch"]')).to_be_visible()
    betting_open(page)
    # not seated, not watching: the spot is live, and the first tap places the chip
    page.locator('.chip[data-chip="1000"]').click()
    page.locator('[data-bet="player"]').click()
    expect(page.get_by_test_id("pending-player")).to_have_text("+10.00")
    expect(page.locator('[data-action="leave"]')).to_be_visible()
    # left unconfirmed: when betting closes the player is told it was not placed
    expect(page.locator(".toast")).to_contain_text(not_placed, timeout=30_000)
    expect(page.get_by_test_id("pending-player")).to_have_count(0)

    # auto-confirm on: the chips go in before the close, and stay on across a reload
    page.get_by_test_id("auto-confirm").check()
    page.reload()
    expect(page.get_by_test_id("auto-confirm")).to_be_checked()
    betting_open(page)
    if not page.locator('[data-action="leave"]').count():
        page.locator('[data-action="watch"]').click()
    page.locator('.chip[data-chip="1000"]').click()
    page.locator('[data-bet="banker"]').click()
    expect(page.get_by_test_id("pending-banker")).to_have_text("+10.00")
    expect(page.get_by_test_id("confirmed-banker")).to_have_text("10.00", timeout=30_000)
    page.get_by_test_id("auto-confirm").uncheck()
    page.context.close()
    assert errors == []
