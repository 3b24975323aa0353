// The dealer console (#/dealer, #/dealer/{id}): a live table's coup entered or scanned
// card by card from the keyboard, with the table's guidance of where the next card goes
// and its buttons enabled from what the table allows now (`legal`); shoes,
// burns, betting, dealer change, every fault, pause / resume / close.
import { api } from "./api.js";
import { h, fill, announce, toast } from "./dom.js";
import { labelValue, lang, listOf, t } from "./i18n.js";
import { betName, errorText, handPhaseName, money, phaseName, presetName, tableName } from "./format.js";
import { cardElement, handTotal, parseCard } from "./cards.js";
import { TableSocket } from "./socket.js";
import { allowed, applyMessage, fromSnapshot, tableTotals } from "./tablestate.js";
import { describeEvent, faultName, reasonText } from "./eventtext.js";
import { swap } from "./table.js";
import { roadBoard } from "./roads.js";
import { chatPanel, chatStore } from "./chat.js";
import { current, role } from "./session.js";

const ROSTER = ["Dana", "Lin", "Mei", "Kai", "Rosa"];
/** A table picker when no table is chosen. */
function picker(root) {
  const list = h("div", { class: "lobby-grid" }, h("p", { class: "hint" }, t("common.loading")));
  fill(root, h("div", { class: "page" }, h("h1", {}, t("dealer.title")), h("p", {}, t("dealer.pick")), list));
  api.lobby().then(({ tables }) => {
    const sorted = [...tables].sort((a, b) => (a.dealing === "live" ? 0 : 1) - (b.dealing === "live" ? 0 : 1));
    fill(list, sorted.map((tb) =>
      h("article", { class: "table-card" },
        h("h2", {}, tableName(tb)),
        h("p", {}, `${t(`dealing.${tb.dealing}`)} · ${presetName(tb.rules)} · ${phaseName(tb.phase)}`),
        h("a", { class: "btn btn-block", href: `#/dealer/${tb.id}`, "data-testid": `deal-${tb.id}` }, t(tb.dealing === "live" ? "lobby.deal" : "dealer.supervise")))));
  }).catch((err) => fill(list, h("p", { class: "error", role: "alert" }, errorText(err))));
  return { unmount() {} };
}

export function mount(root, { id }) {
  if (!id) return picker(root);
  let state = null;
  let status = "connecting";
  let faults = [];
  let frame = 0;
  const memo = new Map();
  const chatLines = chatStore();
  let chat = null;

  const socket = new TableSocket(id, {
    onMessage: (msg) => {
      if (chat && chat.receive(msg)) return;
      if (msg.type === "snapshot") {
        state = fromSnapshot(msg);
        memo.clear();
      } else if (msg.type === "error") {
        toast(errorText({ code: msg.error, message: msg.message, params: msg.params }, state ? state.table.currency_digits : 2), "error");
      } else if (state) {
        const effect = applyMessage(state, msg);
        if (effect.resync) socket.send("resync").catch(() => {});
        if (msg.type === "event" && msg.event.kind === "hand_result") announce(describeEvent(msg.event));
      }
      schedule();
    },
    onStatus: (s) => {
      status = s;
      schedule();
    },
  });

  async function act(type, fields = {}) {
    try {
      await socket.send(type, fields);
      return true;
    } catch (err) {
      toast(errorText(err, state ? state.table.currency_digits : 2), "error");
      return false;
    }
  }

  function schedule() {
    if (frame) return;
    frame = window.requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  }

  let el = null;
  let skeleton = null;
  let cardInput = null;
  let positionSelect = null;
  let rescan = null;
  let entryError = null;

  // The table's guidance [M7], [M9] (docs/protocol.md, `legal`): no rule is restated here.
  function guide() {
    const phase = state.phase;
    const g = state.legal.guidance;
    if (phase === "result") return { next: null, text: t("guide.settle") };
    // a card not scanned [L] (by the shoe's reader or reported here): the table waits for it
    if ((state.legal.actions || []).includes("rescan")) return { next: g && g.next, text: t("guide.rescan", { position: (g && g.next) || "" }), rescan: true };
    if (!g) return { next: null, text: t(`guide.phase.${phase}`) };
    if (g.reason === "held") return { next: null, text: t("guide.held", { players: listOf(Object.values(state.holders || {})) }) };
    if (g.next) return { next: g.next, text: t(`guide.${g.reason}`, { position: g.next, label: t(`pos.${g.next}`) }) };
    return { next: null, text: t(`guide.${g.reason}`) };
  }

  function deal(e) {
    e.preventDefault();
    const code = parseCard(cardInput.value);
    if (!code) {
      fill(entryError, t("dealer.bad_card", { text: cardInput.value }));
      cardInput.setAttribute("aria-invalid", "true");
      return;
    }
    cardInput.removeAttribute("aria-invalid");
    fill(entryError);
    const fields = { card: code };
    if (positionSelect.value) fields.position = positionSelect.value;
    const type = rescan.checked ? "rescan" : "deal_card";
    act(type, fields).then((ok) => {
      if (ok) {
        cardInput.value = "";
        rescan.checked = false;
        positionSelect.value = "";
        announce(t("dealer.dealt", { card: code }));
      }
      cardInput.focus();
    });
  }

  function build() {
    cardInput = h("input", {
      type: "text", id: "card-input", class: "card-input", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
      inputmode: "text", maxlength: 3, placeholder: "9S", "aria-describedby": "card-help guide-text", "data-testid": "card-input",
    });
    positionSelect = h("select", { "aria-label": t("dealer.position"), "data-testid": "position" },
      h("option", { value: "" }, t("dealer.position_auto")), ["P1", "B1", "P2", "B2", "P3", "B3"].map((p) => h("option", { value: p }, p)));
    rescan = h("input", { type: "checkbox" });
    entryError = h("p", { class: "error", role: "alert" });
    const who = current();
    chat = chatPanel({
      tableId: id, send: (type, fields) => socket.send(type, fields), canMute: role() === "supervisor",
      me: who && who.user_id, store: chatLines,
    });
    el = {
      head: h("header", { class: "table-head" }),
      coup: h("div", { class: "coup-board" }),
      guide: h("p", { class: "guide", id: "guide-text", role: "status", "aria-live": "polite", "data-testid": "guide" }),
      controls: h("div", { class: "dealer-controls" }),
      faults: h("div", { class: "fault-area" }),
      bets: h("div", { class: "dealer-bets" }),
      roads: h("div", {}),
      log: h("ol", { class: "event-log", "aria-label": t("log.title") }),
    };
    skeleton = h("div", { class: "dealer-screen", "data-table": id },
      el.head,
      h("div", { class: "dealer-main" },
        h("div", { class: "dealer-left" },
          h("section", { class: "panel felt felt-dealer", "aria-label": t("dealer.coup") },
            h("h2", {}, t("dealer.coup")),
            el.coup,
            el.guide,
            h("form", { class: "card-entry", onsubmit: deal },
              h("label", { for: "card-input", class: "field-label" }, t("dealer.card")),
              cardInput,
              positionSelect,
              h("label", { class: "field field-check" }, rescan, h("span", {}, t("dealer.rescan"))),
              h("button", { type: "submit", class: "btn btn-confirm" }, t("dealer.deal"))),
            h("p", { class: "hint", id: "card-help" }, t("dealer.card_help")),
            entryError),
          chat.element),
        h("section", { class: "panel", "aria-label": t("dealer.controls") }, h("h2", {}, t("dealer.controls")), el.controls)),
      h("div", { class: "dealer-lower" },
        h("section", { class: "panel", "aria-label": t("fault.title") }, h("h2", {}, t("fault.title")), el.faults),
        h("section", { class: "panel", "aria-label": t("dealer.bets") }, h("h2", {}, t("dealer.bets")), el.bets),
        h("section", { class: "panel" }, h("h2", {}, t("log.title")), el.log)),
      h("section", { class: "panel" }, h("h2", {}, t("road.board")), el.roads),
    );
    memo.clear();
  }

  function section(name, container, key, buildFn) {
    if (memo.get(name) === key) return;
    memo.set(name, key);
    swap(container, buildFn());
  }

  function renderHead() {
    const s = state;
    const left = s.phase === "betting_open" && s.closesAt ? Math.max(0, Math.ceil((s.closesAt - Date.now()) / 1000)) : null;
    return [
      h("div", { class: "table-title" },
        h("a", { href: "#/dealer", class: "back", "aria-label": t("dealer.other_table") }, "←"),
        h("div", {}, h("h1", {}, labelValue(t("dealer.console"), tableName(s.table)), " ", h("small", {}, s.table.id)),
          h("p", { class: "table-sub" }, [t(`dealing.${s.table.dealing}`), presetName(s.table.rules), t("dealer.decks", { n: s.table.decks })].join(" · ")))),
      h("dl", { class: "table-info" },
        [[t("table.phase"), handPhaseName(s), "phase"], [t("table.game"), s.game || "—", "game"], [t("table.dealer"), s.dealer || "—", "dealer"],
         [t("table.shoe"), s.shoe.number ? `#${s.shoe.number} · ${t("table.hands", { n: s.shoe.hands_dealt || 0 })}${s.shoe.cut_card_out ? ` · ${t("dealer.cut_out")}` : ""}` : "—", "shoe"],
         [t("table.countdown"), left === null ? "—" : `${left}s`, "countdown"]]
          .map(([k, v, tid]) => h("div", {}, h("dt", {}, k), h("dd", { "data-testid": `info-${tid}` }, v)))),
      status !== "open" ? h("p", { class: "conn", role: "status" }, t(`conn.${status}`)) : null,
    ];
  }

  function renderCoup(next) {
    const row = (side, positions) => {
      const codes = positions.map((p) => (state.cards[p] ? state.cards[p].card : null));
      const any = codes.some(Boolean);
      return h("div", { class: ["hand", `hand-${side}`], role: "group", "aria-label": t(`side.${side}`) },
        h("div", { class: "hand-head" }, h("span", { class: "hand-name" }, t(`side.${side}`)),
          h("span", { class: "hand-total", "data-testid": `total-${side}` }, any ? String(handTotal(codes, state.table.card_values)) : "")),
        h("div", { class: "slots" }, positions.map((p) => {
          const c = state.cards[p];
          return h("div", { class: ["slot", next === p ? "slot-next" : ""], "data-position": p, "aria-current": next === p ? "step" : false },
            h("span", { class: "slot-label" }, p),
            c ? cardElement(c.card, { position: p }) : h("span", { class: "slot-empty", "aria-label": t("dealer.slot_empty", { position: p }) }),
            c && !c.face_up ? h("span", { class: "slot-flag" }, t("dealer.face_down")) : null);
        })));
    };
    return [row("player", ["P1", "P2", "P3"]), row("banker", ["B1", "B2", "B3"]),
      state.outcome ? h("p", { class: ["result", `result-${state.outcome.winner}`], "data-testid": "result" }, describeEvent({ kind: "hand_result", outcome: state.outcome })) : null,
      state.voided ? h("p", { class: "result result-void", "data-testid": "result" }, t("result.void", { reason: reasonText(state.voided, state.voidedParams) })) : null];
  }

  function renderControls() {
    const on = (type) => allowed(state, type);
    const btn = (type, label, fields = () => ({}), opts = {}) =>
      h("button", { type: "button", class: ["btn", opts.cls || ""], "data-action": type, "data-key": `d-${type}`, disabled: !on(type) || opts.disabled,
        onclick: () => {
          let body;
          try {
            body = fields();
          } catch {
            return;
          }
          if (opts.confirm && !window.confirm(opts.confirm)) return;
          act(type, body);
        } }, label);
    const burnCards = h("input", { type: "text", placeholder: "7H 2C KD …", "aria-label": t("dealer.burn_cards"), "data-key": "burn-cards" });
    const burnCount = h("input", { type: "number", min: 1, max: 20, value: 1, "aria-label": t("dealer.burn_count"), "data-key": "burn-count" });
    const startBurn = h("input", { type: "text", placeholder: "7H 2C KD QS …", "aria-label": t("dealer.start_burn"), "data-key": "start-burn" });
    const cardsLeft = h("input", { type: "number", min: 0, "aria-label": t("dealer.cards_left"), "data-key": "cards-left" });
    const dealerName = h("select", { "aria-label": t("dealer.new_dealer"), "data-key": "dealer-name" }, h("option", { value: "" }, t("dealer.next_dealer")), ROSTER.filter((n) => n !== state.dealer).map((n) => h("option", { value: n }, n)));
    const reason = h("input", { type: "text", "aria-label": t("dealer.reason"), placeholder: t("dealer.reason"), "data-key": "reason" });
    const revealSide = h("select", { "aria-label": t("dealer.reveal_side"), "data-key": "reveal-side" },
      h("option", { value: "" }, t("dealer.both_sides")), h("option", { value: "player" }, t("side.player")), h("option", { value: "banker" }, t("side.banker")));
    const codes = (text) => text.split(/[\s,]+/).filter(Boolean).map(parseCard);
    const cardsOf = (input) => {
      const list = codes(input.value);
      if (list.some((c) => !c)) throw new Error(t("dealer.bad_cards"));
      return list;
    };
    const safe = (fn) => () => {
      try {
        return fn();
      } catch (err) {
        toast(err.message, "error");
        throw err;
      }
    };
    const group = (title, ...items) => h("fieldset", { class: "control-group" }, h("legend", {}, title), items);
    return [
      group(t("dealer.shoe"),
        h("div", { class: "row" }, startBurn, btn("start_shoe", t("dealer.start_shoe"), safe(() => ({ burned: cardsOf(startBurn) })), { cls: "btn-confirm" })),
        h("div", { class: "row" }, btn("deal_demo_hand", t("dealer.demo_hand")), btn("cut_card_out", t("dealer.cut_card_out")),
          btn("change_shoe", t("dealer.change_shoe"), () => ({}), { confirm: t("dealer.sure_change_shoe") }))),
      group(t("dealer.hand"),
        h("div", { class: "row" }, btn("open_betting", t("dealer.open_betting"), () => ({}), { cls: "btn-confirm" }), btn("close_betting", t("dealer.close_betting")),
          btn("start_blank_hand", t("dealer.blank_hand"))),
        h("div", { class: "row" }, revealSide, btn("reveal_cards", t("dealer.reveal"), () => (revealSide.value ? { side: revealSide.value } : {}))),
        h("div", { class: "row" }, cardsLeft, btn("settle", t("dealer.settle"), () => (cardsLeft.value !== "" ? { cards_left: Number(cardsLeft.value) } : {})))),
      group(t("dealer.burn"),
        h("div", { class: "row" }, burnCount, burnCards, btn("burn", t("dealer.burn_do"), safe(() => ({ count: Number(burnCount.value) || 1, cards: cardsOf(burnCards) }))))),
      group(t("dealer.table"),
        h("div", { class: "row" }, dealerName, btn("change_dealer", t("dealer.change_dealer"), () => (dealerName.value ? { name: dealerName.value } : {}))),
        h("div", { class: "row" }, reason, btn("pause", t("dealer.pause"), () => ({ reason: reason.value })), btn("resume", t("dealer.resume")),
          btn("close_table", t("dealer.close_table"), () => ({ reason: reason.value || t("dealer.closed_by_dealer") }), { cls: "btn-danger", confirm: t("dealer.sure_close") }))),
    ];
  }

  function renderFaults() {
    const select = h("select", { id: "fault-select", "data-testid": "fault-select", "data-key": "fault-select" },
      faults.filter((f) => f.fault !== "o_settlement_error").map((f) =>
        h("option", { value: f.fault }, `${f.rule} ${faultName(f.fault)}${f.phases.includes(state.phase) ? "" : ` (${t("fault.not_now")})`}`)));
    const effect = h("p", { class: "hint fault-effect", "aria-live": "polite" });
    const showEffect = () => {
      const f = faults.find((x) => x.fault === select.value);
      fill(effect, f ? labelValue(t("fault.effect"), `${t(`effect.${f.effect}`)}${lang() === "en" ? ` — ${f.effect_text}` : ""}`) : "");
    };
    select.addEventListener("change", showEffect);
    showEffect();
    const detail = h("input", { type: "text", "aria-label": t("fault.detail"), placeholder: t("fault.detail") });
    const player = h("input", { type: "text", "aria-label": t("fault.player"), placeholder: t("fault.player") });
    const count = h("input", { type: "number", min: 1, max: 20, value: 1, "aria-label": t("fault.count") });
    const cards = h("input", { type: "text", "aria-label": t("fault.cards"), placeholder: t("fault.cards") });
    const position = h("select", { "aria-label": t("fault.position") }, h("option", { value: "" }, t("fault.no_position")), ["P1", "B1", "P2", "B2", "P3", "B3"].map((p) => h("option", { value: p }, p)));
    const submit = (e) => {
      e.preventDefault();
      const list = cards.value.split(/[\s,]+/).filter(Boolean).map(parseCard);
      if (list.some((c) => !c)) {
        toast(t("dealer.bad_cards"), "error");
        return;
      }
      const body = { fault: select.value, detail: detail.value, count: Number(count.value) || 1, cards: list };
      if (player.value.trim()) body.player = player.value.trim();
      if (position.value) body.position = position.value;
      if (!window.confirm(t("fault.sure", { fault: faultName(select.value) }))) return;
      act("report_fault", body).then((ok) => ok && toast(t("fault.reported"), "ok"));
    };
    return h("form", { class: "fault-form", onsubmit: submit },
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("fault.which")), select),
      effect,
      h("div", { class: "row" }, detail, player),
      h("div", { class: "row" }, count, cards, position),
      h("button", { type: "submit", class: "btn btn-danger", "data-testid": "report-fault" }, t("fault.report")));
  }

  function renderBets() {
    const digits = state.table.currency_digits;
    const players = Object.entries(state.bets);
    const totals = tableTotals(state);
    return [
      players.length
        ? h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("record.player")), h("th", { scope: "col" }, t("record.bets")))),
            h("tbody", {}, players.map(([p, b]) => h("tr", {}, h("td", {}, p), h("td", {}, Object.entries(b).map(([bet, a]) => `${betName(bet)} ${money(a, digits)}`).join(", "))))))
        : h("p", { class: "hint" }, t("dealer.no_bets")),
      Object.keys(totals).length ? h("p", {}, h("b", {}, labelValue(t("dealer.totals"), "")), Object.entries(totals).map(([bet, a]) => `${betName(bet)} ${money(a, digits)}`).join(" · ")) : null,
      h("p", { class: "hint" }, t("dealer.seated", { seated: listOf(state.seats.map((s) => `${s.seat}:${s.player}`)) || "—", watching: state.watchers.length })),
    ];
  }

  function render() {
    if (!state) {
      fill(root, h("div", { class: "page" }, h("p", { class: "hint", role: "status" }, t(`conn.${status}`))));
      return;
    }
    if (!root.contains(skeleton)) {
      fill(root, skeleton);
      cardInput.focus();
    }
    const lang = document.documentElement.lang;
    const g = guide();
    section("head", el.head, JSON.stringify([lang, state.phase, state.game, state.dealer, state.shoe, status, Math.ceil(((state.closesAt || 0) - Date.now()) / 1000)]), renderHead);
    section("coup", el.coup, JSON.stringify([lang, state.cards, state.outcome, state.voided, g.next]), () => renderCoup(g.next));
    fill(el.guide, g.text);
    el.guide.classList.toggle("guide-alert", !!g.rescan);
    if (memo.get("rescanOwed") !== !!g.rescan) {
      memo.set("rescanOwed", !!g.rescan);
      rescan.checked = !!g.rescan;
    }
    section("controls", el.controls, JSON.stringify([lang, state.dealer, state.legal.actions]), renderControls);
    section("faults", el.faults, JSON.stringify([lang, state.phase, faults.length]), renderFaults);
    section("bets", el.bets, JSON.stringify([lang, state.bets, state.seats, state.watchers]), renderBets);
    if (memo.get("roads") !== state.roads || memo.get("roadsLang") !== lang) {
      memo.set("roads", state.roads);
      memo.set("roadsLang", lang);
      fill(el.roads, roadBoard(state.roads));
    }
    section("log", el.log, JSON.stringify([lang, state.seq, state.log.length]), () =>
      state.log.slice(-40).reverse().map((ev) => h("li", { "data-kind": ev.kind }, describeEvent(ev, state.table.currency_digits))));
  }

  build();
  api.faults().then((data) => {
    faults = data.faults;
    schedule();
  }).catch((err) => toast(errorText(err), "error"));
  const timer = window.setInterval(() => state && state.phase === "betting_open" && schedule(), 500);
  socket.connect();
  render();
  return {
    unmount() {
      window.clearInterval(timer);
      if (frame) window.cancelAnimationFrame(frame);
      socket.close();
    },
    refresh() {
      build();
      render();
    },
  };
}
