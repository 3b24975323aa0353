"""Bets that explain themselves, in Chromium, in Chinese: a chip that leaves Banker under
the table minimum is explained as it goes down (how much to add), Confirm is refused on the
client with the area marked and the message in Chinese money, the message goes once a later
confirm succeeds, a chip over the maximum is refused before it is sent, and the limits and
payouts are one tap away. The figures come from the table's own limits [L], [M18]."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import in_one_round, log_in, new_page, sit
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


def test_a_refused_chip_is_explained_in_chinese(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    name = f"cn{secrets.token_hex(4)}"
    httpx.post(
        server.url("/api/auth/register"), json={"username": name, "password": f"{name}-demo"}
    ).raise_for_status()
    errors: list[str] = []
    page = new_page(browser, errors, width=390, height=844, locale="zh-CN")
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, server, name)
    page.set_viewport_size({"width": 390, "height": 844})
    sit(page, server, "macau-1", 6)  # the low tier: Banker 10.00 – 1,000.00, in tens [M18]
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    message = page.get_by_test_id("bet-message")
    banker = page.locator('[data-bet="banker"]')

    def under_the_minimum() -> None:
        page.locator('.chip[data-chip="500"]').click()
        banker.click()
        expect(page.get_by_test_id("pending-banker")).to_have_text("+5.00")
        expect(message).to_have_text("庄：最低 10.00，请再加 5.00，或清除此注")
        page.locator('[data-action="confirm"]').click()
        expect(banker).to_have_attribute("aria-invalid", "true")
        expect(message).to_have_text("庄：最低 10.00，请再加 5.00，或清除此注")
        expect(message).to_have_attribute("role", "alert")
        banker.click()
        expect(page.get_by_test_id("pending-banker")).to_have_text("+10.00")
        page.locator('[data-action="confirm"]').click()
        expect(page.get_by_test_id("confirmed-banker")).to_have_text("10.00")
        expect(message).to_have_count(0)
        expect(banker).not_to_have_attribute("aria-invalid", "true")

    in_one_round(page, under_the_minimum, seconds=5)

    # over the maximum: refused before it is sent, the area marked, said in Chinese
    def over_the_maximum() -> None:
        page.locator(".chip").last.click()
        tie = page.locator('[data-bet="tie"]')
        for _ in range(30):
            tie.click()
            if tie.get_attribute("aria-invalid") == "true":
                break
        expect(message).to_have_text(re.compile(r"^和：最高 [\d,]+\.\d\d，请选较小的筹码$"))
        expect(page.get_by_test_id("pending-tie")).to_have_count(0)  # nothing was sent

    in_one_round(page, over_the_maximum)

    # the limits and payouts, one tap away
    page.locator(".limits-card summary").click()
    row = page.locator('[data-bet-row="tie"]')
    expect(row).to_contain_text("和")
    expect(row).to_contain_text("1 赔 8")
    expect(page.locator('[data-bet-row="banker"]')).to_contain_text("10.00 – 1,000.00")
    page.locator('[data-action="leave"]').click()
    assert errors == []
