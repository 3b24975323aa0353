"""A path nothing serves: a browser gets the client's own "page not found" in the reader's
language (status 404), API paths and non-browser callers the protocol's JSON error.
Screenshots go to ``PUNTO_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from web.pages import new_page, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_api_paths_and_machines_keep_the_json_error(server: Server) -> None:
    for path, accept in (
        ("/api/does-not-exist", HTML),
        ("/table/does-not-exist", "application/json"),
        ("/table/does-not-exist", "*/*"),
    ):
        answer = httpx.get(server.url(path), headers={"Accept": accept})
        assert answer.status_code == 404, path
        assert answer.json()["error"] == "not_found"
    page = httpx.get(server.url("/table/does-not-exist"), headers={"Accept": HTML})
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<meta name="punto-not-found" content="/app/">' in page.text
    assert 'src="/app/js/main.js"' in page.text


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
@pytest.mark.parametrize(
    ("locale", "title", "lobby"),
    [("en-GB", "Page not found", "Lobby"), ("zh-CN", "找不到此页", "大厅")],
)
def test_a_browser_gets_a_translated_not_found_page(
    server: Server,
    browser: Browser,
    tmp_path: Path,
    size: tuple[int, int],
    locale: str,
    title: str,
    lobby: str,
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    page = new_page(browser, errors, width=size[0], height=size[1], locale=locale)
    answer = page.goto(server.url("/table/does-not-exist"))
    assert answer is not None
    assert answer.status == 404
    found = page.get_by_test_id("not-found")
    expect(found.locator("h1")).to_have_text(title)
    assert "{" not in page.locator("body").inner_text()  # no raw JSON on the page
    save(page, shots, f"not-found-{size[0]}x{size[1]}-{locale[:2]}")
    found.get_by_role("link", name=lobby).click()
    expect(page).to_have_url(server.url("/app/#/"))
    page.locator(".lobby-grid").wait_for()
    assert errors == []
