// Show a ruling: verdict, outcome, violations, decisions (as questions), steps with cited rules.
import {h, humanize} from "./dom.js";
import {citeLink} from "./preview.js";
import {answerControls} from "./answers.js";

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

// outcome keys are field names (snake_case, shown humanized) or ids and names (shown as they are)
function fieldName(key) {
  if (key === "") return "(no name)";
  return /^[a-z]+(_[a-z]+)+$/.test(key) || /^(path|reason|distance|points|winner|order)$/.test(key) ? humanize(key) : key;
}

function valueNode(value) {
  if (value === null || value === undefined) return h("span", {class: "muted"}, "—");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", {class: "muted"}, "none");
    if (value.every((v) => v === null || typeof v !== "object")) return h("span", {}, value.join(", "));
    return h("ul", {class: "plain"}, value.map((v) => h("li", {}, valueNode(v))));
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return h("span", {class: "muted"}, "none");
    return h("dl", {class: "inline"}, keys.flatMap((k) => [h("dt", {}, fieldName(k)), h("dd", {}, valueNode(value[k]))]));
  }
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  return h("span", {}, String(value));
}

/** Return the ruling's element; onAnswer(apply) is called when a decision is answered. */
export function renderRuling(ruling, position, onAnswer) {
  const out = h("section", {class: `ruling ${ruling.legal ? "legal" : "illegal"}`, "aria-label": "Ruling"});
  const summary = Object.entries(ruling.outcome || {}).filter(([k]) => k !== "violations");
  out.append(h("h2", {class: "verdict", tabindex: "-1"},
    ruling.legal ? "Ruling" : "Not allowed",
    h("span", {class: "badge"}, ruling.legal ? (ruling.decisions.length ? "needs a decision" : "legal") : "illegal")));
  if (summary.length) {
    out.append(h("dl", {class: "outcome"}, summary.flatMap(([k, v]) =>
      [h("dt", {}, humanize(k)), h("dd", {dataset: {key: k}}, valueNode(v))])));
  }
  const violations = (ruling.outcome || {}).violations || [];
  if (violations.length) {
    out.append(h("ul", {class: "violations"}, violations.map((v) =>
      h("li", {}, h("span", {}, v.message), " ", cites(ruling, v.cites)))));
  }
  if (ruling.decisions && ruling.decisions.length) {
    const box = h("div", {class: "decisions"}, h("h3", {}, "Questions for the players"));
    ruling.decisions.forEach((d, i) => {
      const controls = answerControls(ruling, d, position, onAnswer);
      const qid = `decision-${i}`;
      box.append(h("div", {class: "decision", role: "group", "aria-labelledby": qid, dataset: {index: String(i)}},
        h("p", {class: "question", id: qid}, `${humanize(d.who)}: choose ${d.choose}`),
        h("p", {class: "decision-cites"}, "Rules: ", cites(ruling, d.cites)),
        d.options && d.options.length && !controls
          ? h("p", {}, "Options: ", d.options.map(String).join(" · ")) : null,
        controls || h("p", {class: "hint"}, "State the choice in the position above, then ask again.")));
    });
    out.append(box);
  }
  out.append(h("h3", {}, "Step by step"));
  out.append(h("ol", {class: "steps"}, (ruling.steps || []).map((s) =>
    h("li", {}, h("p", {}, s.text), cites(ruling, s.cites)))));
  out.append(h("details", {class: "sources"},
    h("summary", {}, `Every rule cited (${(ruling.cites || []).length})`),
    h("ul", {class: "plain"}, (ruling.cites || []).map((pid) => {
      const src = ruling.sources[pid] || {};
      return h("li", {}, citeLink(pid, (ruling.links || {})[pid], pid), ` — ${src.title || ""}, ${src.locator || ""}`);
    }))));
  return out;
}
