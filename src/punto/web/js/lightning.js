// Multiplier baccarat [LB] on the table page: the lightning cards the table drew before
// the deal (a strip of cards with their ×multipliers), the multiplier a dealt card
// carries, the product a winning hand was paid by, and the fee on the player's bets.
// The draw, the fee rate and every payout are the server's; nothing is decided here.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardElement } from "./cards.js";
import { money } from "./format.js";
import { feeOn } from "./tablestate.js";

export { feeOn };

/** The multiplier of card `code` in the hand's draw (1: not a lightning card). */
export function litMultiplier(lightning, code) {
  for (const [card, multiplier] of lightning || []) if (card === code) return multiplier;
  return 1;
}

/** The product of the multipliers of the lightning cards among `codes` (a card dealt
 * twice counts twice), as the server multiplies a winning bet by. */
export function litProduct(lightning, codes) {
  return (codes || []).reduce((product, code) => product * litMultiplier(lightning, code), 1);
}

/** The strip of the hand's lightning cards, each with its ×multiplier (null: none). */
export function lightningStrip(lightning, { small = false } = {}) {
  if (!lightning || !lightning.length) return null;
  return h(
    "div",
    { class: ["lightning-strip", small ? "lightning-strip-small" : ""], role: "group", "aria-label": t("lightning.title"), "data-testid": "lightning-strip" },
    h("span", { class: "lightning-title" }, h("span", { class: "lightning-bolt", "aria-hidden": "true" }, "⚡"), t("lightning.title")),
    lightning.map(([code, multiplier]) =>
      h(
        "span",
        { class: "lightning-card", "data-card": code, "data-multiplier": String(multiplier) },
        cardElement(code, { small: true }),
        h("b", { class: "lightning-x" }, t("lightning.times", { n: multiplier })),
      ),
    ),
  );
}

/** "fee 2.00": the fee on the player's bets (confirmed, and on the chips not yet
 * confirmed), or null where the table charges none or nothing is bet. */
export function feeLine(state) {
  if (!state.table.lightning) return null;
  const you = state.you || {};
  const stake = (bets) => Object.values(bets || {}).reduce((a, b) => a + b, 0);
  const paid = you.fee || 0;
  const pending = feeOn(state.table, stake(you.pending));
  if (!paid && !pending) return null;
  const digits = state.table.currency_digits;
  return h(
    "p",
    { class: "bet-fee", "data-testid": "bet-fee" },
    t("lightning.fee", { amount: money(paid + pending, digits) }),
    paid && pending ? h("span", { class: "bet-fee-paid" }, ` (${t("lightning.fee_paid", { amount: money(paid, digits) })})`) : null,
  );
}
