// The copy of the rules saved on this device (/offline/data.json, stored by the service worker): offline
// search over the same fields as the server's (title, short, asked, text) and the paragraphs for the
// offline rule pages. Search is BM25 over the four fields (title weighed most), words lower-cased and
// lightly stemmed, the last word also matched as a prefix while typing; a game named in the question
// ("in Rune Age", "RWM") limits it to that game, as on the server.
const FIELDS = [["t", 3], ["a", 2], ["s", 2], ["x", 1]];
const K1 = 1.2;
const B = 0.75;
const STOP = new Set(("a an and are as at be by can could do does for from had has have how i if in into is it its " +
  "me my of on or so than that the their them then there these they this to was we what when where which who " +
  "why will with would you your").split(" "));
const GAMES = [
  ["runewars-miniatures", /\b(runewars miniatures( game)?|rwm)\b/i],
  ["rune-age", /\brune ?age\b/i],
  ["runeslingers", /\brune ?slingers?\b/i],
  ["runewars", /\brunewars( revised( edition)?)?\b/i],
];

let loading = null;

/** Return the saved copy of the rules ({version, games, docs, paragraphs, byId, ...}), loaded once. */
export function savedRules() {
  if (!loading) {
    loading = fetch("/offline/data.json").then((resp) => {
      if (!resp.ok) throw new Error(`no saved copy (${resp.status})`);
      return resp.json();
    }).then(prepare);
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** Return the plain text of a paragraph's HTML. */
export function plain(html) {
  return (html || "").replace(/<[^>]*>/g, " ").replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&quot;/g, "\"").replace(/&#x?27;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
}

function stem(word) {
  let w = word.replace(/'s$/, "");
  if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith("es") && !w.endsWith("ses")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  return w;
}

function words(text) {
  return (text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").match(/[\p{L}\p{N}']+/gu) || [])
    .map((w) => w.replace(/^'+|'+$/g, "")).filter((w) => w && !STOP.has(w));
}

function prepare(data) {
  const byId = new Map();
  const df = new Map();
  const total = Object.fromEntries(FIELDS.map(([f]) => [f, 0]));
  for (const p of data.paragraphs) {
    byId.set(p.i, p);
    p.x = plain(p.h);
    p.tf = {};
    p.len = {};
    const seen = new Set();
    for (const [f] of FIELDS) {
      const text = f === "a" ? (p.a || []).join(" ") : (p[f] || "");
      const counts = new Map();
      const list = words(text).map(stem);
      for (const w of list) { counts.set(w, (counts.get(w) || 0) + 1); seen.add(w); }
      p.tf[f] = counts;
      p.len[f] = list.length;
      total[f] += list.length;
    }
    for (const w of seen) df.set(w, (df.get(w) || 0) + 1);
  }
  const n = data.paragraphs.length || 1;
  data.avg = Object.fromEntries(FIELDS.map(([f]) => [f, total[f] / n || 1]));
  data.byId = byId;
  data.df = df;
  data.n = n;
  return data;
}

function gameOf(query) {
  for (const [key, pattern] of GAMES) {
    if (pattern.test(query)) return {game: key, rest: query.replace(pattern, " ")};
  }
  return {game: null, rest: query};
}

function escapeHTML(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function snippet(text, terms) {
  return escapeHTML(text).replace(/[\p{L}\p{N}']+/gu, (w) => (terms.has(stem(w.toLowerCase())) ? `<mark>${w}</mark>` : w));
}

/** Search the saved copy; answers in the shape of GET /api/search, plus offline: true. */
export async function searchSaved(query, game = "", limit = 20, offset = 0, detect = true) {
  const data = await savedRules();
  let where = game || null;
  let detected = null;
  let text = query;
  if (!where && detect) {
    const named = gameOf(query);
    if (named.game && data.games[named.game]) { where = detected = named.game; text = named.rest; }
  }
  const typed = words(text);
  const terms = new Set(typed.map(stem));
  if (typed.length && !/\s$/.test(text) && typed[typed.length - 1].length >= 3) {
    const last = stem(typed[typed.length - 1]);
    for (const w of data.df.keys()) if (w.startsWith(last)) terms.add(w);
  }
  const scored = [];
  for (const p of data.paragraphs) {
    if (where && p.g !== where) continue;
    let score = 0;
    for (const w of terms) {
      const df = data.df.get(w);
      if (!df) continue;
      const idf = Math.log(1 + (data.n - df + 0.5) / (df + 0.5));
      for (const [f, weight] of FIELDS) {
        const tf = p.tf[f].get(w);
        if (tf) score += weight * idf * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * p.len[f] / data.avg[f]));
      }
    }
    if (score > 0) scored.push([score, p]);
  }
  scored.sort((a, b) => b[0] - a[0]);
  const page = scored.slice(offset, offset + limit);
  const next = offset + page.length;
  return {
    query, total: scored.length, game: where, detected_game: detected, detected_by: detected ? "name" : null,
    offset, limit, next_offset: next < scored.length && page.length ? next : null, offline: true,
    hits: page.map(([score, p]) => ({
      id: p.i, title: p.t, snippet: snippet(p.s || p.x.slice(0, 240), terms), score: Math.round(score * 1000) / 1000,
      source: {doc: p.d}, game: p.g, kind: p.k, locator: p.l, short: p.s || null, url: `/rules/${p.i}`,
    })),
  };
}
