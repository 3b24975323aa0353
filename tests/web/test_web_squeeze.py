"""The squeeze: a VIP owner bets on Banker, the Banker cards come face down to them, and
they peel one by dragging its corner and turn the other by pressing it [O], [M16]; the
first card keeps its place (and its element) when the second arrives; a timer counts down
the squeeze time the table allows."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from web.pages import confirm_bet, leave_seat, log_in, new_page, results_seen, sit, watch_results
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_the_owner_squeezes_the_banker_cards(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, "dev")
    sit(page, server, "vip-1", 1)  # an empty VIP table is taken by its owner
    expect(page.locator(".vip-panel")).to_be_visible()

    # watch the first Banker card from the moment it appears: where it is, and which element
    page.evaluate(
        """() => {
          window.__b1 = { xs: [], elements: new Set() };
          const look = () => {
            const card = document.querySelector('.squeeze-card[data-position="B1"]');
            if (!card) return;
            const box = card.getBoundingClientRect();
            window.__b1.xs.push(Math.round(box.x));
            window.__b1.elements.add(card);
            const places = '.squeeze-banker .squeeze-cards > *';
            window.__b1.slots = document.querySelectorAll(places).length;
          };
          new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
        }"""
    )
    confirm_bet(page, 100000, "banker", "1,000.00")

    cards = page.locator(".squeeze-card")
    expect(cards).to_have_count(2, timeout=20_000)
    # the second card took its reserved place: the first neither moved nor was redrawn
    seen = page.evaluate(
        "() => ({ xs: [...new Set(window.__b1.xs)], elements: window.__b1.elements.size,"
        " slots: window.__b1.slots })"
    )
    assert seen == {"xs": seen["xs"][:1], "elements": 1, "slots": 2}, seen
    # the squeeze time the table allows (8 s on the test server), counting down
    timer = page.get_by_test_id("squeeze-timer")
    expect(timer).to_have_text(re.compile(r"Turned for you in [1-8]s"))
    first = cards.nth(0).bounding_box()
    assert first is not None
    x, y, w, h = first["x"], first["y"], first["width"], first["height"]
    page.mouse.move(x + w - 6, y + h - 6)
    page.mouse.down()
    page.mouse.move(x + w * 0.3, y + h * 0.3, steps=10)
    page.mouse.up()
    expect(cards.nth(0)).to_have_class("squeeze-card peel-corner peeled")
    # the player's result is up for a second (PUNTO_RESULT_SECONDS) before the next hand:
    # noted the moment it shows, so a busy machine's slower checks below cannot miss it
    watch_results(page)
    cards.nth(1).click()

    expect(page.locator(".event-log")).to_contain_text("Cards turned by dev")
    expect(page.locator(".hand-banker .card:not(.card-back)")).not_to_have_count(0)
    (shown,) = results_seen(page)
    assert shown["mine"], shown  # "You win +950.00", a push …
    leave_seat(page)
    assert errors == []


def test_a_third_card_squeeze_fits_a_phone_and_a_refusal_says_what_the_table_is_doing(
    server: Server, browser: Browser
) -> None:
    """Three places a side (a third card's squeeze) on a 390 px phone: nothing wider than
    the screen; a squeeze the table's phase refuses reads as words, not a rule's text."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=390, height=844)
    page.goto(server.url("/app/#/table/vip-1"))
    expect(page.locator(".felt .squeeze-area")).to_be_attached()
    width = page.evaluate(
        """() => {
          const card = '<button class="squeeze-card"></button>';
          const side = (s) => `<div class="squeeze-side squeeze-${s}"><h3>${s}</h3>` +
            `<div class="squeeze-cards">${card.repeat(3)}</div></div>`;
          document.querySelector('.felt .squeeze-area').innerHTML =
            `<section class="squeeze"><p class="squeeze-timer"></p>${side('player')}` +
            `${side('banker')}</section>`;
          return document.documentElement.scrollWidth;
        }"""
    )
    assert width <= 390, f"the squeeze is wider than the phone ({width}px)"
    said = page.evaluate(
        """async () => {
          const { errorText } = await import('/app/js/format.js');
          const { setLang } = await import('/app/js/i18n.js');
          const err = { code: 'phase', message: 'cannot squeeze while the table is dealing'
                        + ' (needs squeeze)', params: { phase: 'dealing' } };
          const out = [errorText(err)];
          setLang('zh');
          out.push(errorText(err));
          setLang('en');
          return out;
        }"""
    )
    assert said == ["Not now: Dealing", "现在不行：发牌中"], said
    assert errors == []
