"""A player logs in, sits at an RNG table, bets, confirms, and sees the coup card by card,
the result, the roads, the new balance and the bet record."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from web.pages import confirm_bet, leave_seat, log_in, new_page, results_seen, sit, watch_results
from web.web_support import Server, money

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

    watch_results(page)
    before = confirm_bet(page, 1000, "banker", "10.00")

    # the coup, card by card, with the totals (as shown when the result came: the next
    # round clears the felt)
    (shown,) = results_seen(page)
    game = cast(str, shown["game"])
    assert re.fullmatch(r"macau-1-\d{3}-\d{3}", game)
    assert cast(int, shown["player"]) >= 2
    assert cast(int, shown["banker"]) >= 2
    outcome = cast(str, shown["result"])
    assert "Player" in outcome
    assert "Banker" in outcome

    # the new balance is what the ledger says the hand returned
    records = cast(dict[str, Any], server.get("/api/me/bets", "ann"))["records"]
    record = next(r for r in records if r["game"] == game)
    assert record["bets"] == {"ann": {"banker": 1000}}
    expected = before - 1000 + record["result"]["returned"]
    expect(page.get_by_test_id("table-balance")).to_have_text(money(expected))
    winner = record["outcome"]["winner"]
    mine = cast(str, shown["mine"])
    if winner == "banker":
        assert mine == "You win +9.50"
    elif winner == "player":
        assert mine == "You lose −10.00"
    else:  # a tie leaves Macau main bets standing [M12]: cancel them when betting opens
        assert mine.startswith("Tie: your Player/Banker bets stand")
        page.locator('[data-action="cancel_tie_bets"]').click(timeout=30_000)
        expect(page.get_by_test_id("table-balance")).to_have_text(money(before))

    # the roads show the hand: a bead and a Big Road entry (or a tie on one)
    # (more hands may have been dealt since: the hand's letter is on the bead plate)
    page.wait_for_function(
        """(r) => [...document.querySelectorAll('.road-bead .bead')]
                    .some(b => b.dataset.result === r)""",
        arg=winner[0].upper(),
    )
    # ... in view: a young shoe's first marks are not scrolled away to show empty columns
    page.wait_for_function(
        """() => [['.road-bead', '.bead'], ['.road-big', '.big-road-ring']].every(([box, mark]) => {
                   const view = document.querySelector(box).getBoundingClientRect();
                   const marks = [...document.querySelectorAll(`${box} ${mark}`)];
                   if (!marks.length) return false;
                   const last = marks[marks.length - 1].getBoundingClientRect();
                   return last.left >= view.left && last.right <= view.right;
                 })"""
    )

    # the bet record and the hand's record by game number
    row = page.locator(f'[data-testid="bet-records"] tr[data-game="{game}"]')
    row.wait_for()
    # every column in view: on a laptop the table's width, on a phone a card of lines
    fits = "(el) => el.scrollWidth <= el.clientWidth"
    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.locator("section:has(> .bet-records)").evaluate(fits), width
        status = row.locator("td").last
        assert status.get_attribute("data-label") == "Status"
        status.scroll_into_view_if_needed()
        box = status.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width, width
    page.set_viewport_size({"width": 1280, "height": 900})
    row.get_by_role("button", name=game).click()
    expect(page.locator(f'article.hand-record[data-game="{game}"]')).to_be_visible()

    leave_seat(page)
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
