"""The client's pure logic, run in Chromium: both languages' strings, money and card codes,
and the table state kept from pushed messages (the dealer's guidance is the table's, sent
in ``legal``: tests/table/test_legal.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from punto.analysis import COUP_EVENTS
from punto.bets import Bet
from punto.codec import card_values_json
from punto.ledger.model import TransactionKind
from punto.money import Rounding
from punto.paytables import paytables_for
from punto.rules import PRESETS, BurnRule, LastHandRule
from punto.rules_document import rules_to_document
from punto.table import FAULTS, Phase
from punto.table.events import PendingChange
from punto.table.reasons import Reason
from punto.tie_options import TIE_POLICIES

if TYPE_CHECKING:
    from playwright.sync_api import Page

WEB = Path(__file__).resolve().parents[2] / "src" / "punto" / "web"


def test_every_language_has_exactly_the_keys_and_placeholders_of_english(page: Page) -> None:
    texts = cast(
        dict[str, dict[str, str]],
        page.evaluate(
            """async () => {
                 const { LANGUAGES } = await import('/app/js/i18n.js');
                 return LANGUAGES;
               }"""
        ),
    )
    assert set(texts) == {"en", "zh", "zh-Hant"}
    en = set(texts["en"])
    placeholders = re.compile(r"\{(\w+)\}")
    for code, strings in texts.items():
        assert en - set(strings) == set(), f"{code} lacks these keys"
        assert set(strings) - en == set(), f"{code} has keys English does not"
        wrong = {
            key: text
            for key, text in strings.items()
            if sorted(placeholders.findall(text)) != sorted(placeholders.findall(texts["en"][key]))
        }
        assert wrong == {}, f"{code}: placeholders differ from English"
    # a Chinese string is Chinese: no English word left untranslated (codes such as
    # P1, 9S, VIP, SVG, UTC, Enter and the demo accounts are not sentences)
    allowed = {
        "Punto",
        "VIP",
        "SVG",
        "UTC",
        "RTP",
        "WebRTC",
        "WHEP",
        "HLS",
        "CSV",
        "Enter",
        "demo",
        "ann",
        "bob",
        "cleo",
        "dev",
    }
    allowed |= {"dana", "lin", "sam", "admin", "a", "z"}
    for code in ("zh", "zh-Hant"):
        words = {
            (key, word)
            for key, text in texts[code].items()
            for word in re.findall(r"[A-Za-z]{2,}", placeholders.sub("", text))
            if word not in allowed and not re.fullmatch(r"[A-Z]{1,2}\d*|[A-Z]{2}", word)
        }
        assert words == set(), f"{code} has English words"


def test_browser_language_picks_the_client_language(page: Page) -> None:
    got = page.evaluate(
        """async () => {
             const { detect } = await import('/app/js/i18n.js');
             const cases = [['zh-TW'], ['zh-HK', 'en'], ['zh-MO'], ['zh-Hant'], ['zh-Hant-TW'],
                            ['zh'], ['zh-CN'], ['zh-SG'], ['zh-Hans'], ['zh-Hans-HK'],
                            ['en-US', 'zh-TW'], ['fr-FR', 'zh-HK'], ['fr', 'de'], []];
             return cases.map(detect);
           }"""
    )
    assert got == [
        "zh-Hant", "zh-Hant", "zh-Hant", "zh-Hant", "zh-Hant",
        "zh", "zh", "zh", "zh", "zh",
        "en", "zh-Hant", "en", "en",
    ]  # fmt: skip


def test_every_string_the_code_uses_exists(page: Page) -> None:
    en = set(
        cast(
            list[str],
            page.evaluate("async () => Object.keys((await import('/app/js/lang/en.js')).default)"),
        )
    )
    source = "\n".join(p.read_text() for p in (WEB / "js").glob("*.js"))
    used = set(re.findall(r"\bt\(\s*\"([a-z_.0-9]+)\"", source))
    used |= set(re.findall(r"\"((?:seat|squeeze|ev|road|vip|tie|result)\.[a-z_.]+)\"", source))
    assert used - en == set()
    families = (
        [f"bet.{b.value}" for b in Bet if not b.value.startswith("super_tie_")]
        + [f"phase.{p.value}" for p in Phase]
        + [f"fault.{f.value}" for f in FAULTS]
        + [f"effect.{s.effect.value}" for s in FAULTS.values()]
        + [f"tier.{t.name}" for r in PRESETS.values() for t in r.limit_tiers]
        + [f"preset.{name}" for name in PRESETS]
        + [f"preset.{name}.about" for name in PRESETS]
        + [f"tx.{kind.value}" for kind in TransactionKind]
        # a dealer console opened between phases shows the phase's guide (betting just
        # closed, before the first card, has no coup yet)
        + [f"guide.phase.{p.value}" for p in Phase]
        + [f"kind.{k}" for k in ("normal", "vip", "bid_squeeze")]
        + [f"reading.{r}" for r in ("dealer", "largest_bettor", "button", "bid", "owner")]
        + [f"rules.f.{key}" for key in rules_to_document(PRESETS["macau"])]
        + [f"rules.burn.{r.value}" for r in BurnRule]
        + [f"rules.last_hand.{r.value}" for r in LastHandRule]
        + [f"rules.rounding.{r.value}" for r in Rounding]
        + [f"rules.tie_policy.{name}" for name in TIE_POLICIES]
        + [f"drift.event.{event}" for event in COUP_EVENTS]
        + [f"ev.change_pending.{change.value}" for change in PendingChange]
    )
    assert set(families) - en == set()


def test_money_and_cards(page: Page) -> None:
    got = page.evaluate(
        """async (values) => {
             const f = await import('/app/js/format.js');
             const c = await import('/app/js/cards.js');
             return [f.money(1234500), f.money(-950), f.signed(950), f.parseMoney('12.5'),
                     f.parseMoney('1,000'), f.parseMoney('1.234'), f.chipLabel(100000),
                     c.parseCard('10d'), c.parseCard(' 9s '), c.parseCard('1S'),
                     c.handTotal(['4S', 'KD', '5S'], values), c.handTotal(['9S', null], values)];
           }""",
        card_values_json(),
    )
    assert got == [
        "12,345.00",
        "−9.50",
        "+9.50",
        1250,
        100000,
        None,
        "1K",
        "TD",
        "9S",
        None,
        9,
        9,
    ]


def test_bet_totals_replace_the_others_confirms(page: Page) -> None:
    """Other players' confirms arrive as one ``bet_totals`` per batch (issue 11): the
    areas' totals, bettor counts and the Player/Banker split follow it; a new hand starts
    from nothing; totals of another hand are ignored."""
    out = cast(
        dict[str, Any],
        page.evaluate(
            """async () => {
             const s = await import('/app/js/tablestate.js');
             const snap = { type: 'snapshot', seq: 1, table: { id: 't', limits: [], chips: [1000] },
               you: { user_id: 'cleo', viewer: 'player', at_table: true, place: 'watching',
                      pending: {}, bets: {} },
               state: { phase: 'betting_open', game: 't-001-001', closes_in: 9, dealer: 'Dana',
                        shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null,
                        bets: {}, totals: { banker: { amount: 1000, bettors: 1 } },
                        split: { player: 0, banker: 1000 }, holders: {}, cards: [],
                        outcome: null, vip: {}, blank_owed: false, paused: false },
               roads: null, recent: [] };
             const st = s.fromSnapshot(snap, 0);
             const first = { totals: s.tableTotals(st), n: s.tableBettors(st, 'banker'),
                             split: s.tableSplit(st) };
             s.applyMessage(st, { type: 'bet_totals', game: 't-001-001', seq: 5,
               totals: { banker: { amount: 6000, bettors: 3 },
                         player: { amount: 2000, bettors: 2 } },
               split: { player: 2000, banker: 6000 } }, 0);
             const after = { totals: s.tableTotals(st), n: s.tableBettors(st, 'banker'),
                             split: s.tableSplit(st) };
             s.applyMessage(st, { type: 'bet_totals', game: 't-001-000', seq: 6,
               totals: {}, split: { player: 0, banker: 0 } }, 0);
             const stale = s.tableTotals(st);
             s.applyMessage(st, { type: 'event', seq: 7, event: { kind: 'betting_opened',
               phase: 'betting_open', game: 't-001-002', at: 10, closes_at: 16,
               standing: [] } }, 0);
             return { first, after, stale, fresh: s.tableTotals(st), split: s.tableSplit(st) };
           }"""
        ),
    )
    assert out["first"] == {
        "totals": {"banker": 1000},
        "n": 1,
        "split": {"player": 0, "banker": 1000},
    }
    assert out["after"]["totals"] == {"banker": 6000, "player": 2000}
    assert out["after"]["n"] == 3
    assert out["after"]["split"] == {"player": 2000, "banker": 6000}
    assert out["stale"] == {"banker": 6000, "player": 2000}
    assert out["fresh"] == {}
    assert out["split"] == {"player": 0, "banker": 0}


def test_a_settled_hand_shows_the_summary_and_only_ones_own_result(page: Page) -> None:
    """A player gets a settled hand's summary and their own result (not every player's):
    the winning areas come from the summary, the win from their own result, and the
    others' settled bets leave the layout; a tie's standing bets stay [M12]."""
    out = cast(
        dict[str, Any],
        page.evaluate(
            """async () => {
             const s = await import('/app/js/tablestate.js');
             const w = await import('/app/js/windisplay.js');
             const snap = { type: 'snapshot', seq: 1, table: { id: 't', limits: [], chips: [1000] },
               you: { user_id: 'ann', viewer: 'player', at_table: true, place: 'seated',
                      pending: {}, bets: {} },
               state: { phase: 'dealing', game: 't-001-001', closes_in: null, dealer: 'Dana',
                        shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null,
                        bets: { ann: { player: 2000 }, bob: { tie: 1000 }, cleo: { banker: 500 } },
                        holders: {}, cards: [], outcome: null, vip: {},
                        blank_owed: false, paused: false },
               roads: null, recent: [] };
             const st = s.fromSnapshot(snap, 0);
             const ev = (e, seq) => s.applyMessage(st, { type: 'event', seq, event: e }, 0);
             ev({ kind: 'hand_result', phase: 'result', game: 't-001-001',
                  outcome: { winner: 'player', player_pair: false, banker_pair: false } }, 2);
             ev({ kind: 'hand_settled', phase: 'settled', game: 't-001-001', void_reason: null,
                  last: false,
                  results: [{ player: 'ann', returned: 4000, standing: {},
                              settlement: { total_net: 2000, total_stake: 2000, results: [
                                { bet: 'player', stake: 2000, net: 2000 }] } }],
                  summary: { players: 3, areas_won: ['player', 'dragon_player'] } }, 3);
             const summary = w.winSummary({ game: 't-001-001', outcome: st.result.outcome,
               mine: st.result.mine, results: st.result.results, summary: st.result.summary,
               offered: ['player', 'banker', 'tie', 'dragon_player'] });
             return { summary, bets: st.bets, phase: st.phase };
           }"""
        ),
    )
    assert out["summary"]["kind"] == "win"
    assert out["summary"]["amount"] == 2000
    assert out["summary"]["areas"] == ["player", "dragon_player"]
    assert out["bets"] == {}  # everyone's bets were settled
    assert out["phase"] == "settled"


def test_a_refund_shows_ones_own_refund_and_clears_what_the_table_returned(page: Page) -> None:
    """A refund brings a player their own refund and its summary, a spectator the summary
    only: when the table returned every stake (``everyone``: a void) the layout is empty
    for each of them; one removed player's refund leaves the others' bets, and that
    player's ``player_left`` takes theirs away [M10]."""
    out = cast(
        dict[str, Any],
        page.evaluate(
            """async () => {
             const s = await import('/app/js/tablestate.js');
             const w = await import('/app/js/windisplay.js');
             const state = (you) => s.fromSnapshot({ type: 'snapshot', seq: 1,
               table: { id: 't', limits: [], chips: [1000] }, you,
               state: { phase: 'dealing', game: 't-001-001', closes_in: null, dealer: 'Dana',
                        shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null,
                        bets: { ann: { player: 2000 }, bob: { tie: 1000 }, cleo: { banker: 500 } },
                        holders: {}, cards: [], outcome: null, vip: {},
                        blank_owed: false, paused: false },
               roads: null, recent: [] }, 0);
             const ann = () => state({ user_id: 'ann', viewer: 'player', at_table: true,
               place: 'seated', pending: {}, bets: { player: 2000 } });
             const watcher = () => state({ user_id: null, viewer: 'watcher', at_table: false,
               pending: {}, bets: {} });
             const dealer = () => state({ user_id: 'dana', viewer: 'dealer', at_table: false,
               pending: {}, bets: {} });
             const ev = (st, e, seq) => s.applyMessage(st, { type: 'event', seq, event: e }, 0);
             const back = (player, bet, amount) => ({ player, returned: amount, standing: {},
               settlement: { total_net: 0, total_stake: amount, results: [
                 { bet, stake: amount, net: 0 }] } });
             const voided = { kind: 'bets_refunded', game: 't-001-001', everyone: true,
               reason: 'fault', reason_params: { fault: 'm10_misdeal_void', rule: 'M10' },
               summary: { players: 3 } };
             const left = { kind: 'bets_refunded', game: 't-001-001', everyone: false,
               reason: 'kicked', reason_params: {}, summary: { players: 1 } };

             const mine = ann();
             ev(mine, { ...voided, refunds: [back('ann', 'player', 2000)] }, 2);
             const win = w.winSummary({ game: 't-001-001', outcome: null,
               mine: mine.result.mine, results: [], offered: ['player', 'banker', 'tie'],
               refunded: true });
             const seen = watcher();
             ev(seen, { ...voided, refunds: [] }, 2);
             const seenWin = w.winSummary({ game: 't-001-001', outcome: null,
               mine: seen.result.mine, results: [], offered: ['player'], refunded: true });

             const other = ann();  // bob is removed: his refund, then his player_left
             ev(other, { ...left, refunds: [] }, 2);
             const otherBets = JSON.parse(JSON.stringify(other.bets));
             ev(other, { kind: 'player_left', player: 'bob', cashed_out: null,
                         reason: 'kicked', reason_params: {} }, 3);
             const full = dealer();
             ev(full, { ...left, refunds: [back('bob', 'tie', 1000)] }, 2);
             return { win, mineBets: mine.bets, mineYou: mine.you.bets,
                      mineSummary: mine.result.summary, seenWin, seenBets: seen.bets,
                      seenResult: seen.result, otherBets, otherAfter: other.bets,
                      otherYou: other.you.bets, otherResult: other.result,
                      fullBets: full.bets };
           }"""
        ),
    )
    assert out["win"]["kind"] == "refund"
    assert out["win"]["amount"] == 2000
    assert out["win"]["areas"] == []
    assert out["mineBets"] == {}
    assert out["mineYou"] == {}
    assert out["mineSummary"] == {"players": 3}
    # a spectator: no refund of anyone's, every bet gone from the layout, no win display
    assert out["seenBets"] == {}
    assert out["seenResult"]["mine"] is None
    assert out["seenResult"]["refunded"] is True
    assert out["seenWin"]["kind"] is None
    # one player removed: the others' bets stay until that player's player_left
    assert out["otherBets"] == {
        "ann": {"player": 2000},
        "bob": {"tie": 1000},
        "cleo": {"banker": 500},
    }
    assert out["otherAfter"] == {"ann": {"player": 2000}, "cleo": {"banker": 500}}
    assert out["otherYou"] == {"player": 2000}
    assert out["otherResult"] is None  # another's removal shows no refund in ann's panel
    # the dealer's view lists every refund
    assert out["fullBets"] == {"ann": {"player": 2000}, "cleo": {"banker": 500}}


def test_table_state_follows_the_chips_and_the_hand(page: Page) -> None:
    state = cast(
        dict[str, Any],
        page.evaluate(
            """async () => {
             const s = await import('/app/js/tablestate.js');
             const snap = { type: 'snapshot', seq: 1, table: { id: 't', limits: [], chips: [1000] },
               you: { user_id: 'ann', viewer: 'player', at_table: true, place: 'seated',
                      pending: {}, bets: {} },
               state: { phase: 'settled', game: null, closes_in: null, dealer: 'Dana',
                        shoe: { number: 1 }, seats: [], marked: [], watchers: [], owner: null,
                        bets: {}, holders: {}, cards: [], outcome: null, vip: {},
                        blank_owed: false, paused: false },
               roads: null, recent: [] };
             const st = s.fromSnapshot(snap, 0);
             const ev = (event) => s.applyMessage(st, { type: 'event', seq: 2, event }, 0);
             ev({ kind: 'betting_opened', phase: 'betting_open', game: 't-001-001', at: 10,
                  closes_at: 16, standing: [] });
             ev({ kind: 'chip_added', player: 'ann', bet: 'banker', amount: 1000 });
             ev({ kind: 'chip_added', player: 'ann', bet: 'tie', amount: 500 });
             ev({ kind: 'chips_undone', player: 'ann', chips: [['tie', 500]] });
             ev({ kind: 'bets_doubled', player: 'ann' });
             const pending = { ...st.you.pending };
             ev({ kind: 'bets_confirmed', player: 'ann', bets: { banker: 2000 }, added: {} });
             ev({ kind: 'betting_closed', phase: 'betting_closed' });
             ev({ kind: 'cards_held', side: 'banker', player: 'ann' });
             ev({ kind: 'card_placed', position: 'P1', card: '9S', face_up: true,
                  phase: 'dealing' });
             ev({ kind: 'card_placed', position: 'B1', card: null, face_up: false,
                  phase: 'squeeze' });
             const held = s.heldByMe(st);
             s.applyMessage(st, { type: 'squeeze_countdown', closes_in: 7.5 }, 1000);
             const sq = await import('/app/js/squeeze.js');
             const timed = [1000, 8000, 9000].map((at) => sq.squeezeLeft(st, at));
             ev({ kind: 'cards_revealed', phase: 'dealing', cards: [['B1', 'KD']], by: 'ann' });
             timed.push(sq.squeezeLeft(st, 1000));
             const result = { pending, bets: st.you.bets, held, after: s.heldByMe(st),
                              cards: s.orderedCards(st).map(c => c.card), phase: st.phase,
                              inPlay: s.standingBets(st), timed };
             ev({ kind: 'hand_result', phase: 'result', outcome: { winner: 'tie' } });
             ev({ kind: 'hand_settled', phase: 'settled', game: 't-001-001',
                  results: [{ player: 'ann',
                  returned: 0, standing: { banker: 2000 }, settlement: { total_net: 0 } }] });
             result.afterTie = s.standingBets(st);
             ev({ kind: 'betting_opened', phase: 'betting_open', game: 't-001-002', at: 20,
                  closes_at: 26,
                  standing: [['ann', { banker: 2000 }]] });
             result.standing = { ...st.standing };
             result.standingBets = { ...st.you.bets };
             result.stillStanding = s.standingBets(st);
             ev({ kind: 'tie_bets_changed', player: 'ann', bets: {}, action: 'cancel' });
             result.cancelled = { ...st.standing };
             result.nextRound = s.standingBets(st);
             return result;
           }"""
        ),
    )
    assert state["pending"] == {"banker": 2000}
    assert state["bets"] == {"banker": 2000}
    assert state["held"] == ["banker"]
    assert state["after"] == []
    assert state["cards"] == ["9S", "KD"]
    assert state["phase"] == "dealing"
    assert state["standing"] == {"banker": 2000}
    assert state["standingBets"] == {"banker": 2000}
    assert state["cancelled"] == {}
    # the one balance figure's note [M12]: bets in play are not "standing"; a tie's are,
    # until the player cancels them
    assert state["inPlay"] == {}
    assert state["timed"] == [8, 1, 0, None]  # the squeeze timer, gone once the cards turn
    assert state["afterTie"] == {"banker": 2000}
    assert state["stillStanding"] == {"banker": 2000}
    assert state["nextRound"] == {}


def test_the_servers_reasons_are_translated(page: Page) -> None:
    """Every reason code (punto.table.reasons) with its parameters is words of the
    language; a ledger row's reason text ("<code> <name>=<value>") too; typed words stay."""
    params = {
        "typed": {"text": "tea"},
        "fault": {"fault": "s7_card_count_void", "rule": "S7"},
        "discarded": {"rule": "S2"},
        "changed_by_owner": {"by": "ann"},
        "correction_of": {"game": "macau-1-001-002"},
        "void_of": {"game": "macau-1-001-002"},
    }
    reasons: list[list[object]] = [[code.value, params.get(code.value, {})] for code in Reason]
    reasons += [[f"fault fault={fault.value} rule=X", None] for fault in FAULTS]
    reasons += [["void_of game=macau-1-001-002", None], ["wallet_rollback", None]]
    got = cast(
        dict[str, list[str]],
        page.evaluate(
            """async (reasons) => {
                 const i18n = await import('/app/js/i18n.js');
                 const { reasonText } = await import('/app/js/eventtext.js');
                 const out = {};
                 for (const code of ['zh', 'zh-Hant', 'en']) {
                   i18n.setLang(code);
                   out[code] = reasons.map(([reason, params]) => reasonText(reason, params));
                 }
                 i18n.setLang('en');
                 return out;
               }""",
            reasons,
        ),
    )
    for code in ("zh", "zh-Hant"):
        english = [
            text
            for text in got[code]
            if re.search(
                r"[a-z]{2,}", text.replace("macau", "").replace("tea", "").replace("ann", "")
            )
        ]
        assert english == [], code
    assert got["zh-Hant"][-2] == "作廢牌局 macau-1-001-002"
    assert got["zh"][[r for r, _ in reasons].index("changed_by_owner")] == "台主 ann 更换牌靴"
    assert got["en"][[r for r, _ in reasons].index("left")] == "left the table"
    assert got["en"][0] == "tea"  # typed words are shown as typed


def test_paytables_and_alarm_reasons_are_said_in_every_language(page: Page) -> None:
    """The rules editor's paytables and a drift alarm's reasons (drift.py: ``rtp:<bet>``,
    ``outcomes:<event>``) are words of the language, never the server's names."""
    names = [name for bet in Bet for name in paytables_for(bet)]
    reasons = [f"rtp:{bet.value}" for bet in Bet] + ["outcomes:banker_player_tie"]
    reasons += [f"outcomes:{event}" for event in COUP_EVENTS[3:]]
    got = cast(
        dict[str, list[str]],
        page.evaluate(
            """async ([names, reasons]) => {
                 const i18n = await import('/app/js/i18n.js');
                 const { alarmReason, paytableName } = await import('/app/js/format.js');
                 const out = {};
                 for (const code of ['zh', 'zh-Hant', 'en']) {
                   i18n.setLang(code);
                   out[code] = [...names.map(paytableName), ...reasons.map(alarmReason)];
                 }
                 i18n.setLang('en');
                 return out;
               }""",
            [names, reasons],
        ),
    )
    for code in ("zh", "zh-Hant"):
        assert [text for text in got[code] if re.search(r"[A-Za-z]{2,}", text)] == [], code
    assert got["zh-Hant"][names.index("tie_8")] == "1 賠 8"
    assert got["zh"][names.index("tiger_pair_4_20_100")] == "1 赔 4/20/100"
    assert got["en"][names.index("banker_commission")] == "0.95 to 1 (5% commission)"
    chi_square = len(names) + reasons.index("outcomes:banker_player_tie")
    assert got["zh-Hant"][chi_square] == "莊、閒、和頻率"


def test_a_tables_name_is_the_one_of_the_language(page: Page) -> None:
    """``tableName``: the table's name for the current language, else its default name,
    else its id."""
    got = cast(
        dict[str, list[str]],
        page.evaluate(
            """async () => {
                 const i18n = await import('/app/js/i18n.js');
                 const { tableName } = await import('/app/js/format.js');
                 const names = { zh: '澳门', 'zh-Hant': '澳門' };
                 const tables = [{ id: 'macau-1', name: 'Macau', names }, { id: 'x-1', name: 'X' },
                                 { id: 'y-1', names: {} }];
                 const out = {};
                 for (const code of ['zh', 'zh-Hant', 'en']) {
                   i18n.setLang(code);
                   out[code] = tables.map(tableName);
                 }
                 i18n.setLang('en');
                 return out;
               }"""
        ),
    )
    assert got == {
        "zh": ["澳门", "X", "y-1"],
        "zh-Hant": ["澳門", "X", "y-1"],
        "en": ["Macau", "X", "y-1"],
    }


def test_the_statistics_show_percentages_next_to_the_counts(page: Page) -> None:
    shown = cast(
        dict[str, str],
        page.evaluate(
            """async () => {
             const r = await import('/app/js/roads.js');
             const counts = { hands: 8, banker: 4, player: 3, tie: 1, banker_pair: 1,
                              player_pair: 0, natural: 3 };
             const board = r.roadBoard({ bead_plate: [], big_road: [], ask: null, counts });
             const out = {};
             for (const el of board.querySelectorAll('[data-count]'))
               out[el.dataset.count] =
                 el.textContent.slice(el.querySelector('b').textContent.length).trim();
             out.none = String(r.share(0, 0));
             return out;
           }"""
        ),
    )
    assert shown == {
        "banker": "4 50%",
        "player": "3 38%",
        "tie": "1 13%",
        "banker_pair": "1 13%",
        "player_pair": "0 0%",
        "natural": "3 38%",
        "hands": "8",
        "none": "null",
    }


def test_a_table_of_thousands_shows_a_few_watchers_and_how_many_more(page: Page) -> None:
    """The players betting without a seat: all of them at a small table; at a table of
    thousands the first few (yourself first) and how many more, counted in the language."""
    got = cast(
        dict[str, str],
        page.evaluate(
            """async () => {
                 const i18n = await import('/app/js/i18n.js');
                 const { watcherList, WATCHERS_SHOWN } = await import('/app/js/seats.js');
                 const name = (n) => `p${String(n).padStart(4, '0')}`;
                 const many = Array.from({ length: 2500 }, (_, n) => name(n));
                 const out = {};
                 out.few = watcherList({ watchers: ['bob', 'cleo'], you: {} }).textContent;
                 out.none = watcherList({ watchers: [], you: {} }).textContent;
                 out.many = watcherList({ watchers: many, you: { user_id: 'p2000' } }).textContent;
                 i18n.setLang('zh');
                 out.zh = watcherList({ watchers: many, you: {} }).textContent;
                 i18n.setLang('en');
                 out.shown = String(WATCHERS_SHOWN);
                 return out;
               }"""
        ),
    )
    shown = int(got["shown"])
    assert got["few"] == "Watching (2): bob, cleo"
    assert got["none"] == "Nobody is watching."
    names = ", ".join(["p2000"] + [f"p{n:04d}" for n in range(shown - 1)])
    assert got["many"] == f"Watching (2,500): {names} and {2500 - shown:,} more"
    first = ", ".join(f"p{n:04d}" for n in range(shown))
    assert got["zh"] == f"旁观（2,500）: {first} 等另外 {2500 - shown:,} 人"
