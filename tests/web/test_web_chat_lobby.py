"""Table chat and the lobby's filters, favourites and road alerts in Chromium, at 390×844,
768×1024 and 1366×768, in English and Chinese.

Chat: a player's line reaches the dealer console and another player's page as text (its
markup shown, never run), the dealer's answer reaches the player; on a phone and a tablet
the chat is a drawer opened from the table's header (the one-screen table stays as it is).
Lobby: each filter changes the tables shown, a favourite comes first and stays so after
a reload (kept with the account), and an alert names the table whose road matches, with
a link to join (the streak comes from the server's lobby: the test serves a known one).

Set ``PUNTO_SCREENSHOTS`` to a folder to keep the pictures (``docs/screenshots``)."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

import httpx
import pytest

from web.pages import log_in, new_page, new_player
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response, Route

pytestmark = pytest.mark.slow

SIZES = ((390, 844), (768, 1024), (1366, 768))
NARROW = 900
"""Up to this width the chat is a drawer."""
TABLE = "live-1"
SHOTS = os.environ.get("PUNTO_SCREENSHOTS")


def _sideways(page: Page) -> int:
    return cast(int, page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def _open_chat(page: Page, width: int) -> None:
    """Show the chat: the header's button opens the drawer on a narrow screen."""
    from playwright.sync_api import expect

    if width <= NARROW:
        toggle = page.get_by_test_id("chat-toggle")
        expect(toggle).to_be_visible()
        if toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
    expect(page.get_by_test_id("chat-input")).to_be_visible()


def _close_chat(page: Page, width: int) -> None:
    if (
        width <= NARROW
        and page.get_by_test_id("chat-toggle").get_attribute("aria-expanded") == "true"
    ):
        page.get_by_test_id("chat-toggle").click()


def test_chat_reaches_the_dealer_and_other_players_escaped(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    dealer = new_page(browser, errors, width=1366, height=768)
    log_in(dealer, server, "dana")
    dealer.goto(server.url(f"/app/#/dealer/{TABLE}"))
    expect(dealer.get_by_test_id("chat-panel")).to_be_visible()
    for lang in ("en", "zh"):
        ann, bob = new_player(server, "ch"), new_player(server, "ch")
        pages = {}
        for who in (ann, bob):
            page = new_page(browser, errors)
            log_in(page, server, who)
            page.locator(f'[data-lang="{lang}"]').click()
            page.goto(server.url(f"/app/#/table/{TABLE}"))
            page.locator('[role="timer"]').wait_for()
            pages[who] = page
        for width, height in SIZES:
            where = f"{lang} {width}x{height}"
            marker = secrets.token_hex(3)
            line = f"<b>hi</b> & <img src=x onerror=alert(1)> 你好 {marker}"
            for page in pages.values():
                page.set_viewport_size({"width": width, "height": height})
            if width <= NARROW:
                expect(pages[ann].get_by_test_id("chat-panel")).to_be_hidden()
            page = pages[ann]
            _open_chat(page, width)
            title = "聊天" if lang == "zh" else "Chat"
            expect(page.locator(".chat-panel h2")).to_have_text(title)
            page.get_by_test_id("chat-input").fill(line)
            page.get_by_test_id("chat-send").click()
            expect(page.get_by_test_id("chat-input")).to_have_value("")
            for viewer in (dealer, pages[bob]):
                if viewer is pages[bob]:
                    _open_chat(viewer, width)
                said = viewer.locator(f'.chat-line[data-from="{ann}"] .chat-text', has_text=marker)
                expect(said).to_have_text(line)  # shown as text …
                assert said.locator("b, img").count() == 0, where  # … never as markup
            dealer.get_by_test_id("chat-input").fill(f"Welcome {marker}")
            dealer.get_by_test_id("chat-send").click()
            answer = page.locator('.chat-line[data-from="dana"] .chat-text', has_text=marker)
            expect(answer).to_have_text(f"Welcome {marker}")
            assert _sideways(page) <= 0, where
            size = {390: "phone", 768: "tablet"}.get(width, "desktop")
            _shot(page, f"chat-{size}-{lang}")
            for viewer in pages.values():
                _close_chat(viewer, width)
            if width <= NARROW:  # the drawer closed, the table is as it was
                expect(page.get_by_test_id("chat-panel")).to_be_hidden()
                expect(page.locator('[data-testid="table-balance"]')).to_be_in_viewport()
        if lang == "en":  # a supervisor mutes Ann from the supervision page, then unmutes
            sup = new_page(browser, errors)
            log_in(sup, server, "sam")
            sup.goto(server.url("/app/#/supervisor"))
            sup.locator('[data-tab="s-chat"]').click()
            sup.get_by_test_id("super-chat-table").select_option(TABLE)
            mute = sup.get_by_test_id(f"mute-{ann}").last
            expect(mute).to_have_text("Mute")
            mute.click()
            expect(pages[ann].get_by_test_id("chat-muted")).to_contain_text("muted")
            expect(pages[ann].get_by_test_id("chat-input")).to_be_disabled()
            expect(sup.get_by_test_id(f"mute-{ann}").last).to_have_text("Unmute")
            sup.get_by_test_id(f"mute-{ann}").last.click()
            expect(pages[ann].get_by_test_id("chat-input")).to_be_enabled()
            sup.locator("form:has([data-testid=super-chat-game]) button").click()
            expect(sup.get_by_test_id("super-chat-kept")).to_contain_text(f"Welcome {marker}")
            _shot(sup, "chat-supervisor")
            sup.context.close()
        # an empty line is refused in the player's language, nothing is sent
        page = pages[ann]
        _open_chat(page, 1366)
        page.get_by_test_id("chat-input").fill("   ")
        page.get_by_test_id("chat-send").click()
        expect(page.get_by_test_id("chat-input")).to_have_value("   ")
        expect(page.get_by_test_id("chat-error")).to_have_text(
            "请先输入消息" if lang == "zh" else "Type a message first"
        )
        for page in pages.values():
            page.context.close()
    _shot(dealer, "chat-dealer-console")
    dealer.context.close()
    assert errors == []


def _visible_tables(page: Page) -> list[str]:
    return cast(
        list[str],
        page.locator(".lobby-grid .table-card").evaluate_all(
            "els => els.map(e => e.dataset.table)"
        ),
    )


def _serve_streak(server: Server, streaks: dict[str, dict[str, object]]) -> Callable[[Route], None]:
    """A route handler giving the lobby as the server says, with ``streaks`` put in."""

    def handle(route: Route) -> None:
        lobby = httpx.get(server.url("/api/lobby")).json()
        for table in lobby["tables"]:
            table["streak"] = streaks.get(table["id"], {"side": None, "length": 0, "ping_pong": 0})
        route.fulfill(status=200, content_type="application/json", body=json.dumps(lobby))

    return handle


def _lobby_saved(response: Response) -> bool:
    """The answer to a save of the player's lobby (favourites and alerts)."""
    return response.url.endswith("/api/me/lobby") and response.request.method == "PUT"


def test_lobby_filters_favourites_and_road_alerts(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    for lang in ("en", "zh"):
        player = new_player(server, "ch")
        page = new_page(browser, errors)
        log_in(page, server, player)
        page.locator(f'[data-lang="{lang}"]').click()
        streaks = {"macau-1": {"side": "banker", "length": 5, "ping_pong": 0}}
        page.route("**/api/lobby", _serve_streak(server, streaks))
        page.goto(server.url("/app/#/"))
        page.locator(".lobby-grid .table-card").first.wait_for()
        everything = _visible_tables(page)
        assert {"macau-1", "live-1", "vip-1", "bid-1", "spb-1"} <= set(everything)
        for width, height in SIZES:
            where = f"{lang} {width}x{height}"
            page.set_viewport_size({"width": width, "height": height})
            page.get_by_test_id("filter-kind").select_option("live")
            expect(page.locator(".lobby-grid .table-card")).to_have_count(1)
            assert _visible_tables(page) == ["live-1"], where
            page.get_by_test_id("filter-kind").select_option("vip")
            expect(page.locator(".lobby-grid .table-card")).to_have_count(1)
            assert _visible_tables(page) == ["vip-1"], where
            page.get_by_test_id("filter-kind").select_option("rng")
            expect(page.locator('.lobby-grid [data-table="live-1"]')).to_have_count(0)
            page.get_by_test_id("filter-kind").select_option("")
            page.get_by_test_id("filter-preset").select_option("super_punto_banco")
            expect(page.locator(".lobby-grid .table-card")).to_have_count(1)
            assert _visible_tables(page) == ["spb-1"], where
            page.get_by_test_id("filter-preset").select_option("")
            page.get_by_test_id("filter-amount").fill("99999999")
            expect(page.get_by_test_id("lobby-none")).to_be_visible()
            page.get_by_test_id("filter-amount").fill("")
            expect(page.locator(".lobby-grid .table-card")).to_have_count(len(everything))
            assert _sideways(page) <= 0, where
        page.get_by_test_id("filter-clear").click()

        # a favourite comes first, kept with the account
        with page.expect_response(_lobby_saved):
            page.get_by_test_id("fav-spb-1").click()
        expect(page.get_by_test_id("fav-spb-1")).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(
            "() => document.querySelector('.lobby-grid .table-card').dataset.table === 'spb-1'"
        )
        page.reload()
        page.locator(".lobby-grid .table-card").first.wait_for()
        page.wait_for_function(
            "() => document.querySelector('.lobby-grid .table-card').dataset.table === 'spb-1'"
        )
        expect(page.get_by_test_id("fav-spb-1")).to_have_attribute("aria-pressed", "true")

        # an alert: macau-1's Big Road shows 5 Banker in a row
        page.locator(".lobby-alert-setup summary").click()
        page.get_by_test_id("alert-pattern").select_option("player")
        page.get_by_test_id("alert-length").fill("4")
        with page.expect_response(_lobby_saved):
            page.get_by_test_id("alert-add").click()
        expect(page.locator(".lobby-alert-rules li")).to_have_count(1)
        expect(page.get_by_test_id("alert-macau-1")).to_have_count(0)
        page.get_by_test_id("alert-pattern").select_option("banker")
        with page.expect_response(_lobby_saved):
            page.get_by_test_id("alert-add").click()
        hit = page.get_by_test_id("alert-macau-1")
        expect(hit).to_be_visible()
        expect(hit).to_contain_text("庄连开 5 局" if lang == "zh" else "Banker 5 in a row")
        expect(page.get_by_test_id("lobby-alerts")).to_have_attribute("aria-live", "polite")
        expect(hit.locator("a")).to_have_attribute("href", "#/table/macau-1")
        saved = httpx.get(server.url("/api/me/lobby"), headers=server.headers(player)).json()
        assert saved["favourites"] == ["spb-1"]
        assert {(a["pattern"], a["length"]) for a in saved["alerts"]} == {
            ("player", 4),
            ("banker", 4),
        }
        for width, height, size in ((390, 844, "phone"), (1366, 768, "desktop")):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            _shot(page, f"lobby-alerts-{size}-{lang}")
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_test_id("filter-kind").select_option("vip")
        expect(page.locator(".lobby-grid .table-card")).to_have_count(1)
        _shot(page, f"lobby-filtered-phone-{lang}")
        hit.locator("a").click()
        page.wait_for_url("**/#/table/macau-1")
        page.context.close()
    assert errors == []
