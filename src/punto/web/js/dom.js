// Small DOM helpers: element builder, live-region announcements, toasts.

/**
 * Build an element: h("button", {class: "x", onclick: fn, "aria-label": "…"}, child, …).
 * Attributes starting with "on" become listeners; `false`/`null` attributes are left out;
 * children may be strings, nodes, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (key === "value" && !svg) {
      el.value = value;
    } else if (key === "checked" || key === "selected" || key === "disabled") {
      el[key] = Boolean(value);
      if (value) el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Say something to screen readers (the polite live region in index.html). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/** A short message at the bottom of the screen; kind is "info", "ok" or "error". */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: ["toast", `toast-${kind}`], role: kind === "error" ? "alert" : "status" }, text);
  box.append(item);
  window.setTimeout(() => item.classList.add("toast-out"), 4200);
  window.setTimeout(() => item.remove(), 4800);
}

/** A labelled form field: <label>text <input …></label>. */
export function field(label, input, hint = null) {
  return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input, hint && h("small", { class: "hint" }, hint));
}

/** Values of a form's named controls as an object (numbers stay text). */
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === "checkbox" ? el.checked : el.value;
  }
  return out;
}

/** A small inline icon (an SVG path on a 24×24 grid, in the text's colour), hidden from
 * screen readers: the control around it carries the words. */
export function icon(path, cls = "icon") {
  return h("svg:svg", { class: cls, viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", focusable: "false" },
    h("svg:path", { d: path, fill: "currentColor" }));
}
