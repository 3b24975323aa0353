// Formatting: money in minor units, times, bet and phase names in the current language.
import { locale, t, has } from "./i18n.js";

/** 12345 with 2 digits → "123.45" (grouped; minor units are integers, never floats). */
export function money(amount, digits = 2) {
  if (amount === null || amount === undefined) return "—";
  const negative = amount < 0;
  const abs = Math.abs(Math.trunc(amount));
  const scale = 10 ** digits;
  const whole = Math.floor(abs / scale).toLocaleString(locale() === "en-GB" ? "en-US" : locale());
  const frac = digits > 0 ? `.${String(abs % scale).padStart(digits, "0")}` : "";
  return `${negative ? "−" : ""}${whole}${frac}`;
}

/** A signed amount: "+9.50" / "−10.00" / "0.00". */
export function signed(amount, digits = 2) {
  return amount > 0 ? `+${money(amount, digits)}` : money(amount, digits);
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

export function phaseName(phase) {
  return has(`phase.${phase}`) ? t(`phase.${phase}`) : phase;
}

export function sideName(side) {
  return t(`side.${side}`);
}

/** A time in epoch seconds as local date and time. */
export function when(epoch) {
  if (!epoch) return "—";
  return new Date(epoch * 1000).toLocaleString(locale());
}

/** An error (ApiError or other) as one line in the current language. */
export function errorText(err) {
  const code = err && err.code ? err.code : "internal";
  const label = has(`error.${code}`) ? t(`error.${code}`) : code;
  const detail = err && err.message && err.message !== code ? err.message : "";
  return detail ? `${label}: ${detail}` : label;
}
