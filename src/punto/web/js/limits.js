// A chip explained before it is sent: the table's own limits, as the server gives them in
// the table description (`limits`, `bet_rules`, `pays`), read here and nothing restated.
// Each check returns null (fine) or { limit, bet, value } — the same `params` the server
// puts on a refusal, so one translation explains both. The server still checks every bet.

const MAIN = ["player", "banker"];
const TIGER = ["lucky6", "big_tiger", "small_tiger", "tiger_tie", "tiger_pair"];

/** The tier the player bets on (the one they sat on, else the table's first). */
export function tierOf(state) {
  const limits = state.table.limits || [];
  const name = state.you.tier || (state.table.normal_tiers || [])[0];
  return limits.find((l) => l.name === name) || limits[0] || null;
}

/** [min, max] of one bet on a tier [L]. */
export function limitsFor(tier, bet) {
  if (!tier) return null;
  if (tier.bet_limits && tier.bet_limits[bet]) return tier.bet_limits[bet];
  return MAIN.includes(bet) ? [tier.min_bet, tier.max_bet] : [tier.side_min, tier.side_max];
}

function stakes(state) {
  const out = {};
  for (const src of [state.you.bets || {}, state.you.pending || {}]) {
    for (const [bet, amount] of Object.entries(src)) out[bet] = (out[bet] || 0) + amount;
  }
  return out;
}

/** Why a chip of `amount` on `bet` would be refused now, or null. */
export function refuseChip(state, bet, amount) {
  const tier = tierOf(state);
  const rules = state.table.bet_rules || {};
  const all = stakes(state);
  const total = (all[bet] || 0) + amount;
  const range = limitsFor(tier, bet);
  if (range && total > range[1]) return { limit: "max", bet, value: range[1] };
  const closes = (rules.close_from_hand || {})[bet];
  if (closes && (state.shoe.hands_dealt || 0) + 1 >= closes) return { limit: "closed_from", bet, value: closes };
  if (rules.one_side_only && MAIN.includes(bet)) {
    const other = bet === "player" ? "banker" : "player";
    if (all[other]) return { limit: "one_side", bet };
  }
  if (rules.tiger_with_main === false) {
    if (MAIN.includes(bet) && TIGER.some((b) => all[b])) return { limit: "tiger_with_main", bet };
    if (TIGER.includes(bet) && MAIN.some((b) => all[b])) return { limit: "tiger_with_main", bet };
  }
  return null;
}

/** What is still wrong with an area's stake before it can be confirmed, or null. */
export function incomplete(state, bet, total) {
  if (!total) return null;
  const tier = tierOf(state);
  const range = limitsFor(tier, bet);
  if (range && total < range[0]) return { limit: "min", bet, value: range[0], short: range[0] - total };
  const rules = state.table.bet_rules || {};
  if (bet === "banker" && rules.banker_multiple_of_min && tier && total % tier.min_bet) {
    return { limit: "banker_multiple", bet, value: tier.min_bet };
  }
  return null;
}

/** The first area whose stake cannot be confirmed, or null. */
export function firstIncomplete(state) {
  const all = stakes(state);
  for (const bet of Object.keys(state.you.pending || {})) {
    const why = incomplete(state, bet, all[bet]);
    if (why) return why;
  }
  return null;
}

/** A paytable's odds for display: the highest, as a number (19/20 → 0.95), and whether
 * the bet has several payout classes. */
export function oddsOf(pays) {
  const values = Object.values(pays || {}).map((text) => {
    const [n, d] = String(text).split("/").map(Number);
    return d ? n / d : n;
  });
  if (!values.length) return null;
  return { best: Math.max(...values), several: new Set(values).size > 1 };
}

/** What to do about a refused or incomplete chip, in the player's language and money. */
export function advice(why, digits, { t, has, betName, money }) {
  const key = `advice.${why.limit}`;
  if (!has(key)) return null;
  return t(key, {
    bet: why.bet ? betName(why.bet) : "",
    value: why.limit === "closed_from" ? String(why.value) : money(why.value || 0, digits),
    short: money(why.short || 0, digits),
  });
}
