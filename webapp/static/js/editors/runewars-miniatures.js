// RuneWars Miniatures: units drawn as tray grids (ranks × trays), the contacted edge picked by clicking it,
// the rolled icons entered with counters.
import {h} from "../dom.js";
import {checkbox, segmented, stepper, textInput} from "../widgets.js";
import {live, panel, row} from "./common.js";

const ICONS = [
  ["hit", "Hit", "✸"], ["mortal_strike", "Mortal strike", "☠"], ["accuracy", "Accuracy", "◎"],
  ["morale", "Morale", "⚑"], ["surge", "Surge", "⚡"],
];

/** Return a clickable grid of trays: clicking cell (rank r, tray c) makes rank r exactly c+1 trays wide. */
function trayGrid(unit, label, changed, {edges = null, path = ""} = {}) {
  const {el, draw} = live((redraw) => {
    const ranks = unit.ranks = Array.isArray(unit.ranks) ? unit.ranks : [1];
    const width = Math.max(4, Math.min(8, Math.max(0, ...ranks) + 1));
    const rows = ranks.length + (ranks.length < 8 ? 1 : 0);
    const front = ranks[0] || 0;
    const grid = h("div", {class: `trays ${edges ? "defender-trays" : "attacker-trays"}`, role: "group",
                           "aria-label": `${label}: ${ranks.length} rank(s) of ${ranks.join(", ")} tray(s), front first`,
                           style: `grid-template-columns: repeat(${width}, 44px)`, dataset: {path}});
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < width; c++) {
        const on = r < ranks.length && c < ranks[r];
        const partial = on && ranks[r] < front;
        const text = r < ranks.length
          ? `${label} rank ${r + 1}: ${on && c + 1 === ranks[r] ? "remove tray" : `${c + 1} tray(s)`}`
          : `${label}: add rank ${r + 1} with ${c + 1} tray(s)`;
        grid.append(h("button", {type: "button", class: `tray${on ? " on" : ""}${partial ? " partial" : ""}`,
                                 "aria-label": text, dataset: {rank: String(r), tray: String(c)},
                                 onclick: () => {
                                   if (r === ranks.length) ranks.push(c + 1);
                                   else if (on && c + 1 === ranks[r]) ranks[r] = c;
                                   else ranks[r] = c + 1;
                                   const kept = ranks.filter((n) => n > 0);
                                   ranks.splice(0, ranks.length, ...(kept.length ? kept : [1]));
                                   changed(); redraw();
                                 }}));
      }
    }
    if (edges) {
      const current = edges.get();
      const edge = (cls, value, text) => h("button", {type: "button", class: `edge ${cls}`,
        "aria-pressed": current === value ? "true" : "false", "aria-label": `Attacker contacts the ${text}`,
        dataset: {edge: value}, onclick: () => { edges.set(value); changed(); redraw(); }}, text);
      grid.append(edge("front", "front", "front"), edge("rear", "rear", "rear"),
                  edge("left", "side", "side"), edge("right", "side", "side"));
    }
    const summary = h("p", {class: "hint"}, `${ranks.length} rank(s): ${ranks.join(" + ")} tray(s)`
      + (ranks.some((n) => n < front) ? " — the last rank is partial" : "")
      + (edges ? ` · contacted edge: ${edges.get() || "not set"}` : ""));
    const buttons = h("div", {class: "row"},
      h("button", {type: "button", class: "button small secondary", onclick: () => {
        if (ranks.length < 8) { ranks.push(Math.max(1, ranks[ranks.length - 1] || 1)); changed(); redraw(); }
      }}, "Add a rank"),
      h("button", {type: "button", class: "button small secondary", disabled: ranks.length <= 1, onclick: () => {
        if (ranks.length > 1) { ranks.pop(); changed(); redraw(); }
      }}, "Remove the last rank"));
    return [grid, summary, buttons];
  });
  return {el, draw};
}

const attack = {
  example: {
    attack_type: "melee",
    attacker: {name: "Oathsworn Cavalry", ranks: [2, 2], contacted_edge: "front", touching_partial_rank: false,
               brutal: 0, precise: 0, flanking: false, flanked_by_defender: false, engaged: true},
    defender: {name: "Reanimates", defense: 1, defend_modifier: 0, wound_threshold: 1, ranks: [3, 3], figures_per_tray: 4},
    results: {hit: 2, mortal_strike: 1, accuracy: 0, morale: 1, surge: 0},
    panic_tokens_spent: 1,
  },
  render(el, pos, ctx) {
    const a = pos.attacker = pos.attacker || {ranks: [1]};
    const d = pos.defender = pos.defender || {ranks: [1], defense: 0};
    const res = pos.results = pos.results || {};
    const flags = live((redraw) => [
      segmented("Attack", [["melee", "Melee"], ["ranged", "Ranged"]], () => pos.attack_type, (v) => {
        pos.attack_type = v;
        if (v === "ranged" && !a.range) a.range = 1;
        ctx.changed(); redraw();
      }, {path: "attack_type"}),
      pos.attack_type === "ranged"
        ? stepper("Range", () => a.range, (v) => { a.range = v; ctx.changed(); }, {min: 1, max: 5, path: "attacker.range"}) : null,
      row(
        checkbox("Engaged", () => a.engaged, (v) => { a.engaged = v; ctx.changed(); }, {path: "attacker.engaged"}),
        checkbox("Touching a partial rank", () => a.touching_partial_rank, (v) => { a.touching_partial_rank = v; ctx.changed(); },
                 {path: "attacker.touching_partial_rank"}),
        checkbox("Flanking", () => a.flanking, (v) => { a.flanking = v; ctx.changed(); }, {path: "attacker.flanking"}),
        checkbox("Flanked by the defender", () => a.flanked_by_defender, (v) => { a.flanked_by_defender = v; ctx.changed(); },
                 {path: "attacker.flanked_by_defender"})),
      row(
        stepper("Brutal", () => (typeof a.brutal === "number" ? a.brutal : 0), (v) => { a.brutal = v; ctx.changed(); },
                {min: 0, max: 20, path: "attacker.brutal", small: true}),
        stepper("Precise", () => (typeof a.precise === "number" ? a.precise : 0), (v) => { a.precise = v; ctx.changed(); },
                {min: 0, max: 20, path: "attacker.precise", small: true})),
    ]);
    const attackerGrid = trayGrid(a, "Attacker", ctx.changed, {path: "attacker.ranks"});
    const defenderGrid = trayGrid(d, "Defender", ctx.changed, {
      path: "defender.ranks",
      edges: {get: () => a.contacted_edge, set: (v) => { a.contacted_edge = v; }},
    });
    const counters = h("div", {class: "icons", dataset: {path: "results"}}, ICONS.map(([key, label, glyph]) =>
      h("div", {class: "icon-counter"}, h("span", {class: "icon-glyph", "aria-hidden": "true"}, glyph),
        stepper(label, () => res[key] ?? 0, (v) => { res[key] = v; ctx.changed(); },
                {min: 0, max: 99, path: `results.${key}`, small: true}))));
    el.append(
      panel("Attack", flags.el),
      h("div", {class: "rwm-units"},
        panel("Attacker",
          textInput("Name", () => a.name, (v) => { a.name = v; ctx.changed(); }, {path: "attacker.name"}),
          h("p", {class: "hint"}, "Click a square to set a rank's width; the bottom row adds a rank."),
          attackerGrid.el),
        panel("Defender",
          textInput("Name", () => d.name, (v) => { d.name = v; ctx.changed(); }, {path: "defender.name"}),
          h("p", {class: "hint"}, "Click the edge the attacker touches: front (top), side, or rear (bottom)."),
          defenderGrid.el,
          row(
            stepper("Defense", () => d.defense ?? 0, (v) => { d.defense = v; ctx.changed(); }, {min: 0, max: 20, path: "defender.defense", small: true}),
            stepper("Defend modifier", () => d.defend_modifier ?? 0, (v) => { d.defend_modifier = v; ctx.changed(); }, {min: 0, max: 20, path: "defender.defend_modifier", small: true}),
            stepper("Wound threshold", () => d.wound_threshold ?? 1, (v) => { d.wound_threshold = v; ctx.changed(); }, {min: 1, max: 20, path: "defender.wound_threshold", small: true}),
            stepper("Figures per tray", () => d.figures_per_tray ?? 1, (v) => { d.figures_per_tray = v; ctx.changed(); }, {min: 1, max: 12, path: "defender.figures_per_tray", small: true})))),
      panel("Rolled icons", counters,
        stepper("Panic tokens spent", () => pos.panic_tokens_spent ?? 0, (v) => { pos.panic_tokens_spent = v; ctx.changed(); },
                {min: 0, max: 99, path: "panic_tokens_spent", small: true})),
    );
  },
};

export const editors = {attack};
