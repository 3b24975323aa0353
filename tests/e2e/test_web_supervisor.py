"""A new player registers and plays a hand; the supervisor finds it by game number and
voids it: every stake comes back as new ledger transactions, and the records say so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from e2e.pages import betting_open, log_in, new_page, sit, table_balance
from e2e.web_support import Server, money

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_supervisor_voids_a_settled_hand(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    player = new_page(browser, errors)
    player.goto(server.url("/app/#/login"))
    register = player.locator("form", has=player.get_by_role("button", name="Create account"))
    register.get_by_label("Username").fill("erin")
    register.get_by_label("Password").fill("erin-secret")
    register.get_by_role("button", name="Create account").click()
    expect(player.get_by_test_id("who")).to_contain_text("erin")

    sit(player, server, "nocomm-1", 5)
    betting_open(player)
    before = table_balance(player)
    player.locator('.chip[data-chip="2500"]').click()
    player.locator('[data-bet="player"]').click()
    player.locator('[data-action="confirm"]').click()
    expect(player.get_by_test_id("confirmed-player")).to_have_text("25.00")
    game = player.get_by_test_id("info-game").inner_text()
    expect(player.get_by_test_id("my-result")).to_be_visible(timeout=30_000)
    player.locator('[data-action="leave"]').click()
    expect(player.locator('[data-action="watch"]')).to_be_visible()

    supervisor = new_page(browser, errors)
    log_in(supervisor, server, "sam")
    supervisor.locator('[data-tab="s-hands"]').click()
    supervisor.get_by_test_id("game-input").fill(game)
    supervisor.get_by_test_id("game-input").press("Enter")
    record = supervisor.locator(f'article.hand-record[data-game="{game}"]')
    expect(record).to_contain_text("erin")
    void = supervisor.locator("form", has=supervisor.get_by_role("button", name="Void and refund"))
    void.get_by_label("Reason (required)").fill("dealer error seen on video")
    void.get_by_role("button", name="Void and refund").click()
    expect(supervisor.get_by_role("status").filter(has_text="void")).to_contain_text(game)
    expect(record.locator("dd").filter(has_text="void")).to_be_visible()

    hand = cast(dict[str, Any], server.get(f"/api/hands/{game}", "sam"))
    assert hand["amendments"][0]["kind"] == "void"
    me = cast(dict[str, Any], server.get("/api/me", "erin", "erin-secret"))
    assert me["balance"] == before  # the whole stake is back, whatever the result was
    player.goto(server.url("/app/#/records"))
    expect(player.locator(f'[data-testid="bet-records"] tr[data-game="{game}"]')).to_contain_text(
        "void"
    )
    assert money(me["balance"]) == money(before)
    assert errors == []
