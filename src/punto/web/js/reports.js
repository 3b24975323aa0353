// Reports (supervisors and administrators), from the ledger: turnover, payouts and
// observed RTP per table, currency and UTC day; bets, players, turnover, payouts and GGR
// per UTC day, operator and currency. Each row is of one currency, its amounts shown in
// it (a currency is its own book: no two are ever added).
import { api } from "./api.js";
import { h, fill, toast } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { alarmReason, betName, count, errorText, money, moneyIn, when } from "./format.js";

export function dailyReport() {
  const today = new Date().toISOString().slice(0, 10);
  const date = h("input", { type: "date", value: today, name: "date" });
  const table = h("input", { type: "text", name: "table", placeholder: t("report.all_tables") });
  const out = h("div", { "aria-live": "polite" });
  const load = async (e) => {
    if (e) e.preventDefault();
    fill(out, h("p", { class: "hint" }, t("common.loading")));
    try {
      const { days } = await api.dailyReport(date.value, table.value.trim());
      if (!days.length) {
        fill(out, h("p", { class: "hint" }, t("report.none")));
        return;
      }
      const cols = ["date", "table", "currency", "hands", "void_hands", "bets", "turnover", "payouts", "house_result", "observed_rtp", "side_bets_closed"];
      const csv = `/api/reports/daily.csv?${new URLSearchParams({ date: date.value, ...(table.value.trim() ? { table: table.value.trim() } : {}) })}`;
      fill(out, h("p", {}, h("a", { href: csv, class: "btn btn-small", download: "daily.csv", onclick: (ev) => downloadCsv(ev, csv, "daily.csv") }, t("drift.csv"))),
        reportTable("report", cols, (c) => t(`report.${c}`), days.map((d) => cols.map((c) => cell(d, c)))));
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  return h("section", { class: "panel", "aria-label": t("report.title") },
    h("h2", {}, t("report.title")),
    h("form", { class: "row report-form", onsubmit: load },
      h("label", { class: "field field-inline" }, h("span", {}, t("report.date")), date),
      h("label", { class: "field field-inline" }, h("span", {}, t("report.table")), table),
      h("button", { type: "submit", class: "btn" }, t("report.load"))),
    out);
}

const _AMOUNTS = ["turnover", "payouts", "house_result", "ggr"];
const _COUNTS = ["hands", "void_hands", "bets", "players"];

/** One cell of a report's row: amounts in the row's own currency, counts grouped. */
function cell(row, col) {
  const v = row[col];
  if (_AMOUNTS.includes(col)) return { text: moneyIn(v, row.currency, row.digits), num: true };
  if (_COUNTS.includes(col)) return { text: count(v), num: true };
  if (col === "observed_rtp") return { text: v === null ? "—" : `${(Number(v) * 100).toFixed(3)}%`, num: true };
  if (col === "operator") return { text: v === null ? t("opreport.house_players") : v };
  // [EZ-C] each side bet the shoe's edge closed: in how many of the table's hands
  if (col === "side_bets_closed") {
    const closed = Object.entries(v || {});
    if (!closed.length) return { text: "—" };
    return { text: listOf(closed.map(([bet, c]) => t("report.closed_in", { bet: betName(bet), hands: count(c.hands), of: count(row.hands), share: c.share === null ? "—" : `${(Number(c.share) * 100).toFixed(1)}%` }))) };
  }
  return { text: String(v) };
}

/** A report's table: on a phone each row is a card of labelled lines. */
function reportTable(testid, cols, label, rows) {
  return h("table", { class: "data report-rows", "data-testid": testid },
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", class: _AMOUNTS.includes(c) || _COUNTS.includes(c) || c === "observed_rtp" ? "num" : "" }, label(c))))),
    h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c, i) => h("td", { "data-label": label(cols[i]), class: c.num ? "num" : "" }, c.text))))));
}

/** Per UTC day, operator and currency (supervisors and administrators): bets, players,
 * turnover, payouts, GGR and observed RTP, from one day to another (at most 92). */
export function operatorReport() {
  const today = new Date().toISOString().slice(0, 10);
  const first = h("input", { type: "date", value: today, name: "from", "data-testid": "opreport-from" });
  const last = h("input", { type: "date", value: today, name: "to", "data-testid": "opreport-to" });
  const operator = h("input", { type: "text", name: "operator", placeholder: t("opreport.all_operators"), size: 12 });
  const out = h("div", { "aria-live": "polite" });
  const params = () => ({ from: first.value, to: last.value, operator: operator.value.trim() });
  const load = async (e) => {
    if (e) e.preventDefault();
    fill(out, h("p", { class: "hint" }, t("common.loading")));
    try {
      const { rows } = await api.operatorReport(params());
      if (!rows.length) {
        fill(out, h("p", { class: "hint" }, t("opreport.none")));
        return;
      }
      const cols = ["date", "operator", "currency", "bets", "players", "turnover", "payouts", "ggr", "observed_rtp"];
      const label = (c) => (["operator", "players", "ggr"].includes(c) ? t(`opreport.${c}`) : t(`report.${c}`));
      const asked = Object.fromEntries(Object.entries(params()).filter(([, v]) => v));
      const csv = `/api/reports/operators.csv?${new URLSearchParams(asked)}`;
      fill(out, h("p", {}, h("a", { href: csv, class: "btn btn-small", download: "operators.csv", "data-testid": "opreport-csv", onclick: (ev) => downloadCsv(ev, csv, "operators.csv") }, t("drift.csv"))),
        reportTable("opreport", cols, label, rows.map((r) => cols.map((c) => cell(r, c)))));
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  return h("section", { class: "panel", "aria-label": t("opreport.title") },
    h("h2", {}, t("opreport.title")),
    h("p", { class: "hint" }, t("opreport.hint")),
    h("form", { class: "row report-form", onsubmit: load },
      h("label", { class: "field field-inline" }, h("span", {}, t("opreport.from")), first),
      h("label", { class: "field field-inline" }, h("span", {}, t("opreport.to")), last),
      h("label", { class: "field field-inline" }, h("span", {}, t("opreport.operator")), operator),
      h("button", { type: "submit", class: "btn" }, t("report.load"))),
    out);
}

/** The reports tab: the daily report, then the operators'. */
export function reports() {
  return h("div", {}, dailyReport(), operatorReport());
}

function pct(v) {
  return v === null || v === undefined ? "—" : `${(Number(v) * 100).toFixed(3)}%`;
}

function pValue(v) {
  return v === null || v === undefined ? "—" : v < 0.0001 ? v.toExponential(1) : v.toFixed(4);
}

/** Observed against exact (supervisors and administrators): a table's shoe or UTC day,
 * each bet's observed RTP next to the exact one with its 99% band, and the outcome
 * frequency tests; exported as CSV. */
export function driftReport() {
  const today = new Date().toISOString().slice(0, 10);
  const table = h("input", { type: "text", name: "table", required: true, placeholder: "macau-1", "data-testid": "drift-table" });
  const shoe = h("input", { type: "number", name: "shoe", min: 1, placeholder: "—", class: "narrow" });
  const date = h("input", { type: "date", name: "date", value: today });
  const out = h("div", { "aria-live": "polite" });
  const params = () => (shoe.value ? { table: table.value.trim(), shoe: shoe.value } : { table: table.value.trim(), date: date.value });
  const load = async (e) => {
    if (e) e.preventDefault();
    if (!table.value.trim()) return;
    fill(out, h("p", { class: "hint" }, t("common.loading")));
    try {
      const found = await api.driftReport(params());
      const csv = `/api/reports/drift?${new URLSearchParams({ ...params(), format: "csv" })}`;
      fill(out,
        h("p", { class: found.alarm ? "error" : "hint", role: found.alarm ? "alert" : "status", "data-testid": "drift-verdict" },
          found.alarm ? t("drift.alarm") : t("drift.ok")),
        found.reports.length ? null : h("p", { class: "hint" }, t("report.none")),
        found.reports.map((r) => h("section", { class: "panel" },
          h("h4", {}, t("drift.version", { version: r.rules_version, hands: r.hands, threshold: pValue(r.threshold) })),
          r.bets.length === 0 ? h("p", { class: "hint" }, t("drift.no_wagers")) : h("table", { class: "data" },
            h("caption", {}, t("drift.bets")),
            h("thead", {}, h("tr", {}, ["drift.bet", "drift.wagers", "report.turnover", "drift.observed_rtp", "drift.exact_rtp", "drift.band", "drift.p_value"].map((k) => h("th", { scope: "col" }, t(k))))),
            h("tbody", {}, r.bets.map((b) => h("tr", { class: b.outside_band ? "edge-negative" : "" },
              h("th", { scope: "row" }, betName(b.bet)), h("td", {}, b.wagers), h("td", {}, money(b.staked)),
              h("td", {}, pct(b.observed_rtp)), h("td", {}, pct(b.exact_rtp)), h("td", {}, b.band ? `${pct(b.band[0])} – ${pct(b.band[1])}` : "—"), h("td", {}, pValue(b.p_value)))))),
          h("table", { class: "data" },
            h("caption", {}, t("drift.outcomes")),
            h("thead", {}, h("tr", {}, ["drift.outcome", "drift.count", "drift.observed", "drift.expected", "drift.test", "drift.p_value"].map((k) => h("th", { scope: "col" }, t(k))))),
            h("tbody", {}, r.outcomes.map((o) => h("tr", {},
              h("th", { scope: "row" }, t(`drift.event.${o.name}`)), h("td", {}, `${o.count} / ${o.hands}`), h("td", {}, pct(o.observed)), h("td", {}, pct(o.expected)),
              h("td", {}, t(`drift.test.${o.test}`)), h("td", {}, pValue(o.p_value)))))))),
        h("p", {}, h("a", { href: csv, download: "drift.csv", class: "btn btn-small", "data-testid": "drift-csv", onclick: (ev) => downloadCsv(ev, csv, "drift.csv") }, t("drift.csv"))));
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  return h("section", { class: "panel", "aria-label": t("drift.title") },
    h("h2", {}, t("drift.title")),
    h("p", { class: "hint" }, t("drift.hint")),
    h("form", { class: "row report-form", onsubmit: load },
      h("label", { class: "field field-inline" }, h("span", {}, t("report.table")), table),
      h("label", { class: "field field-inline" }, h("span", {}, t("drift.shoe")), shoe),
      h("label", { class: "field field-inline" }, h("span", {}, t("report.date")), date),
      h("button", { type: "submit", class: "btn" }, t("report.load"))),
    out);
}

/** The reports need the session token: fetch the CSV and save it as a file. */
async function downloadCsv(ev, url, name) {
  ev.preventDefault();
  try {
    const text = await api.csv(url);
    const link = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: name });
    link.click();
    URL.revokeObjectURL(link.href);
  } catch (err) {
    toast(errorText(err), "error");
  }
}

/** Drift and shoe-audit alarms, newest first. */
export function alarmList() {
  const box = h("div", { "data-testid": "alarms" }, h("p", { class: "hint" }, t("common.loading")));
  const load = () => api.alarms().then(({ alarms }) => fill(box, alarms.length
    ? h("table", { class: "data" },
        h("thead", {}, h("tr", {}, ["report.table", "drift.shoe", "record.kind", "record.time", "drift.detail"].map((k) => h("th", { scope: "col" }, t(k))))),
        h("tbody", {}, alarms.map((a) => h("tr", { class: "edge-negative" },
          h("td", {}, a.table), h("td", {}, a.shoe ?? "—"), h("td", {}, t(`alarm.${a.kind}`)), h("td", {}, when(a.at)),
          h("td", {}, a.kind === "drift" ? t("alarm.drift_detail", { scope: t(`alarm.scope.${a.detail.scope}`), reasons: listOf(a.detail.reasons.map(alarmReason)) }) : t("alarm.audit_detail"))))))
    : h("p", { class: "hint" }, t("alarm.none"))))
    .catch((err) => fill(box, h("p", { class: "error" }, errorText(err))));
  load();
  return h("section", { class: "panel", "aria-label": t("alarm.title") },
    h("h2", {}, t("alarm.title")),
    h("button", { type: "button", class: "btn btn-small", onclick: load }, t("common.refresh")),
    box);
}

/** Alarms, then the drift report. */
export function monitoring() {
  return h("div", {}, alarmList(), driftReport());
}
