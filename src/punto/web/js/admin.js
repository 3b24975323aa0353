// Administration (#/admin, role admin): tables (create, limits, betting time, close and
// reopen), presets, users (dealers, supervisors, players), deposits and withdrawals,
// operators and jurisdiction profiles, daily reports.
import { api } from "./api.js";
import { h, fill, toast, field, formValues } from "./dom.js";
import { LANGUAGE_INFO, has, listOf, t } from "./i18n.js";
import { betName, errorText, money, parseMoney, presetAbout, presetName, tableName } from "./format.js";
import { tabs } from "./tabs.js";
import { monitoring, reports } from "./reports.js";
import { amendmentList } from "./supervisor.js";
import { rulesEditor, rulesErrorText } from "./ruleseditor.js";
import { operatorsTab } from "./operatorsadmin.js";
import { jurisdictionsTab } from "./jurisdictionsadmin.js";

const DIGITS = 2;

function fail(err) {
  toast(errorText(err), "error");
}

function limitsEditor(tableId, onSaved) {
  const box = h("div", { class: "limits-editor" }, h("p", { class: "hint" }, t("common.loading")));
  api.table(tableId).then((desc) => {
    const tiers = desc.limits.map((tier) => ({ ...tier }));
    const cols = ["min_bet", "max_bet", "side_min", "side_max"];
    const inputs = tiers.map((tier) => Object.fromEntries(cols.map((c) => [c, h("input", { type: "text", inputmode: "decimal", value: money(tier[c], DIGITS).replace(/,/g, ""), "aria-label": `${t(`tier.${tier.name}`)} ${t(`admin.${c}`)}`, size: 9 })])));
    const save = async () => {
      const body = [];
      for (const [i, tier] of tiers.entries()) {
        const next = { name: tier.name, bet_limits: tier.bet_limits };
        for (const c of cols) {
          const v = parseMoney(inputs[i][c].value, DIGITS);
          if (v === null || v <= 0) {
            toast(t("admin.bad_amount", { value: inputs[i][c].value }), "error");
            return;
          }
          next[c] = v;
        }
        body.push(next);
      }
      try {
        await api.updateTable(tableId, { limits: body });
        toast(t("admin.limits_saved"), "ok");
        onSaved();
      } catch (err) {
        fail(err);
      }
    };
    fill(box,
      h("table", { class: "data" },
        h("caption", {}, t("admin.limits_of", { table: tableId })),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("admin.tier")), cols.map((c) => h("th", { scope: "col" }, t(`admin.${c}`))))),
        h("tbody", {}, tiers.map((tier, i) => h("tr", {}, h("th", { scope: "row" }, t(`tier.${tier.name}`)), cols.map((c) => h("td", {}, inputs[i][c])))))),
      h("p", { class: "hint" }, t("admin.limits_hint")),
      h("button", { type: "button", class: "btn btn-confirm", onclick: save }, t("admin.save_limits")));
  }).catch((err) => fill(box, h("p", { class: "error" }, errorText(err))));
  return box;
}

/** Send rules (create a table or change one); a bet favouring the player is asked about
 * once and sent again with the explicit confirmation. */
function videoEditor(tb, onSaved) {
  const video = tb.video || {};
  const whep = h("input", { type: "url", name: "whep_url", value: video.whep_url || "", placeholder: "https://media.example/table/whep", size: 48, "data-testid": "whep-url" });
  const hls = h("input", { type: "url", name: "hls_url", value: video.hls_url || "", placeholder: "https://media.example/table/live.m3u8", size: 48, "data-testid": "stream-url" });
  return h("form", { class: "panel", "data-testid": `video-${tb.id}`, onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api.updateTable(tb.id, { video: { whep_url: whep.value.trim(), hls_url: hls.value.trim() } });
      toast(t("admin.video_saved"), "ok");
      onSaved();
    } catch (err) { fail(err); }
  } },
  h("h4", {}, t("admin.video_of", { table: tb.id })),
  h("p", { class: "hint" }, t("admin.video_hint")),
  field(t("admin.whep_url"), whep),
  field(t("admin.stream_url"), hls),
  h("button", { type: "submit", class: "btn btn-confirm" }, t("admin.save")));
}

/** The languages a table's display name may be given in besides its default name. */
const NAME_LANGS = Object.keys(LANGUAGE_INFO).filter((code) => code !== "en");

/** One input per language for a table's display names (``names``), labelled in the
 * language's own name; ``value()`` is the ``names`` object (empty inputs left out). */
function nameInputs(names = {}) {
  const inputs = Object.fromEntries(NAME_LANGS.map((code) => [code, h("input", { name: `name_${code}`, value: names[code] || "", maxlength: 100, lang: LANGUAGE_INFO[code].tag, "data-testid": `name-${code}` })]));
  return {
    fields: NAME_LANGS.map((code) => field(t("admin.name_in", { language: LANGUAGE_INFO[code].label }), inputs[code])),
    value: () => Object.fromEntries(NAME_LANGS.map((code) => [code, inputs[code].value.trim()]).filter(([, v]) => v)),
  };
}

function namesEditor(tb, onSaved) {
  const name = h("input", { name: "name", value: tb.name, required: true, maxlength: 100, "data-testid": "name-default" });
  const names = nameInputs(tb.names);
  return h("form", { class: "panel", "data-testid": `names-${tb.id}`, onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api.updateTable(tb.id, { name: name.value.trim(), names: names.value() });
      toast(t("admin.saved"), "ok");
      onSaved();
    } catch (err) { fail(err); }
  } },
  h("h4", {}, t("admin.names_of", { table: tb.id })),
  h("p", { class: "hint" }, t("admin.names_hint")),
  field(t("admin.name"), name),
  names.fields,
  h("button", { type: "submit", class: "btn btn-confirm", "data-testid": "save-names" }, t("admin.save")));
}

async function withEdgeConfirmation(send) {
  try {
    return await send(false);
  } catch (err) {
    if (err.code !== "negative_edge" || !window.confirm(t("rules.confirm_negative", { bets: listOf((err.bets || []).map(betName)) }))) throw err;
    return send(true);
  }
}

function tableRulesEditor(tb, onSaved) {
  const editor = rulesEditor({ preset: tb.rules, overrides: tb.overrides || {} });
  const save = async () => {
    const rules = editor.value();
    if (!rules) return;
    try {
      const saved = await withEdgeConfirmation((confirm) => api.setTableRules(tb.id, { ...rules, confirm_negative_edge: confirm }));
      toast(t("rules.saved", { table: tb.id, version: saved.rules_version }), "ok");
      onSaved();
    } catch (err) {
      toast(rulesErrorText(err), "error");
    }
  };
  return h("section", { class: "panel", "aria-label": t("rules.of", { table: tb.id }) },
    h("h3", {}, t("rules.of", { table: tb.id }), " ", h("small", { class: "hint" }, t("rules.version", { version: tb.rules_version }))),
    editor.element,
    h("button", { type: "button", class: "btn btn-confirm", "data-testid": "save-rules", onclick: save }, t("rules.save")));
}

function tablesTab() {
  const list = h("div", {});
  const editor = h("div", {});
  const load = async () => {
    try {
      const { tables } = await api.adminTables();
      // on a phone each table is a card of labelled lines (table.data-cards), not a squeezed grid
      const cell = (key, ...content) => h("td", { "data-label": t(key) }, ...content);
      fill(list, h("table", { class: "data data-cards", "data-testid": "admin-tables" },
        h("thead", {}, h("tr", {}, ["admin.id", "admin.name", "admin.rules", "admin.kind", "admin.dealing", "admin.seats", "admin.betting_seconds", "admin.state", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : "")))),
        h("tbody", {}, tables.map((tb) => {
          const secs = h("input", { type: "number", min: 1, max: 600, step: "any", value: tb.betting_seconds, "aria-label": t("admin.betting_seconds_of", { table: tb.id }), class: "narrow" });
          return h("tr", { "data-table": tb.id },
            cell("admin.id", tb.id), cell("admin.name", tableName(tb)), cell("admin.rules", h("span", {}, presetName(tb.rules), Object.keys(tb.overrides || {}).length ? ` + ${t("rules.changes", { n: Object.keys(tb.overrides).length })}` : "", h("br"), h("small", { class: "hint" }, t("rules.version", { version: tb.rules_version })))), cell("admin.kind", t(`kind.${tb.kind}`)), cell("admin.dealing", t(`dealing.${tb.dealing}`)), cell("admin.seats", tb.seats),
            cell("admin.betting_seconds", h("span", { class: "cell-inline" }, secs, h("button", { type: "button", class: "btn btn-small", onclick: async () => {
              try { await api.updateTable(tb.id, { betting_seconds: Number(secs.value) }); toast(t("admin.saved"), "ok"); } catch (err) { fail(err); }
            } }, t("admin.save")))),
            cell("admin.state", tb.enabled ? t("admin.open") : t("admin.closed")),
            h("td", { class: "cell-buttons" },
              h("button", { type: "button", class: "btn btn-small", onclick: () => fill(editor, limitsEditor(tb.id, load)) }, t("admin.limits")),
              h("button", { type: "button", class: "btn btn-small", "data-testid": `names-edit-${tb.id}`, onclick: () => fill(editor, namesEditor(tb, load)) }, t("admin.names")),
              h("button", { type: "button", class: "btn btn-small", "data-testid": `video-edit-${tb.id}`, onclick: () => fill(editor, videoEditor(tb, load)) }, t("admin.video")),
              h("button", { type: "button", class: "btn btn-small", "data-testid": `rules-${tb.id}`, onclick: () => fill(editor, tableRulesEditor(tb, load)) }, t("rules.edit")),
              h("button", { type: "button", class: ["btn", "btn-small", tb.enabled ? "btn-danger" : ""], onclick: async () => {
                if (tb.enabled && !window.confirm(t("admin.sure_close", { table: tb.id }))) return;
                try { await api.updateTable(tb.id, { enabled: !tb.enabled }); await load(); } catch (err) { fail(err); }
              } }, tb.enabled ? t("admin.close") : t("admin.reopen"))));
        }))));
    } catch (err) {
      fill(list, h("p", { class: "error" }, errorText(err)));
    }
  };
  load();
  const rules = rulesEditor();
  const newNames = nameInputs();
  const create = h("form", { class: "form-grid", "data-testid": "new-table", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    const chosen = rules.value();
    if (!chosen) {
      toast(t("rules.fix_first"), "error");
      return;
    }
    const body = { id: v.id.trim(), name: v.name.trim(), ...chosen, kind: v.kind, dealing: v.dealing, seats: Number(v.seats), betting_seconds: Number(v.betting_seconds), names: newNames.value() };
    if (v.reading) body.reading = v.reading;
    if (v.vip_min_balance) body.vip_min_balance = parseMoney(v.vip_min_balance, DIGITS) || 0;
    try {
      await withEdgeConfirmation((confirm) => api.createTable({ ...body, confirm_negative_edge: confirm }));
      toast(t("admin.table_created", { table: body.id }), "ok");
      e.target.reset();
      load();
    } catch (err) {
      toast(rulesErrorText(err), "error");
    }
  } },
    field(t("admin.id"), h("input", { name: "id", required: true, pattern: "[a-z0-9][a-z0-9_\\-]{0,39}" })),
    field(t("admin.name"), h("input", { name: "name", required: true, maxlength: 100 })),
    newNames.fields,
    field(t("admin.kind"), h("select", { name: "kind" }, ["normal", "vip", "bid_squeeze"].map((k) => h("option", { value: k }, t(`kind.${k}`))))),
    field(t("admin.dealing"), h("select", { name: "dealing" }, ["rng", "live"].map((k) => h("option", { value: k }, t(`dealing.${k}`))))),
    field(t("admin.reading"), h("select", { name: "reading" }, h("option", { value: "" }, t("admin.default")), ["dealer", "largest_bettor", "button"].map((k) => h("option", { value: k }, t(`reading.${k}`))))),
    field(t("admin.seats"), h("input", { name: "seats", type: "number", min: 1, max: 14, value: 7 })),
    field(t("admin.betting_seconds"), h("input", { name: "betting_seconds", type: "number", min: 1, max: 600, value: 15 })),
    field(t("admin.vip_min_balance"), h("input", { name: "vip_min_balance", type: "text", inputmode: "decimal", placeholder: "0" })),
    h("button", { type: "submit", class: "btn btn-confirm" }, t("admin.create_table")));
  return h("div", {}, list, editor, h("h3", {}, t("admin.new_table")), h("section", { class: "panel" }, h("h4", {}, t("rules.title")), rules.element), create);
}

function presetsTab() {
  const box = h("div", {}, h("p", { class: "hint" }, t("common.loading")));
  api.presets().then(({ presets }) => fill(box, h("table", { class: "data" },
    h("thead", {}, h("tr", {}, ["admin.name", "admin.description", "admin.decks", "admin.bets", "admin.tiers"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, presets.map((p) => h("tr", {}, h("td", {}, presetName(p.name)), h("td", {}, presetAbout(p)), h("td", {}, p.decks),
      h("td", {}, listOf(p.bets.map(betName))), h("td", {}, listOf((p.tiers || []).map((x) => (has(`tier.${x}`) ? t(`tier.${x}`) : x))))))))))
    .catch((err) => fill(box, h("p", { class: "error" }, errorText(err))));
  return box;
}

function usersTab() {
  const list = h("div", {});
  const load = () => api.users().then(({ users }) => fill(list, h("table", { class: "data", "data-testid": "users" },
    h("thead", {}, h("tr", {}, ["admin.user", "admin.role", "admin.display_name"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, users.map((u) => h("tr", {}, h("td", {}, u.user_id), h("td", {}, t(`role.${u.role}`)), h("td", {}, u.display_name)))))))
    .catch((err) => fill(list, h("p", { class: "error" }, errorText(err))));
  load();
  const form = h("form", { class: "form-grid", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    try {
      await api.createUser({ username: v.username.trim(), password: v.password, role: v.role, display_name: v.display_name.trim() || undefined });
      toast(t("admin.user_created", { user: v.username }), "ok");
      e.target.reset();
      load();
    } catch (err) {
      fail(err);
    }
  } },
    field(t("admin.user"), h("input", { name: "username", required: true, pattern: "[a-z0-9_\\-]{3,32}", autocomplete: "off" })),
    field(t("login.password"), h("input", { name: "password", type: "password", required: true, minlength: 6, autocomplete: "new-password" })),
    field(t("admin.role"), h("select", { name: "role" }, ["dealer", "supervisor", "player", "admin"].map((r) => h("option", { value: r }, t(`role.${r}`))))),
    field(t("admin.display_name"), h("input", { name: "display_name" })),
    h("button", { type: "submit", class: "btn btn-confirm" }, t("admin.create_user")));
  return h("div", {}, list, h("h3", {}, t("admin.new_user")), form);
}

function walletTab() {
  const out = h("p", { role: "status", "aria-live": "polite" });
  const player = h("input", { name: "player", required: true });
  const amount = h("input", { name: "amount", required: true, inputmode: "decimal", placeholder: "100.00" });
  const go = async (kind) => {
    const value = parseMoney(amount.value, DIGITS);
    if (!player.value.trim() || !value) {
      toast(t("admin.bad_amount", { value: amount.value }), "error");
      return;
    }
    const id = `${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      const res = await (kind === "deposit" ? api.deposit : api.withdraw)(player.value.trim(), value, id);
      fill(out, t("admin.new_balance", { player: player.value.trim(), amount: money(res.balance, DIGITS) }));
    } catch (err) {
      fail(err);
    }
  };
  return h("form", { class: "form-grid", onsubmit: (e) => { e.preventDefault(); go("deposit"); } },
    field(t("admin.player"), player),
    field(t("admin.amount"), amount),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "btn btn-confirm" }, t("admin.deposit")),
      h("button", { type: "button", class: "btn", onclick: () => go("withdraw") }, t("admin.withdraw"))),
    out);
}

export function mount(root) {
  fill(root, h("div", { class: "page" },
    h("h1", {}, t("admin.title")),
    tabs([
      { id: "tables", label: t("admin.tables"), render: tablesTab },
      { id: "presets", label: t("admin.presets"), render: presetsTab },
      { id: "users", label: t("admin.users"), render: usersTab },
      { id: "wallet", label: t("admin.wallet"), render: walletTab },
      { id: "operators", label: t("ops.title"), render: operatorsTab },
      { id: "jurisdictions", label: t("jur.title"), render: jurisdictionsTab },
      { id: "reports", label: t("report.tab"), render: reports },
      { id: "alarms", label: t("alarm.title"), render: monitoring },
      { id: "amendments", label: t("super.amendments"), render: amendmentList },
    ], { label: t("admin.title") })));
  return { unmount() {} };
}
