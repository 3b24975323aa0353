"""The administrator adds an operator on the administration page and is shown its secret
once (and the secret signs a launch); disables it; adds a jurisdiction profile with its
durations in minutes and hours and a feature off, edits it and removes it. A refusal is
said in the page's language, never as a code."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import new_page, save
from web.web_support import Server, signed_launch

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SHOTS = Path(os.environ.get("PUNTO_SHOTS", "")) if os.environ.get("PUNTO_SHOTS") else None
"""Where to keep the screenshots (``PUNTO_SHOTS``), to look at them."""


def _admin_tab(page: Page, server: Server, tab: str) -> None:
    page.goto(server.url("/app/#/login"))
    page.get_by_test_id("username").fill("admin")
    page.get_by_test_id("password").fill("admin-demo")
    page.get_by_test_id("login-submit").click()
    page.get_by_test_id("who").wait_for(state="attached")  # hidden on a phone
    page.goto(server.url("/app/#/admin"))
    page.locator(f'[role="tab"][data-tab="{tab}"]').click()


def _launches(server: Server, operator_id: str, secret: str) -> int:
    """The status of a launch signed with ``secret`` for operator ``operator_id``."""
    return signed_launch(server, operator_id, secret, language="en").status_code


def test_the_administrator_adds_an_operator_and_sees_its_secret_once(
    own_server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    server = own_server

    errors: list[str] = []
    page = new_page(browser, errors, height=1100)
    _admin_tab(page, server, "operators")
    operator_id = f"op{secrets.token_hex(3)}"
    form = page.get_by_test_id("new-operator")
    # a bad currency is said in words before anything is sent
    form.get_by_test_id("operator-id").fill(operator_id)
    form.get_by_test_id("operator-name").fill("Casino Example")
    form.get_by_test_id("operator-currencies").fill("EUR, EURO")
    form.get_by_test_id("add-operator").click()
    expect(page.get_by_test_id("operator-error")).to_have_text(
        "“EURO” is not a current ISO 4217 currency code"
    )
    # a code that looks like one but is not: the server's refusal, in words too
    form.get_by_test_id("operator-currencies").fill("EUR, XYZ")
    form.get_by_test_id("add-operator").click()
    expect(page.get_by_test_id("operator-error")).to_have_text(
        "“XYZ” is not a current ISO 4217 currency code"
    )
    form.get_by_test_id("operator-currencies").fill("eur, usd")
    form.get_by_test_id("operator-wallet").fill("https://wallet.casino.example/punto")
    form.get_by_test_id("operator-dialect").select_option("hub88")
    form.get_by_test_id("add-operator").click()

    box = page.get_by_test_id("secret-once")
    expect(box).to_be_visible()
    expect(page.get_by_test_id("secret-warning")).to_contain_text("shown only once")
    secret = page.get_by_test_id("secret-value").input_value()
    assert len(secret) >= 32
    row = page.locator(f'[data-testid="operators"] tr[data-operator="{operator_id}"]')
    expect(row).to_contain_text("Casino Example")
    expect(row).to_contain_text("EUR, USD")
    expect(row).to_contain_text("Hub88")
    expect(page.get_by_test_id(f"status-{operator_id}")).to_have_text("Enabled")
    if SHOTS is not None:
        save(page, SHOTS, "admin-operator-secret-en-1366")
    assert _launches(server, operator_id, secret) == 200  # the secret shown is the one

    # copied, then put away: the page no longer holds it, and never shows it again
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_test_id("copy-secret").click()
    expect(page.locator(".toast-ok", has_text="Secret copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == secret
    page.get_by_test_id("secret-done").click()
    expect(box).to_have_count(0)
    assert secret not in page.content()
    page.reload()
    page.locator('[role="tab"][data-tab="operators"]').click()
    expect(row).to_be_visible()
    expect(page.get_by_test_id("secret-once")).to_have_count(0)
    assert secret not in page.content()

    # the same id again: refused in words
    form.get_by_test_id("operator-id").fill(operator_id)
    form.get_by_test_id("operator-name").fill("Casino Again")
    form.get_by_test_id("operator-currencies").fill("EUR")
    form.get_by_test_id("add-operator").click()
    expect(page.get_by_test_id("operator-error")).to_have_text(
        "That id is already taken by another operator"
    )

    # a new secret: the old one signs nothing now
    page.get_by_test_id(f"rotate-{operator_id}").click()  # the dialog is accepted
    expect(page.get_by_test_id("secret-once")).to_be_visible()
    rotated = page.get_by_test_id("secret-value").input_value()
    assert rotated != secret
    expect(row).to_contain_text("version 2")
    assert _launches(server, operator_id, secret) == 401
    assert _launches(server, operator_id, rotated) == 200

    page.get_by_test_id(f"disable-{operator_id}").click()
    expect(page.get_by_test_id(f"status-{operator_id}")).to_have_text("Disabled")
    expect(page.get_by_test_id(f"enable-{operator_id}")).to_be_visible()
    assert _launches(server, operator_id, rotated) != 200
    # enabled again; a server without the route says so in words, never a code
    page.get_by_test_id(f"enable-{operator_id}").click()
    enabled = page.get_by_test_id(f"status-{operator_id}").filter(has_text="Enabled")
    no_route = page.locator(".toast-error", has_text="This server does not offer that action yet")
    expect(enabled.or_(no_route)).to_be_visible()
    if enabled.count():
        assert _launches(server, operator_id, rotated) == 200
    assert errors == []
    page.context.close()


def _profiles(server: Server) -> dict[str, dict[str, object]]:
    headers = server.headers("admin")
    found = httpx.get(server.url("/api/admin/jurisdictions"), headers=headers).json()
    return {p["id"]: p for p in found["jurisdictions"]}


@pytest.mark.parametrize(("language", "width", "height"), [("en", 1366, 900), ("zh", 390, 844)])
def test_the_administrator_adds_edits_and_removes_a_jurisdiction(
    own_server: Server, browser: Browser, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    server = own_server

    errors: list[str] = []
    page = new_page(
        browser, errors, width=width, height=height, locale={"en": "en-GB", "zh": "zh-CN"}[language]
    )
    _admin_tab(page, server, "jurisdictions")
    profile_id = f"j{secrets.token_hex(3)}"
    form = page.get_by_test_id("jur-form")
    form.get_by_test_id("jur-id").fill(profile_id)
    form.get_by_test_id("jur-name").fill("United Kingdom")
    form.get_by_test_id("jur-reality_check_interval").fill("-5")
    form.get_by_test_id("jur-save").click()
    said = {"en": "Reality check every: a number", "zh": "现实检查间隔：须为大于零"}[language]
    expect(page.get_by_test_id("jur-error")).to_contain_text(said)
    form.get_by_test_id("jur-reality_check_interval").fill("60")  # minutes
    form.get_by_test_id("jur-session_limit").fill("2")  # hours
    form.get_by_test_id("jur-min_hand_interval").fill("2.5")  # seconds
    form.get_by_test_id("jur-off-side_bets").check()
    if SHOTS is not None:
        save(page, SHOTS, f"admin-jurisdiction-form-{language}-{width}")
    form.get_by_test_id("jur-save").click()
    row = page.locator(f'[data-testid="jurisdictions"] tr[data-jurisdiction="{profile_id}"]')
    shown = {"en": ("1 h", "2 h", "2.5 s", "Side bets"), "zh": ("1小时", "2小时", "2.5秒", "边注")}
    for text in shown[language]:
        expect(row).to_contain_text(text)
    kept = _profiles(server)[profile_id]
    assert kept["reality_check_interval"] == 3600
    assert kept["session_limit"] == 7200
    assert kept["min_hand_interval"] == 2.5
    assert kept["features_off"] == ["side_bets"]
    if SHOTS is not None:
        save(page, SHOTS, f"admin-jurisdictions-{language}-{width}")

    # edited: 90 minutes, chat off too, no session limit
    page.get_by_test_id(f"edit-{profile_id}").click()
    expect(form.get_by_test_id("jur-id")).to_have_value(profile_id)
    expect(form.get_by_test_id("jur-reality_check_interval-unit")).to_have_value("h")
    expect(form.get_by_test_id("jur-off-side_bets")).to_be_checked()
    form.get_by_test_id("jur-reality_check_interval").fill("90")
    form.get_by_test_id("jur-reality_check_interval-unit").select_option("min")
    form.get_by_test_id("jur-session_limit").fill("")
    form.get_by_test_id("jur-off-chat").check()
    form.get_by_test_id("jur-save").click()
    expect(row.locator('[data-field="reality_check_interval"]')).to_have_text(
        {"en": "1 h 30 min", "zh": "1小时30分钟"}[language]
    )
    expect(row.locator('[data-field="session_limit"]')).to_have_text(
        {"en": "none", "zh": "无"}[language]
    )
    kept = _profiles(server)[profile_id]
    assert kept["reality_check_interval"] == 5400
    assert kept["session_limit"] is None
    assert kept["features_off"] == ["chat", "side_bets"]

    page.get_by_test_id(f"remove-{profile_id}").click()  # the confirm is accepted
    expect(row).to_have_count(0)
    assert profile_id not in _profiles(server)
    assert errors == []
    page.context.close()
