"""The client's words, run in Chromium: a count of one said in the singular, a push and an
even hand told apart (and a push of two bets said as two), and a login throttle's wait said
in each language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pytest

from web.pages import new_page
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

LANGS = ("en", "zh", "zh-Hant")


@pytest.fixture(scope="module")
def page(server: Server, browser: Browser) -> Page:
    """A page of the client, to import its modules in."""
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url("/app/"))
    return page


def _in_each_language(page: Page, body: str, arg: object = None) -> dict[str, Any]:
    """``body`` (a function of the modules ``i18n``, ``f`` = format.js and ``w`` =
    windisplay.js, and of ``arg``) run in each language."""
    return cast(
        dict[str, Any],
        page.evaluate(
            f"""async ([langs, arg]) => {{
                 const i18n = await import('/app/js/i18n.js');
                 const f = await import('/app/js/format.js');
                 const w = await import('/app/js/windisplay.js');
                 const run = (i18n, f, w, arg) => {{ {body} }};
                 const out = {{}};
                 for (const code of langs) {{
                   i18n.setLang(code);
                   out[code] = run(i18n, f, w, arg);
                 }}
                 i18n.setLang('en');
                 return out;
               }}""",
            [list(LANGS), arg],
        ),
    )


def test_one_hand_is_said_in_the_singular(page: Page) -> None:
    said = _in_each_language(page, "return [0, 1, 2].map((n) => i18n.t('table.hands', { n }));")
    assert said["en"] == ["0 hands", "1 hand", "2 hands"]
    assert said["zh"] == ["0 局", "1 局", "2 局"]
    assert said["zh-Hant"] == ["0 局", "1 局", "2 局"]


def _settled(lines: list[dict[str, int]], returned: int) -> dict[str, Any]:
    net = sum(line["net"] for line in lines)
    stake = sum(line["stake"] for line in lines)
    return {
        "player": "ann",
        "returned": returned,
        "standing": {},
        "settlement": {"total_net": net, "total_stake": stake, "results": lines},
    }


@pytest.mark.parametrize(
    ("lines", "returned", "kind", "words"),
    [
        (
            [
                {"bet": "player", "stake": 1000, "net": 0},
                {"bet": "banker", "stake": 1000, "net": 0},
            ],
            2000,
            "push",
            {
                "en": "Push: your bets are returned 20.00",
                "zh": "不输不赢：注码全数退还 20.00",
                "zh-Hant": "不輸不贏：注碼全數退回 20.00",
            },
        ),
        (
            [{"bet": "banker", "stake": 1000, "net": 0}],
            1000,
            "push",
            {
                "en": "Push: your bet is returned 10.00",
                "zh": "不输不赢：注码退还 10.00",
                "zh-Hant": "不輸不贏：注碼退回 10.00",
            },
        ),
        (
            [
                {"bet": "player", "stake": 1000, "net": 1000},
                {"bet": "banker", "stake": 1000, "net": -1000},
            ],
            2000,
            "even",
            {
                "en": "Even: you won as much as you lost 0.00",
                "zh": "输赢相抵 0.00",
                "zh-Hant": "輸贏相抵 0.00",
            },
        ),
    ],
    ids=["push-of-two", "push-of-one", "even"],
)
def test_a_push_and_an_even_hand_are_told_apart(
    page: Page, lines: list[dict[str, int]], returned: int, kind: str, words: dict[str, str]
) -> None:
    mine = _settled(lines, returned)
    said = _in_each_language(
        page,
        """const s = w.winSummary({ game: 'g', outcome: null, mine: arg,
                 results: [], offered: ['player', 'banker'] });
             return [s.kind, w.winSentence(s, 2),
                     w.winDisplay(s, 2).querySelector('.win-mine').textContent];""",
        mine,
    )
    for code in LANGS:
        got_kind, sentence, shown = said[code]
        assert got_kind == kind
        assert sentence == words[code]
        assert shown == words[code].replace(" 0.00", "0.00").replace(" 10.00", "10.00").replace(
            " 20.00", "20.00"
        )


def test_a_login_throttles_wait_is_said_in_each_language(page: Page) -> None:
    said = _in_each_language(
        page,
        """return [42, 120].map((n) => f.errorText({ code: 'rate_limited', message: 'x',
                 params: { retry_after: n } }));""",
    )
    assert said["en"] == [
        "Too many attempts: try again in 42 s",
        "Too many attempts: try again in 2 min",
    ]
    assert said["zh"] == ["尝试次数太多：请42秒后再试", "尝试次数太多：请2分钟后再试"]
    assert said["zh-Hant"] == ["嘗試次數太多：請42秒後再試", "嘗試次數太多：請2分鐘後再試"]


def test_an_error_says_each_thing_once(page: Page) -> None:
    said = _in_each_language(
        page,
        """return [
             f.errorText({ code: 'not_found', message: 'not found' }),
             f.errorText({ code: 'unauthorized',
                           message: 'the session token has expired: log in again' }),
           ];""",
    )
    assert said["en"] == [
        "Not found",
        "Not logged in: the session token has expired: log in again",
    ]
    assert said["zh"] == ["找不到", "未登录"]
    assert said["zh-Hant"][1] == "未登入"


def test_bets_over_the_table_balance_say_both_amounts(page: Page) -> None:
    said = _in_each_language(
        page,
        """return f.errorText({ code: 'table_balance', message: 'bets of 10.00 are more …',
                              params: { needed: 1000, balance: 500 } }, 2);""",
    )
    assert said == {
        "en": "Not enough table balance: these bets need 10.00, the balance is 5.00",
        "zh": "台面余额不足：这些注码需要 10.00，余额只有 5.00",
        "zh-Hant": "桌面餘額不足：這些注碼需要 10.00，餘額只有 5.00",
    }
