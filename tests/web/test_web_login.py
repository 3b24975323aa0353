"""The login page in the browser: a wrong password said once, in the page's language; a
client past its free failures told how long to wait (429), translated; another account
from the same client still logs in. Screenshots of the refusals, phone and desktop,
English and Chinese, go to ``PUNTO_SCREENSHOTS`` when it is set."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from web.pages import log_in, new_page, new_player, save
from web.web_support import Server, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def throttled() -> Iterator[Server]:
    """A server whose clients wait two minutes after two wrong passwords for one account."""
    with run_server(
        PUNTO_LOGIN_ATTEMPTS="2", PUNTO_LOGIN_ADDRESS_ATTEMPTS="50", PUNTO_LOGIN_DELAY="120"
    ) as running:
        yield running


def _try(page: Page, user: str, password: str) -> str:
    page.get_by_test_id("username").fill(user)
    page.get_by_test_id("password").fill(password)
    error = page.get_by_test_id("login-error")
    error.evaluate("e => { e.textContent = ''; }")
    page.get_by_test_id("login-submit").click()
    page.wait_for_function("() => document.querySelector('[data-testid=login-error]').textContent")
    return error.inner_text()


WORDS = {
    "en-GB": ("Wrong username or password", r"Too many attempts: try again in (2 min|1 min.*s)"),
    "zh-CN": ("用户名或密码错误", r"尝试次数太多：请(2分钟|1分钟.*秒)后再试"),
}


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
@pytest.mark.parametrize("locale", list(WORDS))
def test_wrong_passwords_then_a_translated_cool_down_and_other_accounts_still_log_in(
    throttled: Server, browser: Browser, tmp_path: Path, locale: str, size: tuple[int, int]
) -> None:
    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    wrong, wait = WORDS[locale]
    errors: list[str] = []
    page = new_page(browser, errors, width=size[0], height=size[1], locale=locale)
    page.goto(throttled.url("/app/#/login"))
    user = new_player(throttled)
    assert _try(page, user, "nope") == wrong
    assert _try(page, user, "nope") == wrong
    refused = _try(page, user, f"{user}-demo")  # the right password, during the cool-down
    assert re.fullmatch(wait, refused), refused
    save(page, shots, f"login-wait-{size[0]}x{size[1]}-{locale[:2]}")
    log_in(page, throttled, new_player(throttled))  # another account, the same client
    assert errors == []
