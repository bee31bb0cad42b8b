// Pieces shared by the game editors.
import {h} from "../dom.js";

/** Return a titled panel (a section with a heading). */
export function panel(title, ...children) {
  return h("section", {class: "panel"}, h("h3", {}, title), ...children);
}

/** Return a row of fields. */
export function row(...children) {
  return h("div", {class: "row"}, ...children);
}

function focusKey(node) {
  if (!node || !node.getAttribute) return null;
  return [node.tagName, node.id, node.getAttribute("aria-label"), node.dataset.path, node.dataset.rank,
          node.dataset.tray, node.dataset.edge, node.dataset.area, node.dataset.slot, node.dataset.border].join("|");
}

/** Return a holder element whose content is rebuilt by calling draw(); focus stays on the same control. */
export function live(build, attrs = {}) {
  const el = h("div", attrs);
  let drawing = false;
  let again = false;
  const draw = () => {
    if (drawing) { again = true; return; }
    drawing = true;
    try {
      do {
        again = false;
        const active = document.activeElement;
        const key = active && el.contains(active) ? focusKey(active) : null;
        const out = build(draw);
        const nodes = (Array.isArray(out) ? out : [out]).filter(Boolean);
        el.replaceChildren(...nodes);
        if (key) {
          const same = [...el.querySelectorAll("*")].find((n) => focusKey(n) === key);
          if (same && typeof same.focus === "function") same.focus();
        }
      } while (again);
    } finally {
      drawing = false;
    }
  };
  draw();
  return {el, draw};
}

export const FACTIONS = ["daqan", "elves", "uthuk", "waiqar"];
