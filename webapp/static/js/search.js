// Search as you type: results update after a short pause; the query lives in ?q=&game=.
import {getJSON} from "./api.js";
import {clear, h, snippetNodes} from "./dom.js";
import {installPreviews} from "./preview.js";

const form = document.getElementById("search-form");
const q = document.getElementById("q");
const game = document.getElementById("game");
const results = document.getElementById("results");
const summary = document.getElementById("summary");
let timer = null;
let seq = 0;
let controller = null;

function gameName(key) {
  const opt = [...game.options].find((o) => o.value === key);
  return opt ? opt.textContent : key;
}

async function run() {
  const query = q.value.trim();
  const params = new URLSearchParams();
  if (query) params.set("q", query);
  if (game.value) params.set("game", game.value);
  history.replaceState(null, "", params.toString() ? `?${params}` : location.pathname);
  const mine = ++seq;
  if (!query) {
    clear(results);
    summary.textContent = "";
    return;
  }
  if (controller) controller.abort();
  controller = new AbortController();
  params.set("limit", "20");
  let answer;
  try {
    answer = await getJSON(`/api/search?${params}`, {signal: controller.signal});
  } catch {
    return;  // a newer query replaced this one
  }
  if (mine !== seq) return;
  clear(results);
  const {ok, data} = answer;
  if (!ok) {
    summary.textContent = data.error || "Search failed.";
    return;
  }
  const fixed = data.corrected ? ` (searched for “${data.corrected}”)` : "";
  summary.textContent = data.total
    ? `${data.total} paragraph(s) match${fixed}; best ${data.hits.length} shown.`
    : `Nothing matches “${query}”${fixed}.`;
  results.dataset.answered = `${query}|${game.value}`;
  for (const hit of data.hits) {
    const href = hit.url || `/rules/${hit.id}`;
    results.append(h("li", {class: "hit"},
      h("h2", {}, h("a", {class: "cite", href, dataset: {pid: hit.id}}, hit.title)),
      h("p", {class: "hit-meta"}, `${gameName(hit.game || "")} · ${hit.locator || hit.source.doc} · `,
        h("span", {class: `kind kind-${hit.kind}`}, hit.kind || "rule")),
      h("p", {class: "snippet"}, snippetNodes(hit.snippet))));
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(run, 180);
}

form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); run(); });
q.addEventListener("input", schedule);
game.addEventListener("change", () => { clearTimeout(timer); run(); });

const params = new URLSearchParams(location.search);
if (params.get("q")) q.value = params.get("q");
if (params.get("game")) game.value = params.get("game");
installPreviews();
if (q.value) run();
q.focus();
