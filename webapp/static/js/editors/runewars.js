// Runewars: a hex-area map editor (areas, controllers, units, borders) for movement; other panels use forms.
// The map drawing and editing (hexMap, addAreaAt, borderButtons, …) is exported for runewars-map-situations.js.
import {clear, h, humanize} from "../dom.js";
import {defaultFor, field, propertyRow, schemaAt} from "../schemaform.js";
import {checkbox, segmented, select, smallButton, stepper, textInput} from "../widgets.js";
import {factionName} from "../names.js";
import {FACTIONS, live, panel, row} from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
export const COLS = 7;  // the hex grid of the map: columns and rows
export const ROWS = 5;
const SIZE = 48;
const LINE_DY = [-14, 1, 14, 27];  // the label and up to three lines under it, in a hex
export const BORDER_TYPES = ["plain", "mountain", "water"];
const CONTRACT_AREA = ["controller", "units", "neutral_units", "enemy_units", "activation_tokens"];
const BOARD_KEYS = ["game", "situation", "map", "movers", "target_area", "ui_layout"];
const AREA_FALLBACK = {
  type: "object", required: ["id"],
  properties: {id: {type: "string"}, controller: {anyOf: [{enum: FACTIONS}, {type: "null"}]},
               neutral_units: {type: "integer", minimum: 0}, enemy_units: {type: "integer", minimum: 0},
               activation_tokens: {type: "array", items: {enum: FACTIONS}}},
};
const MOVER_FALLBACK = {
  type: "object", required: ["id", "from"],
  properties: {id: {type: "string"}, from: {type: "string"}, fast: {type: "boolean"}, flying: {type: "boolean"},
               routed: {type: "boolean"}, hero: {type: "boolean"}},
};

export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "style") el.style.cssText = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function center([col, row], size = SIZE) {
  return [size * Math.sqrt(3) * (col + 0.5 * (row & 1)) + size, size * 1.5 * row + size];
}

function corners(c, size = SIZE) {
  const [x, y] = center(c, size);
  return Array.from({length: 6}, (_, i) => {
    const a = Math.PI / 180 * (60 * i - 30);
    return [x + size * Math.cos(a), y + size * Math.sin(a)];
  });
}

export function neighbours([col, row]) {
  const d = row & 1
    ? [[1, 0], [-1, 0], [1, -1], [0, -1], [1, 1], [0, 1]]
    : [[1, 0], [-1, 0], [0, -1], [-1, -1], [0, 1], [-1, 1]];
  return d.map(([dc, dr]) => [col + dc, row + dr]);
}

function sharedEdge(a, b) {
  const [bx, by] = center(b);
  return corners(a).map((p) => [p, Math.hypot(p[0] - bx, p[1] - by)]).sort((x, y) => x[1] - y[1]).slice(0, 2).map((x) => x[0]);
}

/** Return a map from each used hex slot ("col,row") to the id of the area on it. */
function slotIndex(layout) {
  return new Map(Object.entries(layout).map(([id, slot]) => [slot.join(), id]));
}

export function nextId(map) {
  const taken = new Set(map.areas.map((a) => a.id));
  for (let n = 1; ; n++) {
    for (const letter of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
      const id = n === 1 ? letter : `${letter}${n}`;
      if (!taken.has(id)) return id;
    }
  }
}

/** Give every area a hex slot: keep stored ones, place the rest on free slots in reading order. */
export function layoutOf(pos) {
  const layout = pos.ui_layout = pos.ui_layout && typeof pos.ui_layout === "object" ? pos.ui_layout : {};
  const used = new Set();
  for (const a of pos.map.areas) {
    const slot = layout[a.id];
    if (Array.isArray(slot) && slot.length === 2 && !used.has(slot.join())) used.add(slot.join());
    else delete layout[a.id];
  }
  for (const a of pos.map.areas) {
    if (layout[a.id]) continue;
    for (let i = 0; i < COLS * ROWS; i++) {
      const slot = [i % COLS, Math.floor(i / COLS)];
      if (!used.has(slot.join())) { layout[a.id] = slot; used.add(slot.join()); break; }
    }
  }
  for (const k of Object.keys(layout)) if (!pos.map.areas.some((a) => a.id === k)) delete layout[k];
  return layout;
}

export function borderOf(map, a, b) {
  return map.borders.find((x) => (x[0] === a && x[1] === b) || (x[0] === b && x[1] === a)) || null;
}

export function cycleBorder(map, a, b) {
  const found = borderOf(map, a, b);
  if (!found) { map.borders.push([a, b, "plain"]); return; }
  const i = BORDER_TYPES.indexOf(found[2]);
  if (i === BORDER_TYPES.length - 1) map.borders.splice(map.borders.indexOf(found), 1);
  else found[2] = BORDER_TYPES[i + 1];
}

export function renameArea(pos, from, to) {
  for (const a of pos.map.areas) if (a.id === from) a.id = to;
  for (const b of pos.map.borders) { if (b[0] === from) b[0] = to; if (b[1] === from) b[1] = to; }
  for (const m of pos.movers || []) if (m.from === from) m.from = to;
  if (pos.target_area === from) pos.target_area = to;
  if (pos.ui_layout && pos.ui_layout[from]) { pos.ui_layout[to] = pos.ui_layout[from]; delete pos.ui_layout[from]; }
}

/** Add an area with the given fields at a hex slot, with plain borders to the areas beside it; return its id. */
export function addAreaAt(pos, slot, fields = {}) {
  const id = nextId(pos.map);
  pos.map.areas.push({...fields, id});
  const layout = layoutOf(pos);
  layout[id] = slot;
  const bySlot = slotIndex(layout);
  for (const nb of neighbours(slot)) {
    const other = bySlot.get(nb.join());
    if (other && other !== id && !borderOf(pos.map, id, other)) pos.map.borders.push([other, id, "plain"]);
  }
  return id;
}

/** Return the border buttons of area `id` (one per area beside it on the grid; a tap cycles the border). */
export function borderButtons(pos, id, after) {
  const layout = layoutOf(pos);
  const bySlot = slotIndex(layout);
  const nbs = neighbours(layout[id] || [0, 0]).map((n) => bySlot.get(n.join())).filter(Boolean);
  if (!nbs.length) return null;
  return h("div", {class: "border-buttons", role: "group", "aria-label": `Borders of ${id}`},
    h("span", {class: "hint"}, "Borders (tap to change): "),
    nbs.map((other) => {
      const b = borderOf(pos.map, id, other);
      return h("button", {type: "button", class: `button small secondary border-button ${b ? b[2] : "none"}`,
        dataset: {borderWith: other}, onclick: () => { cycleBorder(pos.map, id, other); after(); }},
        `${id}–${other}: ${b ? b[2] : "none"}`);
    }));
}

/** Return [svg, legend] of the hex-area map of `pos.map` (slots kept in `pos.ui_layout`): empty hexes add an
 *  area (opts.onAdd(slot)), areas select (opts.onSelect(id)), edges between areas cycle the border
 *  (opts.onBorder(a, b)). opts.areaClass(area) and opts.areaLines(area) (up to 4 lines, the first the label)
 *  say how an area looks; opts.areaLabel(area) what a screen reader says. */
export function hexMap(pos, opts) {
  const {selected = null, label = "Map", areaClass = () => [], areaLabel = (a) => `Area ${a.id}`,
         areaLines = (a) => [a.id], onAdd, onSelect, onBorder, legend = ""} = opts;
  const layout = layoutOf(pos);
  const width = SIZE * Math.sqrt(3) * (COLS + 0.5) + SIZE * 0.4;
  const height = SIZE * 1.5 * (ROWS - 1) + SIZE * 2.2;
  const svg = s("svg", {class: "hexmap", viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`, role: "group", "aria-label": label});
  const bySlot = slotIndex(layout);
  const key = (fn) => (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(); } };
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      const id = bySlot.get(`${c},${r}`);
      const pts = corners([c, r]).map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ");
      if (!id) {
        svg.append(s("polygon", {points: pts, class: "hex empty", tabindex: "0", role: "button",
          "aria-label": `Add an area at column ${c + 1}, row ${r + 1}`, "data-slot": `${c},${r}`,
          onclick: () => onAdd([c, r]), onkeydown: key(() => onAdd([c, r]))}));
        continue;
      }
      const area = pos.map.areas.find((a) => a.id === id);
      const cls = ["hex", "area", ...areaClass(area), id === selected ? "selected" : ""].filter(Boolean).join(" ");
      const [x, y] = center([c, r]);
      const lines = areaLines(area);
      svg.append(s("g", {},
        s("polygon", {points: pts, class: cls, tabindex: "0", role: "button", "data-area": id,
          "aria-label": areaLabel(area), "aria-pressed": id === selected ? "true" : "false",
          onclick: () => onSelect(id), onkeydown: key(() => onSelect(id))}),
        ...lines.slice(0, 4).map((text, i) => (text ? s("text", {x: x.toFixed(1), y: (y + LINE_DY[i]).toFixed(1),
          "text-anchor": "middle", class: i === 0 ? "hex-label" : "hex-sub"}, text) : null))));
    }
  }
  // borders between neighbouring areas (drawn last, on top)
  for (const a of Object.keys(layout)) {
    for (const nb of neighbours(layout[a])) {
      const b = bySlot.get(nb.join());
      if (!b || b <= a) continue;
      const [[x1, y1], [x2, y2]] = sharedEdge(layout[a], layout[b]);
      const border = borderOf(pos.map, a, b);
      const kind = border ? border[2] : "none";
      // a thick bar along the shared edge, a little shorter than it (its ends stay clear of corners)
      const len = Math.hypot(x2 - x1, y2 - y1);
      const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
      const [nx, ny] = [-uy * 5, ux * 5];
      const [sx, sy, ex, ey] = [x1 + ux * 6, y1 + uy * 6, x2 - ux * 6, y2 - uy * 6];
      const bar = [[sx + nx, sy + ny], [ex + nx, ey + ny], [ex - nx, ey - ny], [sx - nx, sy - ny]]
        .map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ");
      svg.append(s("polygon", {points: bar,
        class: `border ${kind}`, tabindex: "0", role: "button", "data-border": `${a}-${b}`,
        "aria-label": `Border ${a}–${b}: ${kind}. Activate to change`,
        onclick: () => onBorder(a, b), onkeydown: key(() => onBorder(a, b))},
        s("title", {}, `${a}–${b}: ${kind}`)));
    }
  }
  return [svg, h("p", {class: "hint"},
    ...BORDER_TYPES.map((t) => h("span", {}, h("span", {class: `legend-swatch`, style: `background: var(--b-${t})`}), `${t} `)),
    `— click an edge to cycle none → plain → mountain → water (or use the border buttons of the selected area). ${legend}`)];
}

const mobilize = {
  example: {
    season: "spring", player: "daqan", target_area: "B",
    map: {
      areas: [
        {id: "A", controller: "daqan", neutral_units: 0, enemy_units: 0, activation_tokens: []},
        {id: "B", controller: null, neutral_units: 0, enemy_units: 0, activation_tokens: []},
        {id: "C", controller: null, neutral_units: 1, enemy_units: 0, activation_tokens: []},
        {id: "D", controller: "uthuk", neutral_units: 0, enemy_units: 2, activation_tokens: []},
      ],
      borders: [["A", "B", "plain"], ["B", "C", "mountain"], ["A", "D", "water"], ["C", "D", "plain"]],
    },
    movers: [{id: "knight-1", from: "A", fast: false, flying: false, routed: false, hero: false},
             {id: "archer-1", from: "D", fast: false, flying: false, routed: false, hero: false}],
    ui_layout: {A: [1, 1], B: [2, 1], C: [2, 2], D: [1, 2]},
  },
  render(el, pos, ctx) {
    pos.map = pos.map || {areas: [], borders: []};
    pos.map.areas = pos.map.areas || [];
    pos.map.borders = pos.map.borders || [];
    pos.movers = pos.movers || [];
    const defs = ctx.schema.$defs || {};
    const areaSchema = defs.area || schemaAt(ctx.schema, "map", "areas", "[]") || AREA_FALLBACK;
    const moverSchema = schemaAt(ctx.schema, "movers", "[]") || MOVER_FALLBACK;
    let selected = pos.target_area || (pos.map.areas[0] && pos.map.areas[0].id) || null;
    const changed = () => { ctx.changed(); };

    const mapView = live((redraw) => hexMap(pos, {
      selected,
      label: "Map: click an empty hex to add an area, an area to select it, an edge between two areas to change the border",
      areaClass: (area) => [area.controller ? `ctrl-${area.controller}` : "", area.id === pos.target_area ? "target" : ""],
      areaLabel: (area) => `Area ${area.id}${area.controller ? `, controlled by ${area.controller}` : ""}${area.id === pos.target_area ? ", target" : ""}`,
      areaLines: (area) => {
        const units = pos.movers.filter((m) => m.from === area.id).length;
        const counts = [area.enemy_units ? `${area.enemy_units} enemy` : "",
                        area.neutral_units ? `${area.neutral_units} neutral` : ""].filter(Boolean).join(", ");
        return [area.id + (area.id === pos.target_area ? " ★" : ""), area.controller ? humanize(area.controller) : "",
                counts.slice(0, 16), units ? `${units} moving` : ""];
      },
      onAdd: addArea,
      onSelect: (id) => { selected = id; redraw(); details.draw(); },
      onBorder: (a, b) => { cycleBorder(pos.map, a, b); changed(); redraw(); others.draw(); },
      legend: "★ marks the target area.",
    }), {class: "map-scroll"});

    function addArea(slot) {
      const id = addAreaAt(pos, slot, defaultFor(areaSchema));
      selected = id;
      changed(); mapView.draw(); details.draw(); movers.draw(); others.draw();
    }

    const details = live((redraw) => {
      const area = pos.map.areas.find((a) => a.id === selected);
      if (!area) return h("p", {class: "hint"}, "Select an area on the map (or click an empty hex to add one).");
      const i = pos.map.areas.indexOf(area);
      const out = [h("h4", {}, `Area ${area.id}`)];
      let newId = area.id;
      out.push(row(textInput("Name", () => area.id, (v) => { newId = v.trim(); }, {path: `map.areas[${i}].id`}),
        smallButton("Rename", () => {
          if (newId && newId !== area.id && !pos.map.areas.some((a) => a.id === newId)) {
            renameArea(pos, area.id, newId); selected = newId; changed(); mapView.draw(); redraw(); movers.draw(); others.draw();
          }
        })));
      const both = () => { changed(); mapView.draw(); };
      for (const [key, ps] of Object.entries(areaSchema.properties || {})) {
        if (key === "id") continue;
        const shown = CONTRACT_AREA.includes(key) || (areaSchema.required || []).includes(key);
        out.push(propertyRow(ps, key, shown, () => area, both, `map.areas[${i}].${key}`));
      }
      // the borders of this area as buttons too (a tap target as big as any other, on a phone as well)
      out.push(borderButtons(pos, area.id, () => { changed(); mapView.draw(); redraw(); others.draw(); }));
      out.push(row(
        smallButton(pos.target_area === area.id ? "This is the target" : "Make it the target area", () => {
          pos.target_area = area.id; changed(); mapView.draw(); redraw();
        }, {id: "make-target"}),
        smallButton("Remove the area", () => {
          pos.map.areas.splice(i, 1);
          pos.map.borders = pos.map.borders.filter((b) => b[0] !== area.id && b[1] !== area.id);
          if (pos.target_area === area.id) delete pos.target_area;
          selected = null;
          changed(); mapView.draw(); redraw(); movers.draw(); others.draw();
        })));
      return out;
    });

    const movers = live((redraw) => {
      const ids = pos.map.areas.map((a) => a.id);
      const out = [];
      pos.movers.forEach((m, i) => {
        const box = h("fieldset", {class: "object compact", dataset: {path: `movers[${i}]`}}, h("legend", {}, `Unit ${m.id || i + 1}`));
        for (const [key, ps] of Object.entries(moverSchema.properties || {})) {
          if (key === "from") {
            box.append(select("From area", ids, () => m.from, (v) => { m.from = v; changed(); mapView.draw(); }, {path: `movers[${i}].from`}));
          } else {
            if (!(key in m) && (moverSchema.required || []).includes(key)) m[key] = defaultFor(ps);
            if (!(key in m) && ps.type === "boolean") m[key] = false;
            box.append(field(ps, humanize(key), () => m[key], (v) => { m[key] = v; changed(); }, changed, `movers[${i}].${key}`));
          }
        }
        box.append(smallButton("Remove the unit", () => { pos.movers.splice(i, 1); changed(); redraw(); mapView.draw(); }));
        out.push(box);
      });
      out.push(smallButton("Add a moving unit", () => {
        const m = {...defaultFor(moverSchema), id: `unit-${pos.movers.length + 1}`, from: selected || ids[0] || ""};
        pos.movers.push(m); changed(); redraw(); mapView.draw();
      }, {id: "add-mover"}));
      return out;
    });

    const others = live((redraw) => {
      const ids = pos.map.areas.map((a) => a.id);
      const layout = layoutOf(pos);
      const adjacent = (a, b) => layout[a] && layout[b] && neighbours(layout[a]).some((n) => n.join() === layout[b].join());
      const far = pos.map.borders.filter((b) => !adjacent(b[0], b[1]));
      const draft = {a: ids[0], b: ids[1], kind: "plain"};
      return [
        h("p", {class: "hint"}, "Borders between areas that are not side by side on this grid:"),
        far.length ? h("ul", {class: "plain"}, far.map((b) => h("li", {}, `${b[0]} – ${b[1]} (${b[2]}) `,
          smallButton("Remove", () => { pos.map.borders.splice(pos.map.borders.indexOf(b), 1); changed(); redraw(); })))) : h("p", {class: "muted"}, "none"),
        ids.length >= 2 ? row(
          select("From", ids, () => draft.a, (v) => { draft.a = v; }),
          select("To", ids, () => draft.b, (v) => { draft.b = v; }),
          select("Border", BORDER_TYPES, () => draft.kind, (v) => { draft.kind = v; }),
          smallButton("Add the border", () => {
            if (draft.a === draft.b || borderOf(pos.map, draft.a, draft.b)) return;
            pos.map.borders.push([draft.a, draft.b, draft.kind]); changed(); redraw(); mapView.draw();
          })) : null,
      ];
    });

    const top = h("div", {class: "row"});
    const required = ctx.schema.required || [];
    for (const [key, ps] of Object.entries(ctx.schema.properties || {})) {
      if (BOARD_KEYS.includes(key)) continue;
      top.append(propertyRow(ps, key, required.includes(key) || key === "season", () => pos, changed, key));
    }
    el.append(panel("Turn", top),
      panel("Map", h("div", {class: "map-wrap"}, mapView.el, h("div", {class: "area-details"}, details.el))),
      panel("Units moving", movers.el),
      panel("More borders", others.el));
  },
};


// ------------------------------------------------------------------------------------------ battle tokens
// The battle itself is set up on the shared map in runewars-map-situations.js (one battle, one map); the units
// of each side are tokens of their class, drawn here.

export const SHAPES = {triangle: "▲", circle: "●", rectangle: "▬", hexagon: "⬢"};

export function unitTokens(side, label, pos, changed, redraw) {
  const units = pos[side].units;
  const list = h("ul", {class: "tokens", "aria-label": `${label}'s units`, dataset: {path: `${side}.units`}});
  if (!units.length) list.append(h("li", {class: "muted"}, "No units yet"));
  units.forEach((u, i) => {
    list.append(h("li", {class: `token shape-${u.class}${u.routed ? " routed" : ""}`, dataset: {index: String(i)}},
      h("span", {class: "token-glyph", "aria-hidden": "true"}, SHAPES[u.class] || "?"),
      h("span", {class: "token-name"}, u.id || `${humanize(u.class)} unit`),
      h("label", {class: "mini-check"}, h("input", {type: "checkbox", checked: !!u.routed, onchange: (e) => {
        if (e.target.checked) u.routed = true; else delete u.routed;
        changed(); redraw();
      }}), "routed"),
      smallButton("Remove", () => { units.splice(i, 1); changed(); redraw(); },
                  {"aria-label": `Remove ${u.id || u.class} from the ${label.toLowerCase()}`})));
  });
  const adders = h("div", {class: "row token-adders"}, Object.entries(SHAPES).map(([cls, glyph]) =>
    smallButton(`${glyph} ${humanize(cls)}`, () => {
      const taken = new Set(units.map((u) => u.id));
      let n = 1;
      while (taken.has(`${humanize(cls)} ${n}`)) n++;
      units.push({id: `${humanize(cls)} ${n}`, class: cls});
      changed(); redraw();
    }, {"aria-label": `Add a ${cls} unit to the ${label.toLowerCase()}`, dataset: {add: `${side}-${cls}`}})));
  return [list, adders];
}

export const editors = {mobilize};
