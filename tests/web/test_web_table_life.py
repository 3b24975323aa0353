"""The table's life at 390×844 and 1366×768, in English and Chinese: after a hand the
dealer deals (Player 9 against Banker 5) the win display shows the player's winnings and
the winner, and the Player area glows on the felt; sound is off until the player turns it
on, and the choice survives a reload; the connection indicator shows the socket's round
trip; and at the bid-squeeze table "Open the cards" works while betting and during the
squeeze [O] (the dealer opens once every seated player asked), while a watcher is told
why it may not ask. The module's server has a minute of betting and ten of squeeze, so
only the dealer and the player move a hand on: nothing waits on the clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from web.pages import betting_open, leave_seat, log_in, new_page, new_player, stake
from web.web_support import Server, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow

SIZES = {"phone": (390, 844), "desktop": (1366, 768)}
LOCALES = {"en": "en-GB", "zh": "zh-CN"}
_SQUEEZING_OR_SETTLED = """(game) => Boolean(
  document.querySelector(`[data-testid=win-display][data-game="${game}"]`)) || (
  document.querySelector('.squeeze-card') && document.querySelector('[data-testid=squeeze-timer]')
    .textContent !== '' && !document.querySelector('[data-action=open_cards]').disabled)"""
"""The player's squeeze has begun on the server (its timer runs) or hand ``game`` is settled."""

_WIN_SHOWN = """(game) => {
  const el = document.querySelector(`[data-testid=win-display][data-game="${game}"]`);
  if (!el) return null;
  const text = (s) => { const e = el.querySelector(s); return e ? e.textContent : null; };
  return { kind: el.dataset.kind, classes: el.className, amount: text('[data-testid=win-amount]'),
           headline: text('.win-headline b'),
           won: [...document.querySelectorAll('[data-won=true]')].map((e) => e.dataset.bet),
           sideways: document.documentElement.scrollWidth - window.innerWidth };
}"""
"""The win display of hand ``game`` once it shows, with the areas marked as won."""


def _open(browser: Browser, server: Server, size: str, lang: str, errors: list[str]) -> Page:
    """A new player's page at ``size`` in ``lang`` (logged in at desktop width, where the
    header names the user)."""
    page = new_page(browser, errors, locale=LOCALES[lang])
    log_in(page, server, new_player(server, "wl"))
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    return page


@pytest.fixture(scope="module")
def calm() -> Iterator[Server]:
    """A server of this module's own, where nothing happens by the clock within a test:
    betting stays open a minute and a squeeze ten minutes, so the dealer (or a request to
    open the cards) moves every hand on, however slow the machine."""
    with run_server(PUNTO_BETTING_SECONDS="60", PUNTO_SQUEEZE_SECONDS="600") as running:
        yield running


@pytest.fixture(scope="module")
def dealer(calm: Server, browser: Browser) -> Iterator[Page]:
    """Dealer Lin's console at the live table, its shoe started."""
    errors: list[str] = []
    page = new_page(browser, errors, height=1200)
    log_in(page, calm, "lin")
    page.get_by_test_id("deal-live-1").click()
    page.get_by_test_id("card-input").wait_for()
    ready = '[data-action="{}"]:not([disabled])'
    page.locator(f"{ready.format('start_shoe')}, {ready.format('open_betting')}").first.wait_for()
    if page.locator(ready.format("start_shoe")).count():
        page.locator(ready.format("start_shoe")).click()
        page.locator(ready.format("open_betting")).wait_for()
    yield page
    page.context.close()
    assert errors == []


def _deal(dealer: Page, cards: str) -> None:
    """The dealer scans ``cards`` one by one (shoe order: P1 B1 P2 B2 …)."""
    for card in cards.split():
        dealer.get_by_test_id("card-input").fill(card)
        dealer.get_by_test_id("card-input").press("Enter")
        dealer.locator(f'.slot .card[data-card="{card}"]').first.wait_for()


def _sit_anywhere(page: Page, server: Server, table: str) -> None:
    """Open ``table`` and sit at its first free seat."""
    page.goto(server.url(f"/app/#/table/{table}"))
    page.locator(".seat-free:not([disabled])").first.click()
    page.locator(".seat-mine").wait_for()


# a phone in Chinese and a desktop in English cover both layouts and both languages
@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_win_display_sound_switch_and_connection_indicator(
    calm: Server, dealer: Page, browser: Browser, size: str, lang: str
) -> None:
    from playwright.sync_api import expect

    server = calm
    errors: list[str] = []
    page = _open(browser, server, size, lang, errors)
    _sit_anywhere(page, server, "live-1")

    # sound: off until the player turns it on, remembered across a reload
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('punto.sound')") is None
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('punto.sound')") == "on"
    page.reload()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")

    # the connection indicator: present, with the ping's round trip once it came back
    net = page.get_by_test_id("net-indicator")
    expect(net).to_be_visible()
    expect(net).to_have_attribute("data-quality", re.compile(r"^(good|fair|poor)$"))
    expect(net.locator(".net-ms")).to_have_text(re.compile(r"^\d+ (ms|毫秒)$"))
    expect(net.locator(".net-level")).to_have_text(re.compile(r"^(Connection|网络)"))

    # 25.00 on Player, and the dealer deals Player 9 against Banker 5: a win of 25.00 [M17]
    dealer.locator('[data-action="open_betting"]:not([disabled])').click()
    betting_open(page)
    stake(page, 2500, ("player",))
    expect(page.get_by_test_id("confirmed-player")).to_have_text("25.00")
    game = page.get_by_test_id("info-game").inner_text()
    dealer.locator('[data-action="close_betting"]:not([disabled])').click()
    _deal(dealer, "9S 8D KH 7C")
    # what the display shows, read at once when it appears (it is up for a few seconds)
    seen = page.wait_for_function(_WIN_SHOWN, arg=game, timeout=30_000).json_value()
    assert seen["kind"] == "win", seen
    assert seen["amount"] == "+25.00", seen
    assert seen["headline"] == {"en": "Player wins", "zh": "闲赢"}[lang], seen
    assert "win-side-player" in seen["classes"], seen
    assert seen["won"] == ["player"], seen  # the winning area glows on the felt
    assert seen["sideways"] <= 0, seen  # nothing scrolls sideways while it shows
    # it goes after a few seconds; the result line stays until the next hand
    expect(page.locator(f'[data-testid="win-display"][data-game="{game}"]')).to_have_count(
        0, timeout=15_000
    )
    expect(page.get_by_test_id("my-result")).to_be_visible()
    leave_seat(page)
    page.evaluate("localStorage.removeItem('punto.sound')")
    page.context.close()
    assert errors == []


@pytest.mark.parametrize(("size", "lang"), [("phone", "zh"), ("desktop", "en")])
def test_o_bid_squeeze_open_the_cards_while_betting_and_during_the_squeeze(
    calm: Server, browser: Browser, size: str, lang: str
) -> None:
    from playwright.sync_api import expect

    server = calm
    errors: list[str] = []
    page = _open(browser, server, size, lang, errors)
    _sit_anywhere(page, server, "bid-1")
    watcher = _open(browser, server, size, lang, errors)
    watcher.goto(server.url("/app/#/table/bid-1"))
    watcher.locator('[data-action="watch"]').click()
    # [O] only seated players may ask: the watcher's button says why it is off
    expect(watcher.locator('[data-action="open_cards"]')).to_be_disabled()
    expect(watcher.get_by_test_id("open-cards-why")).to_have_text(
        "Only seated players may ask to open the cards."
        if lang == "en"
        else "只有入座的玩家可以请求开牌。"
    )

    betting_open(page)
    stake(page, 100000, ("banker",))
    expect(page.get_by_test_id("confirmed-banker")).to_have_text("1,000.00")
    game = page.get_by_test_id("info-game").inner_text()
    # while betting: the only seated player asks, and betting closes at once (not in a minute)
    page.locator('[data-action="open_cards"]').click()

    # the Banker cards come face down to the largest Banker bettor: the squeeze is on; the
    # only seated player asks, and the dealer opens them now (the timer has minutes left);
    # a third card dealt face down is a new squeeze, opened the same way
    expect(page.locator(".squeeze-card")).to_have_count(2, timeout=30_000)
    for _ in range(2):
        page.wait_for_function(_SQUEEZING_OR_SETTLED, arg=game, timeout=30_000)
        if page.locator(f'[data-testid="win-display"][data-game="{game}"]').count():
            break
        # the cards of this squeeze, by position: the next card may come face down a few
        # milliseconds after they are turned, so "no squeeze card" may never be seen
        held = page.locator(".squeeze-card").evaluate_all(
            "cards => cards.map((card) => card.dataset.position)"
        )
        page.locator('[data-action="open_cards"]').click()
        for position in held:
            expect(page.locator(f'.squeeze-card[data-position="{position}"]')).to_have_count(
                0, timeout=30_000
            )
    log = page.locator(".event-log")
    dealer = {
        "en": "Cards turned by Dealer: Banker's first card ",
        "zh": "荷官 开牌：庄家第一张牌 ",
    }[lang]
    asked = {"en": "asked to open the cards", "zh": "请求开牌"}[lang]
    settled = {"en": f"Hand {game} settled", "zh": f"第 {game} 局已结算"}[lang]
    for line in (dealer, asked, settled):
        expect(log).to_contain_text(line, timeout=30_000)
    leave_seat(page)
    assert errors == []
