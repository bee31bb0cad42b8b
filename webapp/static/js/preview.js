// Citation links: hover, focus or tap one to preview the paragraph (fetched from /api/rules/<id>).
import {getJSON} from "./api.js";
import {h, clear} from "./dom.js";

const cache = new Map();
let popover = null;
let current = null;
let hideTimer = null;
let showTimer = null;
let lastPointer = "mouse";
let openBeforeTap = null;  // the link whose preview was open when the current tap began

/** Return a citation link to paragraph pid (href: the built site or /rules/<id>). */
export function citeLink(pid, href, label, extra) {
  return h("a", {class: "cite", href: href || `/rules/${pid}`, dataset: {pid}, "aria-describedby": "rule-preview"},
           label || pid, extra ? h("span", {class: "visually-hidden"}, ` (${extra})`) : null);
}

function fetchRule(pid) {
  if (!cache.has(pid)) cache.set(pid, getJSON(`/api/rules/${encodeURIComponent(pid)}`));
  return cache.get(pid);
}

function ensurePopover() {
  if (popover) return popover;
  popover = h("div", {id: "rule-preview", class: "preview", role: "tooltip", hidden: true});
  popover.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  popover.addEventListener("mouseleave", () => scheduleHide());
  document.body.appendChild(popover);
  return popover;
}

function place(link) {
  const box = link.getBoundingClientRect();
  const narrow = window.innerWidth < 600;
  popover.classList.toggle("sheet", narrow);
  if (narrow) {
    popover.style.left = "";
    popover.style.top = "";
    return;
  }
  const width = Math.min(440, window.innerWidth - 24);
  const left = Math.max(12, Math.min(box.left + window.scrollX, window.scrollX + window.innerWidth - width - 12));
  popover.style.width = `${width}px`;
  popover.style.left = `${left}px`;
  popover.style.top = `${box.bottom + window.scrollY + 6}px`;
}

async function show(link) {
  clearTimeout(hideTimer);
  const pid = link.dataset.pid;
  ensurePopover();
  current = link;
  clear(popover).append(h("p", {class: "preview-loading"}, `Loading ${pid}…`));
  popover.hidden = false;
  place(link);
  const {ok, data} = await fetchRule(pid);
  if (current !== link) return;
  clear(popover);
  if (!ok) {
    popover.append(h("p", {}, data.error || `no paragraph ${pid}`));
    return;
  }
  const where = [data.locator, data.id].filter((x) => x !== null && x !== undefined && x !== "").join(" · ");
  // DOM append() would write a null child as the text "null": keep only the parts that exist
  popover.append(...[
    h("p", {class: "preview-head"}, h("strong", {}, data.title || data.id),
      data.kind ? [" ", h("span", {class: `kind kind-${data.kind}`}, data.kind)] : null),
    where ? h("p", {class: "preview-locator"}, where) : null,
    (data.amended_by || []).length ? h("p", {class: "preview-note"}, `Corrected by errata ${data.amended_by.join(", ")}`) : null,
    data.short ? h("p", {class: "preview-short"}, data.short) : null,
    // the rule's text as running prose: YAML's line breaks are not the author's (lists read as "a; b")
    data.text ? h("p", {class: "preview-text"}, data.text.replace(/\s*\n\s*/g, " ")) : null,
    (data.faq || []).length ? h("p", {class: "preview-note faq"}, `FAQ: ${data.faq.length} answer(s) about this rule`) : null,
    h("p", {class: "preview-actions"},
      h("a", {href: link.getAttribute("href"), class: "button small"}, "Open the rule"),
      " ",
      h("button", {type: "button", class: "button small secondary", onclick: () => hide()}, "Close")),
  ].filter(Boolean));
  place(link);
}

function scheduleHide() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hide, 250);
}

/** Hide the preview. */
export function hide() {
  clearTimeout(showTimer);
  if (popover) popover.hidden = true;
  current = null;
}

/** Install the preview behaviour on the whole document (event delegation; call once). */
export function installPreviews() {
  document.addEventListener("pointerdown", (e) => {
    lastPointer = e.pointerType || "mouse";
    const link = e.target.closest && e.target.closest("a.cite");
    openBeforeTap = link && current === link && popover && !popover.hidden ? link : null;
  }, true);
  document.addEventListener("mouseover", (e) => {
    const link = e.target.closest && e.target.closest("a.cite");
    if (!link || lastPointer === "touch") return;
    clearTimeout(showTimer);
    showTimer = setTimeout(() => show(link), 150);
  });
  document.addEventListener("mouseout", (e) => {
    const link = e.target.closest && e.target.closest("a.cite");
    if (link && lastPointer !== "touch") { clearTimeout(showTimer); scheduleHide(); }  // a tap's compat mouse events do not hide it
  });
  document.addEventListener("focusin", (e) => {
    const link = e.target.closest && e.target.closest("a.cite");
    if (link) show(link);
  });
  document.addEventListener("focusout", (e) => {
    const link = e.target.closest && e.target.closest("a.cite");
    if (link && !(popover && popover.contains(e.relatedTarget))) scheduleHide();
  });
  document.addEventListener("click", (e) => {
    const link = e.target.closest && e.target.closest("a.cite");
    if (link && lastPointer === "touch" && openBeforeTap !== link) {
      e.preventDefault();  // the first tap previews; a second tap (or the preview's link) opens the rule
      openBeforeTap = link;
      if (current !== link || !popover || popover.hidden) show(link);
    } else if (!link && popover && !popover.contains(e.target)) {
      hide();
    }
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
}
