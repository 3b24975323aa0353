// Supervision (#/supervisor, role supervisor): faults at any table, pause / resume /
// close, corrections and voids of settled hands, amendments, reports.
import { api } from "./api.js";
import { h, fill, toast, field } from "./dom.js";
import { labelValue, lang, t } from "./i18n.js";
import { errorText, money, phaseName, tableName, when } from "./format.js";
import { parseCard } from "./cards.js";
import { tabs } from "./tabs.js";
import { monitoring, reports } from "./reports.js";
import { handLookup } from "./records.js";
import { faultName } from "./eventtext.js";
import { complaintQueue } from "./complaints.js";
import { chatPanel } from "./chat.js";
import { TableSocket } from "./socket.js";
import { current } from "./session.js";

function fail(err) {
  toast(errorText(err), "error");
}

function cards(text) {
  const list = text.split(/[\s,]+/).filter(Boolean).map(parseCard);
  return list.some((c) => !c) ? null : list;
}

function tablesTab() {
  const select = h("select", { "aria-label": t("super.table"), "data-testid": "super-table" });
  const status = h("p", { class: "hint", "aria-live": "polite" });
  const reason = h("input", { type: "text", placeholder: t("dealer.reason"), "aria-label": t("dealer.reason") });
  let tables = [];
  const show = () => {
    const tb = tables.find((x) => x.id === select.value);
    fill(status, tb ? `${tableName(tb)} · ${phaseName(tb.phase)} · ${tb.game || "—"} · ${t("lobby.players_value", { seated: tb.seated, seats: tb.seats, watching: tb.watching })}` : "");
  };
  select.addEventListener("change", show);
  const load = () => api.lobby().then((data) => {
    tables = data.tables;
    const keep = select.value;
    fill(select, tables.map((tb) => h("option", { value: tb.id, selected: tb.id === keep }, `${tableName(tb)} (${tb.id})`)));
    show();
  }).catch(fail);
  load();
  const run = async (fn, done) => {
    try {
      await fn();
      toast(done, "ok");
      load();
    } catch (err) {
      fail(err);
    }
  };
  const faultSelect = h("select", { "aria-label": t("fault.which") });
  const effect = h("p", { class: "hint" });
  let faults = [];
  api.faults().then((data) => {
    faults = data.faults.filter((f) => f.fault !== "o_settlement_error");
    fill(faultSelect, faults.map((f) => h("option", { value: f.fault }, `${f.rule} ${faultName(f.fault)}`)));
    faultSelect.dispatchEvent(new Event("change"));
  }).catch(fail);
  faultSelect.addEventListener("change", () => {
    const f = faults.find((x) => x.fault === faultSelect.value);
    fill(effect, f ? labelValue(t("fault.effect"), `${t(`effect.${f.effect}`)}${lang() === "en" ? ` — ${f.effect_text}` : ""}`) : "");
  });
  const detail = h("input", { type: "text", placeholder: t("fault.detail"), "aria-label": t("fault.detail") });
  const player = h("input", { type: "text", placeholder: t("fault.player"), "aria-label": t("fault.player") });
  const faultCards = h("input", { type: "text", placeholder: t("fault.cards"), "aria-label": t("fault.cards") });
  return h("div", {},
    h("div", { class: "row" }, select, h("button", { type: "button", class: "btn btn-ghost", onclick: load }, t("common.refresh"))),
    status,
    h("fieldset", { class: "control-group" }, h("legend", {}, t("dealer.table")),
      h("div", { class: "row" }, reason,
        h("button", { type: "button", class: "btn", onclick: () => run(() => api.pause(select.value, reason.value), t("super.paused")) }, t("dealer.pause")),
        h("button", { type: "button", class: "btn", onclick: () => run(() => api.resume(select.value), t("super.resumed")) }, t("dealer.resume")),
        h("button", { type: "button", class: "btn btn-danger", onclick: () => window.confirm(t("dealer.sure_close")) && run(() => api.closeTable(select.value, reason.value), t("super.closed")) }, t("dealer.close_table")))),
    h("fieldset", { class: "control-group" }, h("legend", {}, t("fault.title")),
      faultSelect, effect,
      h("div", { class: "row" }, detail, player, faultCards),
      h("button", { type: "button", class: "btn btn-danger", onclick: () => {
        const list = cards(faultCards.value);
        if (!list) return toast(t("dealer.bad_cards"), "error");
        const body = { fault: faultSelect.value, detail: detail.value, cards: list };
        if (player.value.trim()) body.player = player.value.trim();
        if (!window.confirm(t("fault.sure", { fault: faultName(faultSelect.value) }))) return null;
        return run(() => api.reportFault(select.value, body), t("fault.reported"));
      } }, t("fault.report"))));
}

function handsTab() {
  const pCards = h("input", { type: "text", placeholder: "9S KD", required: true, "data-testid": "correct-player" });
  const bCards = h("input", { type: "text", placeholder: "7H 8C", required: true, "data-testid": "correct-banker" });
  // the correction starts from the cards the record holds: the supervisor changes only the wrong one
  const lookup = handLookup("", { onRecord: (record) => {
    const o = record.outcome;
    pCards.value = o ? o.player.join(" ") : "";
    bCards.value = o ? o.banker.join(" ") : "";
  } });
  const game = () => lookup.element.querySelector("input").value.trim();
  const cReason = h("input", { type: "text", required: true });
  const vReason = h("input", { type: "text", required: true });
  const out = h("p", { role: "status", "aria-live": "polite" });
  const moved = (res) => Object.entries(res.corrections || {}).map(([p, a]) => `${p} ${money(a)}`).join(", ") || "—";
  const correct = h("form", { class: "form-grid", onsubmit: async (e) => {
    e.preventDefault();
    const player = cards(pCards.value);
    const banker = cards(bCards.value);
    if (!player || !banker) return toast(t("dealer.bad_cards"), "error");
    try {
      const res = await api.correct(game(), { player, banker, reason: cReason.value, correction_id: `c-${game()}-${Date.now()}` });
      fill(out, t("super.corrected", { game: res.game, moved: moved(res) }));
      lookup.show(game());
    } catch (err) {
      fail(err);
    }
    return null;
  } },
    h("h3", {}, t("super.correct")),
    h("p", { class: "hint" }, t("super.correct_hint")),
    field(t("side.player"), pCards), field(t("side.banker"), bCards), field(t("super.reason"), cReason),
    h("button", { type: "submit", class: "btn" }, t("super.correct_do")));
  const voidForm = h("form", { class: "form-grid", onsubmit: async (e) => {
    e.preventDefault();
    if (!window.confirm(t("super.sure_void", { game: game() }))) return;
    try {
      const res = await api.voidHand(game(), vReason.value);
      fill(out, t("super.voided", { game: res.game, moved: moved(res) }));
      lookup.show(game());
    } catch (err) {
      fail(err);
    }
  } },
    h("h3", {}, t("super.void")),
    field(t("super.reason"), vReason),
    h("button", { type: "submit", class: "btn btn-danger" }, t("super.void_do")));
  return h("div", {}, lookup.element, h("section", { class: "panel" }, correct, voidForm, out));
}

/** Corrections and voids, newest first (supervisors and administrators). */
export function amendmentList() {
  const box = h("div", {}, h("p", { class: "hint" }, t("common.loading")));
  api.amendments().then(({ amendments }) => fill(box, amendments.length
    ? h("table", { class: "data" },
        h("thead", {}, h("tr", {}, ["record.game", "record.kind", "record.author", "record.reason", "record.time", "record.correction"].map((k) => h("th", { scope: "col" }, t(k))))),
        h("tbody", {}, amendments.map((a) => h("tr", {}, h("td", {}, a.game), h("td", {}, t(`amend.${a.kind}`)), h("td", {}, a.author), h("td", {}, a.reason), h("td", {}, when(a.at)),
          h("td", {}, Object.entries(a.corrections || {}).map(([p, v]) => `${p} ${money(v)}`).join(", "))))))
    : h("p", { class: "hint" }, t("super.no_amendments"))))
    .catch((err) => fill(box, h("p", { class: "error" }, errorText(err))));
  return box;
}

// A table's chat, live (with Mute / Unmute beside each player's line), and the chat kept
// in the record of one of its hands.
function chatTab(sockets) {
  const select = h("select", { "aria-label": t("super.table"), "data-testid": "super-chat-table" });
  const live = h("div", { class: "super-chat" });
  const game = h("input", { type: "text", placeholder: "macau-1-001-007", "aria-label": t("super.chat_hand"), "data-testid": "super-chat-game" });
  const kept = h("div", {});
  let socket = null;
  const open = () => {
    if (socket) socket.close();
    sockets.delete(socket);
    const id = select.value;
    if (!id) return;
    let panel = null;
    socket = new TableSocket(id, { onMessage: (msg) => panel && panel.receive(msg) });
    sockets.add(socket);
    const who = current();
    panel = chatPanel({ tableId: id, send: (type, fields) => socket.send(type, fields), canMute: true, me: who && who.user_id });
    fill(live, panel.element);
    socket.connect();
  };
  select.addEventListener("change", open);
  api.lobby().then((data) => {
    fill(select, data.tables.map((tb) => h("option", { value: tb.id }, `${tableName(tb)} (${tb.id})`)));
    open();
  }).catch(fail);
  const read = async (e) => {
    e.preventDefault();
    try {
      const data = await api.tableChat(select.value, game.value.trim() || undefined);
      fill(kept, data.messages.length
        ? h("ol", { class: "chat-log", "data-testid": "super-chat-kept" }, data.messages.map((m) =>
            h("li", { class: "chat-line" }, h("span", { class: "chat-meta" }, h("b", { class: "chat-name" }, m.name || m.from), h("time", { class: "chat-time" }, when(m.at))),
              h("span", { class: "chat-text" }, m.text))))
        : h("p", { class: "hint" }, t("chat.empty")));
    } catch (err) {
      fail(err);
    }
  };
  return h("div", {},
    field(t("super.table"), select),
    live,
    h("form", { class: "row", onsubmit: read }, field(t("super.chat_hand"), game),
      h("button", { type: "submit", class: "btn btn-small" }, t("super.chat_read"))),
    kept);
}

export function mount(root) {
  const sockets = new Set();
  fill(root, h("div", { class: "page" },
    h("h1", {}, t("super.title")),
    tabs([
      { id: "s-tables", label: t("super.tables"), render: tablesTab },
      { id: "s-hands", label: t("super.hands"), render: handsTab },
      { id: "s-amendments", label: t("super.amendments"), render: amendmentList },
      { id: "s-reports", label: t("report.tab"), render: reports },
      { id: "s-alarms", label: t("alarm.title"), render: monitoring },
      { id: "s-complaints", label: t("complaint.queue"), render: complaintQueue },
      { id: "s-chat", label: t("chat.title"), render: () => chatTab(sockets) },
    ], { label: t("super.title") })));
  return {
    unmount() {
      for (const socket of sockets) if (socket) socket.close();
    },
  };
}
