// Cards: codes ("9S", "TD"), faces, and the running totals shown while a coup is dealt.
import { h } from "./dom.js";
import { labelValue, t } from "./i18n.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const CODE = /^(A|[2-9]|T|10|J|Q|K)([SHDC])$/i;

/** Parse a typed or scanned card ("9s", "10D", "td") → canonical code ("9S", "TD") or null. */
export function parseCard(text) {
  const m = CODE.exec(String(text).trim());
  if (!m) return null;
  const rank = m[1].toUpperCase() === "10" ? "T" : m[1].toUpperCase();
  return `${rank}${m[2].toUpperCase()}`;
}

/** A hand's total from the cards shown (hidden cards are null and not counted); `values`
 * is the table's `card_values`, each rank's value as the server's codec gives it [M5]. */
export function handTotal(codes, values) {
  return codes.filter(Boolean).reduce((sum, c) => sum + values[c[0]], 0) % 10;
}

export function cardLabel(code) {
  if (!code) return t("card.face_down");
  return t("card.label", { rank: RANKS[code[0]] || code[0], suit: t(`suit.${code[1]}`) });
}

/**
 * A card element. `code` null draws its back. Options: `position` ("P1"…) shown as a
 * data attribute, `reveal` to animate the face in corner first (after a squeeze).
 */
export function cardElement(code, { position = null, reveal = false, small = false } = {}) {
  const attrs = {
    class: ["card", code ? "" : "card-back", small ? "card-small" : "", code && "HD".includes(code[1]) ? "card-red" : "", reveal ? "card-reveal" : ""],
    role: "img",
    "aria-label": position ? labelValue(position, cardLabel(code)) : cardLabel(code),
    "data-position": position,
    "data-card": code || "",
  };
  if (!code) return h("span", attrs, h("span", { class: "card-back-pattern", "aria-hidden": "true" }));
  const rank = RANKS[code[0]] || code[0];
  const suit = SUITS[code[1]];
  return h(
    "span",
    attrs,
    h("span", { class: "card-corner card-corner-tl", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, suit)),
    h("span", { class: "card-pip", "aria-hidden": "true" }, suit),
    h("span", { class: "card-corner card-corner-br", "aria-hidden": "true" }, h("b", {}, rank), h("i", {}, suit)),
  );
}
