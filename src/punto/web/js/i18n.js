// Languages: every string the client shows is looked up here, in English, Simplified
// Chinese ("zh") or Traditional Chinese ("zh-Hant", for Macau, Hong Kong and Taiwan).
import en from "./lang/en.js";
import zh from "./lang/zh.js";
import zhHant from "./lang/zh-Hant.js";

export const LANGUAGES = { en, zh, "zh-Hant": zhHant };

/** Each language's name in itself (the switch), its BCP 47 tag (<html lang>) and the
 * locale its numbers and dates are written in. */
export const LANGUAGE_INFO = {
  en: { label: "English", tag: "en", locale: "en-GB" },
  zh: { label: "简体中文", tag: "zh-Hans", locale: "zh-CN" },
  "zh-Hant": { label: "繁體中文", tag: "zh-Hant", locale: "zh-HK" },
};

const STORE_KEY = "punto.lang";
const listeners = new Set();

/**
 * The client's language for one browser language tag, or null when the tag is not one we
 * speak: zh-TW, zh-HK, zh-MO and zh-Hant(-…) are Traditional; zh, zh-CN, zh-SG and
 * zh-Hans(-…) Simplified; en(-…) English.
 */
export function languageFor(tag) {
  const parts = String(tag || "").toLowerCase().replace(/_/g, "-").split("-");
  if (parts[0] === "en") return "en";
  if (parts[0] !== "zh") return null;
  if (parts.includes("hant")) return "zh-Hant";
  if (parts.includes("hans")) return "zh";
  if (parts.some((p) => p === "tw" || p === "hk" || p === "mo")) return "zh-Hant";
  return "zh";
}

/** The language of the browser's preferred languages: the first one we speak, else English. */
export function detect(tags) {
  for (const tag of tags) {
    const code = languageFor(tag);
    if (code) return code;
  }
  return "en";
}

function browserTags() {
  if (navigator.languages && navigator.languages.length) return navigator.languages;
  return [navigator.language || "en"];
}

function initial() {
  let saved = null;
  try {
    saved = window.localStorage.getItem(STORE_KEY);
  } catch {
    saved = null;
  }
  if (saved && saved in LANGUAGES) return saved;
  return detect(browserTags());
}

let current = initial();

/** The current language code ("en", "zh" or "zh-Hant"). */
export function lang() {
  return current;
}

/** The locale numbers and dates are written in for the current language. */
export function locale() {
  return LANGUAGE_INFO[current].locale;
}

/** Switch language, remember it, and tell every listener (screens redraw). */
export function setLang(code) {
  if (!(code in LANGUAGES) || code === current) return;
  current = code;
  try {
    window.localStorage.setItem(STORE_KEY, code);
  } catch {
    // A browser without storage still switches; the choice is just not remembered.
  }
  applyDocumentLang();
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function applyDocumentLang() {
  document.documentElement.lang = LANGUAGE_INFO[current].tag;
  document.title = t("app.title");
}

/**
 * The text of `key` in the current language, with {name} placeholders filled from
 * `params`. A missing key falls back to English, then to the key itself.
 */
export function t(key, params = {}) {
  // a count of one is said as the language says it ("1 hand") where it has `${key}.one`
  const one = Number(params.n) === 1 ? LANGUAGES[current][`${key}.one`] ?? en[`${key}.one`] : undefined;
  const text = one ?? LANGUAGES[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Items as one list in the current language ("a, b" / "a、b"). */
export function listOf(items) {
  return items.join(t("common.list_sep"));
}

/** "label: value" with the current language's colon. */
export function labelValue(label, value) {
  return t("common.label_value", { label, value });
}

/** Whether a key exists (for optional labels such as error codes). */
export function has(key) {
  return key in LANGUAGES[current] || key in en;
}
