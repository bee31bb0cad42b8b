// The RuneWars Miniatures table board: place units and terrain seen from above; the engine measures.
//
// Editors for every table situation and a "From the table" mode of the attack. A table situation is any
// RuneWars Miniatures situation whose published position schema has `units` and `table`: each gets a table tab
// with no code of its own. Its role selects come from the fields marked `x-table-role` (acting, target, other;
// the field's title is the select's label), its other fields are edited with the generated-form widgets
// (schemaform.js) beside the table, and the shapes its ruling derives (`outcome.drawing`: templates, end
// positions, blocked spots, slides, lines, points) are drawn as they are, with a legend in the words of the
// shape roles' `x-enum-labels` (read from the page: boards.py). The position is the contract's table format (lengths in tray widths, facing 0 = up, turning
// clockwise). The board only draws: every fact it shows (engaged, contacted edges, flanking, sight line,
// blockers, range) comes from /api/resolve, asked again a moment after each change.
//
// Mouse, pen and touch: drag a unit to move it (dropped within a tray width of another unit's edge, it lands
// flush against it; hold Alt to place it freely), drag its round handle to turn it. Keyboard: Tab to a unit, arrow keys move it (Shift: a whole tray width), R turns it 15°
// (Shift+R back), Delete removes it. Terrain: "Draw terrain" (just above the table), click the corners, "Finish".
import {postJSON, situations} from "../api.js";
import {copy, h, humanize, uid} from "../dom.js";
import {defaultFor, propertyRow} from "../schemaform.js";
import {checkbox, segmented, select, smallButton, stepper, textInput} from "../widgets.js";
import {editors as base} from "./runewars-miniatures.js";
import {panel, row} from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const SNAP = 1;            // tray widths: a dragged edge this close to an opposite edge lands flush on it (the hint says so)
const STEP = 0.1;          // arrow key move
const TURN = 15;           // R key turn (degrees)
const PLAYERS = ["Daqan", "Waiqar", "Latari", "Uthuk"];
const COLORS = {0: "#2f6db5", 1: "#a8402f", 2: "#3d8c4a", 3: "#7a4b9a"};
const GAME = "runewars-miniatures";
// the position schema of each situation of the game (the board has fetched them already: one request)
const SCHEMAS = Object.fromEntries((await situations()).filter((x) => x.game === GAME).map((x) => [x.situation, x.schema]));
// the words of the shapes the engine draws (role -> player words), given by the page (boards.py)
const SHAPE_WORDS = (() => {
  try { return JSON.parse(document.getElementById("board")?.dataset.board || "{}").shape_roles || {}; } catch { return {}; }
})();
// the fields every table situation shares, drawn on the table and in the Units, Terrain and Settings panels
const TABLE_KEYS = new Set(["game", "situation", "table", "units", "terrain"]);

/** Return whether a position schema is a table situation's: it has `units` and `table`. */
export function isTableSchema(schema) {
  const props = schema?.properties || {};
  return Boolean(props.units && props.table);
}

(function addStyles() {
  const href = new URL("../../css/table.css", import.meta.url).href;
  if (![...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) {
    document.head.append(h("link", {rel: "stylesheet", href}));
  }
})();

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = String(v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

// ------------------------------------------------------------------------------------------ geometry

const rad = (d) => (d * Math.PI) / 180;
const fwd = (facing) => [Math.sin(rad(facing)), Math.cos(rad(facing))];
const rightOf = ([x, y]) => [y, -x];
const round = (x, n = 3) => Math.round(x * 10 ** n) / 10 ** n;

/** Return the files each rank occupies, for drawing (a count the engine will refuse is drawn as 1 tray). */
function ranksOf(unit) {
  const count = (n, hi = 24) => (Number.isInteger(n) ? Math.max(1, Math.min(hi, n)) : 1);
  if (Array.isArray(unit.formation) && unit.formation.length) {
    const files = count(unit.formation[0]);
    return unit.formation.slice(0, 24).map((r) => (Array.isArray(r) ? (r.length ? r : [0]) : [...Array(count(r, files)).keys()]));
  }
  return [...Array(count(unit.ranks))].map(() => [...Array(count(unit.files)).keys()]);
}

function trayOf(unit) {
  return {w: unit.tray?.width ?? 1, d: unit.tray?.depth ?? 1};
}

function world(unit, u, v) {
  const f = fwd(unit.facing), r = rightOf(f);
  return [unit.front[0] + u * r[0] + v * f[0], unit.front[1] + u * r[1] + v * f[1]];
}

function trays(unit) {
  const {w, d} = trayOf(unit);
  const ranks = ranksOf(unit);
  const half = (ranks[0].length * w) / 2;
  const out = [];
  ranks.forEach((files, k) => files.forEach((j) => {
    const u0 = -half + j * w, v0 = -k * d;
    out.push([world(unit, u0, v0), world(unit, u0 + w, v0), world(unit, u0 + w, v0 - d), world(unit, u0, v0 - d)]);
  }));
  return out;
}

/** Outline edges of a unit as {kind, a, b, n} (front, side, rear with outward normal). */
function edges(unit) {
  const {w, d} = trayOf(unit);
  const ranks = ranksOf(unit);
  const files = ranks[0].length, half = (files * w) / 2;
  const depth = [...Array(files).keys()].map((j) => ranks.filter((r) => r.includes(j)).length);
  const f = fwd(unit.facing), r = rightOf(f);
  const neg = (p) => [-p[0], -p[1]];
  const out = [{kind: "front", a: world(unit, -half, 0), b: world(unit, half, 0), n: f}];
  depth.forEach((dep, j) => out.push({kind: "rear", a: world(unit, -half + j * w, -dep * d), b: world(unit, -half + (j + 1) * w, -dep * d), n: neg(f)}));
  out.push({kind: "side", a: world(unit, -half, 0), b: world(unit, -half, -depth[0] * d), n: neg(r)});
  out.push({kind: "side", a: world(unit, half, 0), b: world(unit, half, -depth[files - 1] * d), n: r});
  for (let j = 1; j < files; j += 1) {
    if (depth[j] !== depth[j - 1]) {
      const lo = Math.min(depth[j], depth[j - 1]), hi = Math.max(depth[j], depth[j - 1]);
      out.push({kind: "side", a: world(unit, -half + j * w, -lo * d), b: world(unit, -half + j * w, -hi * d), n: depth[j - 1] > depth[j] ? r : neg(r)});
    }
  }
  return out;
}

const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];

/** Return the shift that lays the moved unit's nearest facing edge flush on another unit's edge, or null. */
function snapShift(moved, others) {
  let best = null;
  for (const e of edges(moved)) {
    for (const o of others) {
      for (const g of edges(o)) {
        if (dot(e.n, g.n) > -0.999) continue;
        const gap = dot(sub(g.a, e.a), e.n);
        if (Math.abs(gap) > SNAP) continue;
        const t = sub(e.b, e.a), len = Math.hypot(...t);
        const dir = [t[0] / len, t[1] / len];
        const s1 = dot(sub(g.a, e.a), dir), s2 = dot(sub(g.b, e.a), dir);
        const overlap = Math.min(len, Math.max(s1, s2)) - Math.max(0, Math.min(s1, s2));
        if (overlap <= 0.05) continue;
        if (!best || Math.abs(gap) < Math.abs(best.gap)) best = {gap, shift: [e.n[0] * gap, e.n[1] * gap]};
      }
    }
  }
  return best ? best.shift : null;
}

// ------------------------------------------------------------------------------------------ examples

function unit(id, player, name, front, facing, files, ranks, extra = {}) {
  return {id, player, name, type: "infantry", tray: {width: 1, depth: 1}, formation: Array(ranks).fill(files), front, facing, ...extra};
}

const EXAMPLE_TABLE = {
  table: {band: 3, arc_degrees: 45},
  units: [
    unit("archers", "Waiqar", "Reanimate Archers", [0, 0], 0, 3, 2),
    unit("spearmen", "Daqan", "Spearmen", [0, 7], 180, 3, 2),
    unit("reanimates", "Waiqar", "Reanimates", [6, 3], 0, 2, 2),
    unit("cavalry", "Daqan", "Oathsworn Cavalry", [10, 1], 270, 2, 1, {type: "cavalry", tray: {width: 1, depth: 2}}),
  ],
  terrain: [{id: "outcrop", kind: "Rocky Outcrop", polygon: [[-4, 3], [-2, 3], [-1.5, 4.5], [-4, 4.5]], blocks_los: true}],
};

// the last table edited on any tab: the attack's "From the table" mode starts from it
let lastTable = null;

// ------------------------------------------------------------------------------------------ the board

// Roles (attacker, defender, the measuring unit, its target, the moving unit) are fields of the position and
// change only through their own controls (the selects of the Question and Attack panels, and the Swap button).
// Selecting a unit (tapping, dragging, Tab) only chooses which unit the Units panel edits: it is not part of
// the position and never changes a role.
const selection = new Map();  // situation -> the id of the unit the Units panel edits
const terrainSelection = new Map();  // situation -> the id of the terrain piece the Terrain panel details
const pressed = new Map();  // situation -> the ruling "What happens now?" gave (drawn until the table changes)
let shownBoard = null;  // the table board on screen (redrawn when a ruling arrives)

/** Return the x-table-role of a field's schema (on the field or on the non-null branch of an optional one). */
function roleOf(ps) {
  if (!ps || typeof ps !== "object") return null;
  if (ps["x-table-role"]) return ps["x-table-role"];
  for (const b of ps.anyOf || []) if (b && b["x-table-role"]) return b["x-table-role"];
  return null;
}

const roleCache = new Map();

/** Return the role fields of a table situation, from its schema: [path, label, role] of each field marked
 *  `x-table-role` (top level, or one level down as the attack's `attacker.unit`). The label is the field's
 *  title; a field one level down is named after its parent ("Attacker"). */
function roleFields(pos) {
  const name = pos.situation;
  if (roleCache.has(name)) return roleCache.get(name);
  const out = [];
  for (const [key, ps] of Object.entries(SCHEMAS[name]?.properties || {})) {
    const role = roleOf(ps);
    if (role) { out.push([key, ps.title || humanize(key), role]); continue; }
    for (const [sub, inner] of Object.entries(ps?.properties || {})) {
      const r = roleOf(inner);
      if (r) out.push([`${key}.${sub}`, ps.title || humanize(key), r]);
    }
  }
  roleCache.set(name, out);
  return out;
}

function getRole(pos, path) {
  const [a, b] = path.split(".");
  return b ? pos[a]?.[b] : pos[a];
}

function setRole(pos, path, value) {
  const [a, b] = path.split(".");
  if (b) {
    pos[a] = pos[a] || {};
    if (value) pos[a][b] = value; else delete pos[a][b];
  } else if (value) pos[a] = value;
  else delete pos[a];
}

/** Return the unit the first field of *role* names (acting: blue bands and arc; target: outlined). */
function roleHolder(pos, role) {
  const found = roleFields(pos).find(([, , r]) => r === role);
  return found ? getRole(pos, found[0]) || null : null;
}

function activeId(pos) {
  return roleHolder(pos, "acting");
}

function targetId(pos) {
  return roleHolder(pos, "target");
}

/** Return the ids of the units named by an "other" role. */
function otherIds(pos) {
  return roleFields(pos).filter(([, , r]) => r === "other").map(([p]) => getRole(pos, p)).filter(Boolean);
}

/** Return the id of the unit the Units panel edits (the last one selected, else the first role holder). */
function selectedId(pos) {
  const ids = (pos.units || []).map((u) => u.id);
  const sel = selection.get(pos.situation);
  if (ids.includes(sel)) return sel;
  const act = activeId(pos);
  return ids.includes(act) ? act : ids[0];
}

function select_(pos, id) {
  selection.set(pos.situation, id);
}

/** Remove a unit and every field that names it (its roles become unset: the engine then asks for them). */
function removeUnit(pos, id) {
  pos.units = (pos.units || []).filter((u) => u.id !== id);
  for (const [path] of roleFields(pos)) if (getRole(pos, path) === id) setRole(pos, path, null);
  if (pos.situation === "squaring_up") {
    if (pos.target === id) delete pos.target;
    if (Array.isArray(pos.touching_before)) {
      pos.touching_before = pos.touching_before.filter((x) => x !== id);
      if (!pos.touching_before.length) delete pos.touching_before;
    }
  }
  if (pos.corner_edges && typeof pos.corner_edges === "object") {
    delete pos.corner_edges[id];
    for (const inner of Object.values(pos.corner_edges)) if (inner && typeof inner === "object") delete inner[id];
    for (const [k, inner] of Object.entries(pos.corner_edges)) if (!inner || !Object.keys(inner).length) delete pos.corner_edges[k];
    if (!Object.keys(pos.corner_edges).length) delete pos.corner_edges;
  }
  for (const t of pos.terrain || []) if (t.occupant === id) delete t.occupant;
  if (selection.get(pos.situation) === id) selection.delete(pos.situation);
}

/** Return the player of a unit id (undefined when no unit has it). */
function playerOf(pos, id) {
  return (pos.units || []).find((u) => u.id === id)?.player;
}

/** Return the name a player reads for a unit ("Unit 3" when it has none: never its id). */
function unitLabel(pos, u) {
  return (u.name || "").trim() || `Unit ${(pos.units || []).indexOf(u) + 1}`;
}

/** Return the name a player reads for a terrain piece ("Terrain 2" when it has none). */
function terrainLabel(pos, t) {
  return (t.kind || "").trim() || `Terrain ${(pos.terrain || []).indexOf(t) + 1}`;
}

function label(pos, id) {
  const u = (pos.units || []).find((x) => x.id === id);
  if (u) return unitLabel(pos, u);
  const t = (pos.terrain || []).find((x) => x.id === id);
  return t ? terrainLabel(pos, t) : id;
}

function playerIndex(pos, player) {
  const players = [...new Set((pos.units || []).map((u) => u.player))];
  return Math.max(0, players.indexOf(player));
}

// the situations the board asks about on every table (the contact, sight and range facts it shows)
const MEASURED = {contact: "contact", line_of_sight: "sight", range: "range"};

/** Ask the engine about the table: contact always, sight and range from the acting unit to the target, and
 *  the position itself (its ruling's `drawing` is drawn on the table; the attack is asked only when the
 *  player presses "What happens now?"). */
async function analyse(pos) {
  const common = {game: GAME, table: pos.table, units: pos.units, terrain: pos.terrain || []};
  const act = activeId(pos), tgt = targetId(pos);
  const asks = {contact: postJSON("/api/resolve", {...common, situation: "contact"})};
  if (act && tgt && act !== tgt) {
    asks.sight = postJSON("/api/resolve", {...common, situation: "line_of_sight", unit: act, target: tgt});
    asks.range = postJSON("/api/resolve", {...common, situation: "range", unit: act, target: tgt});
  }
  const same = MEASURED[pos.situation];
  if (!same && pos.situation !== "attack") asks.own = postJSON("/api/resolve", pos);
  const keys = Object.keys(asks);
  const answers = await Promise.all(keys.map((k) => asks[k]));
  // the facts as before (an answer refusing the table is shown by its summary); the position's own ruling only
  // when it is one
  const out = Object.fromEntries(keys.map((k, i) => [k, k === "own" && !answers[i]?.ok ? null : answers[i]?.data]));
  out.own = same ? out[same] || null : out.own || null;
  return out;
}

function viewBox(pos) {
  const pts = [];
  for (const u of pos.units || []) for (const t of trays(u)) pts.push(...t);
  for (const t of pos.terrain || []) pts.push(...t.polygon);
  if (!pts.length) pts.push([-6, -6], [6, 6]);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = 1.5;
  let x0 = Math.min(...xs) - pad, x1 = Math.max(...xs) + pad, y0 = Math.min(...ys) - pad, y1 = Math.max(...ys) + pad;
  const minW = 11;
  if (x1 - x0 < minW) { const c = (x0 + x1) / 2; x0 = c - minW / 2; x1 = c + minW / 2; }
  if (y1 - y0 < minW * 0.6) { const c = (y0 + y1) / 2; y0 = c - minW * 0.3; y1 = c + minW * 0.3; }
  return {x0, y0, x1, y1};
}

function pointsAttr(poly) {
  return poly.map(([x, y]) => `${round(x)},${round(-y)}`).join(" ");
}

/** Put an occupying unit on its terrain piece (81.2: it is placed on it): its trays centred on the piece's
 *  corners' mean, facing as before. Placement only; the engine decides whether the unit fits. */
function standOn(pos, id, piece) {
  const u = (pos.units || []).find((x) => x.id === id);
  if (!u || !(piece.polygon || []).length) return;
  const corners = trays(u).flat();
  const [cx, cy] = centreOf(corners), [tx, ty] = centreOf(piece.polygon);
  u.front = [round(u.front[0] + tx - cx), round(u.front[1] + ty - cy)];
}

/** Return where a caption goes inside a polygon: the mean of its corners (a place to write, not a measure). */
function centreOf(points) {
  const n = points.length || 1;
  return [points.reduce((a, p) => a + p[0], 0) / n, points.reduce((a, p) => a + p[1], 0) / n];
}

/** Return a shape role in a player's words ("Movement template"): the label the engine's schema gives it. */
function words(role) {
  const text = SHAPE_WORDS[role] || humanize(String(role || "shape"));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Return a legend's sample of a shape role: a little outline, line or point drawn with the table's style. */
function swatch(role, kind) {
  const g = s("g", {class: "table-shapes"});
  if (kind === "line") g.append(s("polyline", {class: `shape shape-line role-${role}`, points: "0.1,0.5 1.5,0.5"}));
  else if (kind === "point") g.append(s("circle", {class: `shape shape-point role-${role}`, cx: 0.8, cy: 0.5, r: 0.22}));
  else g.append(s("polygon", {class: `shape shape-outline role-${role}`, points: "0.15,0.15 1.45,0.15 1.45,0.85 0.15,0.85"}));
  return s("svg", {class: "legend-swatch", viewBox: "0 0 1.6 1", width: 40, height: 24, "aria-hidden": "true"}, g);
}

function tableBoard(pos, ctx, onChange, onSelect) {
  const state = {view: viewBox(pos), drawing: null, info: null, seq: 0, timer: null, dragging: false};
  const svg = s("svg", {class: "table-svg", role: "application", "aria-label": "Play area seen from above. Drag a unit to move it, drag its handle to turn it; with the keyboard, Tab to a unit, arrow keys move it, R turns it.", "data-testid": "table-svg"});
  const status = h("div", {class: "table-status", id: "table-status", "aria-live": "polite"});
  const sizes = h("p", {class: "table-sizes hint", id: "table-sizes"});
  const tools = h("div", {class: "table-tools", role: "toolbar", "aria-label": "Terrain tools", id: "table-tools"});
  const legend = h("ul", {class: "table-legend", id: "table-legend", "aria-label": "What the shapes on the table show", hidden: true});
  const arrowId = uid("arrow");
  const defs = () => s("defs", {}, s("marker", {id: arrowId, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 3, markerHeight: 3,
                                                 orient: "auto-start-reverse", markerUnits: "strokeWidth"},
    s("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrow-head"})));

  const toWorld = (evt) => {
    const pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, -p.y];
  };

  function refreshView() {
    const v = state.view, need = viewBox(pos);
    v.x0 = Math.min(v.x0, need.x0); v.y0 = Math.min(v.y0, need.y0); v.x1 = Math.max(v.x1, need.x1); v.y1 = Math.max(v.y1, need.y1);
    svg.setAttribute("viewBox", `${round(v.x0)} ${round(-v.y1)} ${round(v.x1 - v.x0)} ${round(v.y1 - v.y0)}`);
    svg.style.aspectRatio = `${round(v.x1 - v.x0, 2)} / ${round(v.y1 - v.y0, 2)}`;  // no letterboxing on a phone
  }

  function grid() {
    const v = state.view, g = s("g", {class: "grid", "aria-hidden": "true"});
    for (let x = Math.ceil(v.x0); x <= v.x1; x += 1) g.append(s("line", {x1: x, y1: -v.y0, x2: x, y2: -v.y1, class: x % 5 === 0 ? "major" : ""}));
    for (let y = Math.ceil(v.y0); y <= v.y1; y += 1) g.append(s("line", {x1: v.x0, y1: -y, x2: v.x1, y2: -y, class: y % 5 === 0 ? "major" : ""}));
    return g;
  }

  function overlays() {
    const g = s("g", {class: "overlays", "aria-hidden": "true"});
    const act = (pos.units || []).find((u) => u.id === (roleFields(pos).length ? activeId(pos) : selectedId(pos)));
    const band = pos.table?.band, arc = pos.table?.arc_degrees;
    if (act && band > 0) {
      const {w, d} = trayOf(act);
      const ranks = ranksOf(act);
      const half = (ranks[0].length * w) / 2, deep = ranks.length * d;
      const bands = s("g", {class: "bands", transform: `translate(${round(act.front[0])} ${round(-act.front[1])}) rotate(${round(act.facing)})`});
      for (let k = 5; k >= 1; k -= 1) {
        const r = k * band;
        bands.append(s("rect", {x: -half - r, y: -r, width: 2 * half + 2 * r, height: deep + 2 * r, rx: r, ry: r, class: `band band-${k}`}));
      }
      g.append(bands);
      // band numbers on the unit's left, level with its front edge (usually open ground)
      for (let k = 1; k <= 5; k += 1) {
        const p = world(act, -half - k * band + 0.45, 0.25);
        g.append(s("text", {x: round(p[0]), y: round(-p[1]), class: "band-label", text: String(k)}));
      }
    }
    if (act && arc > 0 && arc < 90) {
      const f = fwd(act.facing), r = rightOf(f), L = 200, a = rad(arc);
      const dl = [Math.cos(a) * f[0] - Math.sin(a) * r[0], Math.cos(a) * f[1] - Math.sin(a) * r[1]];
      const dr = [Math.cos(a) * f[0] + Math.sin(a) * r[0], Math.cos(a) * f[1] + Math.sin(a) * r[1]];
      const half = (ranksOf(act)[0].length * trayOf(act).w) / 2;
      const left = world(act, -half, 0), right = world(act, half, 0);
      const far = (p, d) => [p[0] + d[0] * L, p[1] + d[1] * L];
      g.append(s("polygon", {class: "arc", points: pointsAttr([left, far(left, dl), far(right, dr), right])}));
      g.append(s("line", {class: "arc-line", x1: left[0], y1: -left[1], x2: far(left, dl)[0], y2: -far(left, dl)[1]}));
      g.append(s("line", {class: "arc-line", x1: right[0], y1: -right[1], x2: far(right, dr)[0], y2: -far(right, dr)[1]}));
    }
    return g;
  }

  function facts() {
    const g = s("g", {class: "facts", "aria-hidden": "true"});
    const info = state.info;
    if (!info) return g;
    const c = info.contact?.outcome;
    for (const contact of c?.contacts || []) {
      const pts = contact.points || [];
      if (pts.length >= 2) {
        for (let i = 0; i + 1 < pts.length; i += 2) g.append(s("line", {class: "contact-line", x1: pts[i][0], y1: -pts[i][1], x2: pts[i + 1][0], y2: -pts[i + 1][1]}));
      } else if (pts.length === 1) g.append(s("circle", {class: "contact-dot", cx: pts[0][0], cy: -pts[0][1], r: 0.18}));
    }
    const sight = info.sight?.outcome;
    if (sight?.witness) {
      const [a, b] = sight.witness;
      g.append(s("line", {class: "sight-line", x1: a[0], y1: -a[1], x2: b[0], y2: -b[1]}));
    }
    const range = info.range?.outcome;
    if (range?.closest) {
      const [a, b] = range.closest;
      g.append(s("line", {class: "range-line", x1: a[0], y1: -a[1], x2: b[0], y2: -b[1]}));
      g.append(s("text", {class: "range-label", x: (a[0] + b[0]) / 2 + 0.2, y: -(a[1] + b[1]) / 2, text: `${range.distance} → range ${range.range ?? "off"}`}));
    }
    return g;
  }

  function unitShape(u) {
    const idx = playerIndex(pos, u.player);
    const color = COLORS[idx % 4];
    const blockers = new Set(state.info?.sight?.outcome?.blockers || []);
    const flanking = new Set((state.info?.contact?.outcome?.flanking || []).map((p) => p[0]));
    const cls = ["unit", u.id === activeId(pos) ? "active" : "", u.id === targetId(pos) ? "target" : "",
                 u.id === selectedId(pos) ? "selected" : "", otherIds(pos).includes(u.id) ? "other" : "",
                 (pos.terrain || []).some((t) => t.occupant === u.id) ? "occupying" : "",
                 blockers.has(u.id) ? "blocker" : "", flanking.has(u.id) ? "flanker" : ""].filter(Boolean).join(" ");
    const roles = roleFields(pos).filter(([path]) => getRole(pos, path) === u.id).map(([, text]) => text.toLowerCase());
    const home = (pos.terrain || []).find((t) => t.occupant === u.id);
    if (home) roles.push(`in ${terrainLabel(pos, home)}`);
    const g = s("g", {class: cls, tabindex: "0", role: "button", "data-unit": u.id, "aria-pressed": u.id === selectedId(pos) ? "true" : "false",
                      "data-player": u.player, "data-front": JSON.stringify(u.front), "data-facing": String(u.facing),
                      "data-formation": JSON.stringify(u.formation ?? null), "data-tray": JSON.stringify(u.tray ?? null),
                      "data-files": JSON.stringify(u.files ?? null), "data-ranks": JSON.stringify(u.ranks ?? null),
                      "data-type": JSON.stringify(u.type ?? null), "data-name": JSON.stringify(u.name ?? null), "data-role": roles.join(", "),
                      "aria-label": `${unitLabel(pos, u)} (${u.player})${roles.length ? `, ${roles.join(" and ")}` : ""}, facing ${round(u.facing, 1)}°, at ${round(u.front[0], 2)}, ${round(u.front[1], 2)}`});
    for (const t of trays(u)) g.append(s("polygon", {class: "tray", points: pointsAttr(t), fill: color}));
    const half = (ranksOf(u)[0].length * trayOf(u).w) / 2;
    const l = world(u, -half, 0), r = world(u, half, 0);
    g.append(s("line", {class: "front-edge", x1: l[0], y1: -l[1], x2: r[0], y2: -r[1]}));
    const f = fwd(u.facing);
    const tip = [u.front[0] + f[0] * 0.55, u.front[1] + f[1] * 0.55];
    g.append(s("line", {class: "facing", x1: u.front[0], y1: -u.front[1], x2: tip[0], y2: -tip[1]}));
    const centre = world(u, 0, -(ranksOf(u).length * trayOf(u).d) / 2);
    const name = unitLabel(pos, u);
    const room = ranksOf(u)[0].length * trayOf(u).w;
    g.append(s("text", {class: "unit-label", x: centre[0], y: -centre[1] + 0.1,
                        text: name.length > room * 4.5 ? `${name.slice(0, Math.max(3, Math.floor(room * 4.5) - 1))}…` : name},
      s("title", {text: name})));
    g.addEventListener("pointerdown", (e) => startDrag(e, u, "move"));
    g.addEventListener("keydown", (e) => keyMove(e, u));
    g.addEventListener("focus", () => {
      if (!state.dragging && selectedId(pos) !== u.id) { select_(pos, u.id); onSelect(u.id); }
    });
    return g;
  }

  function terrainShape(t) {
    const blockers = new Set(state.info?.sight?.outcome?.blockers || []);
    const occupied = (pos.units || []).some((u) => u.id === t.occupant);
    const cls = ["terrain", t.blocks_los === false ? "exposed" : "", blockers.has(t.id) ? "blocker" : "",
                 occupied ? "occupied" : "", terrainSelection.get(pos.situation) === t.id ? "selected" : ""].filter(Boolean).join(" ");
    const el = s("polygon", {class: cls, points: pointsAttr(t.polygon), "data-terrain": t.id, "data-polygon": JSON.stringify(t.polygon)},
      s("title", {text: terrainLabel(pos, t)}));
    // a tap on a piece (when not drawing) opens its card in the Terrain panel: capacity, keywords, occupant
    el.addEventListener("pointerdown", (e) => {
      if (state.drawing) return;
      e.preventDefault();
      terrainSelection.set(pos.situation, t.id);
      onSelect(null);
    });
    return el;
  }

  /** Return the caption of occupied terrain: the occupant's name in its army's colour, on the piece's top. */
  function occupantMark(t) {
    const u = (pos.units || []).find((x) => x.id === t.occupant);
    if (!u || !Array.isArray(t.polygon) || !t.polygon.length) return null;
    // written just above the piece's top corner line, clear of lines crossing the piece
    const at = [centreOf(t.polygon)[0], Math.max(...t.polygon.map((p) => p[1])) + 0.12];
    const name = unitLabel(pos, u);
    const words = name.length > 16 ? `${name.slice(0, 15)}…` : name;
    return s("text", {class: "terrain-occupant", x: round(at[0]), y: round(-at[1]), fill: COLORS[playerIndex(pos, u.player) % 4],
                      "data-occupant-of": t.id, text: words}, s("title", {text: `Occupied by ${name}`}));
  }

  /** Return the shapes the ruling of this position derived (`outcome.drawing`): the live one, else the one
   *  "What happens now?" gave for this same table. */
  function shapesOf() {
    const ruling = state.info?.own || pressed.get(pos.situation) || null;
    const list = ruling?.outcome?.drawing;
    return Array.isArray(list) ? list.filter((x) => x && typeof x === "object" && Array.isArray(x.points)) : [];
  }

  /** Draw the engine's shapes as they are: outlines, lines (a path or slide with an arrow) and points. */
  function shapes() {
    const g = s("g", {class: "table-shapes", "data-testid": "table-shapes"});
    for (const sh of shapesOf()) {
      const pts = sh.points.filter((p) => Array.isArray(p) && p.length >= 2 && p.every(Number.isFinite));
      if (!pts.length) continue;
      const role = String(sh.role || ""), kind = sh.kind === "line" || sh.kind === "point" ? sh.kind : "outline";
      const attrs = {class: `shape shape-${kind} role-${role}`, "data-shape": role, "data-kind": kind, "data-of": sh.unit ?? null};
      let el;
      if (kind === "point" || pts.length === 1) el = s("circle", {...attrs, cx: round(pts[0][0]), cy: round(-pts[0][1]), r: 0.2});
      else if (kind === "line") el = s("polyline", {...attrs, points: pointsAttr(pts), "marker-end": `url(#${arrowId})`});
      else el = s("polygon", {...attrs, points: pointsAttr(pts)});
      el.append(s("title", {text: sh.label || words(role)}));
      g.append(el);
      if (sh.label) {
        const at = kind === "outline" ? centreOf(pts) : pts[pts.length - 1];
        g.append(s("text", {class: `shape-label role-${role}`, x: round(at[0] + (kind === "outline" ? 0 : 0.15)), y: round(-at[1] - 0.15), text: sh.label}));
      }
    }
    return g;
  }

  /** Show the legend of the shapes on the table, one entry per role, in the words of its enum label. */
  function showLegend() {
    const seen = new Map();
    for (const sh of shapesOf()) if (!seen.has(sh.role)) seen.set(sh.role, sh.kind === "line" || sh.kind === "point" ? sh.kind : "outline");
    legend.hidden = !seen.size;
    legend.replaceChildren(...[...seen].map(([role, kind]) => h("li", {"data-legend": role},
      swatch(role, kind), h("span", {}, words(role)))));
  }

  function draw() {
    const focused = document.activeElement && svg.contains(document.activeElement)
      ? document.activeElement.getAttribute("data-unit") : null;
    refreshView();
    const kids = [defs(), grid(), overlays(), ...(pos.terrain || []).map(terrainShape), ...(pos.units || []).map(unitShape), shapes(),
                  ...(pos.terrain || []).map(occupantMark).filter(Boolean), facts()];
    // the turn knob of the selected unit, just behind its rear edge (the front is usually against something),
    // drawn above everything: drag it around the unit to turn it
    const act = (pos.units || []).find((u) => u.id === selectedId(pos));
    if (act) {
      const at = world(act, 0, -ranksOf(act).length * trayOf(act).d - 0.6);
      const px = svg.clientWidth || 0;  // a finger-sized knob (about 22 px across at least) on a small screen
      const radius = Math.max(0.28, px ? (11 * (state.view.x1 - state.view.x0)) / px : 0.28);
      const knob = s("circle", {class: "turn-handle", cx: round(at[0]), cy: round(-at[1]), r: round(radius, 3), "data-turn": act.id},
        s("title", {text: `Drag to turn ${unitLabel(pos, act)}`}));
      knob.addEventListener("pointerdown", (e) => startDrag(e, act, "turn"));
      kids.push(knob);
    }
    if (state.drawing) {
      const pts = state.drawing;
      kids.push(s("polyline", {class: "drawing", points: pointsAttr(pts)}), ...pts.map((p) => s("circle", {class: "drawing-dot", cx: p[0], cy: -p[1], r: 0.15})));
    }
    svg.replaceChildren(...kids);
    showLegend();
    svg.classList.toggle("is-drawing", !!state.drawing);
    if (focused) {
      const again = svg.querySelector(`[data-unit="${CSS.escape(focused)}"]`);
      if (again) again.focus({preventScroll: true});
    }
  }

  function startDrag(e, u, mode) {
    if (state.drawing) return;
    e.preventDefault();
    state.dragging = true;
    select_(pos, u.id);  // dragging selects the unit for the Units panel; it never changes a role
    const own = svg.querySelector(`[data-unit="${CSS.escape(u.id)}"]`);
    if (own && document.activeElement !== own) own.focus({preventScroll: true});  // focus follows the selection
    const start = toWorld(e), front0 = [...u.front], facing0 = u.facing;
    let moved = false;
    const move = (ev) => {
      const p = toWorld(ev);
      moved = true;
      if (mode === "move") {
        u.front = [round(front0[0] + p[0] - start[0]), round(front0[1] + p[1] - start[1])];
      } else {
        const ang = Math.atan2(p[0] - u.front[0], p[1] - u.front[1]) * 180 / Math.PI;
        const ang0 = Math.atan2(start[0] - u.front[0], start[1] - u.front[1]) * 180 / Math.PI;
        let facing = facing0 + ang - ang0;
        if (!ev.shiftKey) facing = Math.round(facing / 5) * 5;
        u.facing = round(((facing % 360) + 360) % 360, 2);
      }
      draw();
    };
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      state.dragging = false;
      if (!moved) { onSelect(u.id); return; }  // a tap selects the unit: the position is unchanged
      if (mode === "move" && !ev.altKey) {
        const shift = snapShift(u, pos.units.filter((o) => o.id !== u.id));
        if (shift) u.front = [round(u.front[0] + shift[0], 6), round(u.front[1] + shift[1], 6)];
      }
      onChange({keepFocus: null});
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  function keyMove(e, u) {
    const d = e.shiftKey ? 1 : STEP;
    const moves = {ArrowLeft: [-d, 0], ArrowRight: [d, 0], ArrowUp: [0, d], ArrowDown: [0, -d]};
    if (moves[e.key]) {
      u.front = [round(u.front[0] + moves[e.key][0]), round(u.front[1] + moves[e.key][1])];
      const shift = snapShift(u, pos.units.filter((o) => o.id !== u.id));
      if (shift && Math.hypot(...shift) < STEP / 2) u.front = [round(u.front[0] + shift[0], 6), round(u.front[1] + shift[1], 6)];
    } else if (e.key === "r" || e.key === "R") {
      u.facing = (((u.facing + (e.shiftKey ? -TURN : TURN)) % 360) + 360) % 360;
    } else if (e.key === "Delete" || e.key === "Backspace") {
      removeUnit(pos, u.id);
      onChange({keepFocus: null, structure: true});
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    onChange({keepFocus: u.id});
  }

  svg.addEventListener("pointerdown", (e) => {
    if (!state.drawing || e.target.closest("[data-unit]")) return;
    state.drawing.push(toWorld(e).map((x) => round(x, 2)));
    draw();
    renderTools();
  });

  function showInfo() {
    const info = state.info;
    const lines = [];
    const c = info?.contact;
    if (c && !c.legal) lines.push(h("p", {class: "bad"}, c.summary));
    const o = c?.outcome;
    if (o && c.legal) {
      for (const [a, b] of o.flanking || []) lines.push(h("p", {class: "flank"}, `${label(pos, a)} is flanking ${label(pos, b)}.`));
      for (const [a, b] of o.engaged || []) {
        const ea = o.contacted_edges?.[a]?.[b], eb = o.contacted_edges?.[b]?.[a];
        lines.push(h("p", {}, `Engaged: ${label(pos, a)} (${ea ? ea.join(" + ") : "edge undecided"}) with ${label(pos, b)} (${eb ? eb.join(" + ") : "edge undecided"}).`));
      }
      if (!(o.engaged || []).length) lines.push(h("p", {}, "No enemy units touch: nobody is engaged."));
    }
    if (info?.sight?.summary) lines.push(h("p", {class: info.sight.outcome?.line_of_sight ? "ok" : "bad"}, info.sight.summary));
    if (info?.range?.summary) lines.push(h("p", {}, info.range.summary));
    const own = info?.own;
    if (own?.summary && !MEASURED[pos.situation]) lines.push(h("p", {class: own.legal ? "own" : "own bad", "data-own": "true"}, own.summary));
    status.replaceChildren(...lines);
    sizes.textContent = `Sizes used: range band ${pos.table?.band ?? "?"} tray widths, firing-arc lines at ${pos.table?.arc_degrees ?? "?"}°.`;
  }

  function ask() {
    clearTimeout(state.timer);
    state.timer = setTimeout(async () => {
      const seq = ++state.seq;
      try {
        const info = await analyse(copy(pos));
        if (seq !== state.seq) return;
        state.info = info;
        draw();
        showInfo();
      } catch { /* the ruling button reports errors */ }
    }, 180);
  }

  function finishDrawing() {
    const pts = state.drawing;
    state.drawing = null;
    if (pts && pts.length >= 3) {
      pos.terrain = pos.terrain || [];
      const id = uid("terrain");
      pos.terrain.push({id, kind: "Terrain", polygon: pts, blocks_los: true});
      terrainSelection.set(pos.situation, id);  // its card (capacity, keywords, occupant) opens in the Terrain panel
    }
    draw();
    renderTools();
    if (pts && pts.length >= 3) onChange({keepFocus: null});
  }

  // the terrain tools sit right above the play area: the corners are clicked where the buttons are
  function renderTools() {
    if (state.drawing) {
      const n = state.drawing.length;
      tools.replaceChildren(
        smallButton("Finish terrain", finishDrawing, {"data-tool": "finish"}),
        smallButton("Cancel", () => { state.drawing = null; draw(); renderTools(); }, {"data-tool": "cancel"}),
        h("span", {class: "hint", "aria-live": "polite"}, `Click or tap the corners of the piece on the table (${n} so far; at least 3), then press Finish.`));
    } else {
      tools.replaceChildren(smallButton("Draw terrain", () => { state.drawing = []; draw(); renderTools(); }, {"data-tool": "draw"}));
    }
  }

  draw();
  renderTools();
  showInfo();
  ask();
  return {
    el: h("div", {class: "table-board"}, tools, svg, legend, sizes, status),
    draw, ask,
  };
}

// ------------------------------------------------------------------------------------------ panels

/** Return a labelled decimal input. What is typed is what is sent: a number outside what the rules allow is
 *  refused by the engine, naming the field (the board never clamps it); an empty box leaves the field out. */
function decimal(labelText, get, set, {step = 0.5, path = ""} = {}) {
  const id = uid("dec");
  const read = (e) => {
    const text = e.target.value.trim();
    if (text === "") { e.target.removeAttribute("aria-invalid"); set(null); return; }
    const v = Number(text);
    if (Number.isFinite(v)) { e.target.removeAttribute("aria-invalid"); set(v); } else e.target.setAttribute("aria-invalid", "true");
  };
  return h("div", {class: "field decimal", dataset: {path}}, h("label", {for: id}, labelText),
    h("input", {id, type: "number", class: "num wide", step, value: get() ?? "", dataset: {path}, inputmode: "decimal",
                oninput: read, onchange: read}));
}

function settingsPanel(pos, changed) {
  pos.table = pos.table || {};
  const put = (key) => (v) => { if (v === null) delete pos.table[key]; else pos.table[key] = v; changed(); };
  return panel("Settings",
    h("p", {class: "hint"}, "The rules give no size for a range band or for the firing-arc lines: set them for your components (lengths in tray widths)."),
    row(
      decimal("Range band (tray widths)", () => pos.table.band, put("band"), {step: 0.5, path: "table.band"}),
      decimal("Firing-arc angle (°)", () => pos.table.arc_degrees, put("arc_degrees"), {step: 1, path: "table.arc_degrees"})));
}

/** Return the selects of the situation's roles. Two roles never name one unit, and an attack's attacker and
 *  defender are never of one army: a role's select offers only the units the other roles allow. */
function roleControls(pos, changed, rerender) {
  const fields = roleFields(pos);
  const out = fields.map(([path, text, role]) => {
    const others = fields.filter(([p]) => p !== path).map(([p]) => getRole(pos, p)).filter(Boolean);
    const enemyOnly = pos.situation === "attack";
    const allowed = (pos.units || []).filter((u) => !others.includes(u.id)
      && !(enemyOnly && others.some((o) => playerOf(pos, o) === u.player)));
    const opts = [[null, "Choose a unit…"], ...allowed.map((u) => [u.id, `${unitLabel(pos, u)} (${u.player})`])];
    const sel = select(text, opts, () => getRole(pos, path) ?? null, (v) => { setRole(pos, path, v); changed(); rerender(); }, {path});
    sel.dataset.tableRole = role;
    return sel;
  });
  // two roles both held can be swapped (an unset one would leave the other unset)
  if (fields.length === 2 && fields.every(([p]) => getRole(pos, p))) {
    const [[a, aText], [b, bText]] = fields;
    out.push(smallButton(`Swap ${aText.split(" (")[0].toLowerCase()} and ${bText.toLowerCase()}`, () => {
      const x = getRole(pos, a), y = getRole(pos, b);
      setRole(pos, a, y); setRole(pos, b, x);
      changed(); rerender();
    }, {"data-role-swap": "true"}));
  }
  return out;
}

/** Return whether a field is edited in the Question panel itself (a value: an enum, a number, a yes/no, a
 *  text); lists and maps (e.g. the units touching before a move) go under "More about the position". */
function isValueField(ps) {
  const inner = (ps.anyOf || []).filter((b) => b.type !== "null");
  const one = inner.length === 1 ? inner[0] : ps;
  return Boolean(one.enum) || ["string", "integer", "number", "boolean"].includes(one.type);
}

/** Return the Question panel of a table situation: its role selects (from `x-table-role`) and its other fields
 *  with the generated-form widgets, from the schema; null when it has neither. */
function situationPanel(pos, changed, rerender) {
  const schema = SCHEMAS[pos.situation];
  if (!schema || pos.situation === "attack") return null;
  const fields = roleFields(pos);
  const taken = new Set(fields.map(([p]) => p.split(".")[0]));
  const props = schema.properties || {};
  const required = new Set(schema.required || []);
  const keys = Object.keys(props).filter((k) => !TABLE_KEYS.has(k) && !taken.has(k) && !("const" in props[k]));
  const form = (list) => list.map((k) => propertyRow(props[k], k, required.has(k), () => pos, changed, k, props));
  const values = keys.filter((k) => isValueField(props[k])), more = keys.filter((k) => !isValueField(props[k]));
  const kids = [];
  if (fields.length) kids.push(row(...roleControls(pos, changed, rerender)));
  if (values.length) kids.push(h("div", {class: "table-fields"}, ...form(values)));
  if (more.length) kids.push(h("details", {class: "table-more"}, h("summary", {}, "More about the position"), ...form(more)));
  return kids.length ? panel("Question", ...kids) : null;
}

/** Return the players a unit may belong to: an attack's attacker and defender are never of one army. */
function playersFor(pos, u) {
  const all = [...new Set([...PLAYERS, ...(pos.units || []).map((x) => x.player)])];
  if (pos.situation !== "attack") return all;
  const a = pos.attacker?.unit, d = pos.defender?.unit;
  const other = u.id === a ? playerOf(pos, d) : u.id === d ? playerOf(pos, a) : undefined;
  return all.filter((p) => p !== other);
}

function unitPanel(pos, board, changed, rerender) {
  const i = (pos.units || []).findIndex((x) => x.id === selectedId(pos));
  const u = (pos.units || [])[i];
  const add = (player) => () => {
    const n = (pos.units || []).length + 1;
    const id = uid("unit").replace(/[^a-z0-9-]/g, "");
    pos.units = pos.units || [];
    pos.units.push(unit(id, player, `Unit ${n}`, [n * 3 - 6, -4], 0, 2, 2));
    select_(pos, id);  // the new unit is the one the panel edits; no role changes
    changed(); rerender();
  };
  const kids = [row(smallButton("Add a unit (first player)", add(pos.units?.[0]?.player || PLAYERS[0])),
                    smallButton("Add a unit (second player)", add(otherPlayer(pos))))];
  if (u) {
    const at = `units[${i}]`;
    const ranks = ranksOf(u);
    const files = u.formation ? ranks[0].length : u.files ?? ranks[0].length;
    const depth = u.formation ? ranks.length : u.ranks ?? ranks.length;
    const back = u.formation && ranks.length > 1 ? ranks[ranks.length - 1].length : files;
    // what is typed is sent: a count below 1 is refused by the engine, naming the field
    const setFormation = (f, r, b) => {
      if (Number.isInteger(f) && Number.isInteger(r) && f >= 1 && r >= 1 && r <= 100) {
        const formation = Array(r).fill(f);
        if (r > 1 && b !== f) formation[r - 1] = b;
        u.formation = formation;
        delete u.files; delete u.ranks;
      } else {
        delete u.formation;
        u.files = f; u.ranks = r;
      }
      changed(); board.draw(); rerender();
    };
    const roles = roleFields(pos).filter(([path]) => getRole(pos, path) === u.id).map(([, text]) => text.split(" (")[0].toLowerCase());
    kids.push(
      h("p", {class: "hint", id: "selected-unit"}, `Selected: ${unitLabel(pos, u)}${roles.length ? ` (the ${roles.join(" and the ")})` : ""}. Tap a unit on the table to edit it; selecting never changes who attacks or defends.`),
      row(textInput("Name", () => u.name, (v) => { u.name = v; changed(); board.draw(); }, {path: `${at}.name`}),
          select("Player", playersFor(pos, u), () => u.player, (v) => { u.player = v; changed(); board.draw(); rerender(); }, {path: `${at}.player`})),
      row(stepper("Files (trays across)", () => files, (v) => setFormation(v, depth, back), {min: 1, max: 8, small: true, path: `${at}.formation[0]`}),
          stepper("Ranks", () => depth, (v) => setFormation(files, v, back), {min: 1, max: 8, small: true, path: `${at}.formation`}),
          stepper("Trays in the back rank", () => back, (v) => setFormation(files, depth, v), {min: 1, max: files, small: true, path: `${at}.formation[${Math.max(0, depth - 1)}]`})),
      row(decimal("Tray width", () => trayOf(u).w, (v) => { u.tray = {width: v, depth: trayOf(u).d}; changed(); board.draw(); }, {step: 0.25, path: `${at}.tray.width`}),
          decimal("Tray depth", () => trayOf(u).d, (v) => { u.tray = {width: trayOf(u).w, depth: v}; changed(); board.draw(); }, {step: 0.25, path: `${at}.tray.depth`}),
          decimal("Facing (°)", () => u.facing, (v) => { u.facing = v; changed(); board.draw(); }, {step: 15, path: `${at}.facing`})),
      row(smallButton("Turn left 15°", () => { u.facing = (((u.facing - 15) % 360) + 360) % 360; changed(); board.draw(); rerender(); }, {"aria-label": "Turn the selected unit 15 degrees left"}),
          smallButton("Turn right 15°", () => { u.facing = (((u.facing + 15) % 360) + 360) % 360; changed(); board.draw(); rerender(); }, {"aria-label": "Turn the selected unit 15 degrees right"}),
          smallButton("Remove unit", () => { removeUnit(pos, u.id); changed(); rerender(); }, {"aria-label": `Remove ${unitLabel(pos, u)}`})));
  }
  return panel("Units", ...kids);
}

function otherPlayer(pos) {
  const first = pos.units?.[0]?.player || PLAYERS[0];
  const other = (pos.units || []).find((u) => u.player !== first);
  return other ? other.player : PLAYERS.find((p) => p !== first);
}

const TERRAIN_SCHEMA = () => SCHEMAS.contact?.properties?.terrain?.items || {};

/** Return the card of the selected terrain piece: capacity, keywords with their X, the unit occupying it. */
function terrainCard(pos, t, i, board, changed, rerender) {
  const props = TERRAIN_SCHEMA().properties || {};
  const at = `terrain[${i}]`;
  const edit = () => { changed(); board.draw(); };
  const occupants = [[null, "Nobody"], ...(pos.units || []).map((u) => [u.id, `${unitLabel(pos, u)} (${u.player})`])];
  const kids = [];
  if (props.capacity) kids.push(propertyRow(props.capacity, "capacity", false, () => t, edit, `${at}.capacity`, props));
  if (props.keywords) kids.push(propertyRow(props.keywords, "keywords", false, () => t, edit, `${at}.keywords`, props));
  if (props.occupant) {
    kids.push(select(props.occupant.title || "Occupied by", occupants, () => t.occupant ?? null,
                     (v) => { if (v) { t.occupant = v; standOn(pos, v, t); } else delete t.occupant; changed(); board.draw(); rerender(); }, {path: `${at}.occupant`}));
  }
  return h("div", {class: "terrain-card", "data-terrain-card": t.id}, ...kids);
}

function terrainPanel(pos, board, changed, rerender) {
  const kids = [h("p", {class: "hint"}, (pos.terrain || []).length ? "Name each piece and say whether it blocks line of sight. Tap a piece (or its Details button) for its capacity, keywords and occupant. Draw more with “Draw terrain” above the table."
    : "No terrain yet: press “Draw terrain” above the table.")];
  const chosen = terrainSelection.get(pos.situation);
  (pos.terrain || []).forEach((t, i) => {
    const open = t.id === chosen;
    kids.push(row(
      textInput(`Terrain ${i + 1}`, () => t.kind, (v) => { t.kind = v; changed(); }, {path: `terrain[${i}].kind`}),
      checkbox("Exposed (does not block line of sight)", () => t.blocks_los === false, (v) => { t.blocks_los = !v; changed(); board.draw(); }, {path: `terrain[${i}].blocks_los`}),
      smallButton(open ? "Hide details" : "Details", () => { if (open) terrainSelection.delete(pos.situation); else terrainSelection.set(pos.situation, t.id); board.draw(); rerender(); },
                  {"aria-expanded": open ? "true" : "false", "aria-label": `Details of terrain ${i + 1}`, "data-terrain-details": t.id}),
      smallButton("Remove", () => { pos.terrain.splice(i, 1); if (open) terrainSelection.delete(pos.situation); changed(); rerender(); }, {"aria-label": `Remove terrain ${i + 1}`})));
    if (open) kids.push(terrainCard(pos, t, i, board, changed, rerender));
  });
  return panel("Terrain", ...kids);
}

/** Render the table part of a position: settings, question, the play area, units and terrain. */
function renderTable(el, pos, ctx, extra = null) {
  pos.units = pos.units || [];
  pos.terrain = pos.terrain || [];
  let board = null;
  let holder = null;
  const changed = (opts = {}) => {
    lastTable = {table: copy(pos.table), units: copy(pos.units), terrain: copy(pos.terrain)};
    pressed.delete(pos.situation);  // the ruling given before no longer draws this table
    ctx.changed();
    if (board) { board.draw(); board.ask(); }
    if (opts.structure) redrawPanels();
    if (opts.keepFocus) {
      const again = el.querySelector(`[data-unit="${CSS.escape(opts.keepFocus)}"]`);
      if (again) again.focus({preventScroll: true});
    }
  };
  const redrawPanels = () => {
    if (!holder) return;
    holder.replaceChildren(...[extra ? extra(changed, redrawPanels) : null, situationPanel(pos, changed, redrawPanels), unitPanel(pos, board, changed, redrawPanels),
                                terrainPanel(pos, board, changed, redrawPanels), settingsPanel(pos, changed)].filter(Boolean));
  };
  // a change on the table redraws the panels too (they show the moved unit's facing, the roles' names)
  const onSelect = () => { board.draw(); redrawPanels(); };
  board = tableBoard(pos, ctx, (opts) => { changed(opts); redrawPanels(); }, onSelect);
  shownBoard = board;
  holder = h("div", {class: "table-panels"});
  redrawPanels();
  el.append(h("div", {class: "table-layout"}, panel("Table", h("p", {class: "hint"},
    "Drag a unit to move it: dropped within 1 tray width of another unit's edge, it lands flush against that edge (hold Alt to place it freely). Drag the round knob behind the selected unit to turn it. Keyboard: Tab to a unit, arrow keys move it, R turns it 15°."), board.el), holder));
}

/** Return an empty table (the default sizes, no unit, no terrain): what Reset gives on a table tab. The sample
 *  table stays one pick away in the worked examples. */
function emptyTable() {
  return {table: copy(EXAMPLE_TABLE.table), units: [], terrain: []};
}

/** Keep the ruling "What happens now?" gave for a table, to draw its shapes until the table changes. */
function ruled(situation, ruling) {
  if (ruling) pressed.set(situation, ruling); else pressed.delete(situation);
  if (shownBoard) shownBoard.draw();
}

/** Return the example a table tab opens on: the sample table, its roles held by sample units (acting: the
 *  archers, target: the Spearmen) and its other required fields at their first value. */
function exampleFor(situation) {
  const schema = SCHEMAS[situation] || {};
  const out = copy(EXAMPLE_TABLE);
  const pick = {acting: "archers", target: "spearmen"};
  for (const [path, , role] of roleFields({situation})) if (pick[role]) setRole(out, path, pick[role]);
  for (const key of schema.required || []) {
    if (!(key in out) && !TABLE_KEYS.has(key)) out[key] = defaultFor(schema.properties[key]);
  }
  return out;
}

function tableEditor(situation, defaults = null) {
  return {
    example: defaults ? {...copy(EXAMPLE_TABLE), ...defaults} : exampleFor(situation),
    blank() {
      const out = emptyTable();
      if (situation === "squaring_up") Object.assign(out, {cause: "march", modifier: null, direction: "forward"});
      return out;
    },
    derive(pos) {
      delete pos.ui_selected;
      return pos;
    },
    render(el, pos, ctx) {
      // a role left unset (its unit removed, or a position without it) stays unset: its select asks for it
      delete pos.ui_selected;
      renderTable(el, pos, ctx);
    },
    ruled: (ruling) => ruled(situation, ruling),
  };
}

// ------------------------------------------------------------------------------------------ attack

const stated = base.attack;
const RESULTS = [["hit", "Hits"], ["mortal_strike", "Mortal strikes"], ["accuracy", "Accuracy"], ["morale", "Morale"], ["surge", "Surges"]];

function attackFromTable(pos) {
  const t = lastTable ? copy(lastTable) : copy(EXAMPLE_TABLE);
  const units = t.units;
  // the attacker and the defender are never of one army: with no enemy on the table, the defender is left to choose
  const first = units[0], enemy = units.find((u) => u.player !== first?.player);
  return {
    // the example table has no melee: its archers shoot at the Spearmen
    game: pos.game, situation: "attack", attack_type: lastTable ? pos.attack_type || "melee" : "ranged", ...t,
    attacker: {unit: first?.id},
    defender: {unit: enemy?.id, defense: pos.defender?.defense ?? 1, wound_threshold: pos.defender?.wound_threshold ?? 1,
               figures_per_tray: pos.defender?.figures_per_tray ?? 4},
    results: {hit: 0, mortal_strike: 0, accuracy: 0, morale: 0, surge: 0, ...(pos.results || {})},
  };
}

const attack = {
  example: stated.example,
  // Reset on the table gives an empty table (the roles unset); on the stated form, the form's example
  blank(pos) {
    if (!Array.isArray(pos?.units)) return null;
    return {attack_type: pos.attack_type || "melee", ...emptyTable(), attacker: {},
            defender: {defense: 1, wound_threshold: 1, figures_per_tray: 4},
            results: {hit: 0, mortal_strike: 0, accuracy: 0, morale: 0, surge: 0}};
  },
  ruled: (ruling) => ruled("attack", ruling),
  derive(pos) {
    if (!Array.isArray(pos.units)) return stated.derive ? stated.derive(pos) : pos;
    delete pos.ui_selected;
    return pos;
  },
  render(el, pos, ctx) {
    const onTable = Array.isArray(pos.units);
    const switchTo = (mode) => {
      if (mode === "table" && !onTable) {
        const next = attackFromTable(pos);
        for (const k of Object.keys(pos)) delete pos[k];
        Object.assign(pos, next);
      } else if (mode === "stated" && onTable) {
        const next = {game: pos.game, situation: "attack", ...copy(stated.example)};
        for (const k of Object.keys(pos)) delete pos[k];
        Object.assign(pos, next);
      }
      ctx.changed();
      ctx.rerender();
    };
    el.append(h("div", {class: "attack-mode"}, segmented("The facts of the attack", [["stated", "I state them"], ["table", "From the table"]],
      () => (onTable ? "table" : "stated"), switchTo, {path: "attack_mode"}),
      h("p", {class: "hint"}, onTable ? "Contact, flanking, engagement, range, line of sight and arc are measured on the table."
        : "Or place the two units on the table and let the rules measure.")));
    if (!onTable) { stated.render(el, pos, ctx); return; }
    const d = pos.defender;
    // the attacker and the defender are chosen here only (tapping or dragging a unit never changes them)
    const extra = (changed, redraw) => panel("Attack",
      row(segmented("Attack", [["melee", "Melee"], ["ranged", "Ranged"]], () => pos.attack_type, (v) => { pos.attack_type = v; changed(); }, {path: "attack_type"})),
      row(...roleControls(pos, changed, redraw)),
      row(stepper("Defense", () => d.defense ?? 0, (v) => { d.defense = v; ctx.changed(); }, {min: 0, max: 20, path: "defender.defense", small: true}),
          stepper("Wound threshold", () => d.wound_threshold ?? 1, (v) => { d.wound_threshold = v; ctx.changed(); }, {min: 1, max: 20, path: "defender.wound_threshold", small: true}),
          stepper("Figures per tray", () => d.figures_per_tray ?? 1, (v) => { d.figures_per_tray = v; ctx.changed(); }, {min: 1, max: 12, path: "defender.figures_per_tray", small: true})),
      row(...RESULTS.map(([key, text]) => stepper(text, () => pos.results[key] ?? 0, (v) => { pos.results[key] = v; ctx.changed(); }, {min: 0, max: 99, path: `results.${key}`, small: true}))));
    renderTable(el, pos, ctx, extra);
  },
};

// the worked starts of the first table tabs; every other table situation opens on exampleFor(its name)
const DEFAULTS = {
  contact: {},
  line_of_sight: {unit: "archers", target: "spearmen"},
  range: {unit: "archers", target: "spearmen"},
  squaring_up: {active: "reanimates", cause: "march", modifier: null},
};

export const editors = {
  ...Object.fromEntries(Object.entries(SCHEMAS).filter(([name, schema]) => name !== "attack" && isTableSchema(schema))
    .map(([name]) => [name, tableEditor(name, DEFAULTS[name] || null)])),
  attack,
};
