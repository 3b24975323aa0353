"""Game recall (GLI-19) in the browser: a player plays a hand, opens their records and
recalls it — the cards per side as dealt, the totals, their bet and net, the roads of
that moment — in English and in Chinese, on a phone and a laptop."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import httpx
import pytest

from e2e.pages import betting_open, new_page, save, sit
from e2e.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


def test_a_player_recalls_a_hand_from_their_records(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    answer = httpx.post(
        server.url("/api/auth/register"), json={"username": "hana", "password": "hana-secret"}
    )
    assert answer.status_code == 201, answer.text
    errors: list[str] = []
    player = new_page(browser, errors)
    player.goto(server.url("/app/#/login"))
    player.get_by_test_id("username").fill("hana")
    player.get_by_test_id("password").fill("hana-secret")
    player.get_by_test_id("login-submit").click()
    player.get_by_test_id("who").wait_for()
    sit(player, server, "online-1", 4)
    betting_open(player)
    player.locator('.chip[data-chip="2500"]').click()
    player.locator('[data-bet="banker"]').click()
    player.locator('[data-action="confirm"]').click()
    expect(player.get_by_test_id("confirmed-banker")).to_have_text("25.00")
    game = player.get_by_test_id("info-game").inner_text()
    expect(player.get_by_test_id("my-result")).to_be_visible(timeout=30_000)
    player.locator('[data-action="leave"]').click()
    expect(player.locator('[data-action="watch"]')).to_be_visible()
    record = cast(dict[str, Any], server.get(f"/api/hands/{game}", "hana", "hana-secret"))

    for locale, width, height in (("en-GB", 1366, 768), ("zh-CN", 390, 844)):
        page = (
            player
            if locale == "en-GB"
            else new_page(browser, errors, width=width, height=height, locale=locale)
        )
        if page is not player:
            page.goto(server.url("/app/#/login"))
            page.get_by_test_id("username").fill("hana")
            page.get_by_test_id("password").fill("hana-secret")
            page.get_by_test_id("login-submit").click()
            expect(page.get_by_test_id("who")).to_contain_text("hana")  # hidden on a phone
        else:
            page.set_viewport_size({"width": width, "height": height})
        page.goto(server.url("/app/#/records"))
        page.locator(f'[data-recall="{game}"]').click()
        recall = page.locator(f'article.recall[data-game="{game}"]')
        expect(recall).to_be_visible()
        shown = recall.get_by_test_id("recall-shown")
        for side, prefix in (("player", "P"), ("banker", "B")):
            cards = [c for p, c in record["cards"] if p.startswith(prefix)]
            expect(shown.locator(f'[data-side="{side}"] .card')).to_have_count(len(cards))
            total = record["outcome"][f"{side}_total"]
            expect(shown.locator(f'[data-side="{side}"] .recall-total')).to_contain_text(str(total))
        net = (
            record["net"]
            if isinstance(record.get("net"), int)
            else record["results"]["hana"]["settlement"]["total_net"]
        )
        expect(recall.get_by_test_id("recall-net-then")).to_contain_text(f"{abs(net) / 100:.2f}")
        expect(recall.locator(".recall-roads circle.bead").last).to_be_visible()
        recall.scroll_into_view_if_needed()
        save(page, shots, f"recall-{locale}-{width}")
    assert errors == []
