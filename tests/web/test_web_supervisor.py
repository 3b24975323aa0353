"""A new player registers and plays a hand; the supervisor finds it by game number (the
correction form filled with the recorded cards) and voids it: every stake comes back as
new ledger transactions, and the records say so."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from web.pages import confirm_bet, leave_seat, log_in, new_page, results_seen, sit, watch_results
from web.web_support import Server, money

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
    # the result is up for a second before the next round: noted the moment it shows
    watch_results(player)
    before = confirm_bet(player, 2500, "player", "25.00")  # the next round if this closes
    (shown,) = results_seen(player)
    assert shown["mine"], shown
    game = str(shown["game"])  # the hand of the bet, as the page showed it then
    leave_seat(player)

    supervisor = new_page(browser, errors)
    log_in(supervisor, server, "sam")
    supervisor.locator('[data-tab="s-hands"]').click()
    supervisor.get_by_test_id("game-input").fill(game)
    supervisor.get_by_test_id("game-input").press("Enter")
    record = supervisor.locator(f'article.hand-record[data-game="{game}"]')
    expect(record).to_contain_text("erin")
    # the correction form starts from the cards the record holds
    hand = cast(dict[str, Any], server.get(f"/api/hands/{game}", "sam"))
    player_cards = supervisor.get_by_test_id("correct-player")
    expect(player_cards).to_have_value(" ".join(hand["outcome"]["player"]))
    expect(supervisor.get_by_test_id("correct-banker")).to_have_value(
        " ".join(hand["outcome"]["banker"])
    )
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
