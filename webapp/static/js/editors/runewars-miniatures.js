// RuneWars Miniatures: units drawn as tray grids (ranks × trays), the edges in contact tapped on both
// units, the rolled icons entered with counters.
//
// Contact: the contract's `attacker.contacted_edge` is the ATTACKER's edge that touches the defender
// (it sets the threat). The picker drawn on the defender says which of the DEFENDER's edges is touched.
// From the two: flanking = the attacker's front touches the defender's side or rear (41.1: +1 die);
// flanked_by_defender = the defender's front touches the attacker's side or rear (no rank rerolls).
// Which side (left/right/rear) the player tapped is kept in `ui_contact` (ignored by the engine) so a
// shared link shows the same picture. A ranged attack has no contact: those fields are not sent.
import {h} from "../dom.js";
import {checkbox, segmented, stepper, textInput} from "../widgets.js";
import {live, panel, row} from "./common.js";

const ICONS = [
  ["hit", "Hit", "✸"], ["mortal_strike", "Mortal strike", "☠"], ["accuracy", "Accuracy", "◎"],
  ["morale", "Morale", "⚑"], ["surge", "Surge", "⚡"],
];
const EDGE_WORDS = {front: "front", left: "left side", right: "right side", rear: "rear"};
const KIND = {front: "front", left: "side", right: "side", rear: "rear"};

/** Return "1 tray" / "2 trays". */
function count(n, word) {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

function unitName(unit, fallback) {
  return (unit.name || "").trim() || fallback;
}

/** Return the contact picture {attacker_edge, defender_edge} of pos (from ui_contact or the contract). */
function contactOf(pos) {
  const a = pos.attacker || {};
  const ui = pos.ui_contact && typeof pos.ui_contact === "object" ? pos.ui_contact : {};
  let att = ui.attacker_edge;
  if (!EDGE_WORDS[att] || KIND[att] !== (a.contacted_edge || KIND[att])) {
    att = a.contacted_edge === "side" ? "left" : a.contacted_edge === "rear" ? "rear" : "front";
  }
  let def = ui.defender_edge;
  if (!EDGE_WORDS[def]) def = a.flanking ? "left" : "front";
  return {attacker_edge: att, defender_edge: def};
}

/** Return the sentence saying what the contact means ("Attacker's front touches the defender's left side: flanking …"). */
export function contactSentence(pos) {
  const {attacker_edge: att, defender_edge: def} = contactOf(pos);
  let result;
  if (att === "front" && def !== "front") result = "flanking (+1 die)";
  else if (def === "front" && att !== "front") result = "the defender is flanking the attacker (no rerolls for the attacker's ranks)";
  else result = "no flanking";
  return `Attacker's ${EDGE_WORDS[att]} touches the defender's ${EDGE_WORDS[def]}: ${result}.`;
}

/** Make pos exactly what the screen shows (called on the position before it is sent). */
export function normalize(pos) {
  const a = pos.attacker = pos.attacker || {ranks: [1]};
  const d = pos.defender = pos.defender || {ranks: [1], defense: 1};
  pos.results = pos.results || {};
  const ui = pos.ui_contact = pos.ui_contact && typeof pos.ui_contact === "object" ? pos.ui_contact : {};
  if (pos.attack_type === "ranged") {
    for (const k of ["contacted_edge", "contacted_edges", "flanking", "flanked_by_defender", "flanking_die",
                     "touching_partial_rank", "touching_other_trays"]) delete a[k];
    delete pos.ui_contact;
    if (typeof a.range !== "number") a.range = 1;
    if (typeof a.engaged !== "boolean") a.engaged = false;
    if (typeof a.line_of_sight !== "boolean") a.line_of_sight = true;
    if (typeof a.in_firing_arc !== "boolean") a.in_firing_arc = true;
    if (Array.isArray(d.engaged_with_allies) && !d.engaged_with_allies.length) delete d.engaged_with_allies;
    return pos;
  }
  pos.attack_type = "melee";
  for (const k of ["range", "line_of_sight", "in_firing_arc"]) delete a[k];
  delete d.engaged_with_allies;
  const c = contactOf(pos);
  ui.attacker_edge = c.attacker_edge;
  ui.defender_edge = c.defender_edge;
  a.contacted_edge = KIND[c.attacker_edge];
  delete a.contacted_edges;
  a.flanking = c.attacker_edge === "front" && c.defender_edge !== "front";
  a.flanked_by_defender = c.defender_edge === "front" && c.attacker_edge !== "front";
  if (!a.flanking) delete a.flanking_die;
  if (typeof a.engaged !== "boolean") a.engaged = true;
  const ranks = Array.isArray(a.ranks) ? a.ranks : [];
  const partial = ranks.length > 1 && ranks[ranks.length - 1] < ranks[0];
  if (a.contacted_edge === "front" || !partial) delete a.touching_partial_rank;
  else if (typeof a.touching_partial_rank !== "boolean") a.touching_partial_rank = false;
  return pos;
}

/** Return a clickable grid of trays: clicking cell (rank r, tray c) makes rank r exactly c+1 trays wide. */
function trayGrid(unit, who, changed, {edges, path}) {
  return live((redraw) => {
    const ranks = unit.ranks = Array.isArray(unit.ranks) && unit.ranks.length ? unit.ranks : [1];
    const width = Math.max(4, Math.min(8, Math.max(0, ...ranks) + 1));
    const rows = ranks.length + (ranks.length < 8 ? 1 : 0);
    const front = ranks[0] || 0;
    const label = who === "attacker" ? "Attacker" : "Defender";
    const grid = h("div", {class: `trays ${who}-trays`, role: "group",
                           "aria-label": `${label}: ${count(ranks.length, "rank")}, front first: ${ranks.map((n) => count(n, "tray")).join(", ")}`,
                           style: `grid-template-columns: repeat(${width}, 44px)`, dataset: {path}});
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < width; c++) {
        const on = r < ranks.length && c < ranks[r];
        const partial = on && ranks[r] < front;
        const text = r < ranks.length
          ? `${label} rank ${r + 1}: ${on && c + 1 === ranks[r] ? "remove tray" : count(c + 1, "tray")}`
          : `${label}: add rank ${r + 1} with ${count(c + 1, "tray")}`;
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
    const current = edges ? edges.get() : null;
    const edge = (value) => h("button", {type: "button", class: `edge ${value}`,
      "aria-pressed": current === value ? "true" : "false",
      "aria-label": `${label}'s ${EDGE_WORDS[value]} is in contact`, title: `${label}'s ${EDGE_WORDS[value]}`,
      dataset: {edge: value, unit: who}, onclick: () => { edges.set(value); changed(); redraw(); }},
      value === "front" ? `${label}'s front` : value === "rear" ? "rear" : value === "left" ? "left" : "right");
    const frame = edges
      ? h("div", {class: `unit-frame ${who}-frame`}, edge("front"), edge("left"), grid, edge("right"), edge("rear"))
      : h("div", {class: `unit-frame ${who}-frame no-edges`}, h("div", {class: "front-mark"}, `${label}'s front`), grid);
    const summary = h("p", {class: "hint"}, `${count(ranks.length, "rank")}: ${ranks.join(" + ")} ${ranks.length === 1 && ranks[0] === 1 ? "tray" : "trays"}`
      + (ranks.some((n) => n < front) ? " — the last rank is partial" : ""));
    return [frame, summary];
  });
}

const attack = {
  example: {
    attack_type: "melee",
    attacker: {name: "Oathsworn Cavalry", ranks: [2, 2], contacted_edge: "front", brutal: 0, precise: 0,
               flanking: false, flanked_by_defender: false, engaged: true},
    defender: {name: "Reanimates", defense: 1, defend_modifier: 0, wound_threshold: 1, ranks: [3, 3], figures_per_tray: 4},
    results: {hit: 2, mortal_strike: 1, accuracy: 0, morale: 1, surge: 0},
    panic_tokens_spent: 0,
    ui_contact: {attacker_edge: "front", defender_edge: "front"},
  },
  derive(pos) {
    return normalize(pos);
  },
  render(el, pos, ctx) {
    normalize(pos);
    const a = pos.attacker;
    const d = pos.defender;
    const res = pos.results;
    const melee = () => pos.attack_type !== "ranged";
    const changed = () => { normalize(pos); ctx.changed(); contact.draw(); };
    const setUi = (key) => ({get: () => contactOf(pos)[key], set: (v) => {
      pos.ui_contact = {...contactOf(pos), [key]: v};
      if (key === "attacker_edge") a.contacted_edge = KIND[v];
      if (key === "defender_edge") a.flanking = v !== "front";
    }});
    let aBox = null;
    let dBox = null;
    const contact = live(() => {
      if (!melee()) return h("p", {class: "hint"}, "A ranged attack: the threat is the trays of the attacker's front edge.");
      const out = [h("p", {class: "contact-sentence", id: "contact-sentence", "aria-live": "polite"}, contactSentence(pos))];
      const ranks = a.ranks || [];
      if (a.contacted_edge !== "front" && ranks.length > 1 && ranks[ranks.length - 1] < ranks[0]) {
        out.push(checkbox("The defender touches the attacker's partial rank", () => a.touching_partial_rank,
          (v) => { a.touching_partial_rank = v; changed(); }, {path: "attacker.touching_partial_rank"}));
      }
      return out;
    }, {class: "contact"});
    const flags = live((redraw) => {
      const out = [segmented("Attack", [["melee", "Melee"], ["ranged", "Ranged"]], () => pos.attack_type, (v) => {
        pos.attack_type = v;
        delete a.engaged;  // engaged in melee is not engaged at range: each attack type has its own default
        changed(); redraw(); aBox.draw(); dBox.draw();
      }, {path: "attack_type"})];
      if (melee()) {
        out.push(checkbox(`Attacker engaged with ${unitName(d, "the defender")}`, () => a.engaged,
          (v) => { a.engaged = v; changed(); }, {path: "attacker.engaged"}));
      } else {
        out.push(
          stepper("Range", () => a.range, (v) => { a.range = v; changed(); }, {min: 1, max: 99, path: "attacker.range"}),
          row(
            checkbox("Attacker engaged (with any enemy)", () => a.engaged, (v) => { a.engaged = v; changed(); }, {path: "attacker.engaged"}),
            checkbox("Target in the attacker's line of sight", () => a.line_of_sight, (v) => { a.line_of_sight = v; changed(); }, {path: "attacker.line_of_sight"}),
            checkbox("Target inside the attacker's firing arc", () => a.in_firing_arc, (v) => { a.in_firing_arc = v; changed(); }, {path: "attacker.in_firing_arc"})),
          checkbox("Target engaged with your other unit", () => Array.isArray(d.engaged_with_allies) && d.engaged_with_allies.length > 0, (v) => {
            if (v) d.engaged_with_allies = ["Your other unit"]; else delete d.engaged_with_allies;
            changed(); redraw();
          }, {path: "defender.engaged_with_allies"}));
        if (Array.isArray(d.engaged_with_allies) && d.engaged_with_allies.length) {
          out.push(textInput("Your other unit's name", () => d.engaged_with_allies[0], (v) => {
            d.engaged_with_allies = [v.trim() || "Your other unit"]; changed();
          }, {path: "defender.engaged_with_allies[0]"}));
        }
      }
      out.push(row(
        stepper("Attacker's Brutal", () => (typeof a.brutal === "number" ? a.brutal : 0), (v) => { a.brutal = v; changed(); },
                {min: 0, max: 20, path: "attacker.brutal", small: true}),
        stepper("Attacker's Precise", () => (typeof a.precise === "number" ? a.precise : 0), (v) => { a.precise = v; changed(); },
                {min: 0, max: 20, path: "attacker.precise", small: true})));
      return out;
    });
    // the grids with edge pickers (rebuilt with edges only for a melee attack)
    const gridWithEdges = (unit, who) => live(() => {
      const g = trayGrid(unit, who, changed, {path: `${who}.ranks`, edges: melee() ? setUi(`${who}_edge`) : null});
      return g.el;
    });
    aBox = gridWithEdges(a, "attacker");
    dBox = gridWithEdges(d, "defender");
    const counters = h("div", {class: "icons", dataset: {path: "results"}}, ICONS.map(([key, label, glyph]) =>
      h("div", {class: "icon-counter"}, h("span", {class: "icon-glyph", "aria-hidden": "true"}, glyph),
        stepper(label, () => res[key] ?? 0, (v) => { res[key] = v; changed(); },
                {min: 0, max: 99, path: `results.${key}`, small: true}))));
    el.append(
      panel("Attack", flags.el),
      h("div", {class: "rwm-units"},
        panel("Defender",
          textInput("Defender's name", () => d.name, (v) => { d.name = v; changed(); }, {path: "defender.name"}),
          h("p", {class: "hint"}, "Tap a square to set a rank's width (the bottom row adds a rank). "
            + "In melee, tap the defender's edge the attacker touches."),
          dBox.el,
          row(
            stepper("Defense", () => d.defense ?? 0, (v) => { d.defense = v; changed(); }, {min: 0, max: 20, path: "defender.defense", small: true}),
            stepper("Defend modifier", () => d.defend_modifier ?? 0, (v) => { d.defend_modifier = v; changed(); }, {min: 0, max: 20, path: "defender.defend_modifier", small: true}),
            stepper("Wound threshold", () => d.wound_threshold ?? 1, (v) => { d.wound_threshold = v; changed(); }, {min: 1, max: 20, path: "defender.wound_threshold", small: true}),
            stepper("Figures per tray", () => d.figures_per_tray ?? 1, (v) => { d.figures_per_tray = v; changed(); }, {min: 1, max: 12, path: "defender.figures_per_tray", small: true}))),
        panel("Attacker",
          textInput("Attacker's name", () => a.name, (v) => { a.name = v; changed(); }, {path: "attacker.name"}),
          h("p", {class: "hint"}, "In melee, tap the attacker's edge that touches the defender (usually its front)."),
          aBox.el)),
      panel("Contact", contact.el),
      panel("Rolled icons", counters,
        stepper("Panic tokens the defender spends", () => pos.panic_tokens_spent ?? 0, (v) => { pos.panic_tokens_spent = v; changed(); },
                {min: 0, max: 99, path: "panic_tokens_spent", small: true})),
    );
  },
};

export const editors = {attack};
