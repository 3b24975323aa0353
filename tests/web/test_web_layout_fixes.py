"""Layout details in Chromium, phone (390x844) and desktop (1366x768), English and
Chinese: the limits menu shows its whole label; the bead plate and the Big Road, scrolled
to their newest marks, never show a column cut in half; the administration's tables are
cards of labelled lines on a phone, nothing wider than the screen. Screenshots go to
``PUNTO_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest

from web.pages import log_in, new_page, new_player, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SIZES = [(390, 844), (1366, 768)]
LANGS = ["en", "zh"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_limits_menu_shows_its_whole_label(
    server: Server, browser: Browser, tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    page = new_page(browser, errors, width=size[0], height=size[1])
    log_in(page, server, new_player(server, "lm"))
    page.locator(f'[data-lang="{lang}"]').click()
    page.goto(server.url("/app/#/table/macau-1"))
    menu = page.locator('[data-key="tier"]')
    menu.wait_for()
    label, needed, has = cast(
        list[object],
        menu.evaluate(
            """(select) => {
                 const text = select.options[select.selectedIndex].text;
                 const probe = document.createElement('span');
                 probe.style.font = getComputedStyle(select).font;
                 probe.style.whiteSpace = 'pre';
                 probe.textContent = text;
                 document.body.append(probe);
                 const width = probe.getBoundingClientRect().width;
                 probe.remove();
                 return [text, width, select.clientWidth];
               }"""
        ),
    )
    assert "(10.00–1,000.00)" in str(label)
    assert float(cast(float, has)) >= float(cast(float, needed)) + 16, (label, needed, has)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    menu.scroll_into_view_if_needed()
    save(page, shots, f"limits-menu-{size[0]}x{size[1]}-{lang}")
    assert errors == []


@pytest.mark.parametrize("size", SIZES)
def test_the_roads_scrolled_to_the_newest_marks_cut_no_column(
    server: Server, browser: Browser, tmp_path: Path, size: tuple[int, int]
) -> None:
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    page = new_page(browser, errors, width=size[0], height=size[1])
    page.goto(server.url("/app/#/table/macau-1"))
    page.locator(".road-board").first.wait_for()
    offsets = cast(
        list[list[float]],
        page.evaluate(
            """async () => {
                 const r = await import('/app/js/roads.js');
                 const bead = [], big = [];
                 for (let i = 0; i < 60; i++) {
                   bead.push({ col: Math.floor(i / 6), row: i % 6, result: 'BPT'[i % 3],
                               banker_pair: false, player_pair: false });
                   big.push({ col: i, row: 0, result: 'BP'[i % 2], ties: 0 });
                 }
                 const board = r.roadBoard({ bead_plate: bead, big_road: big, ask: null,
                                             counts: null });
                 // on a host of its own, as wide as the table's board (which the page may
                 // draw again at any time)
                 const shown = document.querySelector('.road-board');
                 const host = document.createElement('div');
                 host.className = 'panel road-test-host';
                 host.style.cssText = `position: fixed; top: 60px; left: 0; z-index: 9999;
                   width: ${shown.getBoundingClientRect().width}px`;
                 host.append(board);
                 document.body.append(host);
                 await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
                 return [...board.querySelectorAll('.road-bead, .road-big')].map((box) => {
                   const road = box.querySelector('svg');
                   return [box.scrollLeft, Number(road.dataset.size), box.clientWidth,
                           Number(road.dataset.end)];
                 });
               }"""
        ),
    )
    assert len(offsets) == 2
    for left, cell, width, end in offsets:
        assert left > 0  # scrolled: the shoe is longer than the box
        assert left % cell == 0, (left, cell)  # the first column in view is whole
        assert left + width >= end - cell  # and the newest mark is in view
    save(page, shots, f"roads-scrolled-{size[0]}x{size[1]}")
    assert errors == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_admin_tables_are_labelled_cards_on_a_phone(
    server: Server, browser: Browser, tmp_path: Path, lang: str
) -> None:
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    for width, height in SIZES:
        page = new_page(browser, errors, width=width, height=height)
        log_in(page, server, "admin")
        page.locator(f'[data-lang="{lang}"]').click()
        page.goto(server.url("/app/#/admin"))
        grid = page.get_by_test_id("admin-tables")
        grid.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        row = grid.locator('tr[data-table="macau-1"]')
        shown = row.evaluate("tr => getComputedStyle(tr).display")
        head = grid.locator("thead").evaluate("e => getComputedStyle(e).display")
        if width < 640:
            assert (shown, head) == ("block", "none")
            labels = row.locator("td[data-label]").evaluate_all(
                "tds => tds.map((td) => getComputedStyle(td, '::before').content)"
            )
            assert '"座位数"' in labels if lang == "zh" else '"Seats"' in labels
            box = row.bounding_box()
            assert box is not None
            assert box["width"] <= width
        else:
            assert (shown, head) == ("table-row", "table-header-group")
        row.scroll_into_view_if_needed()
        save(page, shots, f"admin-tables-{width}x{height}-{lang}")
        page.context.close()
    assert errors == []
