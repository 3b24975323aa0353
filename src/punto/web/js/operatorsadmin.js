// Administration, "Operators" (docs/operators.md): the operators registered here (id,
// name, currencies, wallet, status), a new one (its secret shown this once, with a copy
// button), a new secret for one, and disabling or enabling one.
import { api } from "./api.js";
import { h, fill, toast, field, formValues } from "./dom.js";
import { has, listOf, t } from "./i18n.js";
import { errorText } from "./format.js";

const OPERATOR_ID = /^[a-z0-9][a-z0-9_-]{1,15}$/;
/** The wallet protocols, by their own names (products' names: not translated). */
const DIALECTS = { punto: "Punto", hub88: "Hub88" };

/**
 * A refusal of the administration API in the current language. The server's refusals of
 * bad input are all ``bad_message`` with an English sentence: ``known`` maps patterns of
 * that sentence to a translated key (``{codes}`` filled from the sentence when it names
 * currencies); a code with a key under ``prefix`` (``conflict``, ``not_found``) says it in
 * the form's own words; a route the server does not have says so; anything else falls
 * back to the code's label.
 */
export function adminErrorText(err, prefix, known = []) {
  const code = err && err.code;
  const message = (err && err.message) || "";
  if (code === "bad_message") {
    for (const [pattern, key] of known) {
      const found = pattern.exec(message);
      if (found) return t(key, { value: found[1] || "" });
    }
  }
  // an action this server has no route for (an older server): not "no such operator"
  if ((code === "not_found" && message === "Not Found") || code === "http_405" || (code === "bad_message" && message === "Method Not Allowed")) return t("admin.no_route");
  const own = `${prefix}.error.${code}`;
  if (code && has(own)) return t(own);
  return errorText(err);
}

/** The server's English sentences of a refused operator, and the key that says each. */
const OPERATOR_ERRORS = [
  [/^'([^']*)' is not a current ISO 4217 currency code/, "ops.error.currency"],
  [/at least one currency/, "ops.error.no_currency"],
  [/operator id is/, "ops.error.id"],
  [/wallet URL/, "ops.error.wallet_url"],
  [/dialect/, "ops.error.dialect"],
  [/operator's name/, "ops.error.name"],
  [/^name: /, "ops.error.name"],
  [/^id: /, "ops.error.id"],
  [/^currencies/, "ops.error.currency"],
  [/^wallet_url: /, "ops.error.wallet_url"],
];

function fail(err) {
  toast(adminErrorText(err, "ops", OPERATOR_ERRORS), "error");
}

/** Copy ``text`` to the clipboard; the input holding it is selected when the browser
 * will not let the page write the clipboard, so the administrator can copy it by hand. */
async function copy(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t("ops.copied"), "ok");
  } catch {
    input.focus();
    input.select();
    toast(t("ops.copy_by_hand"), "error");
  }
}

/** The secret an add or a rotation answered with: shown until the administrator says it
 * is kept, then gone from the page (the server never shows it again). */
function secretBox(box, operator) {
  const input = h("input", { type: "text", readonly: true, value: operator.secret, class: "secret-value", "data-testid": "secret-value", "aria-label": t("ops.secret_of", { id: operator.id }), spellcheck: "false", autocomplete: "off" });
  fill(box, h("section", { class: "panel secret-once", role: "alert", "data-testid": "secret-once", "aria-labelledby": "secret-title" },
    h("h3", { id: "secret-title" }, t("ops.secret_of", { id: operator.id })),
    h("p", { class: "secret-warning", "data-testid": "secret-warning" }, t("ops.secret_once")),
    h("div", { class: "secret-row" },
      input,
      h("button", { type: "button", class: "btn btn-small", "data-testid": "copy-secret", onclick: () => copy(operator.secret, input) }, t("ops.copy"))),
    h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "secret-done", onclick: () => fill(box) }, t("ops.secret_kept"))));
  input.focus();
  input.select();
}

function statusOf(operator) {
  return operator.disabled ? t("ops.disabled") : t("ops.enabled");
}

function walletOf(operator) {
  const dialect = DIALECTS[operator.dialect] || operator.dialect;
  return operator.wallet_url ? `${dialect} · ${operator.wallet_url}` : t("ops.house_wallet");
}

export function operatorsTab() {
  const secret = h("div", { "aria-live": "polite" });
  const list = h("div", {}, h("p", { class: "hint" }, t("common.loading")));

  const act = async (send, done) => {
    try {
      const answer = await send();
      if (done) done(answer);
      await load();
    } catch (err) {
      fail(err);
    }
  };

  const row = (op) => h("tr", { "data-operator": op.id, class: op.disabled ? "row-off" : "" },
    h("td", { "data-label": t("ops.id") }, h("code", {}, op.id)),
    h("td", { "data-label": t("ops.name") }, op.name),
    h("td", { "data-label": t("ops.currencies") }, listOf(op.currencies)),
    h("td", { class: "cell-wrap", "data-label": t("ops.wallet") }, walletOf(op)),
    h("td", { "data-label": t("ops.status") }, h("span", { class: ["badge", op.disabled ? "badge-off" : "badge-on"], "data-testid": `status-${op.id}` }, statusOf(op))),
    h("td", { "data-label": t("ops.secret") }, t("ops.secret_version", { n: op.secret_version })),
    h("td", { class: "cell-actions" },
      h("button", { type: "button", class: "btn btn-small", "data-testid": `rotate-${op.id}`, onclick: () => {
        if (!window.confirm(t("ops.sure_rotate", { id: op.id }))) return;
        act(() => api.rotateSecret(op.id), (answer) => secretBox(secret, answer));
      } }, t("ops.rotate")),
      op.disabled
        ? h("button", { type: "button", class: "btn btn-small btn-confirm", "data-testid": `enable-${op.id}`, onclick: () => act(() => api.enableOperator(op.id), () => toast(t("ops.enabled_now", { id: op.id }), "ok")) }, t("ops.enable"))
        : h("button", { type: "button", class: "btn btn-small btn-danger", "data-testid": `disable-${op.id}`, onclick: () => {
          if (!window.confirm(t("ops.sure_disable", { id: op.id }))) return;
          act(() => api.disableOperator(op.id), () => toast(t("ops.disabled_now", { id: op.id }), "ok"));
        } }, t("ops.disable"))));

  async function load() {
    try {
      const { operators } = await api.operators();
      fill(list, operators.length
        ? h("table", { class: "data data-cards", "data-testid": "operators" },
          h("caption", {}, t("ops.caption")),
          h("thead", {}, h("tr", {}, ["ops.id", "ops.name", "ops.currencies", "ops.wallet", "ops.status", "ops.secret", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : h("span", { class: "sr-only" }, t("ops.actions")))))),
          h("tbody", {}, operators.map(row)))
        : h("p", { class: "hint", "data-testid": "operators-none" }, t("ops.none")));
    } catch (err) {
      fill(list, h("p", { class: "error" }, adminErrorText(err, "ops")));
    }
  }
  load();

  const problem = h("p", { class: "error", role: "alert", "data-testid": "operator-error" });
  const form = h("form", { class: "form-grid form-top", "data-testid": "new-operator", novalidate: true, oninput: () => fill(problem), onsubmit: async (e) => {
    e.preventDefault();
    fill(problem);
    const v = formValues(e.target);
    const id = v.id.trim();
    const currencies = v.currencies.split(/[\s,、，]+/).map((c) => c.trim().toUpperCase()).filter(Boolean);
    const wallet = v.wallet_url.trim();
    const wrong = !OPERATOR_ID.test(id) ? t("ops.error.id")
      : !v.name.trim() ? t("ops.error.name")
        : !currencies.length ? t("ops.error.no_currency")
          : currencies.find((c) => !/^[A-Z]{3}$/.test(c)) ? t("ops.error.currency", { value: currencies.find((c) => !/^[A-Z]{3}$/.test(c)) })
            : wallet && !/^https?:\/\/\S+$/.test(wallet) ? t("ops.error.wallet_url")
              : null;
    if (wrong) {
      fill(problem, wrong);
      return;
    }
    const body = { id, name: v.name.trim(), currencies, dialect: v.dialect };
    if (wallet) body.wallet_url = wallet;
    try {
      const answer = await api.addOperator(body);
      toast(t("ops.added", { id }), "ok");
      e.target.reset();
      secretBox(secret, answer);
      await load();
    } catch (err) {
      fill(problem, adminErrorText(err, "ops", OPERATOR_ERRORS));
    }
  } },
    field(t("ops.id"), h("input", { name: "id", required: true, maxlength: 16, autocomplete: "off", spellcheck: "false", "data-testid": "operator-id" }), t("ops.id_hint")),
    field(t("ops.name"), h("input", { name: "name", required: true, maxlength: 100, "data-testid": "operator-name" })),
    field(t("ops.currencies"), h("input", { name: "currencies", required: true, autocapitalize: "characters", spellcheck: "false", "data-testid": "operator-currencies" }), t("ops.currencies_hint")),
    field(t("ops.wallet_url"), h("input", { name: "wallet_url", type: "url", "data-testid": "operator-wallet" }), t("ops.wallet_hint")),
    field(t("ops.dialect"), h("select", { name: "dialect", "data-testid": "operator-dialect" }, Object.entries(DIALECTS).map(([d, name]) => h("option", { value: d }, name)))),
    h("button", { type: "submit", class: "btn btn-confirm", "data-testid": "add-operator" }, t("ops.add")),
    problem);

  return h("div", { class: "operators-admin" },
    h("p", { class: "hint" }, t("ops.about")),
    secret,
    list,
    h("h3", {}, t("ops.new")),
    h("section", { class: "panel" }, form));
}
