"""Fixtures of the browser tests: one server and one Chromium for the package, stopped
when its tests are done."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from e2e.web_support import CHROMIUM, CHROMIUM_ARGS, Server, chromium_missing, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

_MISSING = chromium_missing()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the browser tests, saying why, when Chromium or Playwright is absent."""
    if _MISSING is None:
        return
    for item in items:
        if "e2e" in item.nodeid.split("/"):
            item.add_marker(pytest.mark.skip(reason=_MISSING))


@pytest.fixture(scope="package")
def server() -> Iterator[Server]:
    """A real ``punto serve`` with demo tables and short timers."""
    with run_server() as running:
        yield running


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
