"""The dealer's console beside the card-reading shoe: a card the reader failed to read
turns the console's guidance into "scan it again" with its rescan ticked, and the
dealer's manual entry deals the re-scan [L]."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from web.pages import new_page
from web.test_web_dealer import deal, open_console
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_card_reader_misread_is_rescanned_from_the_console(
    own_server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    dealer = new_page(browser, errors)
    dealer.set_viewport_size({"width": 1366, "height": 768})
    open_console(dealer, own_server)
    dealer.locator('[data-action="open_betting"]').click()
    dealer.locator('[data-action="close_betting"]:not([disabled])').click()
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    _read(own_server, tmp_path, "4S\nBAD\n")  # deals 4S, then fails to read the next card
    dealer.locator('.slot[data-position="P1"] .card[data-card="4S"]').wait_for()
    guide = dealer.get_by_test_id("guide")
    expect(guide).to_contain_text("Card not scanned: scan the card for B1 again")
    expect(guide).to_have_class("guide guide-alert")
    expect(dealer.locator(".card-entry input[type=checkbox]")).to_be_checked()
    dealer.screenshot(path=str(shots / "card-reader-rescan-desktop-en.png"))
    deal(dealer, "7H", "B1")  # the manual entry: its rescan is ticked
    expect(guide).not_to_contain_text("Card not scanned: scan the card for B1 again")
    expect(dealer.locator(".card-entry input[type=checkbox]")).not_to_be_checked()

    phone = new_page(browser, errors, width=390, height=844, locale="zh-CN")
    open_console(phone, own_server)
    _read(own_server, tmp_path, "NOREAD\n")  # the next card, P2, fails to read
    guide = phone.get_by_test_id("guide")
    expect(guide).to_contain_text("卡牌未扫描成功：请重新扫描 P2 的牌")
    expect(phone.locator(".card-entry input[type=checkbox]")).to_be_checked()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(shots / "card-reader-rescan-phone-zh.png"))
    deal(phone, "2C", "P2")
    expect(guide).not_to_contain_text("卡牌未扫描成功")
    assert errors == []


def _read(server: Server, tmp_path: Path, text: str) -> None:
    """Run ``punto studio reader`` over ``text`` as dana; it reports each misread."""
    reads = tmp_path / "reads.txt"
    reads.write_text(text)
    reader = subprocess.run(
        [sys.executable, "-m", "punto", "studio", "reader", "--table", "live-1",
         "--server", server.base, "--user", "dana", "--source", str(reads)],
        env={**os.environ, "PUNTO_READER_PASSWORD": "dana-demo"},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert reader.returncode == 0, reader.stderr
    assert "card not scanned (marked bad" in reader.stderr
