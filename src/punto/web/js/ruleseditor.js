// The rules editor of the administration page: a preset plus overrides of any rules
// setting, with each offered bet's exact house edge, RTP, hit frequency and standard
// deviation for a fresh shoe shown as the rules are edited (POST /api/admin/rules/preview,
// the figures of `punto edge`). Limit tiers are edited under "Limits".
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { lang, listOf, t } from "./i18n.js";
import { betName, errorText, money, paytableName, parseMoney, presetAbout, presetName } from "./format.js";

const CHOICES = {
  burn: ["none", "decks", "first_card_value"],
  last_hand: ["last_hand", "one_more", "min_seven_or_void"],
  rounding: ["floor", "half_up", "half_even"],
};
const NUMBERS = { decks: [1, 12], cut_min_from_end: [0, 600], cut_max_from_end: [0, 600], demo_hands: [0, 3], currency_digits: [0, 6] };
const PACE = ["betting_seconds", "card_seconds", "result_seconds"];
const FLAGS = ["continuous_shuffler", "mid_shoe_burns", "banker_multiple_of_min", "one_side_only", "tiger_with_main"];

function pct(value) {
  return `${(100 * value).toFixed(4)}%`;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A rules setting's label in the current language. */
export function fieldName(field) {
  return t(`rules.f.${field}`);
}

/** A refusal from the server: the field it names, translated, then the detail. */
export function rulesErrorText(err) {
  // The server's detail is English: other languages say the setting is refused.
  if (err && err.code === "rules" && err.field) {
    const detail = lang() === "en" && err.message ? err.message : t("rules.bad_value");
    return t("rules.bad_field", { field: fieldName(err.field), detail });
  }
  if (err && err.code === "negative_edge") return t("rules.negative_edge", { bets: listOf((err.bets || []).map(betName)) });
  return errorText(err);
}

/**
 * The editor. `initial` is {preset, overrides} (a table's current rules) or null (a new
 * table). Returns {element, value()} where value() is {preset, overrides} or null while
 * the rules are invalid.
 */
export function rulesEditor(initial = null) {
  const state = { catalogue: null, preset: initial ? initial.preset : "macau", doc: null, valid: true, preview: null };
  const root = h("div", { class: "rules-editor", "data-testid": "rules-editor" }, h("p", { class: "hint" }, t("common.loading")));
  const status = h("p", { class: "error", role: "alert", "data-testid": "rules-error" });
  const inputs = {};
  let timer = null;

  const base = () => state.catalogue.presets.find((p) => p.name === state.preset).document;

  const overrides = () => {
    const start = base();
    const out = {};
    for (const [key, value] of Object.entries(state.doc)) if (!same(start[key], value)) out[key] = value;
    return out;
  };

  const previewBox = h("div", { "aria-live": "polite" });

  const showPreview = () => {
    const p = state.preview;
    if (!p) return;
    const rows = Object.entries(p.bets);
    fill(previewBox,
      h("table", { class: "data edge-preview", "data-testid": "edge-preview" },
        h("caption", {}, t("rules.preview_caption", { cards: p.cards })),
        h("thead", {}, h("tr", {}, ["rules.bet", "rules.paytable", "rules.house_edge", "rules.rtp", "rules.hit_frequency", "rules.std_dev"].map((k) => h("th", { scope: "col" }, t(k))))),
        h("tbody", {}, rows.map(([bet, f]) => h("tr", { "data-bet": bet, class: f.house_edge < 0 ? "edge-negative" : "" },
          h("th", { scope: "row" }, betName(bet)), h("td", {}, paytableName(f.paytable)),
          h("td", { "data-testid": `edge-${bet}` }, pct(f.house_edge)), h("td", {}, pct(f.rtp)), h("td", {}, pct(f.hit_frequency)), h("td", {}, f.std_dev.toFixed(4)))))),
      p.negative_edge.length ? h("p", { class: "error", role: "alert", "data-testid": "negative-edge" }, t("rules.negative_edge", { bets: listOf(p.negative_edge.map(betName)) })) : null);
  };

  const refresh = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(async () => {
      for (const el of Object.values(inputs)) el.removeAttribute("aria-invalid");
      try {
        state.preview = await api.previewRules({ preset: state.preset, overrides: overrides() });
        state.valid = true;
        fill(status);
        showPreview();
      } catch (err) {
        state.valid = false;
        fill(status, rulesErrorText(err));
        if (err.field && inputs[err.field]) inputs[err.field].setAttribute("aria-invalid", "true");
      }
    }, 200);
  };

  const render = () => {
    const doc = state.doc;
    const set = (key, value) => { doc[key] = value; refresh(); };
    const number = (key) => {
      const [min, max] = NUMBERS[key];
      const el = h("input", { type: "number", min, max, step: 1, value: doc[key], name: key, class: "narrow", "data-field": key,
        oninput: () => set(key, el.value === "" || Number.isNaN(Number(el.value)) ? el.value : Number(el.value)) });
      inputs[key] = el;
      return h("label", { class: "field" }, h("span", { class: "field-label" }, fieldName(key)), el);
    };
    const choice = (key, options, label = (v) => t(`rules.${key}.${v}`)) => {
      const el = h("select", { name: key, "data-field": key, onchange: () => set(key, el.value) },
        options.map((v) => h("option", { value: v, selected: v === doc[key] }, label(v))));
      inputs[key] = el;
      return h("label", { class: "field" }, h("span", { class: "field-label" }, fieldName(key)), el);
    };
    const flag = (key) => {
      const el = h("input", { type: "checkbox", checked: doc[key], name: key, "data-field": key, onchange: () => set(key, el.checked) });
      inputs[key] = el;
      return h("label", { class: "field field-check" }, el, h("span", {}, fieldName(key)));
    };
    const imbalance = h("input", { type: "text", inputmode: "decimal", name: "max_imbalance", "data-field": "max_imbalance", class: "narrow",
      value: doc.max_imbalance === null ? "" : money(doc.max_imbalance, doc.currency_digits).replace(/,/g, ""), placeholder: t("rules.none"),
      oninput: () => {
        const text = imbalance.value.trim();
        const amount = parseMoney(text, doc.currency_digits);
        set("max_imbalance", text === "" ? null : amount === null ? text : amount);
      } });
    inputs.max_imbalance = imbalance;
    // A pace setting in seconds; blank: the table's (betting) or the server's own pace.
    const seconds = (key) => {
      const el = h("input", { type: "number", min: 0, step: "any", value: doc[key] ?? "", name: key, class: "narrow", "data-field": key,
        placeholder: t("rules.pace_default"),
        oninput: () => set(key, el.value === "" ? null : Number.isNaN(Number(el.value)) ? el.value : Number(el.value)) });
      inputs[key] = el;
      return h("label", { class: "field" }, h("span", { class: "field-label" }, fieldName(key)), el);
    };

    // [EZ-C] side bets close for a hand whose shoe gives them a house edge below this
    // percentage (stored as a fraction); blank: never
    const edgeValue = doc.close_below_edge === null || doc.close_below_edge === undefined ? "" : String(+(doc.close_below_edge * 100).toFixed(6));
    const closeBelow = h("input", { type: "number", min: -100, max: 100, step: "any", value: edgeValue, name: "close_below_edge", class: "narrow",
      "data-field": "close_below_edge", placeholder: t("rules.none"),
      oninput: () => set("close_below_edge", closeBelow.value === "" ? null : Number.isNaN(Number(closeBelow.value)) ? closeBelow.value : Number(closeBelow.value) / 100) });
    inputs.close_below_edge = closeBelow;

    const bets = Object.keys(state.catalogue.paytables);
    const paytableRows = bets.map((bet) => {
      const offered = doc.paytables[bet];
      const select = h("select", { "aria-label": t("rules.paytable_of", { bet: betName(bet) }), "data-paytable": bet, onchange: () => {
        const next = { ...doc.paytables };
        if (select.value) next[bet] = select.value; else delete next[bet];
        // Keep the standard bet order of the catalogue.
        doc.paytables = Object.fromEntries(bets.filter((b) => b in next).map((b) => [b, next[b]]));
        refresh();
      } },
        h("option", { value: "" }, t("rules.not_offered")),
        state.catalogue.paytables[bet].map((name) => h("option", { value: name, selected: name === offered }, paytableName(name))));
      const closes = h("input", { type: "number", min: 1, step: 1, class: "narrow", value: doc.close_from_hand[bet] ?? "", placeholder: "—",
        "aria-label": t("rules.closes_of", { bet: betName(bet) }), oninput: () => {
          const next = { ...doc.close_from_hand };
          if (closes.value === "") delete next[bet]; else next[bet] = Number(closes.value);
          doc.close_from_hand = Object.fromEntries(bets.filter((b) => b in next).map((b) => [b, next[b]]));
          refresh();
        } });
      return h("tr", {}, h("th", { scope: "row" }, betName(bet)), h("td", {}, select), h("td", {}, closes));
    });
    inputs.paytables = paytableRows[0] ? paytableRows[0].querySelector("select") : null;

    const presetSelect = h("select", { name: "preset", "data-testid": "rules-preset", onchange: () => {
      state.preset = presetSelect.value;
      state.doc = structuredClone(base());
      render();
      refresh();
    } }, state.catalogue.presets.map((p) => h("option", { value: p.name, selected: p.name === state.preset }, presetName(p.name))));
    inputs.preset = presetSelect;

    fill(root,
      h("div", { class: "form-grid" },
        h("label", { class: "field" }, h("span", { class: "field-label" }, t("rules.preset")), presetSelect),
        h("p", { class: "hint", "data-testid": "rules-preset-about" }, presetAbout(state.catalogue.presets.find((p) => p.name === state.preset))),
        number("decks"), number("cut_min_from_end"), number("cut_max_from_end"), choice("burn", CHOICES.burn),
        number("demo_hands"), choice("last_hand", CHOICES.last_hand), choice("tie_policy", state.catalogue.tie_policies),
        choice("rounding", CHOICES.rounding), number("currency_digits"),
        h("label", { class: "field" }, h("span", { class: "field-label" }, fieldName("max_imbalance")), imbalance),
        PACE.map(seconds),
        h("label", { class: "field" }, h("span", { class: "field-label" }, fieldName("close_below_edge")), closeBelow),
        FLAGS.map(flag)),
      h("div", { class: "rules-columns" },
        h("table", { class: "data rules-paytables" },
          h("caption", {}, t("rules.paytables_caption")),
          h("thead", {}, h("tr", {}, ["rules.bet", "rules.paytable", "rules.closes_from"].map((k) => h("th", { scope: "col" }, t(k))))),
          h("tbody", {}, paytableRows)),
        h("div", {}, h("h4", {}, t("rules.preview")), previewBox)),
      status,
      h("p", { class: "hint" }, t("rules.hint")));
  };

  api.presets().then((catalogue) => {
    state.catalogue = catalogue;
    const start = catalogue.presets.find((p) => p.name === state.preset) || catalogue.presets[0];
    state.preset = start.name;
    state.doc = { ...structuredClone(start.document), ...structuredClone(initial ? initial.overrides : {}) };
    render();
    refresh();
  }).catch((err) => fill(root, h("p", { class: "error" }, errorText(err))));

  return {
    element: root,
    /** {preset, overrides}, or null while the rules are refused. */
    value: () => (state.doc && state.valid ? { preset: state.preset, overrides: overrides() } : null),
    /** Whether an offered bet favours the player under the rules shown. */
    negative: () => (state.preview ? state.preview.negative_edge : []),
  };
}
