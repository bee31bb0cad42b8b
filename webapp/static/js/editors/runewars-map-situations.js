// Runewars retreat and diplomacy, set up on the hex-area map of runewars.js (the shared map notation of the
// 0.2 situations: areas {id, home_realm, units {owner: count}, stronghold, city} and borders [a, b, kind]).
// Tap an empty hex to add an area, an area to select it (its units, stronghold, city token, home realm and
// borders are set beside the map), an edge to cycle its border. The area the action happens in (the area
// left by a retreat, the neutral units' area for diplomacy) is marked ⚑; a new area becomes it when none
// is. The remaining fields of the position are controls beside the map (the schema form's helpers). Hex
// slots are kept in `ui_layout` (ignored by the engine) so a shared link shows the same map; a position
// without them (a worked example) is laid out around its marked area, each bordering area next to it.
import {h} from "../dom.js";
import {defaultFor, field, propertyRow, schemaAt} from "../schemaform.js";
import {segmented, select, smallButton, stepper, textInput} from "../widgets.js";
import {factionName} from "../names.js";
import {FACTIONS, live, panel, row} from "./common.js";
import {COLS, ROWS, addAreaAt, borderButtons, cycleBorder, hexMap, layoutOf, neighbours, renameArea, unitTokens} from "./runewars.js";

const OWNERS = [...FACTIONS, "neutral"];
const HUB_SLOT = [2, 2];  // left of the middle of the COLS × ROWS grid: on a phone it and its neighbours show unscrolled
const SHORT = {daqan: "Daqan", elves: "Elves", uthuk: "Uthuk", waiqar: "Waiqar", neutral: "neutral"};

const LINE_CHARS = 11;  // what one line of small text holds inside a hex of runewars.js

/** Return the texts joined into at most `lines` lines of up to `width` characters (the last one cut with …). */
function pack(texts, width, lines) {
  const out = [];
  for (const t of texts) {
    const last = out.length - 1;
    if (last >= 0 && out[last].length + 1 + t.length <= width) out[last] += ` ${t}`;
    else out.push(t);
  }
  if (out.length > lines) out.splice(lines - 1, out.length, `${out[lines - 1].slice(0, width - 1)}…`);
  return out;
}

/** Set how many units of `owner` stand in area `id` of the map (no-op when there is no such area). */
function setCount(pos, id, owner, n) {
  const area = pos.map.areas.find((a) => a.id === id);
  if (!area || !owner) return;
  area.units = area.units && typeof area.units === "object" ? area.units : {};
  if (n > 0) area.units[owner] = n; else delete area.units[owner];
}

function areaIds(pos) {
  return pos.map.areas.map((a) => a.id);
}

/** Return the faction controlling an area as the board shows it (units or stronghold of one faction; else
 *  its home realm unless an enemy is there), or null: only for colouring the hex, the engine decides. */
function controllerOf(area) {
  const units = area.units || {};
  const present = new Set(FACTIONS.filter((f) => (units[f] || 0) > 0));
  if (area.stronghold) present.add(area.stronghold);
  if (present.size === 1 && !(units.neutral > 0)) return [...present][0];
  if (!present.size && area.home_realm && !(units.neutral > 0)) return area.home_realm;
  return null;
}

/** Lay a position without hex slots out around its marked area: each area that borders a placed one goes
 *  on a free hex next to it (breadth first), the rest on free hexes in reading order (runewars.js). */
function arrange(pos, hub) {
  const have = pos.ui_layout && typeof pos.ui_layout === "object" && pos.map.areas.every((a) => Array.isArray(pos.ui_layout[a.id]));
  if (have) return;
  const layout = {};
  const used = new Set();
  const put = (id, slot) => { layout[id] = slot; used.add(slot.join()); };
  const ids = areaIds(pos);
  const first = ids.includes(hub) ? hub : ids[0];
  if (first === undefined) { pos.ui_layout = {}; return; }
  put(first, HUB_SLOT);
  const queue = [first];
  while (queue.length) {
    const at = queue.shift();
    const free = neighbours(layout[at]).filter(([c, r]) => c >= 0 && r >= 0 && c < COLS && r < ROWS && !used.has(`${c},${r}`));
    for (const b of pos.map.borders) {
      const other = b[0] === at ? b[1] : b[1] === at ? b[0] : null;
      if (!other || layout[other] || !ids.includes(other) || !free.length) continue;
      put(other, free.shift());
      queue.push(other);
    }
  }
  pos.ui_layout = layout;
  layoutOf(pos);  // the rest in reading order
}

/** Return {el, draw} of the map panel of a situation: the map, the selected area's details and the borders the
 *  grid cannot show; onUnits(area, owner, n) hears each count set with the − / + buttons. hub = {key, mark, make, is} names the position's key of the marked area and its button texts;
 *  areaKeys are the other keys holding an area id (renamed with the area, cleared when it is removed).
 *  A situation without one marked area passes hub.key null; areas named deeper in the position follow through
 *  hub.renamed(old, new), hub.removed(id) and hub.cleared(); hub.tap(id) may take a tap on an area (true: taken,
 *  the area is not selected) and hub.marks(area) adds a line of marks under its name. */
function mapPanels(pos, ctx, hub, areaKeys, after, onUnits = () => {}) {
  pos.map = pos.map && typeof pos.map === "object" ? pos.map : {areas: [], borders: []};
  pos.map.areas = Array.isArray(pos.map.areas) ? pos.map.areas : [];
  pos.map.borders = Array.isArray(pos.map.borders) ? pos.map.borders : [];
  const keys = [hub.key, ...areaKeys].filter(Boolean);
  const isHub = (id) => !!hub.key && id === pos[hub.key];
  const marks = (area) => (hub.marks ? hub.marks(area) : "");
  arrange(pos, hub.key ? pos[hub.key] : undefined);
  const areaSchema = schemaAt(ctx.schema, "map", "areas", "[]") || {properties: {}};
  let selected = hub.key && areaIds(pos).includes(pos[hub.key]) ? pos[hub.key] : (areaIds(pos)[0] ?? null);
  const changed = () => { ctx.changed(); after(); };

  const view = live((redraw) => hexMap(pos, {
    selected,
    label: `Map: tap an empty hex to add an area, an area to select it, an edge between two areas to change the border.${hub.key ? ` ${hub.mark} marks ${hub.what}.` : ""}`,
    areaClass: (area) => [`ctrl-${controllerOf(area) || "none"}`, isHub(area.id) ? "target" : ""],
    areaLabel: (area) => {
      const units = OWNERS.filter((o) => (area.units || {})[o] > 0).map((o) => `${area.units[o]} ${SHORT[o]}`);
      return [`Area ${area.id}`, isHub(area.id) ? hub.what : "", hub.said ? hub.said(area) : "", units.length ? `units ${units.join(", ")}` : "no units",
              area.stronghold ? `${factionName(area.stronghold)} stronghold` : "", area.city ? "city" : "",
              area.home_realm ? `home realm of ${factionName(area.home_realm)}` : ""].filter(Boolean).join(", ");
    },
    areaLines: (area) => {
      const u = area.units || {};
      const facts = [...OWNERS.filter((o) => u[o] > 0).map((o) => `${u[o]} ${SHORT[o]}`),
                     area.stronghold ? `♜ ${SHORT[area.stronghold]}` : "", area.city ? "city" : "",
                     area.home_realm ? `home ${SHORT[area.home_realm]}` : ""].filter(Boolean);
      const marked = marks(area);  // a situation's own marks: a line of their own under the name
      return [area.id + (isHub(area.id) ? ` ${hub.mark}` : ""), ...(marked ? [marked] : []), ...pack(facts, LINE_CHARS, marked ? 2 : 3)];
    },
    onAdd: (slot) => {
      const id = addAreaAt(pos, slot, defaultFor(areaSchema));
      if (hub.key && !areaIds(pos).includes(pos[hub.key])) pos[hub.key] = id;
      selected = id; changed(); view.draw(); details.draw(); far.draw();
    },
    onSelect: (id) => {
      if (hub.tap && hub.tap(id)) { changed(); view.draw(); return; }
      selected = id; view.draw(); details.draw();
    },
    onBorder: (a, b) => { cycleBorder(pos.map, a, b); changed(); view.draw(); details.draw(); far.draw(); },
    legend: `${hub.key ? `${hub.mark} marks ${hub.what}; ` : ""}${hub.legend || ""}♜ a stronghold.`,
  }), {class: "map-scroll"});

  const details = live((redraw) => {
    const area = pos.map.areas.find((a) => a.id === selected);
    if (!area) return h("p", {class: "hint"}, "Tap an area on the map to set it up, or an empty hex to add one.");
    const i = pos.map.areas.indexOf(area);
    const both = () => { changed(); view.draw(); };
    let newId = area.id;
    const out = [h("h4", {}, `Area ${area.id}`, isHub(area.id) ? ` — ${hub.what}` : "")];
    out.push(row(textInput("Name", () => area.id, (v) => { newId = v.trim(); }, {path: `map.areas[${i}].id`}),
      smallButton("Rename", () => {
        if (!newId || newId === area.id || areaIds(pos).includes(newId)) return;
        const old = area.id;
        renameArea(pos, old, newId);
        for (const k of keys) if (pos[k] === old) pos[k] = newId;
        if (hub.renamed) hub.renamed(old, newId);
        if (pos.heroes && typeof pos.heroes === "object") {  // a retreat's hero destinations
          for (const [hero, at] of Object.entries(pos.heroes)) if (at === old) pos.heroes[hero] = newId;
        }
        selected = newId; changed(); view.draw(); redraw(); far.draw();
      })));
    area.units = area.units && typeof area.units === "object" ? area.units : {};
    out.push(h("div", {class: "unit-counts", role: "group", "aria-label": `Units in ${area.id}`},
      OWNERS.map((o) => stepper(o === "neutral" ? "Unallied neutral units" : `${factionName(o)} units`,
        () => area.units[o] || 0, (v) => { setCount(pos, area.id, o, v); onUnits(area, o, v); both(); },
        {min: 0, max: 80, small: true, path: `map.areas[${i}].units.${o}`}))));
    for (const key of ["stronghold", "home_realm", "city"]) {
      const ps = schemaAt(areaSchema, key);
      if (ps) out.push(propertyRow(ps, key, false, () => area, both, `map.areas[${i}].${key}`));
    }
    for (const [key, ps] of Object.entries(areaSchema.properties || {})) {  // anything the schema adds later
      if (!["id", "units", "stronghold", "home_realm", "city"].includes(key)) out.push(propertyRow(ps, key, false, () => area, both, `map.areas[${i}].${key}`));
    }
    out.push(borderButtons(pos, area.id, () => { changed(); view.draw(); redraw(); far.draw(); }));
    out.push(row(
      hub.key ? smallButton(pos[hub.key] === area.id ? hub.is : hub.make, () => {
        pos[hub.key] = area.id; changed(); view.draw(); redraw();
      }, {id: "make-hub", "aria-pressed": pos[hub.key] === area.id ? "true" : "false"}) : null,
      smallButton("Remove the area", () => {
        pos.map.areas.splice(i, 1);
        pos.map.borders = pos.map.borders.filter((b) => b[0] !== area.id && b[1] !== area.id);
        for (const k of keys) if (pos[k] === area.id) delete pos[k];
        if (hub.removed) hub.removed(area.id);
        selected = null;
        changed(); view.draw(); redraw(); far.draw();
      })));
    return out;
  });

  const far = live((redraw) => {
    const layout = layoutOf(pos);
    const beside = (a, b) => layout[a] && layout[b] && neighbours(layout[a]).some((n) => n.join() === layout[b].join());
    const list = pos.map.borders.filter((b) => !beside(b[0], b[1]));
    if (!list.length) return null;
    return [h("p", {class: "hint"}, "Borders between areas that are not side by side on this grid:"),
      h("ul", {class: "plain"}, list.map((b) => h("li", {}, `${b[0]} – ${b[1]} (${b[2]}) `,
        smallButton("Remove", () => { pos.map.borders.splice(pos.map.borders.indexOf(b), 1); changed(); redraw(); }))))];
  });

  const clearMap = smallButton("Clear the map", () => {
    pos.map = {areas: [], borders: []};
    pos.ui_layout = {};
    for (const k of keys) delete pos[k];
    if (hub.cleared) hub.cleared();
    ctx.changed();
    ctx.rerender();
  }, {id: "clear-map"});
  return {el: panel("Map", h("div", {class: "map-wrap"}, view.el, h("div", {class: "area-details"}, details.el), far.el),
                   row(clearMap)),
          draw: () => { view.draw(); details.draw(); }};
}

/** Return a select of the map's areas for a key holding an area id (blank: the engine asks). */
function areaChoice(label, pos, key, changed, {exclude = null, none = "not chosen yet"} = {}) {
  const ids = areaIds(pos).filter((id) => id !== exclude);
  return select(label, [[null, none], ...ids.map((id) => [id, id])], () => (ids.includes(pos[key]) ? pos[key] : null), (v) => {
    if (v === null) delete pos[key]; else pos[key] = v;
    changed();
  }, {path: key});
}

/** Return the editor of a list of named figures (units, heroes): one row each with its fields, and an add button. */
function figureList(items, itemSchema, {path, noun, prefix, addId, onCount = () => {}}, changed) {
  const holder = live((redraw) => {
    const out = [];
    items.forEach((m, i) => {
      const box = h("fieldset", {class: "object compact figure", dataset: {path: `${path}[${i}]`}},
        h("legend", {}, `${noun} ${i + 1}`));
      for (const [key, ps] of Object.entries(itemSchema.properties || {})) {
        if (!(key in m)) m[key] = defaultFor(ps);
        box.append(field(ps, ps.title || key, () => m[key], (v) => { m[key] = v; changed(); }, changed, `${path}[${i}].${key}`));
      }
      box.append(smallButton(`Remove ${m.id || `${noun.toLowerCase()} ${i + 1}`}`, () => { items.splice(i, 1); onCount(); changed(); redraw(); }));
      out.push(box);
    });
    const max = itemSchema.maxItems || 80;
    out.push(smallButton(`Add a ${noun.toLowerCase()}`, () => {
      if (items.length >= max) return;
      const taken = new Set(items.map((m) => m.id));
      let n = items.length + 1;
      while (taken.has(`${prefix}-${n}`)) n++;
      items.push({...defaultFor(itemSchema), id: `${prefix}-${n}`});
      onCount(); changed(); redraw();
    }, {id: addId}));
    return out;
  }, {class: "figures"});
  return holder.el;
}

function rowsOf(ctx, pos, keys, changed) {
  const required = ctx.schema.required || [];
  const props = ctx.schema.properties || {};
  return keys.filter((k) => props[k]).map((k) => propertyRow(props[k], k, required.includes(k), () => pos, () => changed(k), k));
}

// ------------------------------------------------------------------------------------------ retreat

const retreat = {
  example: {
    season: "fall", current_player: "uthuk", from: "A",
    group: {kind: "player", faction: "elves", heroes: [],
            units: [{id: "archer-1", flying: false, participated: true}, {id: "warrior-1", flying: false, participated: true}]},
    map: {
      areas: [
        {id: "A", units: {elves: 2, uthuk: 2}}, {id: "B", units: {elves: 1}}, {id: "C", units: {}},
        {id: "D", units: {uthuk: 1}},
      ],
      borders: [["A", "B", "plain"], ["A", "C", "mountain"], ["A", "D", "plain"], ["B", "C", "plain"]],
    },
    ui_layout: {A: [2, 2], B: [1, 2], C: [1, 1], D: [3, 2]},
  },
  derive(pos) {
    const ids = pos.map && Array.isArray(pos.map.areas) ? pos.map.areas.map((a) => a.id) : [];
    if (pos.destination !== undefined && pos.destination !== null && !ids.includes(pos.destination)) delete pos.destination;
    const heroes = (pos.group && Array.isArray(pos.group.heroes) ? pos.group.heroes : []).map((x) => x.id);
    if (pos.heroes && typeof pos.heroes === "object") {
      for (const k of Object.keys(pos.heroes)) if (!heroes.includes(k) || !ids.includes(pos.heroes[k])) delete pos.heroes[k];
      if (!Object.keys(pos.heroes).length) delete pos.heroes;
    }
    if (pos.group && pos.group.kind === "neutral") { delete pos.group.faction; pos.group.heroes = []; }
    return pos;
  },
  render(el, pos, ctx) {
    pos.group = pos.group && typeof pos.group === "object" ? pos.group : {kind: "player", units: []};
    const grp = pos.group;
    grp.units = Array.isArray(grp.units) ? grp.units : [];
    grp.heroes = Array.isArray(grp.heroes) ? grp.heroes : [];
    const groupSchema = schemaAt(ctx.schema, "group") || {properties: {}};
    const changed = () => ctx.changed();
    const after = () => { where.draw(); };
    const map = mapPanels(pos, ctx, {key: "from", mark: "⚑", what: "the area left", make: "Units retreat from here",
                                     is: "⚑ The units retreat from here"}, ["destination"], after);
    // the group's list sets its count in the area left (every unit of the side there is in the group)
    const owner = () => (grp.kind === "neutral" ? "neutral" : grp.faction);
    const recount = () => { setCount(pos, pos.from, owner(), grp.units.length); map.draw(); };
    const side = live((redraw) => {
      const out = [];
      const kind = schemaAt(groupSchema, "kind");
      if (kind) out.push(propertyRow(kind, "kind", true, () => grp, () => { changed(); redraw(); where.draw(); }, "group.kind"));
      if (grp.kind !== "neutral") {
        const fac = schemaAt(groupSchema, "faction");
        if (fac) out.push(propertyRow(fac, "faction", true, () => grp, changed, "group.faction"));
      }
      out.push(h("h4", {}, "Units"));
      out.push(figureList(grp.units, schemaAt(groupSchema, "units", "[]") || {properties: {}},
                          {path: "group.units", noun: "Unit", prefix: "unit", addId: "add-retreat-unit", onCount: recount}, changed));
      if (grp.kind !== "neutral") {
        out.push(h("h4", {}, "Heroes"));
        out.push(figureList(grp.heroes, schemaAt(groupSchema, "heroes", "[]") || {properties: {}},
                            {path: "group.heroes", noun: "Hero", prefix: "hero", addId: "add-hero"}, () => { changed(); where.draw(); }));
      }
      return out;
    });
    const where = live(() => {
      const out = [areaChoice("Destination (when several areas are allowed)", pos, "destination", changed, {exclude: pos.from})];
      const heroes = grp.kind === "neutral" ? [] : grp.heroes.filter((x) => x.id);
      if (heroes.length) {
        out.push(h("p", {class: "hint"}, "Supporting heroes whose units cannot take them along go to:"));
        for (const hero of heroes) {
          const ids = areaIds(pos).filter((id) => id !== pos.from);
          out.push(select(`${hero.id} goes to`, [[null, "not chosen yet"], ...ids.map((id) => [id, id])],
            () => (pos.heroes && pos.heroes[hero.id]) || null, (v) => {
              pos.heroes = pos.heroes && typeof pos.heroes === "object" ? pos.heroes : {};
              if (v === null) delete pos.heroes[hero.id]; else pos.heroes[hero.id] = v;
              changed();
            }, {path: `heroes.${hero.id}`}));
        }
      }
      return row(...out);
    });
    el.append(h("div", {class: "rw-map-situation"},
      panel("Turn", row(...rowsOf(ctx, pos, ["season", "current_player"], changed))),
      map.el,
      panel("Retreating group", side.el),
      panel("Where to", where.el)));
  },
};

// ------------------------------------------------------------------------------------------ diplomacy

const SYMBOLS = ["ally", "rout", "hostile"];
const SYMBOL_WORDS = {ally: "Ally", rout: "Rout (they retreat)", hostile: "Hostile (battle or retreat)"};

const diplomacy = {
  example: {
    player: "daqan", season: "spring", influence: 3, spend: 2, area: "A", units_in_area: 2,
    neutral_units: [{id: "beastman-1", flying: false, routed: false}, {id: "beastman-2", flying: false, routed: false}],
    drawn: ["rout", "hostile"], chosen: 0,
    map: {
      areas: [{id: "A", units: {daqan: 2, neutral: 2}}, {id: "B", units: {daqan: 1}}, {id: "C", units: {}},
              {id: "D", units: {}}],
      borders: [["A", "B", "plain"], ["A", "C", "plain"], ["A", "D", "water"]],
    },
    ui_layout: {A: [2, 2], B: [1, 2], C: [3, 2], D: [2, 3]},
  },
  derive(pos) {
    const ids = pos.map && Array.isArray(pos.map.areas) ? pos.map.areas.map((a) => a.id) : [];
    for (const k of ["retreat_to", "neutral_destination"]) {
      if (pos[k] !== undefined && pos[k] !== null && !ids.includes(pos[k])) delete pos[k];
    }
    return pos;
  },
  render(el, pos, ctx) {
    pos.neutral_units = Array.isArray(pos.neutral_units) ? pos.neutral_units : [];
    if (pos.drawn !== undefined && !Array.isArray(pos.drawn)) delete pos.drawn;  // left out: no card drawn yet
    const changed = () => ctx.changed();
    const map = mapPanels(pos, ctx, {key: "area", mark: "⚑", what: "the neutral units' area", make: "The neutral units are here",
                                     is: "⚑ The neutral units are here"}, ["retreat_to", "neutral_destination"], () => answers.draw(),
                         (area, o, n) => {  // the player's count in the neutral units' area is his units there
                           if (area.id === pos.area && o === pos.player) { pos.units_in_area = n; attempt.draw(); }
                         });
    const attempt = live(() => row(...rowsOf(ctx, pos, ["player", "season", "influence", "spend", "units_in_area", "units_flying"], (k) => {
      if (k === "units_in_area") { setCount(pos, pos.area, pos.player, pos.units_in_area); map.draw(); }
      changed();
    })));
    const cards = live((redraw) => {
      const out = [];
      const drawn = pos.drawn || [];
      const list = h("ol", {class: "tokens fate-cards", "aria-label": "Fate cards drawn, in order", dataset: {path: "drawn"}});
      if (!drawn.length) list.append(h("li", {class: "muted"}, "No card drawn yet: add the cards as they are drawn."));
      drawn.forEach((sym, i) => list.append(h("li", {class: `token fate-${sym}`},
        h("span", {class: "token-name"}, `Card ${i + 1}: ${SYMBOL_WORDS[sym] || sym}`),
        smallButton("Remove", () => {
          pos.drawn.splice(i, 1);
          if (!pos.drawn.length) delete pos.drawn;
          if (typeof pos.chosen === "number") pos.chosen = pos.chosen === i ? null : pos.chosen > i ? pos.chosen - 1 : pos.chosen;
          changed(); redraw();
        }, {"aria-label": `Remove card ${i + 1}`}))));
      out.push(list);
      const max = (schemaAt(ctx.schema, "drawn") || {}).maxItems || 6;
      out.push(h("div", {class: "row token-adders"}, SYMBOLS.map((sym) => smallButton(`+ ${sym[0].toUpperCase()}${sym.slice(1)}`, () => {
        if (drawn.length >= max) return;
        pos.drawn = [...drawn, sym]; changed(); redraw();
      }, {id: `add-card-${sym}`, "aria-label": `Add a drawn card: ${sym}`}))));
      if (!drawn.length) return out;
      out.push(segmented("Card resolved", [[null, "not chosen yet"], ...drawn.map((sym, i) => [i, `${i + 1}: ${sym}`])],
        () => (typeof pos.chosen === "number" && pos.chosen < drawn.length ? pos.chosen : null),
        (v) => { pos.chosen = v; changed(); }, {path: "chosen"}));
      return out;
    });
    const answers = live(() => {
      const props = ctx.schema.properties || {};
      return row(
        props.response ? propertyRow(props.response, "response", false, () => pos, changed, "response") : null,
        areaChoice("The player's units retreat to", pos, "retreat_to", changed, {exclude: pos.area}),
        areaChoice("The neutral units go to", pos, "neutral_destination", changed, {exclude: pos.area}));
    });
    const neutralSchema = schemaAt(ctx.schema, "neutral_units", "[]") || {properties: {}};
    el.append(h("div", {class: "rw-map-situation"},
      panel("Attempt", attempt.el),
      map.el,
      panel("Unallied neutral units in the area",
        figureList(pos.neutral_units, neutralSchema, {path: "neutral_units", noun: "Neutral unit", prefix: "neutral", addId: "add-neutral",
                   onCount: () => { setCount(pos, pos.area, "neutral", pos.neutral_units.length); map.draw(); }}, changed)),
      panel("Fate cards", cards.el),
      panel("After the card", answers.el)));
  },
};

export const editors = {retreat, diplomacy};

// ------------------------------------------------------------------------------------------ battle
// One battle, one map: the battle is fought in the marked area (⚔) of the shared map, and the loser retreats to an
// area of that same map (the ruling names it, or asks for it; the answer shows as "The loser retreats to").
// The sides are set only by their own choices (attacking and defending faction); their unit tokens set their
// counts in the battle's area, and the defender's stronghold stands there.

function battleSides(pos) {
  const att = pos.attacker = pos.attacker && typeof pos.attacker === "object" ? pos.attacker : {units: []};
  const dfd = pos.defender = pos.defender && typeof pos.defender === "object" ? pos.defender : {units: []};
  att.units = Array.isArray(att.units) ? att.units : [];
  dfd.units = Array.isArray(dfd.units) ? dfd.units : [];
  return [att, dfd];
}

/** Make the battle's position what the board shows: the battle's area holds each side's tokens and the
 *  defender's stronghold; a retreat area that is no longer an area of the map (or is the battle's) is dropped. */
export function syncBattle(pos) {
  const [att, dfd] = battleSides(pos);
  pos.map = pos.map && typeof pos.map === "object" ? pos.map : {areas: [], borders: []};
  pos.map.areas = Array.isArray(pos.map.areas) ? pos.map.areas : [];
  pos.map.borders = Array.isArray(pos.map.borders) ? pos.map.borders : [];
  const ids = areaIds(pos);
  if (!ids.includes(pos.area)) delete pos.area;
  if (pos.retreat_to !== undefined && (!ids.includes(pos.retreat_to) || pos.retreat_to === pos.area)) delete pos.retreat_to;
  if (dfd.faction === "neutral") { delete dfd.development; delete dfd.use_development; }
  for (const side of [att, dfd]) side.units.forEach((u) => { if (!u.routed) delete u.routed; });
  const area = pos.map.areas.find((a) => a.id === pos.area);
  if (area) {
    area.units = area.units && typeof area.units === "object" ? area.units : {};
    for (const [side, owner] of [[att, att.faction], [dfd, dfd.faction]]) {
      if (!owner) continue;
      if (side.units.length) area.units[owner] = side.units.length; else delete area.units[owner];
    }
    const keep = dfd.stronghold && dfd.faction && dfd.faction !== "neutral" ? dfd.faction : null;
    if (keep) area.stronghold = keep; else if (area.stronghold === dfd.faction || dfd.stronghold) delete area.stronghold;
  }
  return pos;
}

const battle = {
  example: {
    season: "summer", area: "B",
    attacker: {faction: "uthuk", units: [{id: "Triangle 1", class: "triangle"}, {id: "Triangle 2", class: "triangle"}]},
    defender: {faction: "daqan", stronghold: {strength: 2}, units: [{id: "Triangle 1", class: "triangle"},
               {id: "Hexagon 1", class: "hexagon"}]},
    map: {
      areas: [{id: "B", units: {uthuk: 2, daqan: 2}, stronghold: "daqan"}, {id: "A", units: {daqan: 1}},
              {id: "C", units: {uthuk: 1}}, {id: "D", units: {}}, {id: "E", units: {neutral: 1}}],
      borders: [["B", "A", "plain"], ["B", "C", "plain"], ["B", "D", "plain"], ["B", "E", "mountain"], ["A", "D", "plain"]],
    },
    ui_layout: {B: [2, 2], A: [1, 2], C: [3, 2], D: [1, 1], E: [2, 3]},
  },
  derive(pos) {
    syncBattle(pos);
    if (!pos.map.areas.length) { delete pos.map; delete pos.ui_layout; }  // no map: the ruling asks where
    return pos;
  },
  render(el, pos, ctx) {
    syncBattle(pos);
    const changed = () => { syncBattle(pos); ctx.changed(); };
    let map = null;
    map = mapPanels(pos, ctx, {key: "area", mark: "⚔", what: "the battle's area", make: "The battle is here",
                               is: "⚔ The battle is here"}, ["retreat_to"], () => {
      syncBattle(pos); if (map) map.draw(); where.draw(); sides.draw();
    });
    const sides = live((redraw) => {
      const [att, dfd] = battleSides(pos);
      const both = () => { changed(); redraw(); map.draw(); where.draw(); };
      const attOptions = FACTIONS.filter((f) => f !== dfd.faction).map((f) => [f, factionName(f)]);
      const dfdOptions = [...FACTIONS.filter((f) => f !== att.faction).map((f) => [f, factionName(f)]), ["neutral", "Neutral units"]];
      return h("div", {class: "battle-sides"},
        h("div", {class: "side side-attacker"},
          h("h4", {}, `Attacker: ${att.faction ? factionName(att.faction) : "not chosen"}`),
          segmented("Attacking faction", attOptions, () => att.faction ?? null, (v) => {
            clearOwner(pos, att.faction); att.faction = v; both();
          }, {path: "attacker.faction"}),
          unitTokens("attacker", "Attacker", pos, both, redraw),
          segmented("Conquer order with the Supremacy bonus", [[true, "yes"], [false, "no"]], () => !!att.conquer_supremacy, (v) => {
            if (v) att.conquer_supremacy = true; else delete att.conquer_supremacy;
            changed();
          }, {path: "attacker.conquer_supremacy"})),
        h("div", {class: "side side-defender"},
          h("h4", {}, `Defender: ${dfd.faction === "neutral" ? "neutral units" : dfd.faction ? factionName(dfd.faction) : "not chosen"}`),
          segmented("Defending side", dfdOptions, () => dfd.faction ?? null, (v) => {
            clearOwner(pos, dfd.faction); dfd.faction = v; both();
          }, {path: "defender.faction"}),
          unitTokens("defender", "Defender", pos, both, redraw),
          dfd.faction !== "neutral" ? segmented("Stronghold in the battle's area", [[false, "None"], [true, "Stronghold"]], () => !!dfd.stronghold, (v) => {
            dfd.stronghold = v ? {strength: 2} : null; both();
          }, {path: "defender.stronghold"}) : null,
          dfd.stronghold ? row(
            stepper("Stronghold strength", () => dfd.stronghold.strength, (v) => { dfd.stronghold.strength = v; changed(); },
                    {min: 0, max: 20, path: "defender.stronghold.strength", small: true}),
            segmented("Damaged side up", [[true, "yes"], [false, "no"]], () => !!dfd.stronghold.damaged, (v) => {
              if (v) dfd.stronghold.damaged = true; else delete dfd.stronghold.damaged;
              changed();
            }, {path: "defender.stronghold.damaged"})) : null,
          dfd.faction && dfd.faction !== "neutral" ? select("Defensive development in play", [[null, "none"], ...Object.entries(DEVELOPMENTS)],
            () => dfd.development ?? null, (v) => {
              if (v === null) { delete dfd.development; delete dfd.use_development; } else { dfd.development = v; dfd.use_development = true; }
              both();
            }, {path: "defender.development"}) : null,
          dfd.development ? segmented("The defender uses it", [[true, "yes"], [false, "no"]], () => dfd.use_development !== false, (v) => {
            dfd.use_development = v; changed();
          }, {path: "defender.use_development"}) : null));
    });
    const where = live(() => row(
      ...rowsOf(ctx, pos, ["season"], () => changed()),
      areaChoice("The loser retreats to", pos, "retreat_to", () => { changed(); map.draw(); }, {exclude: pos.area, none: "not chosen (the ruling says)"})));
    el.append(h("div", {class: "rw-map-situation rw-battle"},
      map.el,
      panel("Armies", sides.el),
      panel("Retreat", where.el)));
  },
};

const DEVELOPMENTS = {"reinforced-walls": "Reinforced Walls", "protective-wards": "Protective Wards",
                      "hungry-spawn": "Hungry Spawn", "cursed-tomb": "Cursed Tomb"};

/** A side changing faction takes its units out of the battle's area under the old name. */
function clearOwner(pos, owner) {
  const area = pos.map.areas.find((a) => a.id === pos.area);
  if (area && area.units && owner) delete area.units[owner];
  if (area && owner && area.stronghold === owner && pos.defender && pos.defender.faction === owner) delete area.stronghold;
}

editors.battle = battle;

/** Return the select of an area of the map for holder[key] (at `path`; blank: `none`, the key left out) and
 *  its "Tap on the map" button, pressed while the next tap on an area sets it. */
function tappable(pos, holder, key, path, label, none, pressed, press, changed) {
  const ids = areaIds(pos);
  return row(
    select(label, [[null, none], ...ids.map((id) => [id, id])], () => (ids.includes(holder[key]) ? holder[key] : null), (v) => {
      if (v === null) delete holder[key]; else holder[key] = v;
      changed();
    }, {path}),
    smallButton(pressed ? "Tap an area on the map…" : "Tap on the map", press,
                {class: "button small secondary tap-area", "aria-pressed": pressed ? "true" : "false", dataset: {for: path}}));
}

/** Return the list of area ids at pos[key] as tokens with a Remove button each, and the button that makes taps
 *  on areas add or take away one (at most `max`). */
function tappedList(pos, key, {mark, noun, empty, button, done, id}, pressed, press, changed, redraw) {
  const list = pos[key] || [];
  return [
    h("ul", {class: "tokens", "aria-label": noun, dataset: {path: key}},
      list.length ? list.map((area, j) => h("li", {class: "token"}, h("span", {class: "token-name"}, `${mark} ${area}`),
        smallButton("Remove", () => { pos[key].splice(j, 1); changed(); redraw(); }, {"aria-label": `Remove ${area} from the ${noun.toLowerCase()}`})))
        : [h("li", {class: "muted"}, empty)]),
    row(smallButton(pressed ? done : button, press, {id, "aria-pressed": pressed ? "true" : "false"}))];
}

/** Toggle area `id` in the list pos[key] (kept under `max` entries). */
function toggleIn(pos, key, id, max) {
  const list = Array.isArray(pos[key]) ? pos[key] : [];
  if (list.includes(id)) pos[key] = list.filter((x) => x !== id);
  else if (list.length < max) pos[key] = [...list, id];
}

// ------------------------------------------------------------------------------------------ strategize
// A Strategize order on the shared map: no one marked area; the areas a move names are tapped. "Add a move" (or a
// move's "Tap on the map" button) makes the next tap on an area its from, the tap after that its to (tapping the
// from again leaves to out: the ruling asks); "Tap areas to activate" makes taps add or take away an activation
// token (◆). Each figure leaving an area shows as n⇢ on it, each arriving as ⇢n. The rest of each move (its name,
// hero, flying, routed) and of the order (player, season, Supremacy Bonus, dials) are the schema form's fields.

const strategize = {
  example: {
    player: "daqan", season: "spring",
    map: {
      areas: [{id: "5A", units: {daqan: 2}}, {id: "5B", units: {daqan: 1}, stronghold: "daqan"},
              {id: "6C", units: {daqan: 1}}, {id: "6D", units: {daqan: 1}}, {id: "7A", units: {neutral: 2}}],
      borders: [["5A", "5B", "plain"], ["5B", "6C", "plain"], ["6C", "6D", "plain"], ["6C", "7A", "mountain"]],
    },
    activated: [],
    moves: [{figure: "Footman 1", from: "5A", to: "5B"}, {figure: "Knight", from: "6C"}],
    ui_layout: {"5A": [1, 2], "5B": [2, 2], "6C": [3, 2], "6D": [3, 3], "7A": [4, 2]},
  },
  render(el, pos, ctx) {
    pos.moves = Array.isArray(pos.moves) ? pos.moves : [];
    if (pos.activated !== undefined && !Array.isArray(pos.activated)) delete pos.activated;
    const moveSchema = schemaAt(ctx.schema, "moves", "[]") || {properties: {}};
    let armed = null;  // what the next tap on an area sets: {key: "from" | "to", i} or {key: "activated"}
    const changed = () => ctx.changed();
    const redrawAll = () => { moves.draw(); active.draw(); };
    const leaving = (id) => pos.moves.filter((m) => m.from === id).length;
    const arriving = (id) => pos.moves.filter((m) => m.to === id).length;
    const isActive = (id) => (pos.activated || []).includes(id);
    const map = mapPanels(pos, ctx, {
      key: null, legend: "◆ marks an activated area; n⇢ figures leaving, ⇢n figures arriving; ",
      marks: (area) => [isActive(area.id) ? "◆" : "", leaving(area.id) ? `${leaving(area.id)}⇢` : "",
                        arriving(area.id) ? `⇢${arriving(area.id)}` : ""].filter(Boolean).join(" "),
      said: (area) => [isActive(area.id) ? "activated" : "",
                       leaving(area.id) ? `${leaving(area.id)} moving out` : "",
                       arriving(area.id) ? `${arriving(area.id)} moving in` : ""].filter(Boolean).join(", "),
      tap: (id) => {
        if (!armed) return false;
        if (armed.key === "activated") {
          toggleIn(pos, "activated", id, (schemaAt(ctx.schema, "activated") || {}).maxItems || 120);
        } else {
          const m = pos.moves[armed.i];
          if (!m) { armed = null; return false; }
          if (armed.key === "from") { m.from = id; armed = {key: "to", i: armed.i}; }
          else { if (id === m.from) delete m.to; else m.to = id; armed = null; }
        }
        return true;
      },
      renamed: (old, now) => {
        for (const m of pos.moves) { if (m.from === old) m.from = now; if (m.to === old) m.to = now; }
        if (pos.activated) pos.activated = pos.activated.map((x) => (x === old ? now : x));
      },
      removed: (id) => {
        for (const m of pos.moves) { if (m.from === id) delete m.from; if (m.to === id) delete m.to; }
        if (pos.activated) pos.activated = pos.activated.filter((x) => x !== id);
      },
      cleared: () => { pos.moves = []; pos.activated = []; armed = null; },
    }, [], redrawAll);
    const arm = (next) => { armed = next; map.draw(); redrawAll(); };
    const armedIs = (key, i) => !!armed && armed.key === key && armed.i === i;

    const areaOf = (m, i, key, label, none) => tappable(pos, m, key, `moves[${i}].${key}`, label, none,
      armedIs(key, i), () => arm(armedIs(key, i) ? null : {key, i}), () => { changed(); map.draw(); });

    const moves = live((redraw) => {
      const out = [h("p", {class: "hint", role: "status"}, armed && armed.key !== "activated"
        ? `Tap the area ${pos.moves[armed.i] ? pos.moves[armed.i].figure || `figure ${armed.i + 1}` : "the figure"} moves ${armed.key === "from" ? "from" : "to (its own area again: ask the ruling)"}.`
        : "Add a move, then tap the area the figure leaves and the area it enters.")];
      pos.moves.forEach((m, i) => {
        const box = h("fieldset", {class: "object compact figure", dataset: {path: `moves[${i}]`}}, h("legend", {}, `Move ${i + 1}`));
        const fs = schemaAt(moveSchema, "figure");
        if (fs) box.append(field(fs, fs.title || "Figure", () => m.figure ?? "", (v) => { m.figure = v; changed(); }, changed, `moves[${i}].figure`));
        box.append(areaOf(m, i, "from", "From", "not chosen yet"));
        box.append(areaOf(m, i, "to", "To", "not chosen (the ruling asks)"));
        for (const key of ["hero", "flying", "routed"]) {
          const ps = schemaAt(moveSchema, key);
          if (ps) box.append(propertyRow(ps, key, false, () => m, changed, `moves[${i}].${key}`));
        }
        box.append(smallButton(`Remove move ${i + 1}`, () => {
          pos.moves.splice(i, 1); armed = null; changed(); map.draw(); redraw();
        }));
        out.push(box);
      });
      out.push(smallButton("Add a move", () => {
        if (pos.moves.length >= ((schemaAt(ctx.schema, "moves") || {}).maxItems || 80)) return;
        const taken = new Set(pos.moves.map((m) => m.figure));
        let n = pos.moves.length + 1;
        while (taken.has(`Figure ${n}`)) n++;
        pos.moves.push({figure: `Figure ${n}`});
        armed = {key: "from", i: pos.moves.length - 1};
        changed(); map.draw(); redraw(); active.draw();
      }, {id: "add-move"}));
      return out;
    });

    const active = live((redraw) => {
      const on = !!armed && armed.key === "activated";
      return tappedList(pos, "activated", {mark: "◆", noun: "Activated areas", empty: "No area activated yet.",
                                           button: "Tap areas to activate", done: "Done activating", id: "tap-activate"},
                        on, () => arm(on ? null : {key: "activated"}), () => { changed(); map.draw(); }, redraw);
    });

    el.append(h("div", {class: "rw-map-situation"},
      panel("Order", row(...rowsOf(ctx, pos, ["player", "season"], changed))),
      map.el,
      panel("Moves", moves.el),
      panel("Activated areas", active.el),
      panel("Supremacy Bonus", row(...rowsOf(ctx, pos, ["supremacy", "tactics_images"], changed)))));
  },
};

editors.strategize = strategize;

// ------------------------------------------------------------------------------------------ dragon rune
// Receiving a dragon rune on the shared map: "Add a rune token" makes the next tap on an area its area; "Tap areas
// to discard" makes taps add or take away a false rune discarded first (✕, at most 2); the dragon rune's and the
// false rune's places are each a select with its own "Tap on the map" button. Tokens show on their areas (◈ a
// dragon rune, ◇ a false one, ◌ one not known); the places chosen as →◈ and →◇.

const RUNE_MARK = {dragon: "◈", false: "◇"};

const dragonRune = {
  example: {
    player: "elves",
    map: {
      areas: [{id: "1A", home_realm: "elves", stronghold: "elves", units: {elves: 2}}, {id: "1B", home_realm: "elves", units: {}},
              {id: "2A", units: {elves: 1}}, {id: "2B", units: {}}, {id: "3A", units: {uthuk: 2}}],
      borders: [["1A", "1B", "plain"], ["1B", "2A", "plain"], ["2A", "2B", "plain"], ["2B", "3A", "plain"]],
    },
    runes: [{area: "1A", kind: "dragon"}, {area: "1B", kind: "false"}, {area: "2A", kind: "false"}],
    discard: [],
    ui_layout: {"1A": [1, 2], "1B": [2, 2], "2A": [3, 2], "2B": [2, 3], "3A": [3, 3]},
  },
  render(el, pos, ctx) {
    pos.runes = Array.isArray(pos.runes) ? pos.runes : [];
    if (pos.discard !== undefined && !Array.isArray(pos.discard)) delete pos.discard;
    const runeSchema = schemaAt(ctx.schema, "runes", "[]") || {properties: {}};
    let armed = null;  // what the next tap on an area sets: {key: "rune", i}, {key: "discard"}, {key: "dragon_to" | "false_to"}
    const changed = () => ctx.changed();
    const redrawAll = () => { tokens.draw(); placing.draw(); };
    const runesIn = (id) => pos.runes.filter((r) => r.area === id).map((r) => RUNE_MARK[r.kind] || "◌").join("");
    const map = mapPanels(pos, ctx, {
      key: null, legend: "◈ a dragon rune, ◇ a false rune, ◌ a token not known; ✕ discarded; →◈ / →◇ where the new ones go; ",
      marks: (area) => [runesIn(area.id), (pos.discard || []).includes(area.id) ? "✕" : "",
                        pos.dragon_to === area.id ? "→◈" : "", pos.false_to === area.id ? "→◇" : ""].filter(Boolean).join(" "),
      said: (area) => {
        const here = pos.runes.filter((r) => r.area === area.id);
        return [here.length ? `${here.length} rune ${here.length === 1 ? "token" : "tokens"}` : "",
                (pos.discard || []).includes(area.id) ? "its false rune discarded" : "",
                pos.dragon_to === area.id ? "the dragon rune goes here" : "", pos.false_to === area.id ? "the false rune goes here" : ""]
          .filter(Boolean).join(", ");
      },
      tap: (id) => {
        if (!armed) return false;
        if (armed.key === "discard") toggleIn(pos, "discard", id, (schemaAt(ctx.schema, "discard") || {}).maxItems || 2);
        else if (armed.key === "rune") {
          if (pos.runes[armed.i]) pos.runes[armed.i].area = id;
          armed = null;
        } else {
          if (pos[armed.key] === id) delete pos[armed.key]; else pos[armed.key] = id;
          armed = null;
        }
        return true;
      },
      renamed: (old, now) => {
        for (const r of pos.runes) if (r.area === old) r.area = now;
        if (pos.discard) pos.discard = pos.discard.map((x) => (x === old ? now : x));
      },
      removed: (id) => {
        for (const r of pos.runes) if (r.area === id) delete r.area;
        if (pos.discard) pos.discard = pos.discard.filter((x) => x !== id);
      },
      cleared: () => { pos.runes = []; pos.discard = []; armed = null; },
    }, ["dragon_to", "false_to"], redrawAll);
    const arm = (next) => { armed = next; map.draw(); redrawAll(); };
    const armedIs = (key, i) => !!armed && armed.key === key && armed.i === i;
    const onMap = () => { changed(); map.draw(); };

    const tokens = live((redraw) => {
      const out = [];
      pos.runes.forEach((r, i) => {
        const box = h("fieldset", {class: "object compact figure", dataset: {path: `runes[${i}]`}}, h("legend", {}, `Rune token ${i + 1}`));
        box.append(tappable(pos, r, "area", `runes[${i}].area`, "Area", "not chosen yet", armedIs("rune", i),
                            () => arm(armedIs("rune", i) ? null : {key: "rune", i}), onMap));
        for (const key of ["kind", "faceup"]) {
          const ps = schemaAt(runeSchema, key);
          if (ps) box.append(propertyRow(ps, key, false, () => r, onMap, `runes[${i}].${key}`));
        }
        box.append(smallButton(`Remove rune token ${i + 1}`, () => { pos.runes.splice(i, 1); armed = null; onMap(); redraw(); }));
        out.push(box);
      });
      out.push(smallButton("Add a rune token", () => {
        if (pos.runes.length >= ((schemaAt(ctx.schema, "runes") || {}).maxItems || 60)) return;
        pos.runes.push({});
        armed = {key: "rune", i: pos.runes.length - 1};
        onMap(); redraw(); placing.draw();
      }, {id: "add-rune"}));
      return out;
    });

    const placing = live((redraw) => {
      const on = !!armed && armed.key === "discard";
      const props = ctx.schema.properties || {};
      return [
        h("h4", {}, "False runes discarded first"),
        ...tappedList(pos, "discard", {mark: "✕", noun: "False runes discarded", empty: "None discarded.",
                                       button: "Tap areas to discard", done: "Done discarding", id: "tap-discard"},
                      on, () => arm(on ? null : {key: "discard"}), onMap, redraw),
        tappable(pos, pos, "dragon_to", "dragon_to", "Dragon rune goes to", "not chosen (the ruling asks)", armedIs("dragon_to"),
                 () => arm(armedIs("dragon_to") ? null : {key: "dragon_to"}), onMap),
        tappable(pos, pos, "false_to", "false_to", "False rune goes to", "not chosen (the ruling asks)", armedIs("false_to"),
                 () => arm(armedIs("false_to") ? null : {key: "false_to"}), onMap),
        props.only ? propertyRow(props.only, "only", false, () => pos, changed, "only") : null];
    });

    el.append(h("div", {class: "rw-map-situation"},
      panel("Player", row(...rowsOf(ctx, pos, ["player"], changed))),
      map.el,
      panel("Rune tokens on the map", tokens.el),
      panel("Placing the new tokens", placing.el)));
  },
};

editors.dragon_rune = dragonRune;
