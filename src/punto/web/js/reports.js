// Daily reports (supervisors and administrators): turnover, payouts and observed RTP per
// table and UTC day, from the ledger.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, money } from "./format.js";

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
      const cols = ["date", "table", "hands", "void_hands", "bets", "turnover", "payouts", "house_result", "observed_rtp"];
      fill(out, h("table", { class: "data", "data-testid": "report" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, t(`report.${c}`))))),
        h("tbody", {}, days.map((d) => h("tr", {}, cols.map((c) => {
          const v = d[c];
          const shown = ["turnover", "payouts", "house_result"].includes(c) ? money(v) : c === "observed_rtp" ? (v === null ? "—" : `${(Number(v) * 100).toFixed(3)}%`) : String(v);
          return h("td", {}, shown);
        }))))));
    } catch (err) {
      fill(out, h("p", { class: "error", role: "alert" }, errorText(err)));
    }
  };
  load();
  return h("section", { class: "panel", "aria-label": t("report.title") },
    h("h2", {}, t("report.title")),
    h("form", { class: "row", onsubmit: load },
      h("label", { class: "field field-inline" }, h("span", {}, t("report.date")), date),
      h("label", { class: "field field-inline" }, h("span", {}, t("report.table")), table),
      h("button", { type: "submit", class: "btn" }, t("report.load"))),
    out);
}
