"""The table on a phone first: at 390×844 (portrait) the main bet areas, the chip tray,
the countdown, both hands and the balance are on one screen without scrolling, for every
rules preset (the online preset's side bets and ten Super Ties behind one tab, all on the
screen when it is open); at 768×1024 and 1366×768 the roads are in view too; no size
scrolls sideways (360 px included); chips on an area never cover its name; in English and
Chinese."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import pytest

from web.pages import in_one_round, leave_seat, log_in, new_page, new_player, sit
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow

PRESET_TABLES = ("macau-1", "nocomm-1", "tiger-1", "online-1", "spb-1")
"""One demo table of each rules preset."""

SIZES = ((390, 844), (768, 1024), (1366, 768))

ON_SCREEN = (
    '[data-bet="player"]',
    '[data-bet="tie"]',
    '[data-bet="banker"]',
    ".chip-rack",
    ".bet-actions",
    '[role="timer"]',
    '[data-testid="hand-player"]',
    '[data-testid="hand-banker"]',
    '[data-testid="table-balance"]',
)

_OUTSIDE = """(selectors) => {
  const w = window.innerWidth, h = window.innerHeight, out = [];
  for (const s of selectors) {
    const all = document.querySelectorAll(s);
    if (!all.length) { out.push(`${s}: missing`); continue; }
    for (const el of all) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > h || r.right > w)
        out.push(`${s}: ${[r.left, r.top, r.right, r.bottom].map(Math.round)} in ${w}x${h}`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(own_server: Server) -> Server:
    """This module's own server (``own_server``)."""
    return own_server


def _outside(page: Page, selectors: tuple[str, ...] | list[str]) -> list[str]:
    page.evaluate("window.scrollTo(0, 0)")
    return cast(list[str], page.evaluate(_OUTSIDE, list(selectors)))


def _road_rows_hidden(page: Page) -> bool:
    """Whether less than the top three rows (about 60 px) of the Bead Plate and the Big
    Road show on the first screen (mid-hand, with a result line, the strip starts lower on
    a tablet)."""
    return cast(
        bool,
        page.evaluate(
            """() => ['.road-bead', '.road-big'].some((s) => { const e = document.querySelector(s);
                 return !e || e.getBoundingClientRect().top + 60 > window.innerHeight; })"""
        ),
    )


def _sideways(page: Page) -> int:
    return cast(int, page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_the_table_fits_a_phone_and_keeps_the_roads_in_view_on_larger_screens(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, new_player(server, "ph"))
    problems: list[str] = []
    for table in PRESET_TABLES:
        sit(page, server, table, 5)
        for lang in ("en", "zh"):
            page.locator(f'[data-lang="{lang}"]').click()
            expect(page.locator(f'[data-lang="{lang}"]')).to_have_attribute("aria-pressed", "true")
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                where = f"{table} {lang} {width}x{height}"
                problems += [f"{where}: {p}" for p in _outside(page, ON_SCREEN)]
                if width >= 768 and _road_rows_hidden(page):
                    problems.append(f"{where}: the roads are out of view")
                if _sideways(page) > 0:
                    problems.append(f"{where}: scrolls sideways by {_sideways(page)} px")
            page.set_viewport_size({"width": 360, "height": 740})
            if _sideways(page) > 0:
                problems.append(f"{table} {lang} 360: scrolls sideways by {_sideways(page)} px")
            page.set_viewport_size({"width": 390, "height": 844})
            side = page.locator('[data-tab="side"]')
            if side.count():
                side.click()
                # the tab re-renders the bet areas on the next frame: wait for the panel
                expect(page.locator("#bet-panel-side")).to_be_visible()
                offered = page.locator("#bet-panel-side [data-bet]").evaluate_all(
                    "els => els.map(e => `[data-bet='${e.dataset.bet}']`)"
                )
                assert offered, table
                problems += [f"{table} {lang} side tab: {p}" for p in _outside(page, offered)]
                page.locator('[data-tab="main"]').click()
                expect(page.locator("#bet-panel-main")).to_be_visible()
        leave_seat(page)
    assert problems == []

    # chips on an area sit beside its name, never over it
    page.locator('[data-lang="en"]').click()
    sit(page, server, "online-1", 5)

    def chips_beside_names() -> None:
        page.locator('[data-tab="main"]').click()
        page.locator('.chip[data-chip="1000"]').click()
        page.locator('[data-bet="banker"]').click()
        page.locator('[data-tab="side"]').click()
        page.locator('[data-bet="super_tie_6"]').click()
        for bet in ("super_tie_6", "banker"):
            if bet == "banker":
                page.locator('[data-tab="main"]').click()
            expect(page.get_by_test_id(f"pending-{bet}")).to_be_visible()
            overlap = page.locator(f'[data-bet="{bet}"]').evaluate(
                """(el) => { const a = el.querySelector('.bet-name').getBoundingClientRect();
                             const b = el.querySelector('.chip-stack').getBoundingClientRect();
                             return !(b.right <= a.left || b.left >= a.right
                                      || b.bottom <= a.top || b.top >= a.bottom); }"""
            )
            assert overlap is False, bet
        page.locator('[data-action="clear"]').click()

    in_one_round(page, chips_beside_names)
    page.locator('[data-action="leave"]').click()
    assert errors == []


def test_a_bet_tab_pressed_while_the_table_re_renders_still_opens(
    server: Server, browser: Browser
) -> None:
    """A busy table re-renders its bet areas as its events come: a tab pressed just
    before and released just after (the button replaced in between, so no click) still
    opens its panel — it answers the press, not only the click."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, new_player(server, "tab"))
    sit(page, server, "online-1", 5)
    page.set_viewport_size({"width": 390, "height": 844})  # the side bets behind a tab
    for name, other in (("side", "main"), ("main", "side")):
        tab = page.locator(f'[data-tab="{name}"]')
        tab.wait_for()
        # the press goes to the tab itself: pressing the mouse at where the tab was
        # measured missed it whenever the busy table's felt grew a line in between
        tab.dispatch_event("pointerdown", {"button": 0, "isPrimary": True})
        tab.evaluate("el => el.replaceWith(el.cloneNode(true))")  # a render in between
        expect(page.locator(f"#bet-panel-{name}")).to_be_visible()
        expect(page.locator(f"#bet-panel-{other}")).to_be_hidden()
    assert errors == []


def test_the_dealer_console_fits_a_phone(server: Server, browser: Browser) -> None:
    """The coup board's six card slots fit a phone's width (they scrolled sideways by a
    few pixels at 390 px); in English and Chinese."""
    errors: list[str] = []
    page = new_page(browser, errors)
    log_in(page, server, "lin")
    page.get_by_test_id("deal-live-1").click()
    page.get_by_test_id("card-input").wait_for()
    problems: list[str] = []
    for lang in ("en", "zh"):
        page.locator(f'[data-lang="{lang}"]').click()
        page.get_by_test_id("card-input").wait_for()
        for width, height in ((390, 844), (360, 740), (1366, 768)):
            page.set_viewport_size({"width": width, "height": height})
            where = f"{lang} {width}x{height}"
            if _sideways(page) > 0:
                problems.append(f"{where}: scrolls sideways by {_sideways(page)} px")
            problems += [
                f"{where}: {p}"
                for p in _outside(page, ['[data-position="P3"]', '[data-position="B3"]'])
            ]
        page.set_viewport_size({"width": 1280, "height": 900})
    assert problems == []
    assert errors == []
