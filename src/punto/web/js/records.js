// Records [L]: the player's bet records (GET /api/me/bets) and a hand's full record by
// game number (GET /api/hands/{game}), with its cards, bets, results, faults and ledger.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { has, labelValue, t } from "./i18n.js";
import { betName, errorText, money, signed, tableName, when } from "./format.js";
import { cardElement } from "./cards.js";
import { lightningStrip } from "./lightning.js";
import { faultName, outcomeText, reasonText } from "./eventtext.js";
import { recallPanel } from "./recall.js";
import { current } from "./session.js";
import { myComplaints } from "./complaints.js";
import { clipPanel } from "./clip.js";

const DIGITS = 2;

function betsText(bets) {
  return Object.entries(bets || {}).map(([b, a]) => `${betName(b)} ${money(a, DIGITS)}`).join(", ") || "—";
}

function cardsRow(cards) {
  return h("span", { class: "cards-inline" }, (cards || []).map(([pos, code]) => cardElement(code, { position: pos, small: true })));
}

function statusText(status) {
  return has(`record.status.${status}`) ? t(`record.status.${status}`) : status;
}

/** One hand's record as a definition list. */
export function handRecordView(rec) {
  const rows = [
    [t("record.game"), rec.game],
    [t("record.table"), rec.table_name ? `${tableName({ id: rec.table, name: rec.table_name, names: rec.table_names })} (${rec.table})` : rec.table],
    [t("record.dealer"), rec.dealer],
    [t("record.opened"), when(rec.opened_at)],
    [t("record.closed"), when(rec.closed_at)],
    [t("record.cards"), cardsRow(rec.cards)],
    [t("record.outcome"), rec.outcome ? outcomeText(rec.outcome) : "—"],
    [t("record.status"), statusText(rec.void ? "void" : rec.status || "settled") + (rec.void_reason ? ` — ${reasonText(rec.void_reason, rec.void_reason_params)}` : "") + (rec.blank ? ` (${t("record.blank")})` : "")],
  ];
  if (rec.faults && rec.faults.length) rows.push([t("record.faults"), rec.faults.map(faultName).join("; ")]);
  // [LB] the hand's lightning cards, and the fee a player paid (their own record)
  if (rec.lightning && rec.lightning.length) rows.push([t("lightning.title"), lightningStrip(rec.lightning, { small: true })]);
  if (rec.fee) rows.push([t("lightning.fee_label"), money(rec.fee, DIGITS)]);
  const bets = Object.entries(rec.bets || {});
  const results = rec.results || {};
  return h(
    "article",
    { class: "hand-record", "aria-label": t("record.hand_title", { game: rec.game }), "data-game": rec.game },
    h("h3", {}, t("record.hand_title", { game: rec.game })),
    h("dl", { class: "kv" }, rows.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    clipPanel(rec),
    bets.length
      ? h(
          "table",
          { class: "data" },
          h("caption", {}, t("record.bets")),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("record.player")), h("th", { scope: "col" }, t("record.bets")), h("th", { scope: "col" }, t("record.net")), h("th", { scope: "col" }, t("record.correction")))),
          h("tbody", {}, bets.map(([player, b]) => {
            const r = results[player];
            return h("tr", {}, h("td", {}, player), h("td", {}, betsText(b)), h("td", {}, r ? signed(r.settlement.total_net, DIGITS) : "—"), h("td", {}, money((rec.corrections || {})[player] || 0, DIGITS)));
          })),
        )
      : h("p", { class: "hint" }, t("record.no_bets")),
    rec.ledger && rec.ledger.length
      ? h("table", { class: "data" }, h("caption", {}, t("record.ledger")),
          h("thead", {}, h("tr", {}, ["record.kind", "record.player", "record.amount", "record.author", "record.reason"].map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", {}, rec.ledger.map((tx) => h("tr", {}, h("td", {}, has(`tx.${tx.kind}`) ? t(`tx.${tx.kind}`) : tx.kind), h("td", {}, tx.player || "—"), h("td", {}, signed(tx.amount, DIGITS)), h("td", {}, tx.author || "—"), h("td", {}, reasonText(tx.reason))))))
      : null,
    rec.amendments && rec.amendments.length
      ? h("ul", { class: "amendments", "aria-label": t("record.amendments") }, rec.amendments.map((a) => h("li", {}, `${t(`amend.${a.kind}`)} — ${labelValue(a.author, reasonText(a.reason))} (${when(a.at)})`)))
      : null,
  );
}

/** The hand lookup: a game number field and the record it finds. */
export function handLookup(initial = "", { onRecord = null } = {}) {
  const out = h("div", { class: "hand-lookup-result", "aria-live": "polite" });
  const input = h("input", { type: "text", name: "game", value: initial, placeholder: "macau-1-001-017", required: true, class: "game-input", "data-testid": "game-input" });
  let shown = null;
  const show = async (game) => {
    shown = game.trim();
    fill(out, h("p", { class: "hint" }, t("common.loading")));
    try {
      const record = await api.hand(game.trim());
      fill(out, handRecordView(record));
      if (onRecord) onRecord(record);
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  const form = h(
    "form",
    { class: "hand-lookup", onsubmit: (e) => { e.preventDefault(); show(input.value); } },
    h("label", { class: "field field-inline" }, h("span", {}, t("record.lookup")), input),
    h("button", { type: "submit", class: "btn" }, t("record.find")),
  );
  if (initial) show(initial);
  // a correction or a void of the hand shown: show it again (one truth per hand)
  const refresh = (game) => { if (shown && shown === game) show(game); };
  return { element: h("section", { class: "panel", "aria-label": t("record.lookup") }, h("h2", {}, t("record.lookup")), form, out), show, refresh };
}

const COLUMNS = ["record.game", "record.time", "record.bets", "record.outcome", "record.net", "record.status"];

/** The player's bet records, newest first; a game number opens the hand's record, and
 * with ``onRecall`` a button recalls the hand as it was shown (GLI-19). */
export function betRecords(onOpen, onRecall = null) {
  const box = h("div", { class: "bet-records" }, h("p", { class: "hint" }, t("common.loading")));
  const load = async () => {
    try {
      const { records } = await api.myBets(50);
      if (!records.length) {
        fill(box, h("p", { class: "hint" }, t("record.none")));
        return;
      }
      // each cell names its column: on a phone a record is a card of labelled lines
      const [game, time, bets, outcome, netLabel, statusLabel] = COLUMNS.map((k) => t(k));
      fill(
        box,
        h("table", { class: "data", "data-testid": "bet-records" },
          h("caption", {}, t("record.my_bets")),
          h("thead", {}, h("tr", {}, COLUMNS.map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", {}, records.map((r) => {
            // the server's net is the corrected one (after every correction and void)
            const net = r.net === undefined || r.net === null ? null : r.net;
            const status = r.void ? t("record.status.void") : r.amended || r.correction ? t("record.corrected") : t("record.status.settled");
            return h("tr", { "data-game": r.game, "data-net": net === null ? "" : String(net) },
              h("td", { "data-label": game }, h("button", { type: "button", class: "link", onclick: () => onOpen(r.game) }, r.game),
                onRecall ? [" ", h("button", { type: "button", class: "btn btn-ghost btn-small", "data-recall": r.game, onclick: () => onRecall(r.game) }, t("recall.open"))] : null),
              h("td", { "data-label": time }, when(r.closed_at || r.opened_at)),
              h("td", { "data-label": bets }, betsText(Object.values(r.bets || {})[0]), r.fee ? h("span", { class: "bet-fee-inline" }, ` · ${t("lightning.fee", { amount: money(r.fee, DIGITS) })}`) : null),
              h("td", { "data-label": outcome }, r.outcome ? outcomeText(r.outcome) : "—"),
              h("td", { "data-label": netLabel, class: net > 0 ? "pos" : net < 0 ? "neg" : "" }, net === null ? (r.void ? money(0, DIGITS) : "—") : signed(net, DIGITS)),
              h("td", { "data-label": statusLabel }, status));
          }))),
      );
    } catch (err) {
      fill(box, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  return { element: box, reload: load };
}

/** The records screen (#/records). */
export function mount(root) {
  const lookup = handLookup();
  const complaints = myComplaints();
  const recall = recallPanel(() => current()?.user_id ?? null, () => complaints.reload());
  const records = betRecords((game) => {
    lookup.element.querySelector("input").value = game;
    lookup.show(game);
    lookup.element.scrollIntoView({ behavior: "smooth" });
  }, (game) => {
    recall.show(game);
    recall.element.scrollIntoView({ behavior: "smooth" });
  });
  fill(
    root,
    h("div", { class: "page" },
      h("h1", {}, t("record.title")),
      h("section", { class: "panel" }, h("div", { class: "row row-between" }, h("h2", {}, t("record.my_bets")), h("button", { type: "button", class: "btn btn-ghost", onclick: () => records.reload() }, t("common.refresh"))), records.element),
      recall.element,
      complaints.element,
      lookup.element),
  );
  return { unmount() {} };
}
