"""What a person does in the client, as Playwright steps (used by the browser tests)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from e2e.web_support import Server, minor

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["betting_open", "log_in", "new_page", "save", "sit", "table_balance"]


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
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def log_in(page: Page, server: Server, user: str) -> None:
    """Log in with a demo account and wait for the header to show it."""
    page.goto(server.url("/app/#/login"))
    page.get_by_test_id("username").fill(user)
    page.get_by_test_id("password").fill(f"{user}-demo")
    page.get_by_test_id("login-submit").click()
    page.get_by_test_id("who").wait_for()


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


def table_balance(page: Page) -> int:
    """The table balance shown in the header, in minor units."""
    return minor(page.get_by_test_id("table-balance").inner_text())


def save(page: Page, folder: Path, name: str) -> Path:
    """Save a screenshot of what the page shows as ``folder/name.png``."""
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def register_and_play(
    page: Page, server: Server, user: str, table: str, seat: int, bet: str
) -> str:
    """Register ``user`` (password ``<user>-secret``), log in, bet 25.00 on ``bet`` at
    ``table`` until a hand of theirs is settled, leave the seat; the game number."""
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
    betting_open(page)
    page.locator('.chip[data-chip="2500"]').click()
    page.locator(f'[data-bet="{bet}"]').click()
    page.locator('[data-action="confirm"]').click()
    expect(page.get_by_test_id(f"confirmed-{bet}")).to_have_text("25.00")
    game = page.get_by_test_id("info-game").inner_text()
    expect(page.get_by_test_id("my-result")).to_be_visible(timeout=30_000)
    return game
