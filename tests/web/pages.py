"""What a person does in the client, as Playwright steps (used by the browser tests)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from web.web_support import Server, minor

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = [
    "betting_open",
    "confirm_bet",
    "in_one_round",
    "leave_seat",
    "log_in",
    "new_page",
    "new_player",
    "results_seen",
    "save",
    "sit",
    "stake",
    "table_balance",
    "watch_results",
]


def new_page(
    browser: Browser,
    errors: list[str],
    *,
    width: int = 1280,
    height: int = 900,
    locale: str = "en-GB",
) -> Page:
    """A fresh page in its own context (its own session), in the browser language
    ``locale`` (English by default), dialogs accepted; the page's script errors go to
    ``errors``."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def new_player(server: Server, prefix: str = "p") -> str:
    """Register a new player for one test alone (the demo server's starting wallet;
    password ``<name>-demo``, as the demo accounts', so :func:`log_in` logs them in)."""
    import secrets

    import httpx

    name = f"{prefix}{secrets.token_hex(4)}"
    answer = httpx.post(
        server.url("/api/auth/register"), json={"username": name, "password": f"{name}-demo"}
    )
    answer.raise_for_status()
    return name


def log_in(page: Page, server: Server, user: str) -> None:
    """Log in with a demo account and wait for the header to name it (a phone's header
    keeps the name hidden, but there)."""
    page.goto(server.url("/app/#/login"))
    page.get_by_test_id("username").fill(user)
    page.get_by_test_id("password").fill(f"{user}-demo")
    page.get_by_test_id("login-submit").click()
    page.get_by_test_id("who").wait_for(state="attached")


def sit(page: Page, server: Server, table: str, seat: int) -> None:
    """Open a table and sit at a seat."""
    page.goto(server.url(f"/app/#/table/{table}"))
    page.locator(f'.seat[data-seat="{seat}"]:not([disabled])').click()
    page.locator(f'.seat-mine[data-seat="{seat}"]').wait_for()


def betting_open(page: Page, *, seconds: int = 3, timeout: float = 30_000) -> None:
    """Wait until betting is open with at least ``seconds`` left on the countdown."""
    page.wait_for_function(
        """(s) => { const n = document.querySelector('.countdown:not([hidden]) .countdown-num');
                    return n && Number(n.textContent) >= s; }""",
        arg=seconds,
        timeout=timeout,
    )


def stake(page: Page, chip: int, bets: tuple[str, ...]) -> None:
    """Take the ``chip`` (minor units), put one on each of ``bets`` in turn, and confirm."""
    page.locator(f'.chip[data-chip="{chip}"]').click()
    for bet in bets:
        page.locator(f'[data-bet="{bet}"]').click()
    page.locator('[data-action="confirm"]').click()


def confirm_bet(page: Page, chip: int, bet: str, shown: str, *, tries: int = 4) -> int:
    """Place one ``chip`` (minor units) on ``bet`` and confirm it in a betting round with
    at least 3 s left; when the round closes first (a busy machine), the next round
    (:func:`in_one_round`).

    Returns the table balance read just before the chip went down. A confirm that was
    refused because betting had closed moved nothing, so trying again is safe.
    """
    from playwright.sync_api import expect

    before = 0

    def steps() -> None:
        nonlocal before
        before = table_balance(page)
        page.locator(f'.chip[data-chip="{chip}"]').click(timeout=5_000)
        page.locator(f'[data-bet="{bet}"]').click(timeout=5_000)
        page.locator('[data-action="confirm"]').click(timeout=5_000)
        page.get_by_test_id(f"confirmed-{bet}").wait_for(timeout=15_000)

    in_one_round(page, steps, seconds=3, tries=tries)
    expect(page.get_by_test_id(f"confirmed-{bet}")).to_have_text(shown)
    return before


def in_one_round(
    page: Page, steps: Callable[[], None], *, seconds: int = 4, tries: int = 4
) -> None:
    """Run ``steps`` (chips, refusals, a confirm …) within one betting round that had at
    least ``seconds`` left when they began; when that round closes under them (a busy
    machine), all of them again in the next round (a closed round drops what was not
    confirmed). A failure while the same round is still open is the test's own: raised.
    """
    for attempt in range(tries):
        betting_open(page, seconds=seconds)
        game = page.get_by_test_id("info-game").text_content()
        try:
            steps()
            return
        except Exception:
            still_open = (
                page.get_by_test_id("info-game").text_content() == game
                and page.locator(".countdown:not([hidden])").count() > 0
            )
            if still_open or attempt == tries - 1:
                raise


_WATCH_RESULTS = """() => {
  window.__puntoResults = [];
  const look = () => {
    const mine = document.querySelector('[data-testid="my-result"]');
    const text = mine && mine.checkVisibility() ? mine.textContent : "";
    const seen = window.__puntoResults;
    if (text && (seen.length === 0 || seen[seen.length - 1].mine !== text)) {
      const result = document.querySelector('[data-testid="result"]');
      const game = document.querySelector('[data-testid="info-game"]');
      seen.push({
        mine: text,
        game: game ? game.textContent : "",
        result: result ? result.textContent : "",
        player: document.querySelectorAll('.hand-player .card').length,
        banker: document.querySelectorAll('.hand-banker .card').length,
      });
    }
  };
  new MutationObserver(look).observe(document.body,
    { childList: true, subtree: true, characterData: true, attributes: true });
  look();
}"""


def watch_results(page: Page) -> None:
    """Start noting each result the player is shown (``results_seen``): a result stays on
    screen only until the next round, which a busy machine may reach before a test
    reads it."""
    page.evaluate(_WATCH_RESULTS)


def results_seen(page: Page, count: int = 1) -> list[dict[str, object]]:
    """The first ``count`` results the player was shown since ``watch_results``: the
    "my result" text, the game number, the result line and the number of cards of each
    side then."""
    page.wait_for_function(
        "(n) => (window.__puntoResults || []).length >= n", arg=count, timeout=120_000
    )
    seen: list[dict[str, object]] = page.evaluate("() => window.__puntoResults")
    return seen[:count]


def table_balance(page: Page) -> int:
    """The table balance shown in the header, in minor units."""
    return minor(page.get_by_test_id("table-balance").inner_text())


def leave_seat(page: Page) -> None:
    """Leave the table's seat; wait until the page offers to watch instead."""
    page.locator('[data-action="leave"]').click()
    page.locator('[data-action="watch"]').wait_for()


def save(page: Page, folder: Path, name: str) -> Path:
    """Save a screenshot of what the page shows as ``folder/name.png``."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def register_and_play(
    page: Page, server: Server, user: str, table: str, seat: int, bet: str
) -> str:
    """Register ``user`` (password ``<user>-secret``), log in, bet 25.00 on ``bet`` at
    ``table`` until a hand of theirs is settled; the game number (they stay seated)."""
    import httpx
    from playwright.sync_api import expect

    answer = httpx.post(
        server.url("/api/auth/register"), json={"username": user, "password": f"{user}-secret"}
    )
    assert answer.status_code == 201, answer.text
    page.goto(server.url("/app/#/login"))
    page.get_by_test_id("username").fill(user)
    page.get_by_test_id("password").fill(f"{user}-secret")
    page.get_by_test_id("login-submit").click()
    expect(page.get_by_test_id("who")).to_contain_text(user)
    sit(page, server, table, seat)
    watch_results(page)
    confirm_bet(page, 2500, bet, "25.00")
    (shown,) = results_seen(page)
    return str(shown["game"])
