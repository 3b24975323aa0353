"""The administrator composes a table from a preset plus an override and sees the exact
edge change before opening it; the table opens with those rules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from web.pages import log_in, new_page, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["open_rules_editor"]


def open_rules_editor(page: Page, server: Server) -> None:
    """Log in as the administrator and wait for the new table's edge preview."""
    log_in(page, server, "admin")
    page.goto(server.url("/app/#/admin"))
    page.get_by_test_id("edge-preview").wait_for()


def test_compose_a_table_from_a_preset_and_an_override(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, height=1400)
    open_rules_editor(page, server)
    editor = page.get_by_test_id("rules-editor").first
    editor.get_by_test_id("rules-preset").select_option("macau")
    tie_edge = editor.get_by_test_id("edge-tie")
    expect(tie_edge).to_have_text("14.3596%")
    editor.locator('select[data-paytable="tie"]').select_option("tie_9")
    expect(tie_edge).to_have_text("4.8440%")
    editor.locator('input[data-field="demo_hands"]').fill("3")
    editor.locator('input[data-field="decks"]').fill("13")
    expect(editor.get_by_test_id("rules-error")).to_contain_text("Decks: decks must be 1-12")
    expect(editor.locator('input[data-field="decks"]')).to_have_attribute("aria-invalid", "true")
    editor.locator('input[data-field="decks"]').fill("8")
    expect(editor.get_by_test_id("rules-error")).to_be_empty()
    expect(tie_edge).to_have_text("4.8440%")

    form = page.get_by_test_id("new-table")
    form.locator('input[name="id"]').fill("tie9-1")
    form.locator('input[name="name"]').fill("Tie pays 9")
    form.get_by_role("button", name="Create table").click()
    row = page.locator('[data-testid="admin-tables"] tr[data-table="tie9-1"]')
    expect(row).to_contain_text("Macau + 2 changes")
    headers = server.headers("admin")
    tables = httpx.get(server.url("/api/admin/tables"), headers=headers).json()["tables"]
    created = next(t for t in tables if t["id"] == "tie9-1")
    assert created["overrides"] == {"demo_hands": 3, "paytables": created["document"]["paytables"]}
    assert created["document"]["paytables"]["tie"] == "tie_9"

    # A promotional Banker paying even money favours the player: warned, then confirmed.
    row.get_by_test_id("rules-tie9-1").click()
    table_editor = page.locator('section[aria-label="Rules of tie9-1"]')
    table_editor.get_by_test_id("edge-banker").wait_for()
    table_editor.locator('select[data-paytable="banker"]').select_option("banker_even_money")
    expect(table_editor.get_by_test_id("negative-edge")).to_contain_text("Banker")
    expect(table_editor.get_by_test_id("edge-banker")).to_have_text("-1.2351%")
    table_editor.get_by_test_id("save-rules").click()  # the dialog is accepted
    expect(page.locator(".toast-ok", has_text="version 2")).to_be_visible()
    assert not errors, errors


def test_the_ez_preset_shows_its_bets_and_edges_in_every_language(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    """[EZ] Dragon 7, Panda 8 and the EZ Banker are named in the language, never by code,
    in the paytable rows and the edge preview (Wizard of Odds' 8-deck edges)."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, height=1400)
    open_rules_editor(page, server)
    editor = page.get_by_test_id("rules-editor").first
    editor.get_by_test_id("rules-preset").select_option("ez")
    expect(editor.get_by_test_id("edge-dragon7")).to_have_text("7.6113%")
    expect(editor.get_by_test_id("edge-panda8")).to_have_text("10.1876%")
    expect(editor.get_by_test_id("edge-banker")).to_have_text("1.0183%")
    names = {"en": ("Dragon 7", "Panda 8"), "zh": ("龙 7", "熊猫 8"), "zh-Hant": ("龍 7", "熊貓 8")}
    for code, (dragon, panda) in names.items():
        page.locator(f'[data-lang="{code}"]').click()
        editor = page.get_by_test_id("rules-editor").first
        editor.get_by_test_id("rules-preset").select_option("ez")
        preview = editor.get_by_test_id("edge-preview")
        expect(preview.locator('tr[data-bet="dragon7"] th')).to_have_text(dragon)
        expect(preview.locator('tr[data-bet="panda8"] th')).to_have_text(panda)
        text = editor.inner_text()
        for code_name in ("dragon7", "panda8", "banker_ez", "dragon7_40", "panda8_25"):
            assert code_name not in text, (code, code_name)
        editor.locator("table.rules-paytables").scroll_into_view_if_needed()
        save(page, tmp_path, f"rules-editor-ez-{code}")
    assert not errors, errors
