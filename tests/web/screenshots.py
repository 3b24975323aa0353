"""Make the screenshots of ``docs/screenshots/``: the lobby, a table mid-hand (desktop, and
a phone in Chinese), the squeeze, the dealer console mid-hand, the lobby and a table in
Traditional Chinese (desktop and phone), and the administration page's rules editor with
its edge preview (phone and desktop, English, Simplified and Traditional Chinese), and the
win display after a settled hand (phone and desktop, English and Chinese).

    .venv/bin/python tests/web/screenshots.py [FOLDER] [--only KIND]

(KIND is win, refund, totals, names, standing or reports. ``--only win`` takes only the
win display's pictures, ``--only refund`` a void hand's refund as a player and a
spectator see it (not among the pictures of ``docs/``), ``--only totals`` the bet
totals', ``--only names`` the lobby and a table with the tables' names in each language,
``--only standing`` the bets a tie left standing, staked again and then returned, at a
table whose wallet is the operator's, ``--only reports`` the reports tab with two
operators' players in EUR, JPY and USD, phone and desktop, English and Chinese.)

It starts its own ``punto serve`` (fast timers, a temporary database), lets the RNG tables
deal a few dozen hands so the roads have something to show, deals some live hands from the
dealer console, then takes the pictures with Debian's Chromium.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from web.pages import betting_open, log_in, new_page, save, sit, stake
from web.web_support import CHROMIUM, CHROMIUM_ARGS, Server, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LIVE_COUPS = ("9S 8D KH 7C", "2H 5C 3D AS 8H", "TD 6S 8C 9H", "AS AD 4C 3H 5S 2C", "7D 7S KH 9C")
"""Coups the dealer deals at live-1 before the pictures (shoe order: P1 B1 P2 B2 …)."""


def _dealer_console(
    browser: Browser, server: Server, errors: list[str], dealer: str, table: str = "live-1"
) -> Page:
    """A dealer's console at ``table`` (a live table), logged in and ready for cards."""
    page = new_page(browser, errors, height=1200)
    log_in(page, server, dealer)
    page.get_by_test_id(f"deal-{table}").click()
    page.get_by_test_id("card-input").wait_for()
    return page


def _deal(page: object, cards: str) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    for card in cards.split():
        page.get_by_test_id("card-input").fill(card)
        page.get_by_test_id("card-input").press("Enter")
        page.locator(f'.slot .card[data-card="{card}"]').first.wait_for()


ADMIN_SIZES = {"phone": (390, 844), "desktop": (1366, 768)}

LOCALES = {"en": "en-GB", "zh": "zh-CN"}
"""The browser locale each picture's language is taken in."""

_READY = '[data-action="{}"]:not([disabled])'


def _start_shoe(dealer: Page) -> None:
    """Wait until the console can act and start a shoe unless one is dealing already."""
    start = dealer.locator(_READY.format("start_shoe"))
    dealer.locator(
        f"{_READY.format('start_shoe')}, {_READY.format('open_betting')}"
    ).first.wait_for()
    if start.count():
        start.click()


def _stake(page: Page, chip: int, bets: tuple[str, ...], shown: str | None = None) -> None:
    """Stake ``chip`` on each of ``bets`` in turn and confirm; wait until ``shown`` (the last
    bet unless named) is confirmed."""
    stake(page, chip, bets)
    page.get_by_test_id(f"confirmed-{shown or bets[-1]}").wait_for()


def _at_least(page: Page, selector: str, count: int, timeout: float | None = None) -> None:
    """Wait until ``count`` elements match ``selector``."""
    page.wait_for_function(
        f"() => document.querySelectorAll({selector!r}).length >= {count}", timeout=timeout
    )


def _leave(page: Page) -> None:
    """Leave the seat, then close the page."""
    page.locator('[data-action="leave"]').click()
    page.locator('[data-action="watch"]').wait_for()
    page.context.close()


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


WIN_COUP = "2H 4C 3D 4D"
"""Player 2+3 = 5, Banker 4+4 = 8 with a pair: Banker and Banker Pair win."""


def win_display(browser: object, server: Server, folder: Path, errors: list[str]) -> list[Path]:
    """The win display at live-1 (the dealer deals :data:`WIN_COUP`): a player with 50.00
    on Banker and 50.00 on Banker Pair, at 390×844 and 1366×768, English and Chinese."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    shots = []
    dealer = _dealer_console(browser, server, errors, "lin")
    _start_shoe(dealer)
    for size, (width, height) in ADMIN_SIZES.items():
        for language in ("en", "zh"):
            page = new_page(browser, errors, locale=LOCALES[language])
            log_in(page, server, "cleo")
            page.set_viewport_size({"width": width, "height": height})
            sit(page, server, "live-1", 6)
            dealer.locator('[data-action="open_betting"]:not([disabled])').click()
            betting_open(page, seconds=2)
            _stake(page, 5000, ("banker", "banker_pair"))
            dealer.locator('[data-action="close_betting"]:not([disabled])').click()
            _deal(dealer, WIN_COUP)
            page.locator('[data-testid="win-display"][data-kind="win"]').wait_for(timeout=30_000)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(600)  # the display's entrance
            shots.append(save(page, folder, f"win-{size}-{language}"))
            _leave(page)
    dealer.context.close()
    return shots


def refund_display(browser: object, server: Server, folder: Path, errors: list[str]) -> list[Path]:
    """A void hand's refund at live-1: a player with 50.00 on Banker and 50.00 on Banker
    Pair when the dealer voids the hand after two cards [M10] (the refund comes as their
    own refund beside the refund's summary), at 390×844 and 1366×768, English and
    Chinese, each beside a spectator's view of the same table (no one's refund shown, the
    layout cleared)."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    shots = []
    dealer = _dealer_console(browser, server, errors, "lin")
    _start_shoe(dealer)
    for size, (width, height) in ADMIN_SIZES.items():
        for language in ("en", "zh"):
            locale = LOCALES[language]
            page = new_page(browser, errors, locale=locale)
            log_in(page, server, "cleo")
            page.set_viewport_size({"width": width, "height": height})
            sit(page, server, "live-1", 6)
            spectator = new_page(browser, errors, width=width, height=height, locale=locale)
            spectator.goto(server.url("/app/#/table/live-1"))
            dealer.locator('[data-action="open_betting"]:not([disabled])').click()
            betting_open(page, seconds=2)
            _stake(page, 5000, ("banker", "banker_pair"))
            dealer.locator('[data-action="close_betting"]:not([disabled])').click()
            _deal(dealer, "2H 4C")
            dealer.get_by_test_id("fault-select").select_option("m10_misdeal_void")
            dealer.get_by_test_id("report-fault").click()
            page.locator('[data-testid="win-display"][data-kind="refund"]').wait_for(timeout=30_000)
            spectator.locator('[data-testid="result"].result-void').wait_for(timeout=30_000)
            for shown in (page, spectator):
                shown.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(600)  # the display's entrance
            shots.append(save(page, folder, f"refund-{size}-{language}"))
            shots.append(save(spectator, folder, f"refund-spectator-{size}-{language}"))
            spectator.context.close()
            _leave(page)
    dealer.context.close()
    return shots


def bet_totals(browser: object, server: Server, folder: Path, errors: list[str]) -> list[Path]:
    """Every player's total and bettor count per area and the Player/Banker split, as a
    third player sees them (phone and desktop, English and Chinese) at live-1."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    dealer = _dealer_console(browser, server, errors, "dana")
    start = dealer.locator('[data-action="start_shoe"]:not([disabled])')
    if start.count():
        start.click()
    plan = (
        ("bob", 2, 5000, ("banker", "banker", "player_pair")),
        ("ann", 3, 1000, ("player", "banker", "tie")),
    )
    pages = []
    for user, seat, _chip, _bets in plan:  # both seated first: the countdown is short
        page = new_page(browser, errors)
        log_in(page, server, user)
        sit(page, server, "live-1", seat)
        pages.append(page)
    dealer.locator('[data-action="open_betting"]:not([disabled])').click()
    for page, (_user, _seat, chip, bets) in zip(pages, plan, strict=True):
        betting_open(page, seconds=2)
        _stake(page, chip, bets, shown=bets[0])
    shots = []
    for width, height, name in ((1366, 768, "desktop"), (390, 844, "phone")):
        for lang in ("en", "zh"):
            cleo = new_page(browser, errors)
            log_in(cleo, server, "cleo")  # a phone's header hides the name: log in wide
            cleo.set_viewport_size({"width": width, "height": height})
            cleo.goto(server.url("/app/#/table/live-1"))
            cleo.locator(f'[data-lang="{lang}"]').first.click()
            cleo.get_by_test_id("bettors-banker").wait_for()
            cleo.get_by_test_id("bet-split").scroll_into_view_if_needed()
            cleo.wait_for_timeout(300)
            shots.append(save(cleo, folder, f"bet-totals-{name}-{lang}"))
            cleo.context.close()
    return shots


def table_names(browser: object, server: Server, folder: Path, errors: list[str]) -> list[Path]:
    """The lobby and macau-1's table with the tables named in the player's language
    (``names``), phone and desktop, English, Simplified and Traditional Chinese."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    shots = []
    for size, (width, height) in ADMIN_SIZES.items():
        for language in ("en", "zh", "zh-Hant"):
            page = new_page(browser, errors)
            log_in(page, server, "cleo")  # a phone's header hides the name: log in wide
            page.set_viewport_size({"width": width, "height": height})
            page.locator(f'[data-lang="{language}"]').first.click()
            page.goto(server.url("/app/#/"))
            _at_least(page, ".lobby-road .big-road-ring", 3, timeout=120_000)
            page.wait_for_timeout(300)
            shots.append(save(page, folder, f"lobby-names-{size}-{language.lower()}"))
            page.goto(server.url("/app/#/table/macau-1"))
            page.locator(".table-title h1").wait_for()
            page.locator(".seat").first.wait_for()
            page.wait_for_timeout(300)
            shots.append(save(page, folder, f"table-names-{size}-{language.lower()}"))
            page.context.close()
    return shots


def operator_reports(
    browser: object, server: Server, folder: Path, errors: list[str]
) -> list[Path]:
    """The reports tab (the daily report of table ``rep-1``, then the operators'), each
    amount in its row's currency, at each size of :data:`ADMIN_SIZES`, in English and
    Simplified Chinese."""
    from playwright.sync_api import Browser

    from web.reports_support import seed_reports

    assert isinstance(browser, Browser)
    seed_reports(server)
    shots = []
    for size, (width, height) in ADMIN_SIZES.items():
        for language in ("en", "zh"):
            page = new_page(browser, errors)
            log_in(page, server, "sam")  # the header names the user at desktop width
            page.set_viewport_size({"width": width, "height": height})
            page.goto(server.url("/app/#/supervisor"))
            page.locator(f'[data-lang="{language}"]').click()
            page.locator("[data-tab=s-reports]").click()
            page.locator("form:has([name=table]) [name=table]").fill("rep-1")
            page.locator("form:has([name=table]) button[type=submit]").click()
            page.get_by_test_id("report").locator("tbody tr").nth(2).wait_for()
            page.get_by_test_id("opreport").locator("tbody tr").first.wait_for()
            path = folder / f"reports-{size}-{language}.png"
            page.screenshot(path=str(path), full_page=True)  # both reports, whole
            shots.append(path)
            page.context.close()
    return shots


def make(server: Server, folder: Path, warm_up: float) -> list[Path]:
    """Take every picture into ``folder``."""
    from playwright.sync_api import sync_playwright

    shots: list[Path] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        dealer = _dealer_console(browser, server, errors, "dana")
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
        stake(player, 5000, ("banker",))
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
        _at_least(ann, ".hand-cards .card", 3)
        ann.wait_for_timeout(400)
        shots.append(save(ann, folder, "table-mid-hand"))

        phone = new_page(browser, errors, width=375, height=812)
        phone.goto(server.url("/app/#/table/macau-1"))
        phone.locator('[data-lang="zh"]').click()
        _at_least(phone, ".hand-cards .card", 3)
        phone.wait_for_timeout(450)
        shots.append(save(phone, folder, "table-phone-zh"))

        dev = new_page(browser, errors)
        log_in(dev, server, "dev")
        sit(dev, server, "vip-1", 1)
        betting_open(dev, seconds=2)
        stake(dev, 100000, ("banker",))
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
        _at_least(lobby, ".lobby-road .big-road-ring", 20)
        lobby.wait_for_timeout(300)
        shots.append(save(lobby, folder, "lobby"))

        # Traditional Chinese, as a browser in Taiwan, Hong Kong or Macau gets it
        for width, height, suffix in ((1366, 768, ""), (390, 844, "-phone")):
            hant = new_page(browser, errors, width=width, height=height, locale="zh-TW")
            if suffix:  # a phone hides the account's name: watch without logging in
                hant.goto(server.url("/app/"))
            else:
                log_in(hant, server, "cleo")
            _at_least(hant, ".lobby-road .big-road-ring", 20)
            hant.wait_for_timeout(300)
            shots.append(save(hant, folder, f"lobby{suffix}-zh-hant"))
            hant.goto(server.url("/app/#/table/macau-1"))
            _at_least(hant, ".hand-cards .card", 3, timeout=30_000)
            hant.wait_for_timeout(450)
            shots.append(save(hant, folder, f"table{suffix}-zh-hant"))
            hant.context.close()
        shots.extend(admin_rules(browser, server, folder, errors))
        shots.extend(win_display(browser, server, folder, errors))
        shots.extend(table_names(browser, server, folder, errors))
        browser.close()
    if errors:
        raise RuntimeError(f"script errors in the pages: {errors}")
    return shots


def standing_bets(folder: Path, fast: dict[str, str]) -> list[Path]:
    """[M12] The bets a tie left standing at a table whose wallet is the operator's: staked
    again on the next hand (the operator's debit made), raised by the player (staked by a
    debit of its own), then, after another tie, returned because the operator refused the
    debit — the player's table with its event log, at
    390×844 and 1366×768, English and Chinese. Runs its own server, on the reference
    operator (in this process, so the picture can make it refuse)."""
    import threading

    import uvicorn
    from playwright.sync_api import sync_playwright

    from punto.ledger.operator_ref import ReferenceOperator, create_app
    from web.web_support import free_port

    operator = ReferenceOperator(dict.fromkeys(("ann", "bob", "cleo", "dev"), 10000000))
    port = free_port()
    wallet = uvicorn.Server(
        uvicorn.Config(create_app(operator), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=wallet.run, daemon=True).start()
    while not wallet.started:
        time.sleep(0.05)
    seamless = {"PUNTO_WALLET": "seamless", "PUNTO_WALLET_URL": f"http://127.0.0.1:{port}/wallet"}
    shots: list[Path] = []
    errors: list[str] = []
    try:
        with run_server(**fast, **seamless) as server, sync_playwright() as p:
            admin = httpx.post(
                server.url("/api/auth/login"), json={"username": "admin", "password": "admin-demo"}
            ).json()["token"]
            created = httpx.post(
                server.url("/api/admin/tables"),
                json={
                    "id": "macau-live",
                    "name": "Macau live",
                    "rules": "macau",
                    "dealing": "live",
                },
                headers={"Authorization": f"Bearer {admin}"},
            )
            assert created.status_code == 201, created.text
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            dealer = _dealer_console(browser, server, errors, "dana", table="macau-live")
            ready = '[data-action="{}"]:not([disabled])'
            dealer.locator(ready.format("start_shoe")).click()
            for language, player, seat in (("en", "ann", 1), ("zh", "bob", 2)):
                locale = LOCALES[language]
                page = new_page(browser, errors, width=1366, height=768, locale=locale)
                log_in(page, server, player)
                sit(page, server, "macau-live", seat)
                dealer.locator(ready.format("open_betting")).click()
                betting_open(page, seconds=2)
                _stake(page, 5000, ("banker",))
                changes = page.locator('.event-log li[data-kind="tie_bets_changed"]')
                for coup, refuse in (("4S 4H 3S 3H", False), ("4D 4C 3D 3C", True)):
                    dealer.locator(ready.format("close_betting")).click()
                    _deal(dealer, coup)  # Player 7, Banker 7: a tie [M12]
                    seen = changes.count()
                    if refuse:
                        operator.fail("debit")
                    dealer.locator(ready.format("open_betting")).click()
                    changes.nth(seen).wait_for(state="attached", timeout=30_000)
                    operator.heal()
                    if not refuse:  # raised by the player: staked by its own debit after
                        tie = page.locator(".tie-option")
                        tie.locator("input").nth(1).fill("100")  # Banker
                        tie.locator("button:not(.btn-ghost)").click()
                        changes.nth(seen + 2).wait_for(state="attached", timeout=30_000)
                        page.locator(".event-log").scroll_into_view_if_needed()
                        page.wait_for_timeout(400)
                        shots.append(save(page, folder, f"standing-raised-desktop-{language}"))
                page.locator(".event-log").scroll_into_view_if_needed()
                page.wait_for_timeout(400)
                shots.append(save(page, folder, f"standing-desktop-{language}"))
                page.set_viewport_size({"width": 390, "height": 844})
                page.locator(".event-log").scroll_into_view_if_needed()
                page.wait_for_timeout(400)
                shots.append(save(page, folder, f"standing-phone-{language}"))
                page.locator(".my-bets").scroll_into_view_if_needed()
                page.wait_for_timeout(400)
                shots.append(save(page, folder, f"standing-phone-bets-{language}"))
                dealer.locator(ready.format("close_betting")).click()
                _deal(dealer, "9S 8D KH 7C")
                page.locator('[data-action="leave"]').click()
                page.context.close()
            browser.close()
    finally:
        wallet.should_exit = True
    if errors:
        raise RuntimeError(f"script errors in the pages: {errors}")
    return shots


def main() -> int:
    """Run the server, take the pictures, print their paths."""
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        at = args.index("--only")
        only = args[at + 1]
        args = args[:at] + args[at + 2 :]
    folder = Path(args[0] if args else "docs/screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    fast = {
        "PUNTO_BETTING_SECONDS": "5",
        "PUNTO_CARD_DELAY": "0.6",
        "PUNTO_RESULT_SECONDS": "0.3",
        "PUNTO_SQUEEZE_SECONDS": "15",
        "PUNTO_RNG_SEED": "7",
    }
    if only == "standing":
        for path in standing_bets(folder, fast):
            print(path)
        return 0
    with run_server(**fast) as server:
        if only in ("win", "refund", "totals", "names", "reports"):
            from playwright.sync_api import sync_playwright

            errors: list[str] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                shoot = {
                    "win": win_display,
                    "refund": refund_display,
                    "totals": bet_totals,
                    "names": table_names,
                    "reports": operator_reports,
                }[only]
                paths = shoot(browser, server, folder, errors)
                browser.close()
            if errors:
                raise RuntimeError(f"script errors in the pages: {errors}")
        else:
            paths = make(server, folder, warm_up=30.0)
        for path in paths:
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
