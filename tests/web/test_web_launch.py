"""A player launched by an operator (a signed ``POST /api/operator/v1/launch``) opens the
URL it got and lands in the lobby, or straight at a table, in the launch's language,
logged in, with the operator's cashier, responsible-gaming and exit links and never a
login form (phone and desktop, English and Chinese). A used link says so."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from web.pages import new_page, save
from web.web_support import Server, add_operator, signed_launch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SHOTS = Path(os.environ.get("PUNTO_SHOTS", "")) if os.environ.get("PUNTO_SHOTS") else None
"""Where to keep the screenshots (``PUNTO_SHOTS``), to look at them."""

LINKS = {
    "lobby_url": "https://casino.example/lobby",
    "cashier_url": "https://casino.example/cashier",
    "responsible_gaming_url": "https://casino.example/safer-gambling",
}


def _launch(server: Server, operator: tuple[str, str], **fields: Any) -> str:
    answer = signed_launch(server, operator[0], operator[1], **LINKS, **fields)
    answer.raise_for_status()
    return str(answer.json()["url"])


@pytest.mark.parametrize(
    ("language", "width", "height"),
    [("en", 1366, 768), ("zh", 390, 844), ("zh", 1366, 768), ("en", 390, 844)],
)
def test_a_launched_player_lands_in_the_lobby_in_their_language_without_a_login_form(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height)
    operator = add_operator(server, ("EUR", "USD"))
    page.goto(_launch(server, operator, language=language, display_name="Mei"))
    page.get_by_test_id("who").wait_for(state="attached")
    assert "Mei" in page.get_by_test_id("who").inner_text()
    assert "launch=" not in page.url  # the token leaves the address at once
    assert page.evaluate("document.documentElement.lang").startswith(language)
    assert page.get_by_test_id("login-link").count() == 0
    assert page.get_by_test_id("username").count() == 0
    assert page.get_by_test_id("cashier-link").get_attribute("href") == LINKS["cashier_url"]
    assert page.get_by_test_id("rg-link").get_attribute("href") == LINKS["responsible_gaming_url"]
    assert page.get_by_test_id("exit-link").get_attribute("href") == LINKS["lobby_url"]
    page.get_by_test_id("open-macau-1").wait_for()
    if SHOTS is not None:
        save(page, SHOTS, f"launch-lobby-{language}-{width}")
    # straight to a table, and a link opened a second time
    url = _launch(server, operator, language=language, table="macau-1")
    page.goto(url)
    page.wait_for_url("**/#/table/macau-1")
    page.get_by_test_id("who").wait_for(state="attached")
    if SHOTS is not None:
        save(page, SHOTS, f"launch-table-{language}-{width}")
    fresh = new_page(browser, errors, width=width, height=height)
    fresh.goto(url)
    fresh.get_by_test_id("launch-failed").wait_for()
    assert fresh.get_by_test_id("login-link").count() == 1  # no session was made
    if SHOTS is not None:
        save(fresh, SHOTS, f"launch-used-{language}-{width}")
    assert errors == []
    page.context.close()
    fresh.context.close()
