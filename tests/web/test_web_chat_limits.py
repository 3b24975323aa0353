"""The table chat's edges in the browser: a paste longer than a line may be is cut to the
limit and the player told so, in their language; each line's time is on the app's 24-hour
clock. Screenshots go to ``PUNTO_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from web.pages import log_in, new_page, new_player, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

TABLE = "macau-1"
CUT = {
    "en": "A message has at most 300 characters: yours was cut to fit",
    "zh": "消息最多 300 个字，已截短",
}


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_paste_is_cut_with_a_notice_and_times_are_24_hour(
    server: Server, browser: Browser, tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    page = new_page(browser, errors, width=size[0], height=size[1])
    log_in(page, server, new_player(server, "cl"))
    page.locator(f'[data-lang="{lang}"]').click()
    page.goto(server.url(f"/app/#/table/{TABLE}"))
    page.locator('[role="timer"]').wait_for()
    toggle = page.get_by_test_id("chat-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    field = page.get_by_test_id("chat-input")
    marker = secrets.token_hex(3)
    field.fill(marker + "你" * 5000)
    expect(page.get_by_test_id("chat-error")).to_have_text(CUT[lang])
    kept = field.input_value()
    assert len(kept) == 300
    assert kept.startswith(marker)
    save(page, shots, f"chat-cut-{size[0]}x{size[1]}-{lang}")
    page.get_by_test_id("chat-send").click()
    expect(field).to_have_value("")
    line = page.locator(".chat-line", has_text=marker)
    expect(line.locator(".chat-text")).to_have_text(kept)
    shown = line.locator(".chat-time").inner_text()
    assert re.fullmatch(r"[0-2]\d:[0-5]\d", shown), shown  # 24-hour, no AM/PM
    assert errors == []


def test_the_clock_is_24_hour_in_every_language(server: Server, browser: Browser) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, locale="en-US")
    page.goto(server.url("/app/"))
    shown = page.evaluate(
        """async () => {
             const i18n = await import('/app/js/i18n.js');
             const { clockTime } = await import('/app/js/format.js');
             const out = [];
             const afternoon = new Date(2026, 0, 2, 15, 7, 9).getTime() / 1000;
             for (const code of ['en', 'zh', 'zh-Hant']) {
               i18n.setLang(code);
               out.push(clockTime(afternoon), clockTime(afternoon, { seconds: true }));
             }
             i18n.setLang('en');
             return out;
           }"""
    )
    assert shown == ["15:07", "15:07:09"] * 3
    assert errors == []
