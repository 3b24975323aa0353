"""Tables named in the player's language in Chromium at 390×844: the lobby card and the
table's header show the demo table's Simplified Chinese name in zh, its Traditional name
in zh-Hant and the English name in en, switching language re-draws them without a reload;
the administration page's names editor shows the names per language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from web.pages import log_in, new_page
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow

NAMES = {"en": "Macau", "zh": "澳门", "zh-Hant": "澳門"}
"""macau-1's names (punto.server.tables.configs.DEMO_TABLES)."""


def test_the_lobby_and_the_table_show_the_name_in_the_players_language(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=390, height=844)
    page.goto(server.url("/app/#/"))
    card = page.locator('article[data-table="macau-1"] h2')
    for language, name in NAMES.items():
        page.locator(f'[data-lang="{language}"]').click()
        expect(page.locator("html")).to_have_attribute(
            "lang", "zh-Hans" if language == "zh" else language
        )
        expect(card).to_have_text(name)
    expect(page.locator('article[data-table="spb-1"] h2')).to_have_text("超級百家樂")

    page.goto(server.url("/app/#/table/macau-1"))
    title = page.locator(".table-title h1")
    for language, name in NAMES.items():
        page.locator(f'[data-lang="{language}"]').click()
        expect(title).to_have_text(name)  # the table's id is for staff, not players
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == []


def test_the_administrator_sees_the_names_per_language(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, "admin")  # the header names the user at desktop width
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url("/app/#/admin"))
    page.locator('[data-lang="zh"]').click()
    expect(
        page.locator('[data-testid=admin-tables] tr[data-table="macau-1"] td').nth(1)
    ).to_have_text("澳门")
    page.get_by_test_id("names-edit-macau-1").click()
    editor = page.get_by_test_id("names-macau-1")
    expect(editor.get_by_test_id("name-default")).to_have_value("Macau")
    expect(editor.get_by_test_id("name-zh")).to_have_value("澳门")
    expect(editor.get_by_test_id("name-zh-Hant")).to_have_value("澳門")
    expect(editor).to_contain_text("繁體中文名称")
    editor.get_by_test_id("save-names").click()  # unchanged: the other tests' names stay
    expect(page.locator(".toast-ok").filter(has_text="已保存")).to_be_visible()
    assert errors == []
