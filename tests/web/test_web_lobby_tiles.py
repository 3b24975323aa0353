"""The visual lobby: each table's tile leads with its picture (the studio's still, refreshed,
or the felt with its last results), its phase and its dealer (photo, else initial) on it,
and its Big Road; on a phone two tiles a row. English, Simplified and Traditional Chinese,
phone and desktop."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import log_in, new_page, save
from web.studio import needs_ffmpeg, studio
from web.web_support import Server, run_server

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import Browser

pytestmark = [pytest.mark.slow, needs_ffmpeg]

LANGUAGES = (("en", "en-GB"), ("zh", "zh-CN"), ("zh-Hant", "zh-TW"))
SIZES = ((1366, 768), (390, 844))
PHOTOS = "/app/img/icon.svg?dealer={dealer}"


@pytest.fixture(scope="module")
def photographed() -> Iterator[Server]:
    """A server whose studio keeps its dealers' photos (``PUNTO_DEALER_PHOTOS``)."""
    with run_server(PUNTO_DEALER_PHOTOS=PHOTOS) as running:
        yield running


def test_lobby_tiles_show_the_still_the_dealer_and_the_road(
    photographed: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    server = photographed
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    with studio() as (hls, _):
        still = hls.replace("live.m3u8", "still.jpg")
        answer = httpx.patch(
            server.url("/api/admin/tables/macau-1"),
            json={"video": {"hls_url": hls, "still_url": still}},
            headers=server.headers("admin"),
        )
        assert answer.status_code == 200, answer.text
        for lang, locale in LANGUAGES:
            for width, height in SIZES:
                page = new_page(browser, errors, width=1366, height=768, locale=locale)
                log_in(page, server, "ann")
                page.set_viewport_size({"width": width, "height": height})
                page.goto(server.url("/app/#/"))
                # the studio's still, loaded (a real picture of the stream)
                picture = page.get_by_test_id("thumb-macau-1").locator("img.lobby-still")
                expect(picture).to_have_attribute("src", re.compile(r"still\.jpg\?t=\d+$"))
                page.wait_for_function(
                    "() => { const i = document.querySelector("
                    "'[data-testid=thumb-macau-1] img.lobby-still');"
                    " return i && i.complete && i.naturalWidth >= 320; }"
                )
                # a table without a still: the felt, with its results as beads
                expect(
                    page.get_by_test_id("thumb-nocomm-1").locator(".lobby-felt")
                ).to_be_attached()
                # the dealer on the picture: the studio's photo by name
                dealer = page.locator(".lobby-dealer").first
                expect(dealer).to_be_visible()
                name = dealer.locator(".lobby-dealer-name").inner_text().strip()
                photo = dealer.locator("img.lobby-dealer-photo")
                expect(photo).to_have_attribute("src", PHOTOS.replace("{dealer}", name))
                assert page.locator(".table-card .lobby-road").count() >= 8
                save(page, shots, f"lobby-tiles-{lang}-{width}")
                scroll = page.evaluate("() => document.documentElement.scrollWidth")
                assert scroll <= width, f"{lang} {width}: the lobby scrolls sideways"
                if width == 390:
                    tall = page.evaluate("() => document.documentElement.scrollHeight")
                    rows = -(-page.locator(".table-card").count() // 2)  # two tiles a row
                    assert tall <= 600 + 360 * rows, f"{lang}: the phone lobby is {tall}px long"
                page.context.close()
    assert errors == []


def test_a_dealer_without_a_photo_shows_an_initial(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768)
    log_in(page, server, "bob")
    page.goto(server.url("/app/#/"))
    dealer = page.locator(".lobby-dealer").first
    expect(dealer).to_be_visible()
    initial = dealer.locator(".lobby-dealer-initial")
    name = dealer.locator(".lobby-dealer-name").inner_text().strip()
    expect(initial).to_have_text(name[0].upper())
    page.context.close()
    assert errors == []
