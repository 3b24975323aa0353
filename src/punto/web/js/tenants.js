// Administration's operators (list, add, rotate a secret, disable) and jurisdiction
// profiles (list, add or edit, remove): the tabs of #/admin over /api/admin/operators and
// /api/admin/jurisdictions (docs/operators.md).
import { api } from "./api.js";
import { h, fill, toast, field, formValues } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { errorText } from "./format.js";

const FEATURES = ["chat", "side_bets"];

function fail(err) {
  toast(errorText(err), "error");
}

/** A secret shown once (a new operator's, a rotated one's). */
function secretOnce(box, operator, secret) {
  fill(box, h("div", { class: "panel", role: "status", "data-testid": "secret-once" },
    h("p", {}, t("admin.op_secret_once", { operator })),
    h("p", { class: "secret-once" }, secret)));
}

export function operatorsTab() {
  const list = h("div", {});
  const secretBox = h("div", {});
  const load = () => api.operators().then(({ operators }) => fill(list, operators.length === 0 ? h("p", { class: "hint" }, t("admin.op_none")) : h("table", { class: "data", "data-testid": "operators" },
    h("thead", {}, h("tr", {}, ["admin.id", "admin.name", "admin.op_currencies", "admin.op_state", "admin.op_secret_version", "admin.actions"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, operators.map((op) => h("tr", { "data-testid": `operator-${op.id}` },
      h("td", {}, op.id), h("td", {}, op.name), h("td", {}, listOf(op.currencies)),
      h("td", {}, t(op.disabled ? "admin.op_disabled" : "admin.op_enabled")), h("td", {}, String(op.secret_version)),
      h("td", { class: "row" },
        h("button", { type: "button", class: "btn btn-small", "data-testid": `rotate-${op.id}`, onclick: async () => {
          if (!window.confirm(t("admin.op_sure_rotate", { operator: op.id }))) return;
          try {
            const done = await api.rotateSecret(op.id);
            secretOnce(secretBox, op.id, done.secret);
            load();
          } catch (err) { fail(err); }
        } }, t("admin.op_rotate")),
        op.disabled ? null : h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": `disable-${op.id}`, onclick: async () => {
          if (!window.confirm(t("admin.op_sure_disable", { operator: op.id }))) return;
          try {
            await api.disableOperator(op.id);
            toast(t("admin.op_disabled_done", { operator: op.id }), "ok");
            load();
          } catch (err) { fail(err); }
        } }, t("admin.op_disable")))))))))
    .catch((err) => fill(list, h("p", { class: "error" }, errorText(err))));
  load();
  const form = h("form", { class: "form-grid", "data-testid": "new-operator", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    const body = { id: v.id.trim(), name: v.name.trim(), currencies: v.currencies.split(",").map((c) => c.trim()).filter(Boolean) };
    if (v.wallet_url.trim()) body.wallet_url = v.wallet_url.trim();
    try {
      const added = await api.addOperator(body);
      toast(t("admin.op_added", { operator: added.id }), "ok");
      secretOnce(secretBox, added.id, added.secret);
      e.target.reset();
      load();
    } catch (err) { fail(err); }
  } },
    field(t("admin.id"), h("input", { name: "id", required: true, pattern: "[a-z0-9][a-z0-9_\\-]{1,15}", autocomplete: "off" })),
    field(t("admin.name"), h("input", { name: "name", required: true, maxlength: 100 })),
    field(t("admin.op_currencies"), h("input", { name: "currencies", required: true, autocomplete: "off", spellcheck: "false" }), t("admin.op_currencies_hint")),
    field(t("admin.op_wallet"), h("input", { name: "wallet_url", type: "url" })),
    h("button", { type: "submit", class: "btn btn-confirm" }, t("admin.add_operator")));
  return h("div", {}, secretBox, list, h("h3", {}, t("admin.new_operator")), form);
}

/** Seconds as the duration an administrator types (90 → "1m30s", 2.5 → "2.5s"). */
export function durationText(seconds) {
  if (seconds === null || seconds === undefined) return "";
  let rest = seconds;
  let out = "";
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  rest = Math.round((rest - minutes * 60) * 1000) / 1000;
  if (hours) out += `${hours}h`;
  if (minutes) out += `${minutes}m`;
  if (rest || !out) out += `${rest}s`;
  return out;
}

export function jurisdictionsTab() {
  const list = h("div", {});
  const inputs = {
    id: h("input", { name: "id", required: true, pattern: "[a-z0-9][a-z0-9_\\-]{1,15}", autocomplete: "off", "data-testid": "j-id" }),
    name: h("input", { name: "name", required: true, maxlength: 100, "data-testid": "j-name" }),
    reality_check_interval: h("input", { name: "reality_check_interval", placeholder: "60m", "data-testid": "j-reality-check" }),
    session_limit: h("input", { name: "session_limit", placeholder: "2h", "data-testid": "j-session-limit" }),
    min_hand_interval: h("input", { name: "min_hand_interval", placeholder: "2.5s", "data-testid": "j-min-hand" }),
  };
  const boxes = Object.fromEntries(FEATURES.map((f) => [f, h("input", { type: "checkbox", name: `off_${f}`, "data-testid": `j-off-${f}` })]));
  const edit = (p) => {
    inputs.id.value = p.id;
    inputs.name.value = p.name;
    for (const key of ["reality_check_interval", "session_limit", "min_hand_interval"]) inputs[key].value = durationText(p[key]);
    for (const f of FEATURES) boxes[f].checked = p.features_off.includes(f);
    inputs.name.focus();
  };
  const every = (s) => (s === null ? t("admin.j_none") : durationText(s));
  const load = () => api.jurisdictions().then(({ jurisdictions }) => fill(list, jurisdictions.length === 0 ? h("p", { class: "hint" }, t("admin.j_none_yet")) : h("table", { class: "data", "data-testid": "jurisdictions" },
    h("thead", {}, h("tr", {}, ["admin.id", "admin.name", "admin.j_reality_check", "admin.j_session_limit", "admin.j_min_hand", "admin.j_features_off", "admin.actions"].map((k) => h("th", { scope: "col" }, t(k))))),
    h("tbody", {}, jurisdictions.map((p) => h("tr", { "data-testid": `jurisdiction-${p.id}` },
      h("td", {}, p.id), h("td", {}, p.name), h("td", {}, every(p.reality_check_interval)), h("td", {}, every(p.session_limit)), h("td", {}, every(p.min_hand_interval)),
      h("td", {}, p.features_off.length ? listOf(p.features_off.map((f) => t(`admin.j_feature.${f}`))) : t("admin.j_none")),
      h("td", { class: "row" },
        h("button", { type: "button", class: "btn btn-small", onclick: () => edit(p) }, t("admin.j_edit")),
        h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": `remove-${p.id}`, onclick: async () => {
          if (!window.confirm(t("admin.j_sure_remove", { id: p.id }))) return;
          try {
            await api.removeJurisdiction(p.id);
            toast(t("admin.j_removed", { id: p.id }), "ok");
            load();
          } catch (err) { fail(err); }
        } }, t("admin.j_remove")))))))))
    .catch((err) => fill(list, h("p", { class: "error" }, errorText(err))));
  load();
  const form = h("form", { class: "form-grid", "data-testid": "jurisdiction-form", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    const body = { name: v.name.trim(), features_off: FEATURES.filter((f) => v[`off_${f}`]) };
    for (const key of ["reality_check_interval", "session_limit", "min_hand_interval"]) body[key] = v[key].trim() || null;
    try {
      await api.putJurisdiction(v.id.trim(), body);
      toast(t("admin.j_saved", { id: v.id.trim() }), "ok");
      e.target.reset();
      load();
    } catch (err) {
      // the form's id and name are checked as typed: a refusal is a switch's duration
      toast(err && err.code === "bad_message" ? `${errorText(err)} · ${t("admin.j_duration_hint")}` : errorText(err), "error");
    }
  } },
    field(t("admin.id"), inputs.id),
    field(t("admin.name"), inputs.name),
    field(t("admin.j_reality_check"), inputs.reality_check_interval, t("admin.j_duration_hint")),
    field(t("admin.j_session_limit"), inputs.session_limit),
    field(t("admin.j_min_hand"), inputs.min_hand_interval),
    h("fieldset", { class: "field" }, h("legend", { class: "field-label" }, t("admin.j_features_off")),
      FEATURES.map((f) => h("label", { class: "check" }, boxes[f], ` ${t(`admin.j_feature.${f}`)}`))),
    h("button", { type: "submit", class: "btn btn-confirm", "data-testid": "j-save" }, t("admin.j_save")));
  return h("div", {}, list, h("h3", {}, t("admin.j_new")), form);
}
