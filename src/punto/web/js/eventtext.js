// One line of text per table event, for the event logs of the table and the console.
import { has, listOf, t } from "./i18n.js";
import { betName, money, sideName, signed } from "./format.js";
import { cardLabel } from "./cards.js";

// A reason is a code (punto.table.reasons, docs/protocol.md) with its parameters
// (reason_params): "typed" is what a person typed, shown as typed; "fault" names the fault.
// A ledger row's reason is the same code as text, "<code> <name>=<value> …". Anything else
// (typed words of an amendment or a complaint) is shown as it is.
const LEDGER_REASON = /^([a-z_]+)((?: [a-z]+=\S+)*)$/;

function readReason(reason) {
  const m = LEDGER_REASON.exec(reason);
  if (!m || !has(`reason.${m[1]}`) && m[1] !== "fault") return null;
  const params = Object.fromEntries(m[2].trim().split(" ").filter(Boolean).map((kv) => kv.split("=", 2)));
  return { code: m[1], params };
}

/** [EZ-C] The side bets a hand closed for the shoe's edge, and those it reopened. */
function sideBetsClosedText(ev) {
  const parts = [];
  if (ev.closed.length) parts.push(t("ev.side_bets_closed", { bets: listOf(ev.closed.map(betName)) }));
  if (ev.reopened.length) parts.push(t("ev.side_bets_reopened", { bets: listOf(ev.reopened.map(betName)) }));
  return parts.join(" ");
}

/**
 * The notice for a `balance` message a supervisor's correction or void sent ("Hand … was
 * voided: +10.00 to your balance"), or null for any other balance message.
 */
export function amendedBalanceText(msg, digits = 2) {
  if (!msg || msg.type !== "balance" || msg.reason !== "corrected" || !msg.amount) return null;
  const key = msg.kind === "void" ? "amend.moved_void" : "amend.moved_correction";
  return t(key, { game: msg.game, amount: signed(msg.amount, digits) });
}

/** A reason of an event (void, refund, burn, transfer …) in the current language: its
 * code and parameters, or a ledger row's reason text when no parameters are given. */
export function reasonText(reason, params) {
  if (!reason) return "—";
  let code = reason;
  if (params === undefined || params === null) {
    const read = readReason(reason);
    if (!read) return reason;
    ({ code, params } = read);
  }
  if (code === "typed") return params.text || "—";
  if (code === "fault") return params.fault ? faultName(params.fault) : "—";
  const key = `reason.${code}`;
  return has(key) ? t(key, params) : reason;
}

function bets(map, digits) {
  return listOf(Object.entries(map || {}).map(([bet, amount]) => `${betName(bet)} ${money(amount, digits)}`));
}

function outcomeText(o) {
  if (!o) return "";
  return t("result.line", {
    winner: t(`result.winner.${o.winner}`),
    player: o.player_total,
    banker: o.banker_total,
  });
}

/** The event as a sentence in the current language. */
export function describeEvent(ev, digits = 2) {
  const p = ev.player;
  switch (ev.kind) {
    case "table_opened": return t("ev.table_opened", { dealer: ev.dealer });
    case "table_paused": return t("ev.table_paused", { reason: reasonText(ev.reason, ev.reason_params) });
    case "table_resumed": return t("ev.table_resumed");
    case "table_closed": return t("ev.table_closed", { reason: reasonText(ev.reason, ev.reason_params) });
    case "dealer_changed": return t("ev.dealer_changed", { dealer: ev.dealer });
    case "limits_changed": return t("ev.limits_changed");
    case "pause_requested": return t("ev.pause_requested", { reason: reasonText(ev.reason, ev.reason_params) });
    case "pause_called_off": return t("ev.pause_called_off");
    case "betting_time_changed": return t("ev.betting_time_changed", { seconds: ev.seconds });
    case "change_pending": return t(`ev.change_pending.${ev.change}`, { seconds: ev.seconds, version: ev.version });
    case "rules_changed": return t("ev.rules_changed", { version: ev.version });
    case "vip_settings_changed": return t("ev.vip_settings_changed", { player: ev.by });
    case "shoe_opened": return t("ev.shoe_opened", { shoe: ev.shoe, cards: ev.cards });
    case "cards_burned": return t("ev.cards_burned", { count: ev.count, reason: ev.reason ? reasonText(ev.reason, ev.reason_params) : "" });
    case "demo_hand_dealt": return t("ev.demo_hand_dealt", { n: ev.number, result: outcomeText(ev.outcome) });
    case "cut_card_out": return t("ev.cut_card_out");
    case "shoe_closed": return t("ev.shoe_closed", { shoe: ev.shoe, hands: ev.hands });
    case "player_joined": return t("ev.player_joined", { player: p });
    case "balance_transferred":
      return ev.amount === null
        ? t("ev.balance_transferred_other", { player: p })
        : t("ev.balance_transferred", { player: p, amount: money(ev.amount, digits), reason: reasonText(ev.reason, ev.reason_params) });
    case "player_sat": return t(ev.owner ? "ev.player_took_table" : "ev.player_sat", { player: p, seat: ev.seat });
    case "player_watching": return t("ev.player_watching", { player: p });
    case "player_stood": return t("ev.player_stood", { player: p, seat: ev.seat });
    case "player_connection": return t(ev.connected ? "ev.player_back" : "ev.player_away", { player: p });
    case "player_left": return t("ev.player_left", { player: p });
    case "betting_opened": return t("ev.betting_opened", { game: ev.game });
    case "betting_extended": return t("ev.betting_extended", { player: p });
    case "open_cards_requested": return t("ev.open_cards_requested", { player: p });
    case "chip_chosen": return t("ev.chip_chosen", { chip: money(ev.chip, digits) });
    case "chip_added": return t("ev.chip_added", { bet: betName(ev.bet), amount: money(ev.amount, digits) });
    case "chips_undone": return t("ev.chips_undone");
    case "bets_cleared": return t("ev.bets_cleared");
    case "bets_doubled": return t("ev.bets_doubled");
    case "rebet_placed": return t("ev.rebet_placed");
    case "bets_confirmed": return t("ev.bets_confirmed", { player: p, bets: bets(ev.bets, digits) });
    case "tie_bets_changed":
      return ev.reason // the table's act [M12]: staked again, or returned (the wallet's)
        ? t("ev.tie_bets_by_table", { player: p, reason: reasonText(ev.reason, ev.reason_params) })
        : t("ev.tie_bets_changed", { player: p, bets: bets(ev.bets, digits) || "—" });
    case "betting_closed": return t("ev.betting_closed");
    case "blank_hand_started": return t("ev.blank_hand_started", { game: ev.game });
    case "cards_held": return t("ev.cards_held", { player: p, side: sideName(ev.side) });
    case "card_placed": return t("ev.card_placed", { position: t(`pos.${ev.position}`), card: cardLabel(ev.card) });
    case "cards_revealed": return t("ev.cards_revealed", { by: ev.by || t("table.dealer"), cards: listOf(ev.cards.map(([pos, c]) => `${t(`pos.${pos}`)} ${cardLabel(c)}`)) });
    case "hand_restarted": return t("ev.hand_restarted", { reason: reasonText(ev.reason, ev.reason_params) });
    case "hand_result": return (ev.pushes || []).length
      ? `${outcomeText(ev.outcome)} — ${t("result.pushes", { bets: listOf(ev.pushes.map(betName)) })}`
      : outcomeText(ev.outcome);
    case "side_bets_closed": return sideBetsClosedText(ev);
    case "lightning_drawn": return t("ev.lightning_drawn", { cards: ev.cards.map(([c, m]) => `${c} ${t("lightning.times", { n: m })}`).join(", ") });
    case "hand_settled": return t("ev.hand_settled", { game: ev.game });
    case "bets_refunded": return t("ev.bets_refunded", { reason: reasonText(ev.reason, ev.reason_params) });
    case "hand_voided": return t("ev.hand_voided", { reason: reasonText(ev.reason, ev.reason_params) });
    case "hand_resettled": return t("ev.hand_resettled", { game: ev.game });
    case "fault_reported": return t("ev.fault_reported", { rule: ev.rule, fault: faultName(ev.fault), detail: ev.detail || "" });
    default: return ev.kind;
  }
}

export function faultName(fault) {
  const key = `fault.${fault}`;
  const text = t(key);
  return text === key ? fault : text;
}

export { outcomeText };
