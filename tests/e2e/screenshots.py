"""Make the screenshots of ``docs/screenshots/``: the lobby, a table mid-hand (desktop, and
a phone in Chinese), the squeeze, the dealer console mid-hand, the lobby and a table in
Traditional Chinese (desktop and phone), and the administration page's rules editor with
its edge preview (phone and desktop, English, Simplified and Traditional Chinese).

    .venv/bin/python tests/e2e/screenshots.py [FOLDER]

It starts its own ``punto serve`` (fast timers, a temporary database), lets the RNG tables
deal a few dozen hands so the roads have something to show, deals some live hands from the
dealer console, then takes the pictures with Debian's Chromium.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from e2e.pages import betting_open, log_in, new_page, save, sit
from e2e.web_support import CHROMIUM, CHROMIUM_ARGS, Server, run_server

LIVE_COUPS = ("9S 8D KH 7C", "2H 5C 3D AS 8H", "TD 6S 8C 9H", "AS AD 4C 3H 5S 2C", "7D 7S KH 9C")
"""Coups the dealer deals at live-1 before the pictures (shoe order: P1 B1 P2 B2 …)."""


def _deal(page: object, cards: str) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    for card in cards.split():
        page.get_by_test_id("card-input").fill(card)
        page.get_by_test_id("card-input").press("Enter")
        page.locator(f'.slot .card[data-card="{card}"]').first.wait_for()


ADMIN_SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


def admin_rules(browser: object, server: Server, folder: Path, errors: list[str]) -> list[Path]:
    """The rules editor of macau-1 with the tie paid 9 to 1 and its edge preview, at each
    size of :data:`ADMIN_SIZES`, in English, Simplified and Traditional Chinese."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    shots = []
    for size, (width, height) in ADMIN_SIZES.items():
        for language in ("en", "zh", "zh-Hant"):
            page = new_page(browser, errors)
            log_in(page, server, "admin")  # the header names the user at desktop width
            page.set_viewport_size({"width": width, "height": height})
            page.goto(server.url("/app/#/admin"))
            page.locator(f'[data-lang="{language}"]').click()
            page.get_by_test_id("rules-macau-1").click()
            editor = page.locator(".panel:has([data-testid=rules-editor])").first
            editor.get_by_test_id("edge-tie").wait_for()
            editor.locator('select[data-paytable="tie"]').select_option("tie_9")
            editor.locator('[data-testid="edge-tie"]:text("4.8440%")').wait_for()
            target = editor.locator(".rules-columns" if size == "desktop" else ".edge-preview")
            # Choosing a paytable may have scrolled the (wide) tables tab sideways; then
            # bring the target just below the sticky header.
            page.evaluate("document.querySelectorAll('*').forEach((e) => { e.scrollLeft = 0; })")
            target.evaluate(
                "(el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 110)"
            )
            page.wait_for_timeout(300)
            shots.append(save(page, folder, f"admin-rules-{size}-{language.lower()}"))
            page.context.close()
    return shots


def make(server: Server, folder: Path, warm_up: float) -> list[Path]:
    """Take every picture into ``folder``."""
    from playwright.sync_api import sync_playwright

    shots: list[Path] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        dealer = new_page(browser, errors, height=1200)
        log_in(dealer, server, "dana")
        dealer.get_by_test_id("deal-live-1").click()
        dealer.get_by_test_id("card-input").wait_for()
        dealer.locator('[data-action="start_shoe"]:not([disabled])').click()
        for coup in LIVE_COUPS:
            dealer.locator('[data-action="open_betting"]:not([disabled])').click()
            dealer.locator('[data-action="close_betting"]:not([disabled])').click()
            _deal(dealer, coup)
            dealer.get_by_test_id("result").wait_for()
        time.sleep(max(0.0, warm_up))

        player = new_page(browser, errors)
        log_in(player, server, "bob")
        sit(player, server, "live-1", 4)
        dealer.locator('[data-action="open_betting"]:not([disabled])').click()
        betting_open(player, seconds=2)
        player.locator('.chip[data-chip="5000"]').click()
        player.locator('[data-bet="banker"]').click()
        player.locator('[data-action="confirm"]').click()
        player.get_by_test_id("confirmed-banker").wait_for()
        dealer.locator('[data-action="close_betting"]:not([disabled])').click()
        _deal(dealer, "3S 6H 2D 9C")
        dealer.wait_for_timeout(600)
        shots.append(save(dealer, folder, "dealer-console"))
        _deal(dealer, "4H 7C")

        ann = new_page(browser, errors)
        log_in(ann, server, "ann")
        sit(ann, server, "macau-1", 3)
        betting_open(ann, seconds=3)
        ann.locator('.chip[data-chip="2500"]').click()
        ann.locator('[data-bet="banker"]').click()
        ann.locator('[data-bet="banker"]').click()
        ann.locator('.chip[data-chip="1000"]').click()
        ann.locator('[data-bet="tie"]').click()
        ann.locator('[data-action="confirm"]').click()
        ann.get_by_test_id("confirmed-banker").wait_for()
        ann.wait_for_function("() => document.querySelectorAll('.hand-cards .card').length >= 3")
        ann.wait_for_timeout(400)
        shots.append(save(ann, folder, "table-mid-hand"))

        phone = new_page(browser, errors, width=375, height=812)
        phone.goto(server.url("/app/#/table/macau-1"))
        phone.locator('[data-lang="zh"]').click()
        phone.wait_for_function("() => document.querySelectorAll('.hand-cards .card').length >= 3")
        phone.wait_for_timeout(450)
        shots.append(save(phone, folder, "table-phone-zh"))

        dev = new_page(browser, errors)
        log_in(dev, server, "dev")
        sit(dev, server, "vip-1", 1)
        betting_open(dev, seconds=2)
        dev.locator('.chip[data-chip="100000"]').click()
        dev.locator('[data-bet="banker"]').click()
        dev.locator('[data-action="confirm"]').click()
        dev.wait_for_function(
            "() => document.querySelectorAll('.squeeze-card').length === 2", timeout=30_000
        )
        dev.wait_for_timeout(700)
        card = dev.locator(".squeeze-card").first
        box = card.bounding_box()
        assert box is not None
        dev.mouse.move(box["x"] + box["width"] - 6, box["y"] + box["height"] - 6)
        dev.mouse.down()
        dev.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.72, steps=6)
        shots.append(save(dev, folder, "squeeze"))
        dev.mouse.up()

        lobby = new_page(browser, errors)
        log_in(lobby, server, "ann")
        lobby.wait_for_function(
            "() => document.querySelectorAll('.lobby-road .big-road-ring').length >= 20"
        )
        lobby.wait_for_timeout(300)
        shots.append(save(lobby, folder, "lobby"))

        # Traditional Chinese, as a browser in Taiwan, Hong Kong or Macau gets it
        for width, height, suffix in ((1366, 768, ""), (390, 844, "-phone")):
            hant = new_page(browser, errors, width=width, height=height, locale="zh-TW")
            if suffix:  # a phone hides the account's name: watch without logging in
                hant.goto(server.url("/app/"))
            else:
                log_in(hant, server, "cleo")
            hant.wait_for_function(
                "() => document.querySelectorAll('.lobby-road .big-road-ring').length >= 20"
            )
            hant.wait_for_timeout(300)
            shots.append(save(hant, folder, f"lobby{suffix}-zh-hant"))
            hant.goto(server.url("/app/#/table/macau-1"))
            hant.wait_for_function(
                "() => document.querySelectorAll('.hand-cards .card').length >= 3",
                timeout=30_000,
            )
            hant.wait_for_timeout(450)
            shots.append(save(hant, folder, f"table{suffix}-zh-hant"))
            hant.context.close()
        shots.extend(admin_rules(browser, server, folder, errors))
        browser.close()
    if errors:
        raise RuntimeError(f"script errors in the pages: {errors}")
    return shots


def main() -> int:
    """Run the server, take the pictures, print their paths."""
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    fast = {
        "PUNTO_BETTING_SECONDS": "5",
        "PUNTO_CARD_DELAY": "0.6",
        "PUNTO_RESULT_SECONDS": "0.3",
        "PUNTO_SQUEEZE_SECONDS": "15",
        "PUNTO_RNG_SEED": "7",
    }
    with run_server(**fast) as server:
        for path in make(server, folder, warm_up=30.0):
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
