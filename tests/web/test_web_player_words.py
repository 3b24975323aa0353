"""What a player reads at a table, over hands they bet on: every text the page shows (each
change of the DOM, caught as it happens) is scanned for what a player must never see —
a rule's code ("[M14]"), a card's code ("5H"), the table's id beside its name, an amount
in minor units — on a phone in Traditional Chinese and a desktop in English; and the bet
areas stay where they are on the felt through every phase."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from web.pages import in_one_round, log_in, new_page, new_player

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from web.web_support import Server

pytestmark = pytest.mark.slow

TABLE = "nocomm-1"
HANDS = 3

_COLLECT = """() => {
  window.seenTexts = new Set();
  window.spotTops = new Set();
  const visible = (el) => el && el.getClientRects().length && !el.closest('[aria-hidden=true]');
  const take = () => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      if (text && visible(n.parentElement)) window.seenTexts.add(text);
    }
    const spot = document.querySelector('[data-bet="player"]');
    const felt = document.querySelector('.felt');
    if (spot && felt) {  // where the spot stands on the felt
      const on = spot.getBoundingClientRect().top - felt.getBoundingClientRect().top;
      window.spotTops.add(Math.round(on));
    }
  };
  take();
  new MutationObserver(take).observe(document.body,
    { childList: true, subtree: true, characterData: true });
}"""

_RULE_CODE = re.compile(r"\[(?:M|S|L|O|EZ|LB|PK)[\w-]*\]")
_CARD_CODE = re.compile(r"(?<![\w-])(?:10|[2-9TJQKA])[SHDC](?![\w-])")
_GAME = re.compile(rf"{TABLE}-\d{{3}}-\d{{3}}")
_LONG_NUMBER = re.compile(r"(?<![\w.,:-])\d{5,}(?![\w.,:])")


@pytest.mark.parametrize(("width", "height", "locale"), [(1366, 768, "en-GB"), (390, 844, "zh-TW")])
def test_no_code_id_or_minor_unit_reaches_a_players_screen(
    server: Server, browser: Browser, width: int, height: int, locale: str
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    page = new_page(browser, errors, width=1366, height=768, locale=locale)
    log_in(page, server, new_player(server, "wd"))
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server.url(f"/app/#/table/{TABLE}"))
    expect(page.locator('[data-action="watch"]')).to_be_visible()
    page.evaluate(_COLLECT)
    for hand in range(HANDS):

        def bet() -> None:
            page.locator('.chip[data-chip="1000"]').click(timeout=5_000)
            page.locator('[data-bet="banker"]').click(timeout=5_000)
            page.locator('[data-action="confirm"]').click(timeout=5_000)
            page.get_by_test_id("confirmed-banker").wait_for(timeout=15_000)

        in_one_round(page, bet, seconds=3)
        if hand == 0:  # from the first chip on the player is at the table: the layout holds
            page.evaluate("() => window.spotTops.clear()")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=win-display]')", timeout=60_000
        )
    # the felt holds still: the Player spot stood in one place on it through every phase
    tops = page.evaluate("() => [...window.spotTops]")
    assert max(tops) - min(tops) <= 2, f"the bet areas moved between phases: {tops}"
    texts: list[str] = page.evaluate("() => [...window.seenTexts]")
    assert len(texts) > 50, texts
    for text in texts:
        bare = _GAME.sub("", text)
        assert not _RULE_CODE.search(bare), f"a rule's code on the player's screen: {text!r}"
        assert not _CARD_CODE.search(bare), f"a card's code on the player's screen: {text!r}"
        assert TABLE not in bare, f"the table's id on the player's screen: {text!r}"
        assert not _LONG_NUMBER.search(bare), f"an amount in minor units? {text!r}"
    page.context.close()
    assert errors == []
