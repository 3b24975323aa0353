"""Game recall (GLI-19) in the browser: a player plays a hand, opens their records and
recalls it — the cards per side as dealt, the totals, their bet and net, the roads of
that moment — in English and in Chinese, on a phone and a laptop."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from web.pages import leave_seat, new_page, register_and_play, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


def test_a_player_recalls_a_hand_from_their_records(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    player = new_page(browser, errors)
    game = register_and_play(player, server, "hana", "online-1", 4, "banker")
    leave_seat(player)
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
