// The board page: pick a situation, set up the position visually, ask "what happens now?".
import {getJSON, postJSON, situations} from "./api.js";
import {announce, clear, copy, h, humanize} from "./dom.js";
import {installPreviews} from "./preview.js";
import {renderRuling} from "./ruling.js";
import {defaultFor, renderForm} from "./schemaform.js";
import {parsePath, schemaAt} from "./paths.js";
import {readFromLocation, shareURL, writeToLocation} from "./share.js";

// The editor modules of this board come from the page (boards.py lists the files present for the game:
// static/js/editors/<game>.js and any extra module registered there, e.g. a table board); each exports
// `editors` {situation: editor}. An editor is {example?, render(el, pos, ctx), derive?(pos), ruled?(ruling)}:
// derive returns the position the screen shows (whatever no longer appears on screen is dropped); ruled is
// told each ruling shown (null when none).
const root = document.getElementById("board");
const game = root.dataset.game;
const tabs = document.getElementById("situation-tabs");
const editorEl = document.getElementById("editor");
const rulingEl = document.getElementById("ruling");
const state = {schemas: {}, editors: {}, positions: {}, current: null, rulings: {}, examples: []};

const generic = {
  render(el, pos, ctx) {
    el.append(renderForm(ctx.schema, pos, ctx.changed));
  },
};

function editorFor(name) {
  return state.editors[name] || generic;
}

function examplesOf(name) {
  return state.examples.filter((e) => e.situation === name);
}

/** A visual editor opens on its own example; a generated form opens blank (its defaults shown as values),
 *  so what the player sets up is theirs: the worked examples stay one pick away in the example picker. */
function initialPosition(name) {
  const ed = state.editors[name];
  const base = ed && ed.example ? copy(ed.example) : defaultFor(state.schemas[name].schema);
  return {...base, game, situation: name};
}

function examplePicker(name) {
  const list = examplesOf(name);
  if (!list.length) return null;
  const el = h("select", {id: "example-picker", onchange: (e) => {
    const chosen = list[parseInt(e.target.value, 10)];
    if (chosen) load(copy(chosen.position));
  }}, h("option", {value: ""}, `Load a worked example (${list.length})…`),
  list.map((ex, i) => h("option", {value: String(i)}, ex.title)));
  return h("div", {class: "field examples"}, h("label", {for: "example-picker", class: "visually-hidden"}, "Worked examples"), el);
}

function position() {
  return state.positions[state.current];
}

/** Return the position as the screen shows it: the editor's derive() drops what is no longer on screen. */
function shownPosition() {
  const ed = state.editors[state.current];
  const pos = position();
  if (ed && typeof ed.derive === "function") {
    const out = ed.derive(copy(pos));
    return out || pos;
  }
  return pos;
}

let writeTimer = null;
function changed() {
  clearTimeout(writeTimer);
  writeTimer = setTimeout(() => writeToLocation(shownPosition()), 150);
  rulingEl.classList.add("stale");
  const note = document.getElementById("stale-note");
  if (note) note.hidden = rulingEl.childElementCount === 0;
}

function renderEditor() {
  clear(editorEl);
  const name = state.current;
  const sit = state.schemas[name];
  const ctx = {schema: sit.schema, description: sit.description, changed, rerender: renderEditor, game, situation: name};
  editorEl.append(...[h("h2", {class: "editor-title"}, humanize(name),
    h("small", {}, ` — ${sit.description}`)), examplePicker(name)].filter(Boolean));
  editorFor(name).render(editorEl, position(), ctx);
}

function renderTabs() {
  clear(tabs);
  for (const name of Object.keys(state.schemas)) {
    const selected = name === state.current;
    tabs.append(h("button", {type: "button", role: "tab", class: "tab", id: `tab-${name}`,
                             "aria-selected": selected ? "true" : "false", "aria-controls": "editor",
                             tabindex: selected ? "0" : "-1", dataset: {situation: name},
                             onclick: () => select(name)}, humanize(name)));
  }
}

tabs.addEventListener("keydown", (e) => {
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
  const names = Object.keys(state.schemas);
  let i = names.indexOf(state.current);
  if (e.key === "ArrowLeft") i = (i - 1 + names.length) % names.length;
  if (e.key === "ArrowRight") i = (i + 1) % names.length;
  if (e.key === "Home") i = 0;
  if (e.key === "End") i = names.length - 1;
  select(names[i]);
  document.getElementById(`tab-${names[i]}`).focus();
  e.preventDefault();
});

/** Scroll the tab strip (only sideways) so that the selected tab is in view, e.g. on a phone. */
function revealTab(name) {
  const tab = document.getElementById(`tab-${name}`);
  if (!tab || tabs.scrollWidth <= tabs.clientWidth) return;
  const left = tab.offsetLeft - tabs.offsetLeft;
  if (left < tabs.scrollLeft || left + tab.offsetWidth > tabs.scrollLeft + tabs.clientWidth) {
    tabs.scrollLeft = Math.max(0, left - (tabs.clientWidth - tab.offsetWidth) / 2);
  }
}

/** Show a cue (a fade and an arrow) on each side of the tab strip where tabs are out of view. */
function tabCue() {
  const wrap = document.getElementById("tabs-wrap");
  if (!wrap) return;
  const left = tabs.scrollLeft > 1, right = tabs.scrollLeft + tabs.clientWidth < tabs.scrollWidth - 1;
  wrap.classList.toggle("more-left", left);
  wrap.classList.toggle("more-right", right);
  document.getElementById("tabs-left").hidden = !left;
  document.getElementById("tabs-right").hidden = !right;
}

tabs.addEventListener("scroll", tabCue, {passive: true});
window.addEventListener("resize", tabCue);

/** Scroll the tab strip one page: the first tab cut off on that side comes fully into view, past the arrow. */
function pageTabs(dir) {
  const box = tabs.getBoundingClientRect(), room = 44;
  const all = [...tabs.querySelectorAll(".tab")].map((b) => b.getBoundingClientRect());
  const cut = dir > 0 ? all.find((r) => r.right > box.right - room) : [...all].reverse().find((r) => r.left < box.left + room);
  if (!cut) return;
  const by = dir > 0 ? Math.max(room, cut.left - box.left - room) : Math.min(-room, cut.right - box.right + room);
  tabs.scrollBy({left: by, behavior: "smooth"});
}
document.getElementById("tabs-left")?.addEventListener("click", () => pageTabs(-1));
document.getElementById("tabs-right")?.addEventListener("click", () => pageTabs(1));

function select(name) {
  state.current = name;
  if (!state.positions[name]) state.positions[name] = initialPosition(name);
  renderTabs();
  revealTab(name);
  tabCue();
  renderEditor();
  showRuling(state.rulings[name] || null);
  writeToLocation(shownPosition());
}

function showRuling(ruling) {
  // an editor may draw the ruling too (the table board draws the shapes its outcome derives)
  const ed = state.editors[state.current];
  if (ed && typeof ed.ruled === "function") ed.ruled(ruling);
  clear(rulingEl);
  rulingEl.classList.remove("stale");
  document.getElementById("stale-note").hidden = true;
  if (!ruling) {
    rulingEl.append(h("p", {class: "placeholder"}, "Set up the position, then press “What happens now?”."));
    return;
  }
  const sit = state.schemas[state.current] || {};
  rulingEl.append(renderRuling(ruling, position(), answer, {schema: sit.schema, labels: sit.labels || {}, values: sit.values || {}}));
}

function answer(apply) {
  apply(position());
  renderEditor();
  writeToLocation(shownPosition());
  resolveNow();
}

/** Return a JSON path of the position in the form's words: "place_on.id" → "Placement › Concentration",
 *  "players[1].bid" → "Players 2 › Bid" (the schema's titles, else the keys humanized). */
function pathWords(path) {
  const schema = (state.schemas[state.current] || {}).schema;
  const parts = [];
  let sofar = "";
  for (const key of parsePath(path)) {
    if (typeof key === "number") {
      sofar += `[${key}]`;
      if (parts.length) parts[parts.length - 1] += ` ${key + 1}`;
      else parts.push(`#${key + 1}`);
      continue;
    }
    sofar = sofar ? `${sofar}.${key}` : key;
    const sub = schema ? schemaAt(schema, sofar) : null;
    parts.push((sub && sub.title) || humanize(key));
  }
  return parts.join(" › ") || "the whole position";
}

/** Mark the control of `path` (or its nearest shown parent) and write the refusal under it, where the player
 *  typed the value. */
function markError(path, message = "") {
  for (const el of editorEl.querySelectorAll(".error-field")) el.classList.remove("error-field");
  for (const el of editorEl.querySelectorAll(".field-error")) el.remove();
  let p = path;
  while (p) {
    const el = editorEl.querySelector(`[data-path="${CSS.escape(p)}"]`);
    if (el) {
      el.classList.add("error-field");
      if (message) el.append(h("p", {class: "field-error", role: "alert"}, message));
      el.scrollIntoView({block: "center", behavior: "smooth"});
      return;
    }
    const next = p.replace(/(\.[^.[\]]+|\[\d+\])$/, "");
    if (next === p) break;
    p = next;
  }
}

// Offline (or with the server out of reach) the last ruling stays on screen under a plain note.
function noServer(why) {
  const kept = rulingEl.querySelector(".ruling") ? " The ruling below is the last one you got." : "";
  offlineNote(`${why} A ruling needs the server, and this position has not been ruled on this device before.` +
              `${kept} Ask again when you are back online.`);
}

function offlineNote(text) {
  for (const old of rulingEl.querySelectorAll(".ruling-offline")) old.remove();
  if (text) rulingEl.prepend(h("p", {class: "offline-note ruling-offline", role: "alert"}, text));
}

async function resolveNow() {
  const button = document.getElementById("resolve");
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    const sent = shownPosition();
    const {ok, status, data, offline} = await postJSON("/api/resolve", sent);
    if (!ok && data.offline) {
      noServer("You are offline.");
    } else if (ok) {
      state.rulings[state.current] = data;
      markError("");
      showRuling(data);
      if (offline === "cached") offlineNote("You are offline: this ruling was given earlier for this same position and saved on this device.");
      announce(data.summary || (data.legal ? `Ruling ready: ${data.steps.length} steps.` : "Ruling ready: not allowed."));
      const heading = rulingEl.querySelector(".verdict");
      if (heading && window.innerWidth < 900) heading.focus();
      else if (heading) {
        const box = heading.getBoundingClientRect();
        if (box.top < 0 || box.top > window.innerHeight - 120) {
          heading.scrollIntoView({block: "start", behavior: "smooth"});
        }
      }
    } else {
      clear(rulingEl);
      rulingEl.classList.remove("stale");
      rulingEl.append(h("div", {class: "error", role: "alert"},
        h("h2", {}, status === 413 ? "Position too large" : "The position cannot be read"),
        h("p", {}, data.error || "unknown error"),
        data.path ? h("p", {class: "error-where"}, "At ", h("strong", {}, pathWords(data.path))) : null));
      markError(data.path || "", data.error || "");
    }
  } catch (err) {
    noServer(navigator.onLine ? "The server cannot be reached." : "You are offline.");
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  const a = h("a", {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function load(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("a position is a JSON object");
  if (value.game !== game) throw new Error(`this is the ${game} board; the position is for ${value.game}`);
  if (!state.schemas[value.situation]) throw new Error(`unknown situation ${value.situation}`);
  state.positions[value.situation] = value;
  delete state.rulings[value.situation];
  select(value.situation);
}

/** Show a position made elsewhere (e.g. an imported army list) with the ruling the server gave it. */
function adopt(value, ruling) {
  load(value);
  state.rulings[value.situation] = ruling;
  showRuling(ruling);
  announce(ruling.summary || "Ruling ready.");
}

/** Show an error answer ({error, path}) in the ruling column under *title*. */
function fail(title, data) {
  clear(rulingEl);
  rulingEl.classList.remove("stale");
  rulingEl.append(h("div", {class: "error", role: "alert"}, h("h2", {}, title), h("p", {}, data.error || "unknown error")));
}

function setupToolbar() {
  document.getElementById("resolve").addEventListener("click", resolveNow);
  document.getElementById("share").addEventListener("click", async () => {
    const url = shareURL(shownPosition());
    const out = document.getElementById("share-url");
    out.value = url;
    out.hidden = false;
    out.select();
    try { await navigator.clipboard.writeText(url); announce("Link copied."); } catch { announce("Link ready to copy."); }
  });
  document.getElementById("export").addEventListener("click", () => {
    download(`${game}-${state.current}.json`, JSON.stringify(shownPosition(), null, 2));
  });
  const dialog = document.getElementById("import-dialog");
  const text = document.getElementById("import-text");
  const msg = document.getElementById("import-error");
  document.getElementById("import").addEventListener("click", () => {
    text.value = JSON.stringify(shownPosition(), null, 2);
    msg.textContent = "";
    dialog.showModal();
  });
  document.getElementById("import-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) text.value = await file.text();
  });
  document.getElementById("import-load").addEventListener("click", (e) => {
    e.preventDefault();
    try {
      load(JSON.parse(text.value));
      dialog.close();
      announce("Position loaded.");
    } catch (err) {
      msg.textContent = String(err.message || err);
    }
  });
  document.getElementById("import-cancel").addEventListener("click", () => dialog.close());
  document.getElementById("reset").addEventListener("click", () => {
    // an editor may give a blank of its own (the table: an empty table); the worked examples stay one pick away
    const ed = state.editors[state.current];
    const blank = ed && typeof ed.blank === "function" ? ed.blank(position()) : null;
    state.positions[state.current] = blank ? {...blank, game, situation: state.current} : initialPosition(state.current);
    delete state.rulings[state.current];
    select(state.current);
  });
}

async function main() {
  installPreviews();
  setupToolbar();
  const all = (await situations()).filter((s) => s.game === game);
  const mainName = root.dataset.main;
  all.sort((a, b) => (a.situation === mainName ? -1 : b.situation === mainName ? 1 : 0));
  for (const s of all) state.schemas[s.situation] = s;
  const worked = await getJSON(`/api/examples?game=${encodeURIComponent(game)}`);
  state.examples = worked.ok ? worked.data.examples : [];
  let modules = [];
  try { modules = JSON.parse(root.dataset.editors || "[]"); } catch { modules = []; }
  for (const url of modules) {
    try {
      const mod = await import(url);
      Object.assign(state.editors, mod.editors || {});
      if (typeof mod.toolbar === "function") mod.toolbar({game, adopt, fail});
    } catch (err) {
      console.error("editor module failed to load", url, err);
    }
  }
  const shared = readFromLocation();
  if (shared && shared.game === game && state.schemas[shared.situation]) {
    state.positions[shared.situation] = shared;
    select(shared.situation);
    resolveNow();
  } else if (all.length) {
    select(all[0].situation);
  } else {
    editorEl.append(h("p", {}, "No situation of this game can be resolved yet."));
    for (const b of document.querySelectorAll(".actionbar button")) b.disabled = true;
  }
  root.dataset.ready = "true";
}

window.addEventListener("hashchange", () => {
  const shared = readFromLocation();
  if (shared && shared.game === game && JSON.stringify(shared) !== JSON.stringify(shownPosition())) {
    try { load(shared); resolveNow(); } catch { /* ignore a foreign fragment */ }
  }
});

main();
