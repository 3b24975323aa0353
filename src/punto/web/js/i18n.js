// Languages: every string the client shows is looked up here, in English or Chinese.
import en from "./lang/en.js";
import zh from "./lang/zh.js";

export const LANGUAGES = { en, zh };
const STORE_KEY = "punto.lang";
const listeners = new Set();

function initial() {
  const saved = window.localStorage.getItem(STORE_KEY);
  if (saved && saved in LANGUAGES) return saved;
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}

let current = initial();

/** The current language code ("en" or "zh"). */
export function lang() {
  return current;
}

/** Switch language, remember it, and tell every listener (screens redraw). */
export function setLang(code) {
  if (!(code in LANGUAGES) || code === current) return;
  current = code;
  window.localStorage.setItem(STORE_KEY, code);
  applyDocumentLang();
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function applyDocumentLang() {
  document.documentElement.lang = current === "zh" ? "zh-Hans" : "en";
  document.title = t("app.title");
}

/**
 * The text of `key` in the current language, with {name} placeholders filled from
 * `params`. A missing key falls back to English, then to the key itself.
 */
export function t(key, params = {}) {
  const text = LANGUAGES[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** Whether a key exists (for optional labels such as error codes). */
export function has(key) {
  return key in LANGUAGES[current] || key in en;
}
