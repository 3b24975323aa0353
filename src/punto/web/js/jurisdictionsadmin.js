// Administration, "Jurisdictions" (docs/operators.md): the profiles a launch may name for
// its player — a reality check every so often, a session limit, the least time between
// bets on consecutive hands, features turned off — listed, added, edited and removed.
// Durations are typed in seconds, minutes or hours and sent as seconds.
import { api } from "./api.js";
import { h, fill, toast, field } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { duration } from "./format.js";
import { adminErrorText } from "./operatorsadmin.js";

const PROFILE_ID = /^[a-z0-9][a-z0-9_-]{1,15}$/;
const FEATURES = ["chat", "side_bets"];
const UNITS = { s: 1, min: 60, h: 3600 };
const MAX_SECONDS = 7 * 24 * 3600;

/** Each switch: its field in the API and the unit a new profile starts in. */
const SWITCHES = [
  ["reality_check_interval", "min"],
  ["session_limit", "h"],
  ["min_hand_interval", "s"],
];

/** The server's English sentences of a refused profile, and the key that says each. */
const PROFILE_ERRORS = [
  [/jurisdiction id is/, "jur.error.id"],
  [/jurisdiction's name/, "jur.error.name"],
  [/^name: /, "jur.error.name"],
  [/at most a week/, "jur.error.too_long"],
  [/more than zero/, "jur.error.not_positive"],
  [/features_off/, "jur.error.feature"],
];

function fail(err) {
  toast(adminErrorText(err, "jur", PROFILE_ERRORS), "error");
}

/** The unit a duration reads best in: hours or minutes when it is whole ones of them. */
function unitFor(seconds, fallback) {
  if (seconds === null || seconds === undefined) return fallback;
  if (seconds % 3600 === 0) return "h";
  if (seconds % 60 === 0) return "min";
  return "s";
}

/** A number input and a unit select for one switch; ``value()`` is seconds, null (empty:
 * the profile sets none) or NaN (not a number of more than zero, at most a week). */
function durationInput(name, seconds, fallback) {
  const unit = unitFor(seconds, fallback);
  const number = h("input", { type: "number", min: 0, step: "any", inputmode: "decimal", name, class: "narrow", "data-testid": `jur-${name}`,
    value: seconds === null || seconds === undefined ? "" : String(seconds / UNITS[unit]), placeholder: t("jur.none"), "aria-label": t(`jur.${name}`) });
  const select = h("select", { name: `${name}_unit`, "data-testid": `jur-${name}-unit`, "aria-label": t("jur.unit_of", { field: t(`jur.${name}`) }) },
    Object.keys(UNITS).map((u) => h("option", { value: u, selected: u === unit }, t(`jur.unit.${u}`))));
  const element = h("div", { class: "field" },
    h("span", { class: "field-label" }, t(`jur.${name}`)),
    h("span", { class: "duration-input" }, number, select),
    h("small", { class: "hint" }, t(`jur.${name}_hint`)));
  return {
    element,
    input: number,
    value() {
      const text = number.value.trim();
      if (text === "") return null;
      const n = Number(text);
      const secs = Math.round(n * UNITS[select.value] * 1000) / 1000;
      return Number.isFinite(n) && secs > 0 && secs <= MAX_SECONDS ? secs : Number.NaN;
    },
  };
}

function switchText(seconds) {
  return seconds === null || seconds === undefined ? t("jur.none") : duration(seconds);
}

function featuresText(off) {
  return off && off.length ? listOf(off.map((f) => t(`feature.${f}`))) : t("jur.all_on");
}

export function jurisdictionsTab() {
  const list = h("div", {}, h("p", { class: "hint" }, t("common.loading")));
  const editor = h("div", {});
  const known = new Set();

  async function load() {
    try {
      const { jurisdictions } = await api.jurisdictions();
      known.clear();
      for (const p of jurisdictions) known.add(p.id);
      fill(list, jurisdictions.length
        ? h("table", { class: "data data-cards", "data-testid": "jurisdictions" },
          h("caption", {}, t("jur.caption")),
          h("thead", {}, h("tr", {}, ["jur.id", "jur.name", "jur.reality_check_interval", "jur.session_limit", "jur.min_hand_interval", "jur.features_off", ""].map((k) => h("th", { scope: "col" }, k ? t(k) : h("span", { class: "sr-only" }, t("jur.actions")))))),
          h("tbody", {}, jurisdictions.map((p) => h("tr", { "data-jurisdiction": p.id },
            h("td", { "data-label": t("jur.id") }, h("code", {}, p.id)),
            h("td", { "data-label": t("jur.name") }, p.name),
            SWITCHES.map(([name]) => h("td", { "data-field": name, "data-label": t(`jur.${name}`) }, switchText(p[name]))),
            h("td", { "data-field": "features_off", "data-label": t("jur.features_off") }, featuresText(p.features_off)),
            h("td", { class: "cell-actions" },
              h("button", { type: "button", class: "btn btn-small", "data-testid": `edit-${p.id}`, onclick: () => edit(p) }, t("jur.edit")),
              h("button", { type: "button", class: "btn btn-small btn-danger", "data-testid": `remove-${p.id}`, onclick: () => remove(p) }, t("jur.remove")))))))
        : h("p", { class: "hint", "data-testid": "jurisdictions-none" }, t("jur.none_yet")));
    } catch (err) {
      fill(list, h("p", { class: "error" }, adminErrorText(err, "jur")));
    }
  }

  async function remove(p) {
    if (!window.confirm(t("jur.sure_remove", { id: p.id, name: p.name }))) return;
    try {
      await api.removeJurisdiction(p.id);
      toast(t("jur.removed", { id: p.id }), "ok");
      fill(editor, profileForm(null));
      await load();
    } catch (err) {
      fail(err);
    }
  }

  function edit(p) {
    fill(editor, profileForm(p));
    const first = editor.querySelector("input:not([readonly])");
    if (first) first.focus();
  }

  /** The form of a new profile (``p`` null) or of ``p``. */
  function profileForm(p) {
    const id = h("input", { name: "id", required: true, maxlength: 16, autocomplete: "off", spellcheck: "false", "data-testid": "jur-id", value: p ? p.id : "", readonly: Boolean(p) });
    const name = h("input", { name: "name", required: true, maxlength: 100, "data-testid": "jur-name", value: p ? p.name : "" });
    const switches = SWITCHES.map(([key, unit]) => [key, durationInput(key, p ? p[key] : null, unit)]);
    const features = FEATURES.map((f) => [f, h("input", { type: "checkbox", name: `off_${f}`, "data-testid": `jur-off-${f}`, checked: Boolean(p && p.features_off.includes(f)) })]);
    const problem = h("p", { class: "error", role: "alert", "data-testid": "jur-error" });
    const save = async (e) => {
      e.preventDefault();
      fill(problem);
      for (const [, input] of switches) input.input.removeAttribute("aria-invalid");
      const profileId = id.value.trim();
      if (!PROFILE_ID.test(profileId)) {
        fill(problem, t("jur.error.id"));
        return;
      }
      if (!name.value.trim()) {
        fill(problem, t("jur.error.name"));
        return;
      }
      const body = { name: name.value.trim(), features_off: features.filter(([, box]) => box.checked).map(([f]) => f) };
      for (const [key, input] of switches) {
        const secs = input.value();
        if (Number.isNaN(secs)) {
          input.input.setAttribute("aria-invalid", "true");
          fill(problem, t("jur.error.duration", { field: t(`jur.${key}`) }));
          return;
        }
        body[key] = secs;
      }
      // a new profile of an id already kept would replace it: asked first
      if (!p && known.has(profileId) && !window.confirm(t("jur.sure_replace", { id: profileId }))) return;
      try {
        const answer = await api.putJurisdiction(profileId, body);
        toast(t(answer.created ? "jur.added" : "jur.saved", { id: profileId }), "ok");
        fill(editor, profileForm(null));
        await load();
      } catch (err) {
        fill(problem, adminErrorText(err, "jur", PROFILE_ERRORS));
      }
    };
    return h("section", { class: "panel", "data-testid": "jur-form", "aria-labelledby": "jur-form-title" },
      h("h3", { id: "jur-form-title" }, p ? t("jur.edit_title", { id: p.id }) : t("jur.new")),
      h("form", { class: "form-grid form-top jur-form", novalidate: true, onsubmit: save, oninput: () => fill(problem) },
        field(t("jur.id"), id, p ? null : t("jur.id_hint")),
        field(t("jur.name"), name),
        switches.map(([, input]) => input.element),
        h("fieldset", { class: "control-group jur-features" },
          h("legend", {}, t("jur.features_off")),
          features.map(([f, box]) => h("label", { class: "field field-check" }, box, h("span", {}, t(`jur.off.${f}`))))),
        h("div", { class: "row" },
          h("button", { type: "submit", class: "btn btn-confirm", "data-testid": "jur-save" }, p ? t("jur.save") : t("jur.add")),
          p ? h("button", { type: "button", class: "btn btn-ghost", "data-testid": "jur-cancel", onclick: () => fill(editor, profileForm(null)) }, t("jur.cancel")) : null),
        problem));
  }

  load();
  fill(editor, profileForm(null));
  return h("div", { class: "jurisdictions-admin" }, h("p", { class: "hint" }, t("jur.about")), list, editor);
}
