"""The client's languages in Chromium: a browser set to Taiwanese Chinese gets the
Traditional Chinese client (莊、閒) on the lobby, a table and the dealer console, and a bet
over the table maximum is explained in Traditional Chinese with its amount; the choice is
remembered; and no screen of the Chinese clients (Simplified or Traditional) shows an
English word that is not data (table ids, usernames, card codes; a table's English name
only where it has no name in the language)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import pytest

from punto.currencies import is_currency
from web.pages import (
    betting_open,
    confirm_bet,
    leave_seat,
    log_in,
    new_page,
    new_player,
    results_seen,
    sit,
    watch_results,
)
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow

_WORD = r"[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+|[A-Za-z][A-Za-z']+"
"""A Latin word; a raw identifier whole (a preset's or a bet's code: "live_tiger")."""

_WORDS = """(word) => {
  // the words (_WORD) of the visible text, and of the labels a screen reader says
  const words = [];
  const pattern = new RegExp(word, "g");
  const add = (text) => words.push(...(text.match(pattern) || []));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el && !el.closest('script, style, noscript') && el.checkVisibility()) add(n.textContent);
  }
  for (const el of document.querySelectorAll('[placeholder], [aria-label], [title]')) {
    if (!el.checkVisibility()) continue;
    for (const a of ['placeholder', 'aria-label', 'title']) add(el.getAttribute(a) || '');
  }
  return words;
}"""

_NOT_SENTENCES = {"Punto", "English", "VIP", "SVG", "UTC", "CSV", "Enter", "demo"}
"""Words a Chinese screen may show: the brand, the switch's own name for English, VIP, the
SVG picture, UTC, the CSV file format, the Enter key and the demo accounts' password
suffix."""


def _data_words(server: Server, code: str) -> set[str]:
    """Words that are data, not sentences: table ids, the names of tables that have none
    in the language ``code`` (a table with one must show it), usernames and display
    names, what people typed (amendment reasons, complaints and their resolutions), and
    the operators' and jurisdiction profiles' ids, names and currency codes, as the server
    has them now."""
    tables = cast(dict[str, Any], server.get("/api/lobby"))["tables"]
    users = cast(dict[str, Any], server.get("/api/admin/users", "admin"))["users"]
    amendments = cast(dict[str, Any], server.get("/api/supervisor/amendments", "sam"))
    complaints = cast(dict[str, Any], server.get("/api/supervisor/complaints?state=all", "sam"))
    texts = [str(tb["id"]) for tb in tables]
    texts += [str(tb["name"]) for tb in tables if code not in tb.get("names", {})]
    texts += [str(u[k]) for u in users for k in ("user_id", "display_name") if u.get(k)]
    texts += [str(a["reason"]) for a in amendments["amendments"]]
    texts += [str(c[k]) for c in complaints["complaints"] for k in ("text", "resolution") if c[k]]
    operators = cast(dict[str, Any], server.get("/api/admin/operators", "admin"))["operators"]
    texts += [str(o[k]) for o in operators for k in ("id", "name")]
    texts += [code for o in operators for code in o["currencies"]]
    profiles = cast(dict[str, Any], server.get("/api/admin/jurisdictions", "admin"))
    texts += [str(p[k]) for p in profiles["jurisdictions"] for k in ("id", "name")]
    return {w for text in texts for w in re.findall(r"[A-Za-z][A-Za-z']+", text)}


def _english(page: Page, allowed: set[str]) -> list[str]:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)  # the screen drawn from what it loaded (a redraw, not a race)
    return _unexplained(cast(list[str], page.evaluate(_WORDS, _WORD)), allowed)


def _unexplained(words: list[str], allowed: set[str]) -> list[str]:
    """The English among ``words``: neither allowed nor a card or a card's place, nor an
    ISO 4217 code (a report's row names its currency so in every language)."""
    card = re.compile(r"(?:[AKQJT2-9]|10)[SHDC]|[PB][123]")
    return sorted(
        {
            w
            for w in words
            if w not in allowed
            and not card.fullmatch(w)
            and not (len(w) == 3 and w.isupper() and is_currency(w))
        }
    )


def test_a_taiwanese_browser_gets_traditional_chinese_and_a_refusal_in_it(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, locale="zh-TW")
    page.goto(server.url("/app/"))
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator('[data-lang="zh-Hant"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("h1")).to_have_text("賭桌")
    expect(page.locator('article[data-table="nocomm-1"]')).to_contain_text("限紅")
    assert [b.inner_text() for b in page.locator(".lang-btn").all()] == [
        "English",
        "简体中文",
        "繁體中文",
    ]

    player = new_player(server, "tw")
    log_in(page, server, player)
    sit(page, server, "nocomm-1", 2)
    expect(page.locator('[data-bet="banker"] .bet-name')).to_have_text("莊")
    expect(page.locator('[data-bet="player"] .bet-name')).to_have_text("閒")
    expect(page.locator('[data-bet="banker_pair"] .bet-name')).to_have_text("莊對子")
    expect(page.get_by_role("figure").filter(has_text="大眼路")).to_be_visible()
    expect(page.get_by_role("figure").filter(has_text="小強路")).to_be_visible()

    # chips on Banker past the table maximum [L]: refused, and said in Traditional Chinese
    betting_open(page, seconds=4)
    page.locator(".chip").last.click()
    refusal = page.locator(".toast-error").filter(has_text="超出限紅")
    for _ in range(40):
        page.locator('[data-bet="banker"]').click()
        if refusal.count():
            break
    expect(refusal.first).to_have_text(re.compile(r"^超出限紅：莊最高限紅為 [\d,]+\.\d\d$"))
    page.locator('[data-action="clear"]').click()

    # the choice is remembered over the browser's language
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    page.locator('[data-lang="en"]').click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.reload()
    expect(page.locator('[data-bet="banker"] .bet-name')).to_have_text("Banker")
    page.locator('[data-lang="zh-Hant"]').click()
    leave_seat(page)
    assert errors == []


def test_the_dealer_console_speaks_traditional_chinese(server: Server, browser: Browser) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, locale="zh-HK")
    log_in(page, server, "lin")
    page.goto(server.url("/app/#/dealer"))
    expect(page.locator("h1")).to_contain_text("荷官控制台")
    page.get_by_test_id("deal-tiger-1").click()
    page.get_by_test_id("card-input").wait_for()
    expect(page.locator("h1")).to_contain_text("荷官控制台")
    expect(page.locator(".table-sub")).to_contain_text("真人老虎百家樂")
    expect(page.get_by_role("button", name="報告事故")).to_be_visible()
    expect(page.locator(".road-counts")).to_contain_text("莊")
    expect(page.locator(".road-counts")).to_contain_text("閒")
    assert errors == []


@pytest.mark.parametrize("code", ["zh", "zh-Hant"])
def test_no_screen_shows_english_in_a_chinese_client(
    server: Server, browser: Browser, code: str
) -> None:
    errors: list[str] = []
    player = new_player(server, "tw")
    allowed = _NOT_SENTENCES | _data_words(server, code)
    leaks: dict[str, list[str]] = {}
    locale = {"zh": "zh-CN", "zh-Hant": "zh-MO"}[code]

    def look(page: Page, screen: str) -> None:
        found = _english(page, allowed)
        if found:
            leaks[screen] = found

    page = new_page(browser, errors, locale=locale)
    page.goto(server.url("/app/"))
    page.get_by_test_id("open-macau-1").wait_for()
    look(page, "lobby")
    page.goto(server.url("/app/#/login"))
    look(page, "login")
    page.goto(server.url("/app/#/table/no-such-table"))
    page.locator('main [role="status"]').wait_for()
    look(page, "no such table")
    for table in ("online-1", "vip-1", "bid-1", "spb-1"):
        page.goto(server.url(f"/app/#/table/{table}"))
        page.locator(".seat").first.wait_for()
        look(page, f"{table}, watching")
    log_in(page, server, player)
    look(page, "lobby, player")
    page.goto(server.url("/app/#/multi/macau-1,tiger-1"))
    page.locator('[data-slot="tiger-1"] .table-title h2').wait_for()
    look(page, "multi-table")
    sit(page, server, "online-1", 6)
    look(page, "table, seated")
    # the next round when this one closes before the confirm lands (a busy machine); the
    # result, up for a second, noted the moment it shows and read for English words too
    watch_results(page)
    confirm_bet(page, 1000, "banker", "10.00")
    (shown,) = results_seen(page)
    game = str(shown["game"])
    said = _unexplained(re.findall(_WORD, f"{shown['mine']} {shown['result']}"), allowed)
    if said:
        leaks["the hand's result"] = said
    look(page, "table, a hand played")
    leave_seat(page)
    page.goto(server.url("/app/#/records"))
    page.locator(f'[data-testid="bet-records"] tr[data-game="{game}"] button.link').click()
    page.locator(f'article.hand-record[data-game="{game}"]').wait_for()
    look(page, "records and a hand record")
    page.locator(f'[data-recall="{game}"]').click()
    page.locator(f'article.recall[data-game="{game}"]').wait_for()
    look(page, "a hand recalled, with the complaint form")
    for user, hash_ in (("lin", "#/dealer"), ("sam", "#/supervisor"), ("admin", "#/admin")):
        staff = new_page(browser, errors, locale=locale)
        log_in(staff, server, user)
        staff.goto(server.url(f"/app/{hash_}"))
        look(staff, user)
        if user == "lin":
            staff.get_by_test_id("deal-tiger-1").click()
            staff.get_by_test_id("card-input").wait_for()
            look(staff, "dealer console")
        for tab in staff.locator('[role="tab"]').all():
            tab.click()
            look(staff, f"{user}: {tab.inner_text()}")
        if user == "sam":
            _look_at_drift(staff, look)
        if user == "admin":
            _look_at_rules_editor(staff, look)
        staff.context.close()
    assert leaks == {}
    assert errors == []


def _look_at_drift(page: Page, look: Callable[[Page, str], None]) -> None:
    """The supervisor's observed-against-exact report of the table where a hand was
    played (its bets' RTP rows and the outcome tests)."""
    page.locator("#tab-s-alarms").click()
    page.get_by_test_id("drift-table").fill("online-1")
    page.get_by_test_id("drift-table").press("Enter")
    page.get_by_test_id("drift-verdict").wait_for()
    look(page, "supervisor: drift report")


def _look_at_rules_editor(page: Page, look: Callable[[Page, str], None]) -> None:
    """The rules editor with its edge preview: the new table's, a table's own with a
    refused setting, and a promotional Banker flagged as negative edge."""
    page.locator("#tab-tables").click()
    page.get_by_test_id("edge-preview").first.wait_for()
    look(page, "admin: new table's rules and edge preview")
    page.get_by_test_id("rules-macau-1").click()
    editor = page.locator(".panel:has([data-testid=rules-editor])").first
    editor.get_by_test_id("edge-tie").wait_for()
    editor.locator('input[data-field="decks"]').fill("13")
    editor.locator('[data-testid="rules-error"]:not(:empty)').wait_for()
    look(page, "admin: a refused rules setting")
    editor.locator('input[data-field="decks"]').fill("8")
    editor.locator('select[data-paytable="banker"]').select_option("banker_even_money")
    editor.get_by_test_id("negative-edge").wait_for()
    look(page, "admin: a negative edge")
