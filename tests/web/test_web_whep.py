"""The table's video over WebRTC: the development studio (examples/studio_stream.sh
--webrtc: ffmpeg renders the burnt-in clock, examples/whep_studio.py serves it over WHEP
with aiortc) played by headless Chromium's own RTCPeerConnection; a dropped connection
made again by itself; HLS for a browser without WebRTC; the latency meter; cards and results
held until the picture reaches them, never longer than 3 s, and not at all without video."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from web.pages import log_in, new_page, save
from web.studio import needs_ffmpeg, studio
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, needs_ffmpeg]

TABLE = "nocomm-1"
LANGUAGES = (("en", "en-GB"), ("zh", "zh-CN"), ("zh-Hant", "zh-TW"))
SIZES = ((1366, 768), (390, 844))


def _set_video(server: Server, video: dict[str, object]) -> None:
    answer = httpx.patch(
        server.url(f"/api/admin/tables/{TABLE}"),
        json={"video": video},
        headers=server.headers("admin"),
    )
    assert answer.status_code == 200, answer.text


def _page(browser: Browser, errors: list[str], **options: Any) -> Page:
    """A new page whose script errors and console errors both go to ``errors``."""
    page = new_page(browser, errors, **options)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page


def _media_server(hls: str) -> str:
    """The studio's WHEP media server (on the playlist's port + 1)."""
    address = httpx.URL(hls)
    return f"http://{address.host}:{(address.port or 80) + 1}"


def _whep(hls: str) -> dict[str, object]:
    whep = f"{_media_server(hls)}/whep"
    return {
        "whep_url": whep,
        "hls_url": hls,
        "qualities": [{"name": "360p", "whep_url": f"{whep}/360p"}],
    }


def _playing(page: Page, transport: str) -> None:
    """The video plays over ``transport``: its time advances and its delay is known."""
    from playwright.sync_api import expect

    panel = page.locator(".video-panel")
    expect(panel).to_have_attribute("data-transport", transport, timeout=60_000)
    start = page.get_by_test_id("table-video").evaluate("(v) => v.currentTime")
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=table-video]').currentTime > t + 1",
        arg=start,
        timeout=30_000,
    )
    expect(page.get_by_test_id("net-video")).not_to_be_empty(timeout=30_000)


_WIN_AND_CARDS = """() => {
  const win = document.querySelector(".win-display");
  if (!win || !win.getClientRects().length) return null;
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  return { win: box(win), cards: [...document.querySelectorAll(".felt-top .card")].map(box) };
}"""
"""The win display's box and the hand's cards' boxes, read at one moment."""


def _win_beside_the_cards(page: Page) -> None:
    """The next result's win display is up, and no card of the hand is under it."""
    seen = page.wait_for_function(_WIN_AND_CARDS, timeout=60_000).json_value()
    left, top, right, bottom = seen["win"]
    assert len(seen["cards"]) >= 4, seen
    for x0, y0, x1, y1 in seen["cards"]:
        apart = x1 <= left or right <= x0 or y1 <= top or bottom <= y0
        assert apart, f"the win display {seen['win']} covers a card {(x0, y0, x1, y1)}"


@contextlib.contextmanager
def _video_of(server: Server, hls: str) -> Iterator[None]:
    """The table's video set to the studio's for one test, and taken off after."""
    _set_video(server, _whep(hls))
    try:
        yield
    finally:
        _set_video(server, {"whep_url": None, "hls_url": None, "qualities": []})


@pytest.fixture(scope="module")
def whep_studio() -> Iterator[str]:
    """The development studio with its WebRTC media server, for the module: its playlist."""
    with studio(webrtc=True) as (hls, _):
        yield hls


def _hold(page: Page) -> int:
    return int(page.locator(".table-screen").get_attribute("data-hold-ms") or "-1")


def test_webrtc_plays_over_whep_recovers_from_a_drop_and_holds_cards_for_the_picture(
    own_server: Server, browser: Browser, tmp_path: Path, whep_studio: str
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    hls = whep_studio
    with _video_of(own_server, hls):
        page = _page(browser, errors, width=1366, height=768)
        log_in(page, own_server, "ann")
        page.goto(own_server.url(f"/app/#/table/{TABLE}"))
        _playing(page, "webrtc")
        # the studio's burnt-in clock gives the delay: well under a second on loopback
        delay = page.evaluate(
            "() => parseFloat(document.querySelector('[data-testid=net-video]')"
            ".textContent.replace(/[^0-9.]/g, ''))"
        )
        assert 0 <= delay < 1.0, delay
        page.wait_for_function("() => +document.querySelector('.table-screen').dataset.holdMs > 0")
        assert 0 < _hold(page) <= 3000
        # a media server restart: every viewer's connection closed; the page reconnects
        assert httpx.post(f"{_media_server(hls)}/drop").status_code == 200
        panel = page.locator(".video-panel")
        expect(panel).not_to_have_attribute("data-state", "playing", timeout=30_000)
        _playing(page, "webrtc")
        # the quality the studio offers: chosen, played over WebRTC at its size
        page.get_by_test_id("video-quality").select_option("360p")
        _playing(page, "webrtc")
        page.context.close()
        for lang, locale in LANGUAGES:
            shot = _page(browser, errors, width=1366, height=768, locale=locale)
            log_in(shot, own_server, "bob")
            shot.goto(own_server.url(f"/app/#/table/{TABLE}"))
            _playing(shot, "webrtc")
            for width, height in SIZES:  # one connection, the page resized
                shot.set_viewport_size({"width": width, "height": height})
                _win_beside_the_cards(shot)
                save(shot, shots, f"webrtc-{lang}-{width}")
                scroll = shot.evaluate("() => document.documentElement.scrollWidth")
                assert scroll <= width, f"{lang} {width}: the page scrolls sideways"
            shot.context.close()
    assert errors == []


def test_a_browser_without_webrtc_gets_hls(
    own_server: Server, browser: Browser, whep_studio: str
) -> None:
    errors: list[str] = []
    hls = whep_studio
    with _video_of(own_server, hls):
        page = _page(browser, errors, width=1366, height=768)
        page.add_init_script("delete window.RTCPeerConnection")
        log_in(page, own_server, "ann")
        page.goto(own_server.url(f"/app/#/table/{TABLE}"))
        _playing(page, "hls")
        # the picture is held for at most 3 s, however far behind HLS is
        page.wait_for_function("() => +document.querySelector('.table-screen').dataset.holdMs > 0")
        assert 0 < _hold(page) <= 3000
        page.context.close()
    assert errors == []


def test_latency_meter_without_video_shows_the_round_trip_and_holds_nothing(
    own_server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = _page(browser, errors, width=1366, height=768)
    log_in(page, own_server, "ann")
    page.goto(own_server.url(f"/app/#/table/{TABLE}"))
    meter = page.get_by_test_id("net-indicator")
    expect(meter.locator(".net-ms")).to_have_text(re.compile(r"^\d+ ms$"))
    expect(page.get_by_test_id("net-video")).to_be_empty()
    # over two results, nothing waits for a picture that is not there
    page.evaluate(
        """() => {
          window.heldMost = 0;
          const screen = document.querySelector('.table-screen');
          new MutationObserver(() => {
            window.heldMost = Math.max(window.heldMost, +screen.dataset.held || 0,
                                       +screen.dataset.holdMs || 0);
          }).observe(screen, { attributes: true });
        }"""
    )
    for _ in range(2):
        page.wait_for_function(
            "() => [...document.querySelectorAll('.felt-top .card')].length >= 4",
            timeout=60_000,
        )
        page.wait_for_function(
            "() => [...document.querySelectorAll('.felt-top .card')].length === 0", timeout=60_000
        )
    assert page.evaluate("() => window.heldMost") == 0
    assert page.locator(".table-screen").get_attribute("data-hold-ms") == "0"
    expect(page.get_by_test_id("net-warn")).to_be_hidden()

    page.context.close()
    assert errors == []


def test_latency_meter_warns_when_the_table_stops_answering(
    own_server: Server, browser: Browser
) -> None:
    """A ping the table does not answer (its pongs dropped on the way) is a line too slow
    to bet safely: said on a phone, without the header spilling sideways."""
    from playwright.sync_api import WebSocketRoute, expect

    def drop_pongs(ws: WebSocketRoute) -> None:
        table = ws.connect_to_server()
        ws.on_message(table.send)
        table.on_message(
            lambda m: None if '"type":"pong"' in str(m).replace(" ", "") else ws.send(m)
        )

    errors: list[str] = []
    page = _page(browser, errors, width=1366, height=768)
    log_in(page, own_server, "ann")
    page.set_viewport_size({"width": 390, "height": 844})
    page.route_web_socket(re.compile(r"/ws/"), drop_pongs)
    page.goto(own_server.url(f"/app/#/table/{TABLE}"))
    warn = page.get_by_test_id("net-warn")
    expect(warn).to_be_visible(timeout=60_000)
    expect(warn).to_have_text("Too slow to bet safely")
    assert page.get_by_test_id("net-indicator").get_attribute("data-slow") == "true"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the phone's header scrolls sideways ({width}px)"
    page.context.close()
    assert errors == []
