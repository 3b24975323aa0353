// Game recall (GLI-19): one of the player's hands as it was shown at the time — the
// cards in order per side, totals, their bets, result, the roads of that moment — and
// the amendments made since, and the hand's clip from the table's recording
// (GET /api/me/recall/{game}).
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { labelValue, t } from "./i18n.js";
import { betName, errorText, money, sideName, signed, when } from "./format.js";
import { cardElement } from "./cards.js";
import { lightningStrip } from "./lightning.js";
import { outcomeText, reasonText } from "./eventtext.js";
import { roadBoard } from "./roads.js";
import { complaintForm } from "./complaints.js";
import { clipPanel } from "./clip.js";

const DIGITS = 2;

function sidesView(facts, testid) {
  const side = (name) =>
    h("div", { class: `recall-side recall-${name}`, "data-side": name },
      h("h4", {}, sideName(name)),
      h("div", { class: "cards-inline" }, facts[name].cards.map((code) => cardElement(code, { small: true }))),
      h("p", { class: "recall-total" }, t("recall.total", { total: facts[name].total === null ? "—" : String(facts[name].total) })));
  return h("div", { class: "recall-sides", "data-testid": testid },
    side("player"), side("banker"),
    h("p", { class: "recall-outcome" }, facts.void ? t("record.status.void") + (facts.void_reason ? ` — ${reasonText(facts.void_reason, facts.void_reason_params)}` : "") : facts.outcome ? outcomeText(facts.outcome) : "—"));
}

function netText(net) {
  return net === null || net === undefined ? "—" : signed(net, DIGITS);
}

/** The recall of one hand. */
export function recallView(rec, player, onComplaint = () => {}) {
  const bets = Object.entries((rec.bets || {})[player] || {}).map(([b, a]) => `${betName(b)} ${money(a, DIGITS)}`).join(", ") || "—";
  const then = (rec.net_at_the_time || {})[player];
  const now = (rec.net || {})[player];
  return h("article", { class: "recall", "data-game": rec.game, "aria-label": t("recall.title", { game: rec.game }) },
    h("h3", {}, t("recall.title", { game: rec.game })),
    h("dl", { class: "kv" },
      h("dt", {}, t("record.table")), h("dd", {}, rec.table),
      h("dt", {}, t("record.dealer")), h("dd", {}, rec.dealer || "—"),
      h("dt", {}, t("record.opened")), h("dd", {}, when(rec.opened_at)),
      h("dt", {}, t("record.bets")), h("dd", {}, bets),
      h("dt", {}, t("recall.net_then")), h("dd", { "data-testid": "recall-net-then" }, netText(then)),
      // [LB] a multiplier table's hand: its lightning cards and the player's fee
      (rec.lightning || []).length ? [h("dt", {}, t("lightning.title")), h("dd", {}, lightningStrip(rec.lightning, { small: true }))] : null,
      ((rec.fees || {})[player] || 0) ? [h("dt", {}, t("lightning.fee_label")), h("dd", { "data-testid": "recall-fee" }, money(rec.fees[player], DIGITS))] : null),
    h("h4", {}, t("recall.shown")),
    sidesView(rec.shown, "recall-shown"),
    clipPanel(rec), // the hand's clip from the table's recording, where one was kept
    rec.corrected
      ? h("section", { class: "recall-corrected" },
          h("h4", {}, t("recall.corrected")),
          sidesView(rec.corrected, "recall-corrected"),
          h("p", {}, labelValue(t("recall.net_now"), netText(now))),
          h("ul", { class: "amendments", "aria-label": t("record.amendments") },
            rec.amendments.map((a) => h("li", {}, `${t(`amend.${a.kind}`)} — ${labelValue(a.author, reasonText(a.reason))} (${when(a.at)})`))))
      : null,
    h("h4", {}, t("recall.roads")),
    h("div", { class: "recall-roads", "data-testid": "recall-roads" }, roadBoard(rec.roads)),
    complaintForm(rec, onComplaint),
  );
}

/** A panel that shows the recall of a hand the player picks from their records. */
export function recallPanel(player, onComplaint = () => {}) {
  const out = h("div", { class: "recall-result", "aria-live": "polite" }, h("p", { class: "hint" }, t("recall.hint")));
  const show = async (game) => {
    fill(out, h("p", { class: "hint" }, t("common.loading")));
    try {
      fill(out, recallView(await api.recall(game), player(), onComplaint));
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  const element = h("section", { class: "panel", "aria-label": t("recall.heading"), "data-testid": "recall" }, h("h2", {}, t("recall.heading")), out);
  return { element, show };
}
