"""A player launched under a jurisdiction profile (UKGC RTS 13): when a reality check is
due the game stops for a modal with the time played and the net result in the player's
currency; Continue plays on until the next one, Leave goes back to the operator's lobby.
A profile's session limit shows its notice, and a bet refused after it opens it again;
side bets and chat it turns off are not shown (phone and desktop, English and Chinese).

The profiles' intervals are a few seconds: every wait is on the modal showing or going."""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from web.pages import betting_open, in_one_round, new_page, results_seen, save, sit, watch_results
from web.web_support import Server, add_operator, signed_launch

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SHOTS = Path(os.environ.get("PUNTO_SHOTS", "")) if os.environ.get("PUNTO_SHOTS") else None
"""Where to keep the screenshots (``PUNTO_SHOTS``), to look at them."""

LOBBY = "https://casino.example/lobby"
LOCALES = {"en": "en-GB", "zh": "zh-CN"}


@pytest.fixture
def server(own_server: Server) -> Server:
    """The module's own server; the test is skipped where it has no jurisdiction
    switches (no reality check to ask about: an unknown route, 404)."""
    if httpx.get(own_server.url("/api/session/reality-check")).status_code == 404:
        pytest.skip("this server has no jurisdiction switches (GET /api/session/reality-check)")
    return own_server


def _profile(server: Server, **switches: Any) -> str:
    profile_id = f"rc{secrets.token_hex(3)}"
    answer = httpx.put(
        server.url(f"/api/admin/jurisdictions/{profile_id}"),
        json={"name": "Test jurisdiction", **switches},
        headers=server.headers("admin"),
    )
    answer.raise_for_status()
    return profile_id


def _launch(server: Server, language: str, profile_id: str, **fields: Any) -> str:
    answer = signed_launch(
        server, *add_operator(server), language=language, jurisdiction=profile_id, **fields
    )
    answer.raise_for_status()
    return str(answer.json()["url"])


def _euros(page: Page, minor: int) -> str:
    """What ``Intl.NumberFormat`` writes for ``minor`` euro cents in the page's locale."""
    shown: str = page.evaluate(
        """(m) => new Intl.NumberFormat(document.documentElement.lang === "en" ? "en-GB" : "zh-CN",
             { style: "currency", currency: "EUR" }).format(m / 100)""",
        minor,
    )
    return shown


@pytest.mark.parametrize(
    ("language", "width", "height"),
    [("en", 390, 844), ("en", 1366, 768), ("zh", 390, 844), ("zh", 1366, 768)],
)
def test_a_due_reality_check_stops_the_game_until_the_player_continues_or_leaves(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height, locale=LOCALES[language])
    page.route(f"{LOBBY}**", lambda route: route.fulfill(body="the casino's lobby"))
    profile_id = _profile(server, reality_check_interval=4)
    page.goto(_launch(server, language, profile_id, table="macau-1", lobby_url=LOBBY))
    page.wait_for_url("**/#/table/macau-1")

    dialog = page.get_by_test_id("session-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "check")
    title = {"en": "Reality check", "zh": "现实检查"}[language]
    expect(dialog.get_by_role("heading")).to_have_text(title)
    played = dialog.get_by_test_id("rc-played").inner_text()
    unit = {"en": r"\d+ s", "zh": r"\d+秒"}[language]
    assert re.fullmatch(unit, played), played
    expect(dialog.get_by_test_id("rc-net")).to_have_text(_euros(page, 0))
    if SHOTS is not None:
        save(page, SHOTS, f"reality-check-{language}-{width}")

    # Escape does not wave it away: the player answers
    page.keyboard.press("Escape")
    expect(dialog).to_be_visible()
    dialog.get_by_test_id("rc-continue").click()
    expect(dialog).to_be_hidden()
    # the next check, an interval after the answer, stops the game again
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "check")
    dialog.get_by_test_id("rc-leave").click()
    page.wait_for_url(f"{LOBBY}**")
    assert errors == []
    page.context.close()


def test_a_session_limit_is_noticed_and_refuses_bets_and_a_profile_hides_side_bets_and_chat(
    browser: Browser, server: Server
) -> None:
    from playwright.sync_api import expect

    offered = httpx.get(server.url("/api/tables/macau-1")).json()["bets"]
    assert "player_pair" in offered  # the table has side bets: the profile takes them away
    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768)
    profile_id = _profile(server, session_limit=6, features_off=["chat", "side_bets"])
    page.goto(_launch(server, "en", profile_id, table="macau-1"))
    page.wait_for_url("**/#/table/macau-1")
    page.locator('[data-bet="banker"]').wait_for()
    assert page.locator('[data-bet="player_pair"]').count() == 0
    assert page.locator('[data-tab="side"]').count() == 0
    assert page.get_by_test_id("chat-log").count() == 0
    assert page.locator('[data-bet-row="player_pair"]').count() == 0

    dialog = page.get_by_test_id("session-dialog")
    expect(dialog).to_have_attribute("data-kind", "limit")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_test_id("rc-limit")).to_contain_text("You have played for 6 s")
    if SHOTS is not None:
        save(page, SHOTS, "session-limit-en-1366")
    dialog.get_by_test_id("rc-close").click()
    expect(dialog).to_have_count(0)

    # a bet after the limit is refused, and the notice says why
    page.locator(".seat:not([disabled])").first.click()
    page.locator(".seat-mine").wait_for()
    betting_open(page, seconds=2)
    page.locator('[data-bet="banker"]').click()
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "limit")

    # leaving without a lobby link to go back to ends the session here
    dialog.get_by_test_id("rc-leave").click()
    expect(dialog).to_have_attribute("data-kind", "ended")
    expect(dialog.get_by_test_id("rc-ended")).to_have_text(
        "Your session has ended. Thank you for playing."
    )
    expect(page.get_by_test_id("login-link")).to_be_attached()
    assert errors == []
    page.context.close()


@pytest.mark.parametrize(("language", "width", "height"), [("zh", 1366, 768)])
def test_the_reality_check_after_a_hand_says_its_net_result_in_the_players_currency(
    browser: Browser, server: Server, language: str, width: int, height: int
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height, locale=LOCALES[language])
    profile_id = _profile(server, reality_check_interval=40)
    page.goto(_launch(server, language, profile_id, table="online-1"))
    page.wait_for_url("**/#/table/online-1")
    sit(page, server, "online-1", 4)
    watch_results(page)

    def bet() -> None:
        page.locator('.chip[data-chip="1000"]').click(timeout=5_000)
        page.locator('[data-bet="banker"]').click(timeout=5_000)
        page.locator('[data-action="confirm"]').click(timeout=5_000)
        page.get_by_test_id("confirmed-banker").wait_for(timeout=15_000)

    in_one_round(page, bet, seconds=3)
    expect(page.get_by_test_id("confirmed-banker")).to_have_text("€10.00")
    (shown,) = results_seen(page)
    dialog = page.get_by_test_id("session-dialog")
    expect(dialog).to_be_visible(timeout=60_000)
    net = dialog.get_by_test_id("rc-net").inner_text()
    # a win, a loss or a push: in euros with their cents, never minor units
    assert re.fullmatch(r"[+−]?€\d{1,3}(,\d{3})*\.\d{2}", net), (net, shown)
    if SHOTS is not None:
        save(page, SHOTS, f"reality-check-table-{language}-{width}")
    dialog.get_by_test_id("rc-continue").click()
    expect(dialog).to_be_hidden()
    assert errors == []
    page.context.close()


def test_a_bet_refused_because_a_reality_check_is_due_opens_it(
    browser: Browser, server: Server
) -> None:
    """The page has not seen the check come due (its answers about the session are held
    back, as a late timer would), so the bet goes out; the server refuses it
    (``reality_check_due``) and the page shows the check at once."""
    from playwright.sync_api import Route, expect

    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768)
    held = {"on": True}

    def hold(route: Route) -> None:
        answer = route.fetch()
        status = answer.json()
        if held["on"] and route.request.method == "GET" and status.get("reality_check"):
            status["reality_check"] = {"due": False, "due_at": status["now"] + 3600}
        route.fulfill(response=answer, json=status)

    page.route("**/api/session/reality-check", hold)
    profile_id = _profile(server, reality_check_interval=3)
    page.goto(_launch(server, "en", profile_id, table="macau-1"))
    page.wait_for_url("**/#/table/macau-1")
    page.get_by_test_id("who").wait_for(state="attached")
    token = page.evaluate("JSON.parse(localStorage.getItem('punto.session')).token")
    page.locator(".seat:not([disabled])").first.click()
    page.locator(".seat-mine").wait_for()
    mine = {"Authorization": f"Bearer {token}"}
    due = server.url("/api/session/reality-check")
    deadline = time.monotonic() + 60
    while not httpx.get(due, headers=mine).json()["reality_check"]["due"]:
        assert time.monotonic() < deadline, "the reality check never came due"
        time.sleep(0.2)
    dialog = page.get_by_test_id("session-dialog")
    assert dialog.count() == 0  # the page was not told
    held["on"] = False
    betting_open(page, seconds=2)
    page.locator('[data-bet="banker"]').click()
    expect(dialog).to_be_visible()
    expect(dialog).to_have_attribute("data-kind", "check")
    assert page.locator(".toast-error").count() == 0  # the modal says it, not a toast
    dialog.get_by_test_id("rc-continue").click()
    expect(dialog).to_be_hidden()
    assert errors == []
    page.unroute_all(behavior="ignoreErrors")
    page.context.close()


def test_a_bet_too_soon_after_the_last_hand_is_refused_in_words(
    browser: Browser, server: Server
) -> None:
    """A profile's least time between hands: a bet on the next hand sooner than that is
    refused, and the page says how long to wait in the player's language."""
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=390, height=844, locale="zh-CN")
    profile_id = _profile(server, min_hand_interval=600)
    page.goto(_launch(server, "zh", profile_id, table="online-1"))
    page.wait_for_url("**/#/table/online-1")
    sit(page, server, "online-1", 6)

    def bet() -> None:
        page.locator('.chip[data-chip="1000"]').click(timeout=5_000)
        page.locator('[data-bet="player"]').click(timeout=5_000)
        page.locator('[data-action="confirm"]').click(timeout=5_000)
        page.get_by_test_id("confirmed-player").wait_for(timeout=15_000)

    in_one_round(page, bet, seconds=3)
    first = page.get_by_test_id("info-game").inner_text()
    # the next hand: a chip on it is refused, the wait said in Chinese, never a code
    page.wait_for_function(
        "(g) => document.querySelector('[data-testid=info-game]').textContent !== g", arg=first
    )
    betting_open(page, seconds=2)
    page.locator('[data-bet="player"]').click()
    refusal = page.locator(".toast-error", has_text="距上一局下注太近")
    expect(refusal).to_be_visible()
    assert re.search(r"请等待(\d+分钟)?(\d+秒)?$", refusal.inner_text()), refusal.inner_text()
    assert "too_soon" not in refusal.inner_text()
    if SHOTS is not None:
        save(page, SHOTS, "too-soon-zh-390")
    assert errors == []
    page.context.close()
