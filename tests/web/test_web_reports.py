"""The reports tab in Chromium: the daily report a row per table and currency and the
operators' report a row per day, operator and currency, each amount shown in its row's
currency (its own digits: yen have none), in English and Chinese."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from web.pages import log_in, new_page
from web.reports_support import seed_reports
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


def test_reports_show_each_row_in_its_own_currency(own_server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    seed_reports(own_server)
    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, own_server, "sam")
    page.goto(own_server.url("/app/#/supervisor"))
    page.get_by_role("tab", name="Reports").click()
    report = page.get_by_test_id("opreport")
    expect(report).to_be_visible()
    rows = {
        tuple(r.locator("td").nth(i).inner_text() for i in (1, 2)): r
        for r in report.locator("tbody tr").all()
    }
    north_yen = rows[("north", "JPY")].locator("td")
    # ken: ¥1,250,000 on Banker lost, ¥600,000 on Player won: ¥1,200,000 back
    expect(north_yen.nth(5)).to_have_text("JP¥1,850,000")
    expect(north_yen.nth(6)).to_have_text("JP¥1,200,000")
    expect(north_yen.nth(7)).to_have_text("JP¥650,000")
    north_euro = rows[("north", "EUR")].locator("td")
    expect(north_euro.nth(3)).to_have_text("2")  # bets
    expect(north_euro.nth(4)).to_have_text("1")  # players
    expect(north_euro.nth(5)).to_have_text("€1,550.00")
    expect(north_euro.nth(6)).to_have_text("€2,437.50")  # 1,250 + 1,187.50 won
    expect(north_euro.nth(7)).to_have_text("−€887.50")
    expect(rows[("south", "USD")].locator("td").nth(5)).to_have_text("US$1,350.00")
    daily = page.get_by_test_id("report")
    page.locator("form:has([name=table]) [name=table]").fill("rep-1")
    page.locator("form:has([name=table]) button[type=submit]").click()
    expect(daily.locator("tbody tr")).to_have_count(3)  # EUR, JPY, USD: never summed
    expect(daily.locator("tbody tr").nth(1).locator("td").nth(2)).to_have_text("JPY")

    page.locator('[data-lang="zh"]').click()
    page.get_by_role("tab", name="报表").click()
    report = page.get_by_test_id("opreport")
    expect(report.locator("th").nth(7)).to_have_text("博彩毛收入")
    expect(report).to_contain_text("JP¥1,850,000")
    assert not errors, errors
