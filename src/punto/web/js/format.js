// Formatting: money in minor units, times, bet and phase names in the current language.
import { labelValue, lang, locale, t, has } from "./i18n.js";

let currencyCode = null;
const formatters = new Map();

/** The ISO 4217 currency amounts are shown in (the player's: their launch's, or the
 * table's purse for them); null shows plain grouped numbers. */
export function setCurrency(code) {
  currencyCode = typeof code === "string" && /^[A-Z]{3}$/.test(code) ? code : null;
}

export function currency() {
  return currencyCode;
}

function currencyFormat(digits) {
  const key = `${locale()}|${currencyCode}|${digits}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale(), { style: "currency", currency: currencyCode, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, found);
  }
  return found;
}

/** 12345 with 2 digits → "€123.45" in the player's currency, formatted the browser's way
 * for the language (plain "123.45" with no currency; minor units are integers). */
export function money(amount, digits = 2) {
  if (amount === null || amount === undefined) return "—";
  const negative = amount < 0;
  const abs = Math.abs(Math.trunc(amount));
  const scale = 10 ** digits;
  if (currencyCode) {
    const whole = Math.floor(abs / scale);
    const shown = currencyFormat(digits).format(digits > 0 ? Number(`${whole}.${String(abs % scale).padStart(digits, "0")}`) : whole);
    return `${negative ? "−" : ""}${shown}`;
  }
  const whole = count(Math.floor(abs / scale));
  const frac = digits > 0 ? `.${String(abs % scale).padStart(digits, "0")}` : "";
  return `${negative ? "−" : ""}${whole}${frac}`;
}

/** An amount of a given currency (a report's row, whatever the player's currency):
 * 610000 JPY with 0 digits → "¥610,000", 3950 EUR with 2 → "€39.50", formatted the
 * language's way; the decimal is built from the integer minor units, never divided.
 * ``sign``: a gain with its plus ("+€39.50"), as a net result is said. */
export function moneyIn(amount, code, digits, { sign = false } = {}) {
  if (amount === null || amount === undefined) return "—";
  const abs = Math.abs(Math.trunc(amount));
  const scale = 10 ** digits;
  const whole = Math.floor(abs / scale);
  const decimal = digits > 0 ? `${whole}.${String(abs % scale).padStart(digits, "0")}` : String(whole);
  const key = `${locale()}|${code}|${digits}|in`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale(), { style: "currency", currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(key, found);
  }
  return `${amount < 0 ? "−" : sign && amount > 0 ? "+" : ""}${found.format(decimal)}`;
}

/** A length of time in the current language, hours, minutes and seconds as it has them:
 * 5400 → "1 h 30 min" / "1小时30分钟"; 2.5 → "2.5 s". ``played``: a time played, in
 * whole seconds under a minute, whole minutes after. */
export function duration(seconds, { played = false } = {}) {
  let total = Math.max(0, Number(seconds) || 0);
  if (played) total = total < 60 ? Math.floor(total) : Math.floor(total / 60) * 60;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total - hours * 3600) / 60);
  const secs = Math.round((total - hours * 3600 - minutes * 60) * 10) / 10;
  const parts = [];
  if (hours) parts.push(t("time.h", { n: count(hours) }));
  if (minutes) parts.push(t("time.min", { n: count(minutes) }));
  if (secs || !parts.length) parts.push(t("time.s", { n: secs.toLocaleString(locale()) }));
  return parts.join(t("time.join"));
}

/** A signed amount: "+9.50" / "−10.00" / "0.00". */
export function signed(amount, digits = 2) {
  return amount > 0 ? `+${money(amount, digits)}` : money(amount, digits);
}

/** A count of people or things, grouped as the current language groups: 2480 → "2,480". */
export function count(n) {
  return Number(n).toLocaleString(locale() === "en-GB" ? "en-US" : locale());
}

/** "12.50" → 1250 minor units (null when it is not an amount). */
export function parseMoney(text, digits = 2) {
  const clean = String(text).trim().replace(/,/g, "");
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  const [whole, frac = ""] = clean.split(".");
  if (frac.length > digits) return null;
  return Number(whole) * 10 ** digits + Number(frac.padEnd(digits, "0") || 0);
}

/** A chip's short face: 500 → "5", 100000 → "1K" (in major units). */
export function chipLabel(amount, digits = 2) {
  const major = amount / 10 ** digits;
  if (major >= 1000000) return `${major / 1000000}M`;
  if (major >= 1000) return `${major / 1000}K`;
  return String(major);
}

export function betName(bet) {
  if (bet.startsWith("super_tie_")) return t("bet.super_tie", { k: bet.slice(10) });
  return t(`bet.${bet}`);
}

/** A rules preset's name ("macau" → "Macau"); a preset the client does not know keeps its id. */
export function presetName(name) {
  return has(`preset.${name}`) ? t(`preset.${name}`) : name;
}

/** A table's name in the current language: its display name for the language
 * (``names``, set by the administrator), else its default name, else its id. The one
 * place the client picks a table's name. */
export function tableName(table) {
  if (!table) return "";
  const names = table.names || {};
  return names[lang()] || table.name || table.id || "";
}

/** What a rules preset is, in the current language (the server's description otherwise). */
export function presetAbout(preset) {
  return has(`preset.${preset.name}.about`) ? t(`preset.${preset.name}.about`) : preset.description;
}

/** A paytable's name in the current language: what it pays ("8 to 1"), the named ones
 * (commission, no commission, the Dragon Bonus tables) by their own key. */
export function paytableName(name) {
  if (has(`paytable.${name}`)) return t(`paytable.${name}`);
  const odds = /_(\d+(?:\.\d+)?(?:_\d+)*)$/.exec(name);
  return odds ? t("paytable.odds", { odds: odds[1].split("_").join("/") }) : name;
}

/** Why a drift alarm rose (drift.py's reasons: "rtp:<bet>" or "outcomes:<event>"). */
export function alarmReason(reason) {
  const [kind, what] = reason.split(":");
  if (kind === "rtp") return t("alarm.reason.rtp", { bet: betName(what) });
  if (kind === "outcomes" && has(`drift.event.${what}`)) return t("alarm.reason.outcomes", { outcome: t(`drift.event.${what}`) });
  return reason;
}

export function phaseName(phase) {
  return has(`phase.${phase}`) ? t(`phase.${phase}`) : phase;
}

/** A table's phase as its status line shows it: a hand that ended void ([S5], a fault, a
 * supervisor's void) is "void, bets returned", not "settled". */
export function handPhaseName(s) {
  const void_ = s.phase === "settled" && (s.voided || (s.result && s.result.voidReason));
  return phaseName(void_ ? "void" : s.phase);
}

export function sideName(side) {
  return t(`side.${side}`);
}

/** A time of day in epoch seconds as the app shows one: 24-hour, "14:05" (and the seconds
 * with `seconds`). */
export function clockTime(epoch, { seconds = false } = {}) {
  const parts = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  if (seconds) parts.second = "2-digit";
  return new Date(epoch * 1000).toLocaleTimeString(locale(), parts);
}

/** A time in epoch seconds as local date and time. */
export function when(epoch) {
  if (!epoch) return "—";
  return new Date(epoch * 1000).toLocaleString(locale());
}

/**
 * An error (ApiError or other) as one line in the current language: the code's label, then
 * what the refusal's figures say (`params`: a bet limit and its amount in the table's
 * `digits`). The server's own message is English, so only English screens show it.
 */
export function errorText(err, digits = 2) {
  const code = err && err.code ? err.code : "internal";
  const why = err && err.params && err.params.reason;
  // a bet or chat line the player's jurisdiction refuses: one sentence of why
  if (code === "jurisdiction" && has(`error.jurisdiction.${why}`)) {
    return t(`error.jurisdiction.${why}`, {
      wait: err.params.retry_after === undefined ? "" : duration(Math.ceil(Number(err.params.retry_after))),
      feature: has(`feature.${err.params.feature}`) ? t(`feature.${err.params.feature}`) : "",
    });
  }
  // an action the table's phase refuses: what the table is doing now, in words
  if (code === "phase" && err.params && err.params.phase) return t("error.phase_now", { phase: phaseName(err.params.phase) });
  // too many failed logins from this client: how long it must wait, in its language
  if (code === "rate_limited" && err.params && err.params.retry_after !== undefined) {
    return t("error.rate_limited", { wait: duration(Math.ceil(Number(err.params.retry_after))) });
  }
  // bets the table balance cannot cover: both amounts, in the table's money
  if (code === "table_balance" && err.params && err.params.needed !== undefined) {
    return t("error.table_balance_of", { needed: money(err.params.needed, digits), balance: money(err.params.balance, digits) });
  }
  const label = has(`error.${code}`) ? t(`error.${code}`) : t("error.refused");
  const explained = explain(err && err.params, digits);
  if (explained) return labelValue(label, explained);
  const detail = lang() === "en" && err && err.message && err.message !== code ? err.message : "";
  // a detail that only says the label again is left out ("Not found: not found")
  const same = (a) => a.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  return detail && same(detail) !== same(label) ? labelValue(label, detail) : label;
}

function explain(params, digits) {
  if (!params || !params.limit || !has(`error.limit.${params.limit}`)) return "";
  return t(`error.limit.${params.limit}`, {
    bet: params.bet ? betName(params.bet) : "",
    value: money(params.value, digits),
  });
}
