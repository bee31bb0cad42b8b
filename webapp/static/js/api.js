// Talk to the JSON API of the same origin.

/** GET a JSON document; resolve to {ok, status, data}. */
export async function getJSON(url, options = {}) {
  const resp = await fetch(url, {headers: {Accept: "application/json"}, ...options});
  let data = null;
  try { data = await resp.json(); } catch { data = {error: `unexpected answer (${resp.status})`, path: ""}; }
  return {ok: resp.ok, status: resp.status, data};
}

/** Rulings answered before the service worker controlled this page ([body, answer] texts): offline.js
 * hands them to it once it does, so they too are answered offline later. */
export const unsaved = [];

/** POST a JSON body; resolve to {ok, status, data, offline}. */
export async function postJSON(url, body) {
  const text = JSON.stringify(body);
  const direct = Boolean(navigator.serviceWorker) && !navigator.serviceWorker.controller;
  const resp = await fetch(url, {
    method: "POST",
    headers: {"Content-Type": "application/json", Accept: "application/json"},
    body: text,
  });
  let raw = "";
  let data = null;
  try { raw = await resp.text(); data = JSON.parse(raw); } catch { data = {error: `unexpected answer (${resp.status})`, path: ""}; }
  if (resp.ok && url === "/api/resolve" && direct) {
    if (unsaved.length >= 50) unsaved.shift();
    unsaved.push([text, raw]);
    const worker = navigator.serviceWorker.controller;  // took over while this ruling was computed
    if (worker && document.documentElement.dataset.offline === "ready") worker.postMessage({rulings: unsaved.splice(0)});
  }
  // "cached": answered offline by the service worker from a ruling seen before; "no-answer": offline
  return {ok: resp.ok, status: resp.status, data, offline: resp.headers.get("X-Runecodex-Offline")};
}

let situationsPromise = null;

/** Return (once) every situation with its schema, from /api/situations. */
export function situations() {
  if (!situationsPromise) {
    situationsPromise = getJSON("/api/situations").then((r) => (r.ok ? r.data.situations : []));
  }
  return situationsPromise;
}
