"""The client's logic of EZ Baccarat [EZ] and of side bets closed when the shoe turns
[EZ-C], run in Chromium: the table state keeps the side bets a hand closed (from the event
and from a snapshot) until the next hand opens; the EZ push the table names is in the
result, the win display and the event text; each sentence in English, simplified and
traditional Chinese, never a code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.slow

_STATE = """
  const snap = (extra) => ({ type: 'snapshot', seq: 1, table: { id: 't', limits: [], chips: [500] },
    you: { user_id: 'ann', viewer: 'player', at_table: true, place: 'seated',
           pending: {}, bets: {} },
    state: { phase: 'betting_open', game: 't-001-014', closes_in: 5, dealer: 'Dana',
             shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null, bets: {},
             holders: {}, cards: [], outcome: null, vip: {}, blank_owed: false, paused: false,
             ...extra },
    roads: null, recent: [] });
"""


def test_ez_c_the_state_keeps_the_closed_side_bets_until_the_next_hand(page: Page) -> None:
    out = cast(
        dict[str, Any],
        page.evaluate(
            "async () => {"
            + _STATE
            + """
             const s = await import('/app/js/tablestate.js');
             const joined = s.fromSnapshot(snap({ edge_closed: { dragon7: -0.0123 } }), 0);
             const st = s.fromSnapshot(snap({}), 0);
             const ev = (e, seq) => s.applyMessage(st, { type: 'event', seq, event: e }, 0);
             ev({ kind: 'side_bets_closed', game: 't-001-014', threshold: 0, closed: ['dragon7'],
                  edges: [-0.0123], reopened: [] }, 2);
             const during = { ...st.edgeClosed };
             ev({ kind: 'betting_closed', phase: 'betting_closed', game: 't-001-014', by: null,
                  early: false, discarded: [] }, 3);
             const closed = { ...st.edgeClosed };
             ev({ kind: 'betting_opened', phase: 'betting_open', game: 't-001-015', at: 0,
                  closes_at: 5, last_hand: false, standing: [] }, 4);
             return { joined: joined.edgeClosed, during, closed, next: st.edgeClosed };
           }"""
        ),
    )
    assert out["joined"] == {"dragon7": -0.0123}
    assert out["during"] == {"dragon7": -0.0123}
    assert out["closed"] == {"dragon7": -0.0123}  # still closed while the hand is dealt
    assert out["next"] == {}


SENTENCES = {
    "en": (
        "Closed this hand, the shoe favours them: Dragon 7. Open again: Panda 8.",
        "Banker pushes: Banker won with a three-card 7",
        "Closed this hand: the shoe favours this bet",
    ),
    "zh": (
        "本局暂停（剩余牌对其有利）：龙 7。 重新开放：熊猫 8。",
        "庄退回本金：庄家以三张牌 7 点胜出",
        "本局暂停：牌靴对此注有利",
    ),
    "zh-Hant": (
        "本局暫停（剩餘牌對其有利）：龍 7。 重新開放：熊貓 8。",
        "莊退回本金：莊家以三張牌 7 點勝出",
        "本局暫停：牌靴對此注有利",
    ),
}


@pytest.mark.parametrize("code", list(SENTENCES))
def test_ez_c_the_closing_and_the_ez_push_are_said_in_the_language(page: Page, code: str) -> None:
    out = cast(
        dict[str, Any],
        page.evaluate(
            """async (code) => {
             const i18n = await import('/app/js/i18n.js');
             const e = await import('/app/js/eventtext.js');
             const s = await import('/app/js/tablestate.js');
             const w = await import('/app/js/windisplay.js');
             i18n.setLang(code);
             const closing = e.describeEvent({ kind: 'side_bets_closed', game: 't-001-001',
               threshold: 0, closed: ['dragon7'], edges: [-0.01], reopened: ['panda8'] });
             const outcome = { winner: 'banker', player_total: 6, banker_total: 7,
               player_pair: false, banker_pair: false, natural: false };
             const result = e.describeEvent({ kind: 'hand_result', game: 't-001-001', outcome,
               pushes: ['banker'] });
             const st = s.fromSnapshot({ type: 'snapshot', seq: 1,
               table: { id: 't', limits: [], chips: [500] },
               you: { user_id: 'ann', viewer: 'player', at_table: true, place: 'seated',
                      pending: {}, bets: {} },
               state: { phase: 'dealing', game: 't-001-001', closes_in: null, dealer: 'D',
                        shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null,
                        bets: { ann: { banker: 1000 } }, holders: {}, cards: [], outcome: null,
                        vip: {}, blank_owed: false, paused: false },
               roads: null, recent: [] }, 0);
             s.applyMessage(st, { type: 'event', seq: 2, event: { kind: 'hand_result',
               phase: 'result', game: 't-001-001', outcome, pushes: ['banker'] } }, 0);
             const summary = w.winSummary({ game: 't-001-001', outcome, pushes: st.pushes,
               mine: { returned: 1000, settlement: { total_net: 0, total_stake: 1000,
                 results: [{ bet: 'banker', stake: 1000, net: 0 }] } },
               results: [], offered: ['player', 'banker', 'tie', 'dragon7', 'panda8'] });
             const shown = w.winDisplay(summary, 2);
             const pushed = shown.querySelector('[data-testid="win-pushes"]').textContent;
             const reason = i18n.t('bet.edge_closed');
             i18n.setLang('en');
             return { closing, result, pushed, reason, kind: summary.kind, pushes: st.pushes };
           }""",
            code,
        ),
    )
    closing, pushed, reason = SENTENCES[code]
    assert out["closing"] == closing
    assert out["result"].endswith(pushed)
    assert out["pushed"] == pushed
    assert out["reason"] == reason
    assert out["kind"] == "push"
    assert out["pushes"] == ["banker"]
