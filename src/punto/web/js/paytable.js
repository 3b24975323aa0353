// "Limits & payouts", one tap from the bet areas: each offered bet with its minimum and
// maximum on the player's tier and what it pays, from the table description (`limits`,
// `pays`).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { betName, money } from "./format.js";
import { offeredBets } from "./betting.js";

const MAIN = ["player", "banker"];

/** The tier the player bets on (the one they sat on, else the table's first). */
function tierOf(state) {
  const limits = state.table.limits || [];
  const name = state.you.tier || (state.table.normal_tiers || [])[0];
  return limits.find((l) => l.name === name) || limits[0] || null;
}

/** [min, max] of one bet on a tier, as the tier's JSON states them [L]. */
function limitsFor(tier, bet) {
  if (!tier) return null;
  if (tier.bet_limits && tier.bet_limits[bet]) return tier.bet_limits[bet];
  return MAIN.includes(bet) ? [tier.min_bet, tier.max_bet] : [tier.side_min, tier.side_max];
}

/** A paytable's odds for display: the highest, as a number (19/20 → 0.95), and whether
 * the bet has several payout classes. */
function oddsOf(pays) {
  const values = Object.values(pays || {}).map((text) => {
    const [n, d] = String(text).split("/").map(Number);
    return d ? n / d : n;
  });
  if (!values.length) return null;
  return { best: Math.max(...values), several: new Set(values).size > 1 };
}

function oddsText(pays) {
  const odds = oddsOf(pays);
  if (!odds) return "—";
  const shown = String(Math.round(odds.best * 1000) / 1000);
  return odds.several ? t("pay.up_to", { odds: shown }) : t("pay.odds", { odds: shown });
}

/** The table of limits and payouts, folded behind one summary button. */
export function limitsCard(state) {
  const digits = state.table.currency_digits;
  const tier = tierOf(state);
  const pays = state.table.pays || {};
  return h(
    "details",
    { class: "limits-card", "data-testid": "limits-card" },
    h("summary", { class: "btn btn-ghost btn-small" }, t("pay.title")),
    h(
      "table",
      { class: "data" },
      h("thead", {}, h("tr", {}, h("th", {}, t("pay.bet")), h("th", {}, t("pay.limits")), h("th", {}, t("pay.pays")))),
      h(
        "tbody",
        {},
        offeredBets(state).map((bet) => {
          const range = limitsFor(tier, bet);
          return h("tr", { "data-bet-row": bet },
            h("td", {}, betName(bet)),
            h("td", {}, range ? `${money(range[0], digits)} – ${money(range[1], digits)}` : "—"),
            h("td", {}, oddsText(pays[bet])));
        }),
      ),
    ),
  );
}
