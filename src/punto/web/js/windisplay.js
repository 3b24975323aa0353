// The win display: when a hand is settled, what the player won (or lost, or got back) in
// money, the hand's winner and the winning bet areas, shown large over the cards for a few
// seconds while the areas glow on the felt. No rule is restated here: the winner and the
// pairs come from the hand's outcome, every other winning area from the settlements the
// server sent (an area any player was paid on).
import { h } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { betName, money, signed } from "./format.js";

/** How long the display stays up (ms). */
export const WIN_DISPLAY_MS = 5000;

/**
 * The bet areas that won this hand: the winner's area, the pairs that came, and every area
 * a settlement paid (side bets: the hand's `summary.areas_won` where the server sent a
 * summary, else the lines of the `results` sent), in the table's order of `offered`.
 */
export function winningAreas(outcome, results, offered, summary = null) {
  const won = new Set();
  if (outcome) {
    won.add(outcome.winner);
    if (outcome.player_pair) won.add("player_pair");
    if (outcome.banker_pair) won.add("banker_pair");
  }
  for (const bet of (summary && summary.areas_won) || []) won.add(bet);
  for (const r of results || []) {
    const lines = (r.settlement && r.settlement.results) || [];
    for (const line of lines) if (line.net > 0) won.add(line.bet);
  }
  return (offered || []).filter((bet) => won.has(bet));
}

/**
 * What the display shows, from the settled hand: `{game, kind, amount, areas, outcome,
 * stake, bets}`; kind is "win", "lose", "push" (every bet given back as it was), "even" (a
 * bet won what another lost), "standing", "refund" or "none" (no bet of the player's in the
 * hand).
 */
export function winSummary({ game, outcome, mine, results, offered, summary = null, refunded = false, pushes = [], multiplier = 1 }) {
  const areas = refunded ? [] : winningAreas(outcome, results, offered, summary);
  if (!mine) return { game, kind: refunded ? null : "none", amount: 0, areas, outcome, pushes };
  if (refunded) return { game, kind: "refund", amount: mine.returned, areas, outcome, pushes: [] };
  const settlement = mine.settlement || { total_net: 0, total_stake: 0 };
  const net = settlement.total_net;
  const stake = settlement.total_stake;
  const lines = settlement.results || [];
  let kind = net > 0 ? "win" : net < 0 ? "lose" : "push";
  // nothing won overall, but a bet won what another lost: not a push (nothing came back as it was)
  if (net === 0 && lines.some((line) => line.net > 0)) kind = "even";
  if (net === 0 && mine.standing && Object.keys(mine.standing).length) kind = "standing";
  // [LB] the lightning cards' product a winning main bet was paid by (1: none)
  const lit = kind === "win" && multiplier > 1 ? multiplier : 1;
  return { game, kind, amount: net, returned: mine.returned, stake, bets: lines.length || 1, areas, outcome, pushes, multiplier: lit };
}

/** The display's element for a summary (null when there is nothing to show). */
export function winDisplay(summary, digits) {
  if (!summary || !summary.kind) return null;
  const o = summary.outcome;
  const headline = o ? t(`result.winner.${o.winner}`) : null;
  const totals = o ? t("win.totals", { player: o.player_total, banker: o.banker_total }) : null;
  let mine = null;
  if (summary.kind === "win") {
    mine = [h("span", { class: "win-label" }, t("win.you_win")), h("b", { class: "win-amount", "data-testid": "win-amount" }, signed(summary.amount, digits))];
    if (summary.multiplier > 1) mine.push(h("span", { class: "win-lightning", "data-testid": "win-multiplier" }, t("lightning.win_times", { n: summary.multiplier })));
  } else if (summary.kind === "lose") {
    mine = [h("span", { class: "win-label" }, t("win.you_lose")), h("b", { class: "win-amount", "data-testid": "win-amount" }, signed(summary.amount, digits))];
  } else if (summary.kind === "push") {
    mine = [h("span", { class: "win-label" }, t("win.push", { n: summary.bets })), h("b", { class: "win-amount", "data-testid": "win-amount" }, money(summary.returned || 0, digits))];
  } else if (summary.kind === "even") {
    mine = [h("span", { class: "win-label" }, t("win.even")), h("b", { class: "win-amount", "data-testid": "win-amount" }, money(0, digits))];
  } else if (summary.kind === "standing") {
    mine = [h("span", { class: "win-label" }, t("result.standing"))];
  } else if (summary.kind === "refund") {
    mine = [h("span", { class: "win-label" }, t("win.refund")), h("b", { class: "win-amount", "data-testid": "win-amount" }, money(summary.amount, digits))];
  }
  const areas = summary.areas.length
    ? h("p", { class: "win-areas", "data-testid": "win-areas" }, t("win.areas", { bets: listOf(summary.areas.map(betName)) }))
    : null;
  // [EZ] the main bets the result returned though it is no tie (the table says which)
  const pushed = (summary.pushes || []).length
    ? h("p", { class: "win-pushes", "data-testid": "win-pushes" }, t("result.pushes", { bets: listOf(summary.pushes.map(betName)) }))
    : null;
  return h(
    "div",
    { class: ["win-display", `win-${summary.kind}`, o ? `win-side-${o.winner}` : ""], "data-testid": "win-display", "data-kind": summary.kind, "data-game": summary.game },
    headline ? h("p", { class: "win-headline" }, h("b", {}, headline), totals ? h("span", { class: "win-totals" }, totals) : null) : null,
    mine ? h("p", { class: "win-mine" }, mine) : null,
    pushed,
    areas,
  );
}

/** One sentence for screen readers: the winner, then the player's money. */
export function winSentence(summary, digits) {
  const parts = [];
  const o = summary.outcome;
  if (o) parts.push(`${t(`result.winner.${o.winner}`)}, ${t("win.totals", { player: o.player_total, banker: o.banker_total })}`);
  if (summary.kind === "win") parts.push(`${t("win.you_win")} ${signed(summary.amount, digits)}`);
  if (summary.multiplier > 1) parts.push(t("lightning.win_times", { n: summary.multiplier }));
  if (summary.kind === "lose") parts.push(`${t("win.you_lose")} ${signed(summary.amount, digits)}`);
  if (summary.kind === "push") parts.push(`${t("win.push", { n: summary.bets })} ${money(summary.returned || 0, digits)}`);
  if (summary.kind === "even") parts.push(`${t("win.even")} ${money(0, digits)}`);
  if (summary.kind === "standing") parts.push(t("result.standing"));
  if (summary.kind === "refund") parts.push(`${t("win.refund")} ${money(summary.amount, digits)}`);
  if (summary.areas.length) parts.push(t("win.areas", { bets: listOf(summary.areas.map(betName)) }));
  return parts.join(t("win.sentence_sep"));
}
