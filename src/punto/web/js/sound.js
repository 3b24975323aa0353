// Table sounds: short Web Audio tones for the table's moments (a chip placed, bets
// confirmed, a card dealt, a win) and the dealer's calls ("Place your bets", "No more
// bets", "Banker wins") spoken by the browser's speechSynthesis in the player's language.
// No audio files: every sound is synthesized. Muted until the player turns sound on; the
// choice is remembered in localStorage.
import { LANGUAGE_INFO, lang, t } from "./i18n.js";

const STORE_KEY = "punto.sound";
const listeners = new Set();
let on = readChoice();
let audio = null;

function readChoice() {
  try {
    return window.localStorage.getItem(STORE_KEY) === "on";
  } catch {
    return false;
  }
}

/** Whether the player turned sound on (off until they do). */
export function soundOn() {
  return on;
}

/** Turn sound on or off, remember it, and tell every listener. Call it from a click: a
 * browser starts Web Audio only after a gesture. */
export function setSound(value) {
  on = Boolean(value);
  try {
    window.localStorage.setItem(STORE_KEY, on ? "on" : "off");
  } catch {
    // no storage: the choice holds for this page only
  }
  if (on) context();
  else if (window.speechSynthesis) window.speechSynthesis.cancel();
  for (const fn of listeners) fn(on);
}

export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) {
    try {
      audio = new Ctx();
    } catch {
      return null;
    }
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// Sound remembered as on after a reload: the browser lets the audio start at the first
// gesture on the page.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, () => { if (on) context(); }, { capture: true, passive: true });
}

/** One tone: frequency (Hz), start offset and length (s), oscillator shape and peak volume. */
function tone(ctx, { freq, at = 0, length = 0.12, type = "sine", volume = 0.2, slide = null }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A short burst of filtered noise (a card sliding on the felt). */
function swish(ctx, { at = 0, length = 0.09, volume = 0.25 }) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  source.buffer = buffer;
  filter.type = "bandpass";
  filter.frequency.value = 2600;
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const EFFECTS = {
  chip: (ctx) => {
    tone(ctx, { freq: 2200, length: 0.05, type: "triangle", volume: 0.18 });
    tone(ctx, { freq: 3100, at: 0.03, length: 0.05, type: "triangle", volume: 0.12 });
  },
  confirm: (ctx) => {
    tone(ctx, { freq: 660, length: 0.1, volume: 0.16 });
    tone(ctx, { freq: 990, at: 0.09, length: 0.16, volume: 0.16 });
  },
  card: (ctx) => swish(ctx, {}),
  win: (ctx) => [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { freq, at: i * 0.09, length: 0.22, type: "triangle", volume: 0.18 })),
  lose: (ctx) => tone(ctx, { freq: 330, length: 0.3, volume: 0.12, slide: 220 }),
};

/** Play a sound effect by name (chip, confirm, card, win, lose), if sound is on. */
export function effect(name) {
  if (!on || !EFFECTS[name]) return;
  const ctx = context();
  if (!ctx || ctx.state !== "running") return;
  try {
    EFFECTS[name](ctx);
  } catch {
    // a sound that cannot play never breaks the table
  }
}

/** The dealer's call `key` (call.place_bets, call.no_more_bets, call.banker…), spoken in the
 * current language when the browser has a voice for it, else a two-tone chime. */
export function call(key) {
  if (!on) return;
  const synth = window.speechSynthesis;
  const tag = LANGUAGE_INFO[lang()].locale;
  const voice = synth && voiceFor(synth, tag);
  if (!voice) {
    const ctx = context();
    if (ctx && ctx.state === "running") {
      tone(ctx, { freq: 880, length: 0.14, volume: 0.14 });
      tone(ctx, { freq: 660, at: 0.14, length: 0.2, volume: 0.14 });
    }
    return;
  }
  const say = new window.SpeechSynthesisUtterance(t(key));
  say.voice = voice;
  say.lang = voice.lang;
  say.rate = 1;
  synth.cancel();
  synth.speak(say);
}

/** A voice of the language: the exact locale (zh-CN, zh-HK…) first, then the language. */
function voiceFor(synth, tag) {
  const voices = synth.getVoices() || [];
  const norm = (v) => String(v.lang || "").replace("_", "-").toLowerCase();
  const want = tag.toLowerCase();
  const base = want.split("-")[0];
  const hant = lang() === "zh-Hant";
  return (
    voices.find((v) => norm(v) === want) ||
    (hant && voices.find((v) => ["zh-tw", "zh-hk", "yue-hk"].includes(norm(v)))) ||
    (!hant && voices.find((v) => norm(v).startsWith(base) && !["zh-tw", "zh-hk"].includes(norm(v)))) ||
    voices.find((v) => norm(v).startsWith(base)) ||
    null
  );
}
