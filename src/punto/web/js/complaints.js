// Complaints [L]: a player files one about a hand from its recall (date, time, table,
// dealer and game number come from the hand's record; past 24 hours it is refused), sees
// their complaints and outcomes; a supervisor works the queue: opens the hand, resolves
// by correction, void or rejection with a reason.
import { api } from "./api.js";
import { h, fill, toast, field } from "./dom.js";
import { labelValue, t } from "./i18n.js";
import { errorText, when } from "./format.js";
import { handRecordView } from "./records.js";

export const WINDOW_SECONDS = 24 * 3600;

function stateText(state) {
  return t(`complaint.state.${state}`);
}

/** The complaint form under a recalled hand (the facts filled from its record). */
export function complaintForm(rec, onFiled = () => {}) {
  const at = rec.closed_at || rec.opened_at;
  const facts = h("dl", { class: "kv kv-compact" },
    h("dt", {}, t("record.time")), h("dd", {}, when(at)),
    h("dt", {}, t("record.table")), h("dd", {}, rec.table),
    h("dt", {}, t("record.dealer")), h("dd", {}, rec.dealer || "—"),
    h("dt", {}, t("record.game")), h("dd", {}, rec.game));
  if (Date.now() / 1000 - at > WINDOW_SECONDS) {
    return h("section", { class: "complaint-form", "data-testid": "complaint-form" },
      h("h4", {}, t("complaint.heading")), facts,
      h("p", { class: "hint", "data-testid": "complaint-too-late" }, t("complaint.too_late")));
  }
  const text = h("textarea", { name: "text", required: true, maxlength: 2000, rows: 3, "data-testid": "complaint-text" });
  const out = h("p", { role: "status", "aria-live": "polite" });
  const form = h("form", { class: "complaint-form", "data-testid": "complaint-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api.fileComplaint(rec.game, text.value);
      fill(out, t("complaint.sent"));
      text.value = "";
      onFiled();
    } catch (err) {
      fill(out, h("span", { class: "error", role: "alert" }, errorText(err)));
    }
  } },
    h("h4", {}, t("complaint.heading")),
    h("p", { class: "hint" }, t("complaint.facts")),
    facts,
    field(t("complaint.text"), text),
    h("button", { type: "submit", class: "btn" }, t("complaint.send")),
    out);
  return form;
}

/** The player's complaints and their outcomes. */
export function myComplaints() {
  const box = h("div", { class: "my-complaints", "data-testid": "my-complaints" });
  const load = async () => {
    try {
      const { complaints } = await api.myComplaints();
      fill(box, complaints.length
        ? h("table", { class: "data" },
            h("thead", {}, h("tr", {}, ["record.game", "complaint.filed", "complaint.text", "complaint.outcome"].map((k) => h("th", { scope: "col" }, t(k))))),
            h("tbody", {}, complaints.map((c) => h("tr", { "data-complaint": c.id, "data-state": c.state },
              h("td", {}, c.game), h("td", {}, when(c.filed_at)), h("td", {}, c.text),
              h("td", {}, stateText(c.state) + (c.resolution ? ` — ${c.resolution}` : ""))))))
        : h("p", { class: "hint" }, t("complaint.none")));
    } catch (err) {
      fill(box, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  const element = h("section", { class: "panel", "aria-label": t("complaint.mine") }, h("h2", {}, t("complaint.mine")), box);
  return { element, reload: load };
}

function resolveForm(c, done) {
  const action = h("select", { name: "action", "data-testid": "complaint-action" },
    ["correct", "void", "reject"].map((a) => h("option", { value: a }, t(`complaint.action.${a}`))));
  const pCards = h("input", { type: "text", placeholder: "9S KD", "data-testid": "complaint-player" });
  const bCards = h("input", { type: "text", placeholder: "7H 8C", "data-testid": "complaint-banker" });
  const reason = h("input", { type: "text", required: true, "data-testid": "complaint-reason" });
  const cardsBox = h("div", { class: "row" }, field(t("side.player"), pCards), field(t("side.banker"), bCards));
  action.addEventListener("change", () => { cardsBox.hidden = action.value !== "correct"; });
  const split = (text) => text.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
  return h("form", { class: "form-grid", onsubmit: async (e) => {
    e.preventDefault();
    const body = { action: action.value, reason: reason.value };
    if (action.value === "correct") Object.assign(body, { player: split(pCards.value), banker: split(bCards.value) });
    try {
      await api.resolveComplaint(c.id, body);
      toast(t("complaint.resolved", { id: c.id }), "ok");
      done();
    } catch (err) {
      toast(errorText(err), "error");
    }
  } }, field(t("complaint.action"), action), cardsBox, field(t("complaint.reason"), reason),
  h("button", { type: "submit", class: "btn" }, t("complaint.resolve")));
}

/** The supervisors' queue of open complaints. */
export function complaintQueue() {
  const box = h("div", { class: "complaint-queue", "data-testid": "complaint-queue" }, h("p", { class: "hint" }, t("common.loading")));
  const load = async () => {
    try {
      const { complaints } = await api.complaints();
      if (!complaints.length) return fill(box, h("p", { class: "hint" }, t("complaint.queue_empty")));
      return fill(box, complaints.map((c) => {
        const hand = h("div", { class: "complaint-hand" });
        return h("article", { class: "panel complaint", "data-complaint": c.id, "data-game": c.game },
          h("h3", {}, `${c.game} — ${c.player}`),
          h("p", {}, labelValue(t("complaint.filed"), when(c.filed_at))),
          h("blockquote", {}, c.text),
          h("button", { type: "button", class: "btn btn-ghost", onclick: async () => {
            try { fill(hand, handRecordView(await api.hand(c.game))); } catch (err) { fill(hand, h("p", { class: "error" }, errorText(err))); }
          } }, t("complaint.open_hand")),
          hand,
          resolveForm(c, load));
      }));
    } catch (err) {
      return fill(box, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  return h("div", {}, h("button", { type: "button", class: "btn btn-ghost", onclick: load }, t("common.refresh")), box);
}
