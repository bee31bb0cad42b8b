// Rule pages without the server: /rules/<id>, /rules/ (the rulebooks and the glossary) and /site/ are
// answered offline by the service worker with this page, which draws them from the saved copy of the
// rules (offline-data.js), as the server's rule page shows them: the one-line rule, the text, players'
// questions, the table, the FAQ and errata about it, sub-rules and related rules.
import {clear, h} from "./dom.js";
import {savedRules} from "./offline-data.js";
import {installPreviews} from "./preview.js";

const root = document.getElementById("offline-rule");

function fromHTML(html) {
  // the paragraph's text as rendered by the server's one renderer (engine/views/render.py), escaped there
  const tpl = document.createElement("template");
  tpl.innerHTML = html || "";
  return tpl.content;
}

function link(data, pid) {
  const p = data.byId.get(pid);
  return h("li", {}, h("a", {class: "cite", href: `/rules/${pid}`, dataset: {pid}}, p ? p.t : pid),
    p ? h("span", {class: "muted"}, ` — ${p.l}`) : null);
}

function links(data, title, ids) {
  const known = ids.filter((i) => data.byId.has(i));
  if (!known.length) return null;
  return h("section", {class: "panel"}, h("h2", {}, title), h("ul", {class: "plain"}, known.map((i) => link(data, i))));
}

function table(tb) {
  if (!tb) return null;
  return h("div", {class: "table-wrap"}, h("table", {class: "data"},
    h("thead", {}, h("tr", {}, tb.columns.map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, tb.rows.map((r) => h("tr", {}, r.map((c) => h("td", {}, c === null ? "" : String(c))))))));
}

function note(data, pid) {
  const n = data.byId.get(pid);
  return h("div", {class: `faq-note kind-box-${n.k}`, id: `note-${n.i}`},
    h("h3", {}, h("span", {class: `kind kind-${n.k}`}, n.k), " ", h("a", {class: "cite", href: `/rules/${n.i}`, dataset: {pid: n.i}}, n.t)),
    n.s ? h("p", {class: "rule-short"}, h("strong", {}, n.s)) : null,
    h("div", {class: "faq-text"}, fromHTML(n.h)),
    h("p", {class: "muted"}, n.l));
}

function showRule(data, p) {
  document.title = `${p.t} — ${p.l} — Runecodex`;
  const children = data.paragraphs.filter((q) => q.i.startsWith(`${p.i}.`) && !q.i.slice(p.i.length + 1).includes("."));
  const about = (p.ab || []).filter((i) => data.byId.has(i));
  root.append(
    h("p", {class: "crumbs"}, h("a", {href: "/rules/"}, "Rulebooks"), ` › ${data.games[p.g] || p.g}`),
    h("article", {class: "rule", id: p.i},
      h("p", {class: "crumbs"}, h("span", {class: `kind kind-${p.k}`}, p.k)),
      h("h1", {}, p.t),
      h("p", {class: "locator"}, `${p.l} `, h("code", {}, p.i)),
      p.o ? h("p", {class: "note"}, "Corrected by errata: the text below is the corrected one.") : null,
      p.s ? h("p", {class: "rule-short"}, h("span", {class: "label"}, "In one line"), " ", h("strong", {}, p.s)) : null,
      h("div", {class: "rule-text"}, fromHTML(p.h)),
      p.n ? h("p", {class: "note rule-note"}, `Note: ${p.n}`) : null,
      (p.a || []).length ? h("section", {class: "players-ask", "aria-label": "Players ask"},
        h("p", {class: "label"}, "Players ask"), h("ul", {}, p.a.map((q) => h("li", {}, q)))) : null,
      table(p.tb),
      p.o ? h("details", {}, h("summary", {}, "Original text (before errata)"), fromHTML(p.o)) : null,
      p.c ? h("p", {class: "note"}, `Contested: ${p.c}`) : null),
    about.length ? h("section", {class: "panel faq-notes"}, h("h2", {}, "FAQ and errata about this rule"),
      about.map((i) => note(data, i))) : null,
    links(data, "Sub-rules", children.map((q) => q.i)),
    links(data, "Amends", p.m || []),
    links(data, "Clarifies", p.cl || []),
    links(data, "See", p.see ? [p.see] : []),
    links(data, "Related", p.r || []));
}

function showIndex(data) {
  document.title = "Rulebooks — Runecodex";
  root.append(h("h1", {}, "Rulebooks"),
    h("p", {class: "hint"}, "Every paragraph is readable here from the copy saved on this device."));
  for (const [key, doc] of Object.entries(data.docs)) {
    const entries = data.paragraphs.filter((p) => p.d === key && p.i.split(".").length === 2 && p.k !== "glossary");
    if (!entries.length) continue;
    root.append(h("details", {class: "panel book"}, h("summary", {}, h("h2", {}, doc.title)),
      h("ul", {class: "plain"}, entries.map((p) => link(data, p.i)))));
  }
  for (const [game, name] of Object.entries(data.games)) {
    const terms = data.paragraphs.filter((p) => p.g === game && p.k === "glossary")
      .sort((a, b) => a.t.localeCompare(b.t));
    if (!terms.length) continue;
    root.append(h("details", {class: "panel book glossary", id: `glossary-${game}`},
      h("summary", {}, h("h2", {}, `${name}: glossary`)),
      h("ul", {class: "plain"}, terms.map((p) => link(data, p.i)))));
  }
}

async function main() {
  let data;
  try {
    data = await savedRules();
  } catch {
    root.append(h("h1", {}, "Not saved on this device"),
      h("p", {}, "You are offline, and this device has no saved copy of the rules yet. Open Runecodex once " +
                 "while online and it keeps one."));
    return;
  }
  clear(root);
  const m = location.pathname.match(/^\/rules\/(.+)$/);
  const pid = m ? decodeURIComponent(m[1]).trim().toLowerCase() : new URLSearchParams(location.search).get("id");
  const p = pid ? data.byId.get(pid) : null;
  if (pid && !p) {
    root.append(h("h1", {}, "Not found"), h("p", {}, `There is no paragraph ${pid} in the saved rules.`));
  } else if (p) {
    showRule(data, p);
  } else {
    showIndex(data);
  }
  root.dataset.ready = "true";
  installPreviews();
}

main();
