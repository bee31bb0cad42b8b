// Show a ruling: the summary sentence first, then the verdict, the outcome in players' words, the
// violations, every decision as a control in place, and the numbered steps with their cited rules.
import {h, humanize} from "./dom.js";
import {citeLink} from "./preview.js";
import {answerControls} from "./answers.js";
import {factionName, keyLabel, valueWords} from "./names.js";

function cites(ruling, ids) {
  if (!ids || !ids.length) return null;
  return h("span", {class: "cites"}, ids.map((pid) => {
    const src = (ruling.sources || {})[pid] || {};
    const where = src.source || {};
    const short = where.paragraph && !where.page ? `§ ${where.paragraph}` : where.page ? `p. ${where.page}` : "";
    const label = [src.title || pid, short ? h("span", {class: "loc"}, short) : null];
    return citeLink(pid, (ruling.links || {})[pid], label, src.locator);
  }));
}

/** Return who decides in words: "the tied players (daqan and elves)" → "The tied players (Daqan and Latari Elves)". */
function whoWords(who) {
  return humanize(String(who || "").replace(/\b(daqan|elves|uthuk|waiqar)\b/g, (k) => factionName(k)));
}

function isEmpty(value) {
  return value === null || value === undefined || (Array.isArray(value) && !value.length)
    || (typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length);
}

function valueNode(value, labels, words = null) {
  if (words && (typeof value === "string" || typeof value === "boolean") && String(value) in words) {
    return h("span", {}, words[String(value)]);
  }
  if (value === null || value === undefined) return h("span", {class: "muted"}, "—");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", {class: "muted"}, "none");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", {}, value.map((v) => (words && String(v) in words ? words[String(v)] : valueWords(v))).join(", "));
    }
    return h("ul", {class: "plain"}, value.map((v) => h("li", {}, valueNode(v, labels, words))));
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return h("span", {class: "muted"}, "none");
    return h("dl", {class: "inline"}, keys.flatMap((k) => [h("dt", {}, keyLabel(k, labels)), h("dd", {}, valueNode(value[k], labels))]));
  }
  return h("span", {}, valueWords(value));
}

/** Return the ruling's element; onAnswer(apply) is called when a decision is answered.
 *  opts: {schema (the situation's JSON Schema), labels (player labels of outcome keys), values (words of
 *  an outcome key's values)}. */
export function renderRuling(ruling, position, onAnswer, opts = {}) {
  const labels = opts.labels || ruling.labels || {};
  const values = opts.values || {};
  const decisions = ruling.decisions || [];
  const status = !ruling.legal ? "illegal" : decisions.length ? "needs a decision" : "final";
  const out = h("section", {class: `ruling ${ruling.legal ? "legal" : "illegal"}${decisions.length ? " open" : ""}`,
                            "aria-label": "Ruling"});
  out.append(h("h2", {class: "verdict", tabindex: "-1"},
    ruling.legal ? "Ruling" : "Not allowed", h("span", {class: "badge"}, status)));
  if (ruling.summary) out.append(h("p", {class: "ruling-summary"}, ruling.summary));
  // What the engine read (contract 0.3): shown with every ruling, so a ruling about another position than the
  // one on screen is seen at once.
  if ((ruling.reading || []).length) {
    out.append(h("div", {class: "reading", role: "group", "aria-labelledby": "reading-title"},
      h("h3", {id: "reading-title"}, "What this ruling read"),
      h("ul", {class: "plain"}, ruling.reading.map((line) => h("li", {}, line)))));
  }
  // the shapes a table ruling derives (`drawing`) are drawn on the table board, with their legend, not listed here
  const shown = Object.entries(ruling.outcome || {}).filter(([k, v]) => k !== "violations" && k !== "drawing" && !isEmpty(v));
  if (shown.length) {
    out.append(h("dl", {class: "outcome"}, shown.flatMap(([k, v]) =>
      [h("dt", {}, keyLabel(k, labels)), h("dd", {dataset: {key: k}}, valueNode(v, labels, values[k] || null))])));
  }
  const violations = (ruling.outcome || {}).violations || [];
  if (violations.length) {
    out.append(h("ul", {class: "violations"}, violations.map((v) =>
      h("li", {}, h("span", {}, v.message), " ", cites(ruling, v.cites)))));
  }
  if (decisions.length) {
    const box = h("div", {class: "decisions"}, h("h3", {}, decisions.length === 1 ? "A question for the players" : "Questions for the players"));
    decisions.forEach((d, i) => {
      const controls = answerControls(ruling, d, position, onAnswer, opts.schema || null);
      const qid = `decision-${i}`;
      box.append(h("div", {class: "decision", role: "group", "aria-labelledby": qid,
                            dataset: {index: String(i), field: d.field || ""}},
        h("p", {class: "question", id: qid}, h("strong", {}, whoWords(d.who)), `: choose ${d.choose}`),
        controls || (d.options && d.options.length
          ? h("p", {}, "Options: ", d.options.map(valueWords).join(" · ")) : null),
        controls ? null : h("p", {class: "hint"}, "State the choice in the position above, then ask again."),
        h("p", {class: "decision-cites"}, "Rules: ", cites(ruling, d.cites))));
    });
    out.append(box);
  }
  out.append(h("h3", {}, "Step by step"));
  out.append(h("ol", {class: "steps"}, (ruling.steps || []).map((s) =>
    h("li", {}, h("p", {}, s.text), cites(ruling, s.cites)))));
  out.append(h("details", {class: "sources"},
    h("summary", {}, `Every rule cited (${(ruling.cites || []).length})`),
    h("ul", {class: "plain"}, (ruling.cites || []).map((pid) => {
      const src = (ruling.sources || {})[pid] || {};
      return h("li", {}, citeLink(pid, (ruling.links || {})[pid], pid), ` — ${src.title || ""}, ${src.locator || ""}`);
    }))));
  return out;
}
