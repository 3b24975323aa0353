// Where the next card goes: the dealer console's guidance, from the cards placed so far.
// The drawing rules [M9] are punto.tableau's; this copy only guides the dealer (the server's
// coup machine places every card and refuses one against the tableau), and a test checks it
// against punto.tableau for every total.
import { cardValue } from "./cards.js";

export const FIRST_FOUR = ["P1", "B1", "P2", "B2"];
export const NATURAL_TOTALS = [8, 9];
export const PLAYER_DRAWS_ON = [0, 1, 2, 3, 4, 5];
export const STAND_ALONE_BANKER_DRAWS_ON = [0, 1, 2, 3, 4, 5];
/** Banker's two-card total → values of the Player's third card on which Banker draws. */
export const BANKER_DRAWS_ON_PLAYER_THIRD = {
  0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  1: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  2: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
  4: [2, 3, 4, 5, 6, 7],
  5: [4, 5, 6, 7],
  6: [6, 7],
  7: [],
};

/** Whether the Banker draws on `total`, given the Player's third-card value (or null). */
export function bankerDraws(total, playerThird) {
  if (playerThird === null) return STAND_ALONE_BANKER_DRAWS_ON.includes(total);
  return (BANKER_DRAWS_ON_PLAYER_THIRD[total] || []).includes(playerThird);
}

/**
 * The next position and why, from `cards` (position → code, null for a card not seen).
 * Returns {next: "P1"…"B3" | null, reason}. Reasons: "deal" (the first four, in order),
 * "face_down" (a held card must be turned first), "natural", "player_draws",
 * "banker_draws", "both_stand", "banker_stands", "complete".
 */
export function guidance(cards) {
  for (const pos of FIRST_FOUR) if (!(pos in cards)) return { next: pos, reason: "deal" };
  if (FIRST_FOUR.some((p) => !cards[p])) return { next: null, reason: "face_down" };
  const player = (cardValue(cards.P1) + cardValue(cards.P2)) % 10;
  const banker = (cardValue(cards.B1) + cardValue(cards.B2)) % 10;
  if (NATURAL_TOTALS.includes(player) || NATURAL_TOTALS.includes(banker)) {
    return { next: null, reason: "natural" };
  }
  if ("B3" in cards) return { next: null, reason: "complete" };
  if (!("P3" in cards)) {
    if (PLAYER_DRAWS_ON.includes(player)) return { next: "P3", reason: "player_draws" };
    return bankerDraws(banker, null) ? { next: "B3", reason: "banker_draws" } : { next: null, reason: "both_stand" };
  }
  if (!cards.P3) return { next: null, reason: "face_down" };
  return bankerDraws(banker, cardValue(cards.P3))
    ? { next: "B3", reason: "banker_draws" }
    : { next: null, reason: "banker_stands" };
}
