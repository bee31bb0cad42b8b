// Build DOM nodes without markup strings: every text goes in as a text node (names are never HTML).

let counter = 0;

/** Return a fresh id with the given prefix. */
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Create an element: h("button", {class: "x", onclick: fn, "aria-label": "…"}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "style") {
      el.style.cssText = value;  // through the CSSOM: allowed by the page's Content-Security-Policy
    } else if (key === "class") {
      el.className = value;
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (["value", "checked", "disabled", "selected", "hidden"].includes(key)) {
      el[key] = value;
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
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Remove every child of el and return it. */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Return "attrition_skulls" as "Attrition skulls". */
export function humanize(name) {
  const text = String(name).replace(/[_-]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Return a deep copy of a JSON value. */
export function copy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** Keep only text and <mark> elements of a server snippet (escaped text with <mark>…</mark>). */
export function snippetNodes(html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  const out = [];
  for (const node of tpl.content.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) out.push(document.createTextNode(node.textContent));
    else if (node.nodeName === "MARK") out.push(h("mark", {}, node.textContent));
    else out.push(document.createTextNode(node.textContent || ""));
  }
  return out;
}

/** Announce a short message to screen readers and show it in the status line. */
export function announce(text) {
  const el = document.getElementById("status");
  if (el) el.textContent = text;
}
