// Accessible tabs: a tablist of buttons (arrow keys move between them) and their panels.
import { h } from "./dom.js";

/** tabs([{id, label, render}]) → element; a panel is built the first time it is shown. */
export function tabs(items, { label = "", initial = 0 } = {}) {
  const buttons = [];
  const panels = [];
  const built = new Set();
  const select = (index, focus = false) => {
    items.forEach((item, i) => {
      const on = i === index;
      buttons[i].setAttribute("aria-selected", String(on));
      buttons[i].tabIndex = on ? 0 : -1;
      panels[i].hidden = !on;
      if (on && !built.has(i)) {
        built.add(i);
        panels[i].append(item.render());
      }
    });
    if (focus) buttons[index].focus();
  };
  items.forEach((item, i) => {
    buttons.push(h("button", {
      type: "button", role: "tab", id: `tab-${item.id}`, "aria-controls": `panel-${item.id}`, "data-tab": item.id,
      onclick: () => select(i),
      onkeydown: (e) => {
        if (e.key === "ArrowRight") select((i + 1) % items.length, true);
        if (e.key === "ArrowLeft") select((i - 1 + items.length) % items.length, true);
      },
    }, item.label));
    panels.push(h("div", { role: "tabpanel", id: `panel-${item.id}`, "aria-labelledby": `tab-${item.id}`, class: "tab-panel" }));
  });
  const el = h("div", { class: "tabs" }, h("div", { role: "tablist", "aria-label": label, class: "tablist" }, buttons), panels);
  select(initial);
  return el;
}
