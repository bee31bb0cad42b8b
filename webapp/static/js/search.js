// Search as you type. The page works without this script (/search?q= is rendered on the server, with
// "Next page" links); here results update after a short pause, "More results" appends the next page,
// and the chip of a game named in the question can be removed. The query lives in ?q=&game=&detect=.
import {getJSON} from "./api.js";
import {clear, h, snippetNodes} from "./dom.js";
import {installPreviews} from "./preview.js";

const PAGE = 20;
const form = document.getElementById("search-form");
const q = document.getElementById("q");
const game = document.getElementById("game");
const results = document.getElementById("results");
const summary = document.getElementById("summary");
const chips = document.getElementById("chips");
const pager = document.getElementById("pager");
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
  return getJSON(`/api/search?${p}`, {signal});
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
    last = null;
    return;
  }
  if (controller) controller.abort();
  controller = new AbortController();
  let answer;
  try {
    answer = await fetchPage(query, 0, controller.signal);
  } catch {
    return;  // a newer query replaced this one
  }
  if (mine !== seq) return;
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
  try {
    answer = await fetchPage(last.query, last.next_offset);
  } catch {
    return;
  }
  if (mine !== seq || !answer.ok) return;
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
