// The Runecodex service worker: the app keeps working offline once it has been opened (served at /sw.js).
//
// Install: store the app shell, the boards, the quick-reference sheets and /offline/data.json (every
// paragraph) in caches named after VERSION (the corpus version + the app's assets, written in by the
// server), so a new corpus or app replaces them whole: activate deletes every other version's caches.
//
// Fetch, same origin only:
// - pages: the network first (each page seen is kept); offline, the saved copy, else /rules/<id>,
//   /rules/ and /site/ from the offline rule page, /search?q= from the saved search page (which
//   searches the saved paragraphs), a board or sheet from its saved copy, anything else the offline page;
// - POST /api/resolve: the network first, each ruling kept by its position (canonical JSON); offline, a
//   ruling already seen for the same position (X-Runecodex-Offline: cached), else a plain 503;
// - GET /api/rules/<id> offline: built from the saved paragraphs (citation previews);
// - other API GETs: the network first, offline the saved copy, else a plain 503 that says "offline";
// - /static/: the saved copy first (the cache is versioned with the files).
const VERSION = "__RUNECODEX_CACHE_VERSION__";
const SHELL = `runecodex-${VERSION}-shell`;
const PAGES = `runecodex-${VERSION}-pages`;
const RULINGS = `runecodex-${VERSION}-rulings`;
const MAX_PAGES = 300;
const MAX_RULINGS = 500;
const OFFLINE_WORDS = "You are offline";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const resp = await fetch("/offline/precache.json", {cache: "no-store"});
    if (!resp.ok) throw new Error(`precache list: ${resp.status}`);
    const {urls} = await resp.json();
    const cache = await caches.open(SHELL);
    await cache.addAll(urls.map((u) => new Request(u, {cache: "reload"})));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const mine = new Set([SHELL, PAGES, RULINGS]);
    for (const name of await caches.keys()) {
      if (name.startsWith("runecodex-") && !mine.has(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  // the rulings a page got before this worker controlled it ([position JSON, answer JSON] texts)
  const rulings = event.data && Array.isArray(event.data.rulings) ? event.data.rulings.slice(0, 50) : [];
  event.waitUntil((async () => {
    const cache = await caches.open(RULINGS);
    for (const [body, answer] of rulings) {
      if (typeof body !== "string" || typeof answer !== "string") continue;
      await cache.put(await rulingKey(body), new Response(answer, {headers: {"Content-Type": "application/json"}}));
    }
    if (event.ports[0]) event.ports[0].postMessage({saved: rulings.length, version: VERSION});
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname === "/sw.js") return;
  if (req.method === "POST" && url.pathname === "/api/resolve") {
    event.respondWith(ruling(req));
  } else if (req.method !== "GET") {
    return;
  } else if (req.mode === "navigate") {
    event.respondWith(page(req, url));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(savedFirst(req));
  } else if (url.pathname.startsWith("/api/")) {
    event.respondWith(api(req, url));
  } else {
    event.respondWith(networkFirst(req, url));
  }
});

async function trim(cache, most) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - most))) await cache.delete(key);
}

async function keep(name, req, resp, most) {
  if (!resp.ok || resp.type !== "basic" || resp.redirected) return;
  const cache = await caches.open(name);
  await cache.put(req, resp);
  await trim(cache, most);
}

async function saved(req, options = {}) {
  return caches.match(req, options);
}

async function page(req, url) {
  try {
    const resp = await fetch(req);
    if (resp.ok && !resp.redirected && url.pathname !== "/offline/rule") keep(PAGES, req, resp.clone(), MAX_PAGES);
    return resp;
  } catch (err) {
    return (await saved(req)) || (await offlinePage(url)) || Response.error();
  }
}

async function offlinePage(url) {
  const path = url.pathname;
  if (path.startsWith("/rules") || path === "/site" || path === "/site/" || path === "/site/index.html") {
    return saved("/offline/rule");
  }
  if (path === "/" || path === "/search") return saved("/search", {ignoreSearch: true});
  if (/^\/boards\/[^/]*$/.test(path)) return saved(path, {ignoreSearch: true});
  if (path.startsWith("/quickref/")) return (await saved(path, {ignoreSearch: true})) || saved("/quickref/");
  return saved("/offline/");
}

async function savedFirst(req) {
  const hit = await saved(req);
  if (hit) return hit;
  const resp = await fetch(req);
  keep(PAGES, req, resp.clone(), MAX_PAGES);
  return resp;
}

async function networkFirst(req, url) {
  try {
    const resp = await fetch(req);
    if (url.pathname.startsWith("/quickref/") || url.pathname.startsWith("/site/")) {
      keep(PAGES, req, resp.clone(), MAX_PAGES);
    }
    return resp;
  } catch (err) {
    const hit = await saved(req);
    if (hit) return hit;
    throw err;
  }
}

function offlineJSON(message, status = 503) {
  return new Response(JSON.stringify({error: message, path: "", offline: true}), {
    status, headers: {"Content-Type": "application/json", "X-Runecodex-Offline": "no-answer"},
  });
}

async function api(req, url) {
  try {
    return await fetch(req);
  } catch (err) {
    const hit = await saved(req);
    if (hit) return hit;
    const rule = url.pathname.match(/^\/api\/rules\/(.+)$/);
    if (rule) {
      const answer = await savedRule(decodeURIComponent(rule[1]).trim().toLowerCase());
      if (answer) return answer;
    }
    return offlineJSON(`${OFFLINE_WORDS}: this needs the server.`);
  }
}

async function savedRule(pid) {
  const resp = await saved("/offline/data.json");
  if (!resp) return null;
  const data = await resp.json();
  const p = data.paragraphs.find((row) => row.i === pid);
  if (!p) return null;
  const text = (p.h || "").replace(/<[^>]*>/g, " ").replace(/&amp;/g, "&").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&#x?27;/g, "'").replace(/\s+/g, " ").trim();
  const body = {id: p.i, title: p.t, kind: p.k, game: p.g, locator: p.l, short: p.s || null, asked: p.a || [],
                text, html: p.h || "", amended_by: [], faq: [], url: `/rules/${p.i}`, page: `/rules/${p.i}`};
  return new Response(JSON.stringify(body), {headers: {"Content-Type": "application/json",
                                                       "X-Runecodex-Offline": "saved"}});
}

// ------------------------------------------------------------------ rulings, kept by position

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function rulingKey(body) {
  let text = body;
  try { text = canonical(JSON.parse(body)); } catch { /* not JSON: the server says so when online */ }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return new Request(`/offline/ruling/${hex}`);
}

async function ruling(req) {
  const body = await req.clone().text();
  const key = await rulingKey(body);
  try {
    const resp = await fetch(req);
    if (resp.ok) {
      const cache = await caches.open(RULINGS);
      await cache.put(key, resp.clone());
      trim(cache, MAX_RULINGS);
    }
    return resp;
  } catch (err) {
    const hit = await caches.match(key, {cacheName: RULINGS});
    if (hit) {
      const headers = new Headers(hit.headers);
      headers.set("X-Runecodex-Offline", "cached");
      return new Response(await hit.blob(), {status: hit.status, headers});
    }
    return offlineJSON(`${OFFLINE_WORDS}: a ruling needs the server, and this position has not been ruled on ` +
                       "this device before. The last ruling stays on screen; ask again when you are back online.");
  }
}
