"""A player logs in, sits at an RNG table, bets, confirms, and sees the coup card by card,
the result, the roads, the new balance and the bet record."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from e2e.pages import betting_open, log_in, new_page, sit, table_balance
from e2e.web_support import Server, money

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_player_bets_and_sees_the_coup_the_roads_and_the_new_balance(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, "ann")
    page.get_by_test_id("open-macau-1").wait_for()
    sit(page, server, "macau-1", 3)

    betting_open(page)
    before = table_balance(page)
    page.locator('.chip[data-chip="1000"]').click()
    page.locator('[data-bet="banker"]').click()
    expect(page.get_by_test_id("pending-banker")).to_have_text("+10.00")
    page.locator('[data-action="confirm"]').click()
    expect(page.get_by_test_id("confirmed-banker")).to_have_text("10.00")
    expect(page.get_by_test_id("table-balance")).to_have_text(money(before - 1000))
    game = page.get_by_test_id("info-game").inner_text()
    assert re.fullmatch(r"macau-1-\d{3}-\d{3}", game)

    # the coup, card by card, with the totals
    page.wait_for_function("() => document.querySelectorAll('.hand-cards .card').length >= 2")
    expect(page.get_by_test_id("my-result")).to_be_visible(timeout=30_000)
    assert page.locator(".hand-player .card").count() >= 2
    assert page.locator(".hand-banker .card").count() >= 2
    outcome = page.get_by_test_id("result").inner_text()
    assert "Player" in outcome
    assert "Banker" in outcome

    # the new balance is what the ledger says the hand returned
    records = cast(dict[str, Any], server.get("/api/me/bets", "ann"))["records"]
    record = next(r for r in records if r["game"] == game)
    assert record["bets"] == {"ann": {"banker": 1000}}
    expected = before - 1000 + record["result"]["returned"]
    expect(page.get_by_test_id("table-balance")).to_have_text(money(expected))
    winner = record["outcome"]["winner"]
    mine = page.get_by_test_id("my-result").inner_text()
    if winner == "banker":
        assert mine == "You win +9.50"
    elif winner == "player":
        assert mine == "You lose −10.00"
    else:  # a tie leaves Macau main bets standing [M12]: cancel them when betting opens
        assert mine.startswith("Tie: your Player/Banker bets stand")
        page.locator('[data-action="cancel_tie_bets"]').click(timeout=30_000)
        expect(page.get_by_test_id("table-balance")).to_have_text(money(before))

    # the roads show the hand: a bead and a Big Road entry (or a tie on one)
    page.wait_for_function("() => document.querySelectorAll('.road-bead .bead').length >= 1")
    letters = page.locator(".road-bead .bead").evaluate_all("els => els.map(e => e.dataset.result)")
    assert letters[-1] == winner[0].upper()

    # the bet record and the hand's record by game number
    row = page.locator(f'[data-testid="bet-records"] tr[data-game="{game}"]')
    row.wait_for()
    row.get_by_role("button", name=game).click()
    expect(page.locator(f'article.hand-record[data-game="{game}"]')).to_be_visible()

    page.locator('[data-action="leave"]').click()
    expect(page.locator('[data-action="watch"]')).to_be_visible()
    page.goto(server.url("/app/#/"))
    page.wait_for_function(
        "() => document.querySelectorAll('.lobby-road .big-road-ring').length >= 2"
    )
    assert errors == []


def test_the_client_speaks_chinese_and_fits_a_phone(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=375, height=812)
    page.goto(server.url("/app/#/table/macau-1"))
    page.locator('[data-lang="zh"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    expect(page.locator('[data-bet="banker"] .bet-name')).to_have_text("庄")
    expect(page.locator('[data-bet="player"] .bet-name')).to_have_text("闲")
    expect(page.get_by_role("figure").filter(has_text="大路")).to_be_visible()
    # nothing wider than the phone's screen
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375
    page.locator('[data-lang="en"]').click()
    expect(page.locator('[data-bet="banker"] .bet-name')).to_have_text("Banker")
    assert errors == []
