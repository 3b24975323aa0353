"""A launched player under a jurisdiction profile sees the reality check when it is due
(time played, net result in their currency; Continue or Leave) and the session's end; the
administrator keeps operators and jurisdiction profiles on the admin page (phone and
desktop, English and Chinese)."""

from __future__ import annotations

import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from punto.ledger.signing import signature
from web.pages import in_one_round, new_page, save, sit

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from web.web_support import Server

SHOTS = Path(os.environ.get("PUNTO_SHOTS", "")) if os.environ.get("PUNTO_SHOTS") else None
"""Where to keep the screenshots (``PUNTO_SHOTS``), to look at them."""

SIZES = [("en", 390, 844), ("en", 1366, 768), ("zh", 390, 844), ("zh", 1366, 768)]


def _admin(server: Server) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.token('admin')}"}


def _operator(server: Server) -> tuple[str, str]:
    operator_id = f"op{secrets.token_hex(3)}"
    answer = httpx.post(
        server.url("/api/admin/operators"),
        json={"id": operator_id, "name": "Casino Example", "currencies": ["EUR"]},
        headers=_admin(server),
    )
    answer.raise_for_status()
    return operator_id, str(answer.json()["secret"])


def _profile(server: Server, **switches: object) -> str:
    profile_id = f"j{secrets.token_hex(3)}"
    answer = httpx.put(
        server.url(f"/api/admin/jurisdictions/{profile_id}"),
        json={"name": "Test region", **switches},
        headers=_admin(server),
    )
    answer.raise_for_status()
    return profile_id


def _launch(server: Server, operator: tuple[str, str], **fields: object) -> str:
    body = json.dumps(
        {
            "player_id": f"u{secrets.token_hex(4)}",
            "display_name": "Mei",
            "currency": "EUR",
            "timestamp": int(time.time()),
            "lobby_url": "https://casino.example/lobby",
            **fields,
        }
    ).encode()
    answer = httpx.post(
        server.url("/api/operator/v1/launch"),
        content=body,
        headers={
            "Content-Type": "application/json",
            "X-Punto-Operator": operator[0],
            "X-Punto-Signature": signature(operator[1], body),
        },
    )
    answer.raise_for_status()
    return str(answer.json()["url"])


@pytest.mark.parametrize(("language", "width", "height"), SIZES)
def test_the_reality_check_shows_time_and_net_result_and_leave_ends_the_session(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height)
    operator = _operator(server)
    profile = _profile(server, reality_check_interval="2s")
    page.goto(_launch(server, operator, language=language, jurisdiction=profile))
    dialog = page.get_by_test_id("rc-dialog")
    dialog.wait_for()
    net = page.get_by_test_id("rc-net").inner_text()
    assert "€0.00" in net
    assert "0" not in net.replace("€0.00", "")  # no minor units, no rule codes
    assert "reality_check" not in dialog.inner_text()
    expect(dialog).to_have_attribute("role", "dialog")
    if SHOTS is not None:
        save(page, SHOTS, f"reality-check-{language}-{width}")
    page.get_by_test_id("rc-continue").click()
    expect(dialog).to_be_hidden()
    dialog.wait_for()  # due again two seconds on
    page.get_by_test_id("rc-leave").click()
    ended = page.get_by_test_id("rc-ended")
    ended.wait_for()
    assert page.get_by_test_id("rc-exit").get_attribute("href") == "https://casino.example/lobby"
    if SHOTS is not None:
        save(page, SHOTS, f"reality-check-left-{language}-{width}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("language", "width", "height"), SIZES)
def test_the_admin_page_keeps_operators_and_jurisdictions(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    locale = "en-GB" if language == "en" else "zh-CN"
    page = new_page(browser, errors, width=width, height=height, locale=locale)
    page.goto(server.url("/app/#/login"))
    page.get_by_test_id("username").fill("admin")
    page.get_by_test_id("password").fill("admin-demo")
    page.get_by_test_id("login-submit").click()
    page.get_by_test_id("who").wait_for(state="attached")  # (a phone's header folds it)
    page.goto(server.url("/app/#/admin"))
    page.locator('[data-tab="operators"]').click()
    form = page.get_by_test_id("new-operator")
    operator_id = f"web{secrets.token_hex(2)}"
    form.locator('input[name="id"]').fill(operator_id)
    form.locator('input[name="name"]').fill("Web Casino")
    form.locator('input[name="currencies"]').fill("EUR,USD")
    form.locator('button[type="submit"]').click()
    page.get_by_test_id("secret-once").wait_for()
    assert "pso_" in page.get_by_test_id("secret-once").inner_text()
    row = page.get_by_test_id(f"operator-{operator_id}")
    row.wait_for()
    page.get_by_test_id(f"rotate-{operator_id}").click()
    expect(row).to_contain_text("2")
    if SHOTS is not None:
        save(page, SHOTS, f"admin-operators-{language}-{width}")
    page.get_by_test_id(f"disable-{operator_id}").click()
    expect(page.get_by_test_id(f"disable-{operator_id}")).to_have_count(0)

    page.locator('[data-tab="jurisdictions"]').click()
    profile_id = f"w{secrets.token_hex(2)}"
    page.get_by_test_id("j-id").fill(profile_id)
    page.get_by_test_id("j-name").fill("United Kingdom")
    page.get_by_test_id("j-reality-check").fill("60m")
    page.get_by_test_id("j-session-limit").fill("2h")
    page.get_by_test_id("j-min-hand").fill("2.5s")
    page.get_by_test_id("j-off-side_bets").check()
    page.get_by_test_id("j-save").click()
    saved = page.get_by_test_id(f"jurisdiction-{profile_id}")
    saved.wait_for()
    expect(saved).to_contain_text("1h")
    expect(saved).to_contain_text("2.5s")
    shown = httpx.get(
        server.url(f"/api/admin/jurisdictions/{profile_id}"), headers=_admin(server)
    ).json()
    assert shown["features_off"] == ["side_bets"]
    assert shown["reality_check_interval"] == 3600.0
    page.get_by_test_id("j-reality-check").fill("soon")  # refused, said in words
    page.get_by_test_id("j-id").fill(profile_id)
    page.get_by_test_id("j-name").fill("United Kingdom")
    page.get_by_test_id("j-save").click()
    page.locator(".toast-error").first.wait_for()
    if SHOTS is not None:
        save(page, SHOTS, f"admin-jurisdictions-{language}-{width}")
    page.get_by_test_id(f"remove-{profile_id}").click()
    expect(saved).to_have_count(0)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("language", "width", "height"), [("en", 390, 844), ("zh", 1366, 768)])
def test_the_page_says_when_the_sessions_time_is_up(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height)
    profile = _profile(server, session_limit="2s")
    page.goto(_launch(server, _operator(server), language=language, jurisdiction=profile))
    notice = page.get_by_test_id("rc-limit")
    notice.wait_for()
    assert "€0.00" in page.get_by_test_id("rc-net").inner_text()
    assert "session_limit" not in notice.inner_text()
    if SHOTS is not None:
        save(page, SHOTS, f"session-limit-{language}-{width}")
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("language", "width", "height"), [("en", 1366, 768), ("zh", 390, 844)])
def test_the_reality_check_at_a_table_after_a_hand(
    browser: Browser, own_server: Server, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    server = own_server
    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height)
    profile = _profile(server, reality_check_interval="25s")
    page.goto(_launch(server, _operator(server), language=language, jurisdiction=profile))
    page.get_by_test_id("who").wait_for(state="attached")
    seat = 2 if language == "en" else 3
    sit(page, server, "online-1", seat)

    def bet() -> None:
        page.locator('.chip[data-chip="1000"]').click(timeout=5_000)
        page.locator('[data-bet="player"]').click(timeout=5_000)
        page.locator('[data-action="confirm"]').click(timeout=5_000)
        page.get_by_test_id("confirmed-player").wait_for(timeout=15_000)

    in_one_round(page, bet, seconds=3)
    expect(page.get_by_test_id("confirmed-player")).to_contain_text("€10.00")
    dialog = page.get_by_test_id("rc-dialog")
    dialog.wait_for(timeout=60_000)
    net = page.get_by_test_id("rc-net").inner_text()
    assert re.search(r"[-−+]?€\d{1,3}(,\d{3})*\.\d{2}", net), net
    if SHOTS is not None:
        save(page, SHOTS, f"reality-check-table-{language}-{width}")
    page.get_by_test_id("rc-continue").click()
    expect(dialog).to_be_hidden()
    assert errors == []
    page.context.close()
