"""One clear balance and each table's own limits, in English and Chinese: after a reload
the table shows one balance figure (never "—"), the lobby lists every table's own limit
tiers by their translated names, and no screen shows a rules preset's raw id."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import pytest

from web.pages import log_in, new_page, new_player
from web.web_support import Server, money

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow

_LANGUAGES = [("en-GB", "Balance", "Low"), ("zh-CN", "余额", "低限红")]


@pytest.mark.parametrize(("locale", "label", "low"), _LANGUAGES)
def test_one_balance_figure_survives_a_reload(
    server: Server, browser: Browser, locale: str, label: str, low: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, locale=locale)
    name = new_player(server, "bal")
    log_in(page, server, name)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    wallet = cast(dict[str, Any], server.get("/api/me", name))["balance"]
    assert isinstance(wallet, int)

    # watching from outside the seats: the figure is the wallet, after a reload too
    page.goto(server.url("/app/#/table/macau-1"))
    figure = page.get_by_test_id("table-balance")
    expect(figure).to_have_text(money(wallet))
    page.reload()
    expect(figure).to_have_text(money(wallet))
    expect(page.locator(".balance span")).to_have_text([label])
    assert page.locator(".balance").count() == 1  # one figure, no second "wallet"
    expect(page.get_by_test_id("standing-note")).to_have_count(0)  # no tie left a bet
    assert errors == []


@pytest.mark.parametrize(("locale", "label", "low"), _LANGUAGES)
def test_the_lobby_shows_each_tables_own_limits_and_no_raw_ids(
    server: Server, browser: Browser, locale: str, label: str, low: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768, locale=locale)
    page.goto(server.url("/app/#/"))
    lobby = cast(dict[str, Any], server.get("/api/lobby"))["tables"]
    assert lobby
    for table in lobby:
        card = page.locator(f'article.table-card[data-table="{table["id"]}"]')
        items = card.locator('[data-testid="lobby-limits"] li')
        expect(items).to_have_count(len(table["tiers"]))
        for tier in table["tiers"]:
            item = card.locator(f'[data-testid="lobby-limits"] li[data-tier="{tier["name"]}"]')
            text = item.inner_text()
            assert f"{money(tier['min_bet'])}–{money(tier['max_bet'])}" in text
            if tier["name"] == "low":
                assert text.startswith(low)
        shown = card.inner_text()
        for raw in (table["rules"], table["kind"]):  # as a word, not inside a game number
            assert not re.search(rf"(?<![\w-]){raw}(?![\w-])", shown), f"raw id {raw} shown"

    # every table's header names its preset and kind by their display names
    for table in lobby:
        page.goto(server.url(f"/app/#/table/{table['id']}"))
        sub = page.locator(".table-sub")
        sub.wait_for()
        text = sub.inner_text()
        assert table["rules"] not in text, text
        assert "_" not in text, text
    assert errors == []


def test_a_player_at_the_lobby_sees_the_wallet(server: Server, browser: Browser) -> None:
    """The lobby's banner has the same figure the table shows (from ``/api/me``)."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    name = new_player(server, "bal")
    log_in(page, server, name)
    wallet = cast(dict[str, Any], server.get("/api/me", name))["balance"]
    page.goto(server.url("/app/#/"))
    expect(page.locator(".lobby-banner")).to_contain_text(money(wallet))
    assert errors == []
