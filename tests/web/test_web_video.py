"""A table's live video in the browser: an administrator sets the table's stream URL, the
table page plays the ffmpeg "studio" (examples/studio_stream.sh: a test pattern served as
live HLS) muted with an unmute button and its measured delay, and shows "video unavailable"
when the studio stops — in English on a laptop and in Chinese on a phone."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import log_in, new_page, save
from web.studio import needs_ffmpeg, stop, studio
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, needs_ffmpeg]

TABLE = "macau-1"


def _set_stream(server: Server, url: str) -> httpx.Response:
    return httpx.patch(
        server.url(f"/api/admin/tables/{TABLE}"),
        json={"stream_url": url},
        headers=server.headers("admin"),
    )


def _plays(page: Page) -> None:
    """The video is playing: its time advances by more than a second."""
    from playwright.sync_api import expect

    panel = page.locator(".video-panel")
    expect(panel).to_have_attribute("data-state", "playing", timeout=30_000)
    start = page.get_by_test_id("table-video").evaluate("(v) => v.currentTime")
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=table-video]').currentTime > t + 1",
        arg=start,
        timeout=30_000,
    )


def test_the_table_page_plays_the_studio_and_says_when_it_stops(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    refused = _set_stream(server, "javascript:alert(1)")
    assert refused.status_code == 400, refused.text
    try:
        with studio() as (url, process):
            assert _set_stream(server, url).status_code == 200
            laptop = new_page(browser, errors, width=1366, height=768)
            log_in(laptop, server, "ann")
            laptop.goto(server.url(f"/app/#/table/{TABLE}"))
            _plays(laptop)
            video = laptop.get_by_test_id("table-video")
            assert video.evaluate("(v) => v.muted") is True
            sound = laptop.get_by_test_id("video-sound")
            expect(sound).to_have_text("Unmute")
            sound.click()
            expect(sound).to_have_text("Mute")
            assert video.evaluate("(v) => v.muted") is False
            expect(laptop.get_by_test_id("video-delay")).to_have_text(
                re.compile(r"^Delay \d+\.\d s$"), timeout=20_000
            )
            save(laptop, shots, "video-en-1366")

            phone = new_page(browser, errors, width=1366, height=768, locale="zh-CN")
            log_in(phone, server, "bob")  # the header's name is hidden on a phone
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(server.url(f"/app/#/table/{TABLE}"))
            _plays(phone)
            expect(phone.get_by_test_id("video-sound")).to_have_text("开启声音")
            expect(phone.get_by_test_id("video-delay")).to_contain_text("延迟", timeout=20_000)
            phone.locator(".video-panel").scroll_into_view_if_needed()
            save(phone, shots, "video-zh-390")
            width = phone.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"the phone page scrolls sideways ({width}px)"

            stop(process)
            for page, text in ((laptop, "Video unavailable"), (phone, "视频暂不可用")):
                panel = page.locator(".video-panel")
                expect(panel).to_have_attribute("data-state", "unavailable", timeout=30_000)
                expect(page.get_by_test_id("video-state")).to_contain_text(text)
            expect(laptop.locator(".table-head")).to_be_visible()
            save(laptop, shots, "video-unavailable-en-1366")
            save(phone, shots, "video-unavailable-zh-390")
            laptop.context.close()
            phone.context.close()
    finally:
        _set_stream(server, "")
    assert errors == []
