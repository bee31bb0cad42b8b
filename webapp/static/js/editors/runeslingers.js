// Runeslingers: the field — a runeslinger's health, power and determination, the ailments, the ladder.
import {h, humanize} from "../dom.js";
import {defaultFor, field} from "../schemaform.js";
import {checkbox, segmented, select, smallButton, stepper, textInput} from "../widgets.js";
import {live, panel, row} from "./common.js";

const AILMENTS = [
  ["burn", "🔥"], ["debilitate", "⛓"], ["curse", "☠"], ["fragment", "✦"], ["weaken", "↓"], ["insanity", "✺"],
];

function meter(value, max, label) {
  const pct = Math.max(0, Math.min(100, max ? (100 * value) / max : 0));
  return h("div", {class: "meter", role: "img", "aria-label": `${label}: ${value} of ${max}`}, h("span", {style: `width: ${pct}%`}));
}

function pips(n, label) {
  return h("div", {class: "pips", role: "img", "aria-label": `${label}: ${n}`},
    Array.from({length: Math.min(n, 20)}, () => h("span", {class: "pip"})));
}

// a Runeslinger's printed block value when the player has not entered it (the smallest value that may block)
const DEFAULT_BLOCK = 1;

/** Make a damage position exactly what the board shows: a block always carries its value. */
export function cleanDamage(pos) {
  const t = pos.target = pos.target || {kind: "runeslinger", health: 20, max_health: 20, power: 5};
  const b = pos.block = pos.block && typeof pos.block === "object" ? pos.block : {};
  if (typeof b.value !== "number") b.value = DEFAULT_BLOCK;
  if (typeof b.barrier !== "number") b.barrier = 0;   // shown as 0: the position says 0
  if (b.declared !== true && b.declared !== false) delete b.declared;
  if (b.already_blocked_this_turn !== true) delete b.already_blocked_this_turn;
  if (t.kind !== "defense_card") {
    delete t.controller;
    delete t.damage_this_turn;
    if (typeof t.determination !== "number") t.determination = 0;
  } else {
    if (!t.controller) t.controller = {health: 20, max_health: 20, power: 5};
    if (typeof t.damage_this_turn !== "number") t.damage_this_turn = 0;
    delete t.block_value;
  }
  return pos;
}

function sub(ctx, ...keys) {
  let sc = ctx.schema;
  for (const k of keys) sc = sc && (k === "[]" ? sc.items : (sc.properties || {})[k]);
  return sc || null;
}

const damage = {
  example: {
    target: {kind: "runeslinger", name: "Eva", health: 5, max_health: 20, power: 5, determination: 0},
    amount: 10, damage_type: "basic", block: {value: 1},
  },
  derive(pos) {
    return cleanDamage(pos);
  },
  render(el, pos, ctx) {
    cleanDamage(pos);
    const t = pos.target;
    const card = live((redraw) => {
      const out = [
        segmented("Target", [["runeslinger", "Runeslinger"], ["defense_card", "Defense card"]], () => t.kind, (v) => {
          t.kind = v;
          if (v === "defense_card") {
            t.defense = t.defense ?? 3;
            for (const k of ["health", "max_health", "power", "determination", "block_value"]) delete t[k];
          } else {
            Object.assign(t, {health: t.health ?? 20, max_health: t.max_health ?? 20, power: t.power ?? 5});
            delete t.defense;
            delete t.controller;
          }
          cleanDamage(pos);
          ctx.changed(); redraw();
        }, {path: "target.kind"}),
        textInput("Name", () => t.name, (v) => { t.name = v; ctx.changed(); }, {path: "target.name"}),
      ];
      if (t.kind === "runeslinger") {
        const health = h("div", {}, meter(t.health, t.max_health, "Health"));
        const power = h("div", {}, pips(t.power, "Power"));
        const show = () => {
          health.replaceChildren(meter(t.health, t.max_health, "Health"));
          power.replaceChildren(pips(t.power, "Power"));
        };
        out.push(
          health,
          row(stepper("Health", () => t.health, (v) => { t.health = v; ctx.changed(); show(); }, {min: 1, max: 999, path: "target.health", small: true}),
              stepper("Max health", () => t.max_health, (v) => { t.max_health = v; ctx.changed(); show(); }, {min: 1, max: 999, path: "target.max_health", small: true})),
          power,
          row(stepper("Power", () => t.power, (v) => { t.power = v; ctx.changed(); show(); }, {min: 1, max: 99, path: "target.power", small: true}),
              stepper("Determination", () => t.determination ?? 0, (v) => { t.determination = v; ctx.changed(); }, {min: 0, max: 999, path: "target.determination", small: true})),
          stepper("Block value (printed on this Runeslinger)", () => t.block_value ?? null, (v) => { t.block_value = v; ctx.changed(); },
                  {min: 0, max: 999, path: "target.block_value", small: true,
                   empty: {label: "not stated", start: 4, clear: () => { delete t.block_value; ctx.changed(); }}}));
        if (sub(ctx, "target", "ailments")) {
          // what is already on the target matters only to ailments a hit applies (free areas, boons)
          out.push(h("details", {class: "more", open: Boolean(pos.on_hit?.length) || undefined},
            h("summary", {}, "Ailments and boons already on the target"),
            ailmentGrid(t, [["ailments", "Exposed"], ["concealed", "Under boons"]], ctx, "target."),
            stepper("Boons on its ailment areas", () => t.boons ?? 0, (v) => {
              if (v > 0) t.boons = v; else delete t.boons;
              ctx.changed();
            }, {min: 0, max: 4, path: "target.boons", small: true})));
        }
      } else {
        out.push(row(stepper("Defense", () => t.defense ?? 0, (v) => { t.defense = v; ctx.changed(); }, {min: 1, max: 999, path: "target.defense", small: true}),
                     stepper("Damage already this turn", () => t.damage_this_turn ?? 0, (v) => { t.damage_this_turn = v; ctx.changed(); },
                             {min: 0, max: 999, path: "target.damage_this_turn", small: true})));
        const cs = sub(ctx, "target", "controller");
        if (cs) {
          if (!t.controller) t.controller = {...defaultFor(cs), health: 20, max_health: 20, power: 5};
          out.push(field(cs, "The Runeslinger who controls this card", () => t.controller, (v) => { t.controller = v; ctx.changed(); }, ctx.changed, "target.controller"));
        }
      }
      return out;
    });
    const incoming = live(() => [
      stepper("Damage", () => pos.amount ?? 0, (v) => { pos.amount = v; ctx.changed(); }, {min: 0, max: 999, path: "amount"}),
      h("div", {class: "field"}, field(sub(ctx, "damage_type") || {enum: ["basic", "direct", "pierce", "health_loss"]}, "Damage type",
        () => pos.damage_type, (v) => { pos.damage_type = v; ctx.changed(); }, ctx.changed, "damage_type")),
      ...(sub(ctx, "on_hit") ? [h("div", {class: "field"}, field(sub(ctx, "on_hit"), "Ailments it applies if it hits",
        () => pos.on_hit ?? [], (v) => { if (v && v.length) pos.on_hit = v; else delete pos.on_hit; ctx.changed(); },
        ctx.changed, "on_hit"))] : []),
      segmented("It comes from", [[true, "An enemy"], [false, "The target's own side"], ["unknown", "Not stated"]],
        () => (typeof pos.source_is_enemy === "boolean" ? pos.source_is_enemy : "unknown"), (v) => {
          if (v === "unknown") delete pos.source_is_enemy; else pos.source_is_enemy = v;
          ctx.changed();
        }, {path: "source_is_enemy"}),
    ]);
    const b = pos.block;
    const blockView = live((redraw) => {
      const out = [segmented(`Does ${t.name || "the target"}'s player block?`,
        [[true, "Blocks"], [false, "Does not block"], ["unknown", "Not decided yet"]],
        () => (typeof b.declared === "boolean" ? b.declared : "unknown"), (v) => {
          if (v === "unknown") delete b.declared; else b.declared = v;
          ctx.changed(); redraw();
        }, {path: "block.declared"})];
      out.push(stepper("Block value (printed on the Runeslinger)", () => b.value ?? DEFAULT_BLOCK,
        (v) => { b.value = v; ctx.changed(); }, {min: 0, max: 99, path: "block.value", small: true}));
      out.push(segmented("Declared", [["before_damage", "Before the damage"], ["after_damage", "After the damage"], ["unknown", "Not stated"]],
        () => b.timing ?? "unknown", (v) => {
          if (v === "unknown") delete b.timing; else b.timing = v;
          ctx.changed();
        }, {path: "block.timing"}));
      out.push(row(
        stepper("Block barrier already on the target", () => b.barrier ?? 0, (v) => {
          b.barrier = v;
          ctx.changed();
        }, {min: 0, max: 999, path: "block.barrier", small: true}),
        checkbox("This player already blocked this turn", () => b.already_blocked_this_turn, (v) => {
          if (v) b.already_blocked_this_turn = true; else delete b.already_blocked_this_turn;
          ctx.changed();
        }, {path: "block.already_blocked_this_turn"})));
      if (sub(ctx, "block_triggers")) {
        out.push(h("div", {class: "field"}, field(sub(ctx, "block_triggers"), "Block value changes from effects that trigger on the block",
          () => pos.block_triggers ?? [], (v) => { if (v && v.length) pos.block_triggers = v; else delete pos.block_triggers; ctx.changed(); },
          ctx.changed, "block_triggers")));
      }
      return out;
    });
    el.append(h("div", {class: "field-board"},
      panel("On the field", card.el),
      h("div", {},
        panel("Incoming damage", incoming.el),
        panel("Block", blockView.el))));
  },
};

function ailmentGrid(pos, keys, ctx, prefix = "") {
  return h("div", {class: "ailments"}, AILMENTS.map(([name, glyph]) =>
    h("div", {class: "icon-counter", dataset: {ailment: name}},
      h("span", {class: "icon-glyph", "aria-hidden": "true"}, glyph),
      h("strong", {}, humanize(name)),
      keys.map(([key, label]) => stepper(label, () => (pos[key] || {})[name] ?? 0, (v) => {
        pos[key] = pos[key] || {};
        if (v > 0) pos[key][name] = v; else delete pos[key][name];
        ctx.changed();
      }, {min: 0, max: 999, path: `${prefix}${key}.${name}`, small: true})))));
}

/** The ailment phase as the board shows it: exposed always a map, determination a number, an emptied
 *  concealed or remove map left out (no control shows an empty map apart from its zeros). */
function cleanAilments(pos) {
  pos.exposed = pos.exposed || {};
  if (typeof pos.determination !== "number") pos.determination = 0;
  for (const key of ["concealed", "remove"]) {
    if (pos[key] && !Object.keys(pos[key]).length) delete pos[key];
  }
  return pos;
}

const ailmentPhase = {
  example: {exposed: {burn: 5, curse: 3}, concealed: {weaken: 2}, power: 5, determination: 0},
  derive(pos) {
    return cleanAilments(pos);
  },
  render(el, pos, ctx) {
    cleanAilments(pos);
    el.append(h("div", {class: "field-board"},
      panel("Ailments on the runeslinger", h("p", {class: "hint"}, "Exposed ailments resolve in the Ailment phase; concealed ones wait."),
        ailmentGrid(pos, [["exposed", "Exposed"], ["concealed", "Concealed"]], ctx)),
      panel("Runeslinger",
        pips(pos.power || 0, "Power"),
        stepper("Power", () => pos.power ?? 1, (v) => { pos.power = v; ctx.changed(); }, {min: 1, max: 99, path: "power"}),
        stepper("Determination", () => pos.determination ?? 0, (v) => { pos.determination = v; ctx.changed(); }, {min: 0, max: 999, path: "determination"}),
        h("h4", {}, "Ailments the player chose to remove (if asked)"),
        h("p", {class: "hint"}, "Leave at 0 until the ruling asks."),
        ailmentGrid(pos, [["remove", "Remove"]], ctx))));
  },
};

const UNSTATED = "";

/** The rung's effect as a choice among the schema's values, in the schema's words (x-enum-labels), with
 *  "not stated" (left out: the ruling asks when it matters). */
function effectChoice(schema, play, i, ctx) {
  const labels = (schema && schema["x-enum-labels"]) || {};
  const values = (schema && schema.enum) || Object.keys(labels);
  const opts = [[UNSTATED, "Not stated (the ruling asks)"], ...values.map((v) => [v, labels[v] || humanize(v)])];
  const box = select("Effect", opts, () => play.effect ?? UNSTATED, (v) => {
    if (v === UNSTATED) delete play.effect; else play.effect = v;
    ctx.changed();
  }, {path: `plays[${i}].effect`});
  // a long choice ("Something else (its target stays in play)") must not widen the board on a phone
  Object.assign(box.querySelector("select").style, {width: "100%", minWidth: "0", maxWidth: "100%"});
  return box;
}

const ladder = {
  derive(pos) {
    for (const play of pos.plays || []) {
      play.targets = play.targets || [];
      if (play.id === "" || play.id === null) delete play.id;   // an empty copy label is no label
    }
    return pos;
  },
  example: {
    plays: [
      {card: "Flaming Fists", player: "you", effect: "damage", targets: ["enemy runeslinger"]},
      {card: "Stone Trap", player: "opponent", effect: "conceal", targets: ["Flaming Fists"]},
    ],
  },
  render(el, pos, ctx) {
    pos.plays = pos.plays || [];
    const rungSchema = sub(ctx, "plays", "[]") || {properties: {}};
    const view = live((redraw) => {
      const list = h("ol", {class: "ladder", "aria-label": "The ladder, bottom rung first"});
      pos.plays.forEach((play, i) => {
        const body = h("div", {class: "rung-body"});
        for (const [key, ps] of Object.entries(rungSchema.properties || {})) {
          if (key === "targets") {
            body.append(textInput("Targets (comma-separated)", () => (play.targets || []).join(", "), (v) => {
              play.targets = v.split(",").map((x) => x.trim()).filter(Boolean); ctx.changed();
            }, {path: `plays[${i}].targets`}));
          } else if (key === "effect") {
            body.append(effectChoice(ps, play, i, ctx));
          } else if (key in play || (rungSchema.required || []).includes(key)) {
            body.append(field(ps, humanize(key), () => play[key], (v) => { play[key] = v; ctx.changed(); }, ctx.changed, `plays[${i}].${key}`));
          }
        }
        const optional = Object.keys(rungSchema.properties || {}).filter((k) => !(k in play) && k !== "targets" && k !== "effect");
        list.append(h("li", {class: "rung", dataset: {path: `plays[${i}]`}},
          h("div", {class: "rung-head"}, h("strong", {}, `Rung ${i + 1}${i === 0 ? " (bottom)" : i === pos.plays.length - 1 ? " (top)" : ""}`),
            smallButton("Up", () => { if (i < pos.plays.length - 1) { [pos.plays[i], pos.plays[i + 1]] = [pos.plays[i + 1], pos.plays[i]]; ctx.changed(); redraw(); } },
                        {"aria-label": `Move rung ${i + 1} up`, disabled: i === pos.plays.length - 1}),
            smallButton("Down", () => { if (i > 0) { [pos.plays[i], pos.plays[i - 1]] = [pos.plays[i - 1], pos.plays[i]]; ctx.changed(); redraw(); } },
                        {"aria-label": `Move rung ${i + 1} down`, disabled: i === 0}),
            smallButton("Remove", () => { pos.plays.splice(i, 1); ctx.changed(); redraw(); }, {"aria-label": `Remove rung ${i + 1}`})),
          body,
          optional.length ? h("details", {}, h("summary", {}, "More about this play"),
            optional.map((k) => smallButton(`State ${humanize(k).toLowerCase()}`, () => {
              play[k] = defaultFor(rungSchema.properties[k]); ctx.changed(); redraw();
            }))) : null));
      });
      return [list, smallButton("Play a card on top", () => {
        pos.plays.push({card: "", player: "", targets: []}); ctx.changed(); redraw();
      }, {id: "add-rung"})];
    });
    el.append(panel("The ladder (top rung resolves first)", view.el));
  },
};

export const editors = {damage, ailment_phase: ailmentPhase, ladder};
