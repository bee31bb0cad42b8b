// Search as you type. The page works without this script (/search?q= is rendered on the server, with
// "Next page" links); here results update after a short pause, "More results" appends the next page,
// and the chip of a game named in the question can be removed. The query lives in ?q=&game=&detect=.
// While an answer is awaited the summary says "Searching…". Offline (or with the server out of reach)
// the answer comes from the copy of the rules saved on this device (offline-data.js), and a note says so.
import {getJSON} from "./api.js";
import {clear, h, snippetNodes} from "./dom.js";
import {searchSaved} from "./offline-data.js";
import {installPreviews} from "./preview.js";

const PAGE = 20;
const form = document.getElementById("search-form");
const q = document.getElementById("q");
const game = document.getElementById("game");
const results = document.getElementById("results");
const summary = document.getElementById("summary");
const chips = document.getElementById("chips");
const pager = document.getElementById("pager");
const note = document.getElementById("search-note");
let detect = new URLSearchParams(location.search).get("detect") !== "0";
let timer = null;
let seq = 0;
let controller = null;
let last = null;  // the last answer shown: {query, game, next_offset, total}

function gameName(key) {
  const opt = [...game.options].find((o) => o.value === key);
  return opt ? opt.textContent : key;
}

function params(query) {
  const p = new URLSearchParams();
  if (query) p.set("q", query);
  if (game.value) p.set("game", game.value);
  if (!detect) p.set("detect", "0");
  return p;
}

function hitNode(hit) {
  const href = hit.url || `/rules/${hit.id}`;
  return h("li", {class: "hit"},
    h("h2", {}, h("a", {class: "cite", href, dataset: {pid: hit.id}}, hit.title)),
    h("p", {class: "hit-meta"}, `${gameName(hit.game || "")} · ${hit.locator || hit.source.doc} · `,
      h("span", {class: `kind kind-${hit.kind}`}, hit.kind || "rule")),
    h("p", {class: "snippet"}, snippetNodes(hit.snippet)));
}

function showChip(data) {
  clear(chips);
  if (!data.detected_game) return;
  const chip = h("button", {type: "button", class: "chip", id: "game-chip", title: "Search every game",
                            dataset: {game: data.detected_game}},
    `${gameName(data.detected_game)} (${data.detected_by === "words" ? "guessed from your words" : "named in your question"}) `, h("span", {"aria-hidden": "true"}, "×"),
    h("span", {class: "visually-hidden"}, ": search every game instead"));
  chip.addEventListener("click", () => { detect = false; clearTimeout(timer); run(); });
  chips.append(chip);
}

function showSummary(data, query) {
  const fixed = data.corrected ? ` (searched for “${data.corrected}”)` : "";
  const shown = results.children.length;
  summary.textContent = data.total
    ? `1–${shown} of ${data.total} paragraph(s)${fixed}.`
    : `Nothing matches “${query}”${fixed}.`;
}

function showPager() {
  clear(pager);
  if (!last || last.next_offset === null || last.next_offset === undefined) return;
  const more = h("button", {type: "button", class: "button secondary", id: "more-results"}, "More results");
  more.addEventListener("click", loadMore);
  pager.append(more);
}

async function fetchPage(query, offset, signal) {
  const p = params(query);
  p.set("limit", String(PAGE));
  if (offset) p.set("offset", String(offset));
  let answer = null;
  try {
    answer = await getJSON(`/api/search?${p}`, {signal});
  } catch (err) {
    if (signal && signal.aborted) throw err;  // a newer query replaced this one
  }
  if (answer && !answer.data?.offline) return answer;
  // offline, or the server is out of reach: the saved copy answers
  return {ok: true, status: 200, data: await searchSaved(query, game.value, PAGE, offset || 0, detect)};
}

function showNote(data) {
  clear(note);
  note.hidden = true;
  let text = "";
  if (data && data.offline) {
    text = navigator.onLine
      ? "The server cannot be reached: these results come from the copy of the rules saved on this device."
      : "You are offline: these results come from the copy of the rules saved on this device.";
  } else if (data && data.quick) {
    text = "Quick results: the full search is still starting up; ask again in a few seconds for the best order.";
  }
  if (!text) return;
  note.textContent = text;
  note.dataset.kind = data.offline ? "offline" : "quick";
  note.hidden = false;
}

function searching(on) {
  results.setAttribute("aria-busy", on ? "true" : "false");
  summary.classList.toggle("searching", on);
  if (on) summary.textContent = "Searching…";
}

async function run() {
  const query = q.value.trim();
  const p = params(query);
  history.replaceState(null, "", p.toString() ? `?${p}` : location.pathname);
  const mine = ++seq;
  if (!query) {
    clear(results);
    clear(chips);
    clear(pager);
    summary.textContent = "";
    showNote(null);
    searching(false);
    last = null;
    return;
  }
  if (controller) controller.abort();
  controller = new AbortController();
  const signal = controller.signal;
  searching(true);
  let answer;
  try {
    answer = await fetchPage(query, 0, signal);
  } catch {
    if (signal.aborted || mine !== seq) return;  // a newer query replaced this one
    searching(false);
    clear(results);
    clear(pager);
    summary.textContent = "You are offline, and no copy of the rules is saved on this device yet: " +
                          "open Runecodex once while online and search works offline after that.";
    return;
  }
  if (mine !== seq) return;
  searching(false);
  showNote(answer.data);
  clear(results);
  results.start = 1;
  const {ok, data} = answer;
  if (!ok) {
    summary.textContent = data.error || "Search failed.";
    clear(pager);
    return;
  }
  for (const hit of data.hits) results.append(hitNode(hit));
  results.dataset.answered = `${query}|${game.value}`;
  last = {query, next_offset: data.next_offset, total: data.total};
  showChip(data);
  showSummary(data, query);
  showPager();
}

async function loadMore() {
  if (!last || last.next_offset === null) return;
  const mine = seq;
  let answer;
  const more = document.getElementById("more-results");
  if (more) { more.disabled = true; more.textContent = "Searching…"; }
  try {
    answer = await fetchPage(last.query, last.next_offset);
  } catch {
    if (more) { more.disabled = false; more.textContent = "More results"; }
    return;
  }
  if (mine !== seq) return;
  if (!answer.ok) {
    if (more) { more.disabled = false; more.textContent = "More results"; }
    return;
  }
  const first = results.children.length;
  for (const hit of answer.data.hits) results.append(hitNode(hit));
  last.next_offset = answer.data.next_offset;
  showSummary(answer.data, last.query);
  showPager();
  const focus = results.children[first]?.querySelector("a");
  if (focus) focus.focus();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(run, 180);
}

form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); run(); });
q.addEventListener("input", () => { detect = true; schedule(); });
game.addEventListener("change", () => { clearTimeout(timer); run(); });

const initial = new URLSearchParams(location.search);
if (initial.get("q")) q.value = initial.get("q");
if (initial.get("game")) game.value = initial.get("game");
const paged = Boolean(initial.get("offset") || initial.get("page"));
installPreviews();
// a later page rendered by the server keeps its Previous/Next links; otherwise the first page is
// fetched again so "More results" and the chip work in place
if (q.value && !paged) run();
q.focus();
