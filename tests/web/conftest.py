"""Fixtures of the browser tests: one server and one Chromium for the package, stopped
when its tests are done."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from web.web_support import CHROMIUM, CHROMIUM_ARGS, Server, chromium_missing, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

_MISSING = chromium_missing()

# Every wait of a browser test is on a condition (an element, a text, a function of the
# page); these are only the bounds after which a condition is called never met. They are
# generous so that a machine busy with other work (CI shares its cores) slows a test down
# rather than failing it.
WAIT_MS = 60_000
EXPECT_MS = 30_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the browser tests, saying why, when Chromium or Playwright is absent."""
    if _MISSING is None:
        return
    for item in items:
        if "web" in item.nodeid.split("/"):
            item.add_marker(pytest.mark.skip(reason=_MISSING))


@pytest.fixture(scope="package")
def server() -> Iterator[Server]:
    """A real ``punto serve`` with demo tables and short timers."""
    with run_server() as running:
        yield running


@pytest.fixture(scope="module")
def own_server() -> Iterator[Server]:
    """A server of one test module's own: what the package's other browser tests leave
    (players seated, hands in play at the demo tables) cannot change what it sees."""
    with run_server() as running:
        yield running


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_MS)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def page(server: Server, browser: Browser) -> Page:
    """A page of the client, shared by a module's tests, to import its modules in."""
    from web.pages import new_page

    errors: list[str] = []
    client = new_page(browser, errors)
    client.goto(server.url("/app/"))
    return client
