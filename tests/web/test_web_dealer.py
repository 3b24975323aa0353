"""The dealer console deals a live hand card by card (guided to each position) while a
player bets on it; a fault voids a hand and every stake comes back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from web.pages import betting_open, log_in, new_page, sit, stake, table_balance
from web.web_support import Server, money

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def open_console(page: Page, server: Server) -> None:
    """The dealer logs in, picks live-1 and starts a shoe if none is in play."""
    log_in(page, server, "dana")
    page.get_by_test_id("deal-live-1").click()
    page.get_by_test_id("card-input").wait_for()
    page.wait_for_function(
        "() => !document.querySelector('.conn') && document.querySelector('[data-action]')"
    )
    start = page.locator('[data-action="start_shoe"]')
    if start.is_enabled():
        start.click()
        page.locator('[data-action="open_betting"]:not([disabled])').wait_for()


def deal(page: Page, card: str, position: str) -> None:
    """Type a card and Enter, after checking the console says it goes to ``position``."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("guide")).to_contain_text(position)
    expect(page.locator(f'.slot-next[data-position="{position}"]')).to_be_visible()
    page.get_by_test_id("card-input").fill(card)
    page.get_by_test_id("card-input").press("Enter")
    page.locator(f'.slot[data-position="{position}"] .card[data-card="{card}"]').wait_for()


def test_dealer_deals_a_live_hand_a_player_bets_on(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    dealer = new_page(browser, errors)
    player = new_page(browser, errors)
    open_console(dealer, server)
    log_in(player, server, "bob")
    sit(player, server, "live-1", 1)

    dealer.locator('[data-action="open_betting"]').click()
    betting_open(player, seconds=2)
    before = table_balance(player)
    stake(player, 1000, ("player",))
    expect(player.get_by_test_id("confirmed-player")).to_have_text("10.00")
    expect(dealer.locator(".dealer-bets")).to_contain_text("bob")

    dealer.locator('[data-action="close_betting"]').click()
    for card, position in (("4S", "P1"), ("7H", "B1"), ("KD", "P2"), ("8C", "B2")):
        deal(dealer, card, position)
    # Player 4 draws; Banker 5 draws on a Player third card of 5 [M9]
    expect(dealer.get_by_test_id("guide")).to_contain_text("P3")
    deal(dealer, "5S", "P3")
    deal(dealer, "2D", "B3")
    expect(dealer.get_by_test_id("result")).to_contain_text("Player wins")

    expect(player.get_by_test_id("total-player")).to_have_text("9")
    expect(player.get_by_test_id("total-banker")).to_have_text("7")
    assert player.locator(".hand-cards .card").count() == 6
    expect(player.get_by_test_id("my-result")).to_have_text("You win +10.00")
    expect(player.get_by_test_id("table-balance")).to_have_text(money(before + 1000))
    player.wait_for_function("() => document.querySelectorAll('.road-bead .bead').length >= 1")
    assert errors == []


def test_a_fault_voids_the_hand_and_refunds_the_stakes(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    dealer = new_page(browser, errors)
    player = new_page(browser, errors)
    open_console(dealer, server)
    log_in(player, server, "cleo")
    sit(player, server, "live-1", 2)

    dealer.locator('[data-action="open_betting"]:not([disabled])').click()
    betting_open(player, seconds=2)
    before = table_balance(player)
    stake(player, 1000, ("banker", "banker"))
    expect(player.get_by_test_id("confirmed-banker")).to_have_text("20.00")
    expect(player.get_by_test_id("table-balance")).to_have_text(money(before - 2000))

    dealer.locator('[data-action="close_betting"]').click()
    deal(dealer, "9S", "P1")
    dealer.get_by_test_id("fault-select").select_option("m10_misdeal_void")
    expect(dealer.locator(".fault-effect")).to_contain_text("refunded")
    dealer.get_by_test_id("report-fault").click()

    expect(dealer.get_by_test_id("result")).to_contain_text("Hand void")
    expect(player.get_by_test_id("result")).to_contain_text("Hand void")
    # the status line says the hand was void, not "Settled"
    expect(player.get_by_test_id("info-phase")).to_have_text("Hand void · bets returned")
    expect(dealer.get_by_test_id("info-phase")).to_have_text("Hand void · bets returned")
    expect(player.get_by_test_id("my-result")).to_have_text("Refunded 20.00")
    expect(player.get_by_test_id("table-balance")).to_have_text(money(before))
    assert errors == []
