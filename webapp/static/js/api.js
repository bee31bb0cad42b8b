// Talk to the JSON API of the same origin.

/** GET a JSON document; resolve to {ok, status, data}. */
export async function getJSON(url, options = {}) {
  const resp = await fetch(url, {headers: {Accept: "application/json"}, ...options});
  let data = null;
  try { data = await resp.json(); } catch { data = {error: `unexpected answer (${resp.status})`, path: ""}; }
  return {ok: resp.ok, status: resp.status, data};
}

/** POST a JSON body; resolve to {ok, status, data}. */
export async function postJSON(url, body) {
  const resp = await fetch(url, {
    method: "POST",
    headers: {"Content-Type": "application/json", Accept: "application/json"},
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await resp.json(); } catch { data = {error: `unexpected answer (${resp.status})`, path: ""}; }
  return {ok: resp.ok, status: resp.status, data};
}

let situationsPromise = null;

/** Return (once) every situation with its schema, from /api/situations. */
export function situations() {
  if (!situationsPromise) {
    situationsPromise = getJSON("/api/situations").then((r) => (r.ok ? r.data.situations : []));
  }
  return situationsPromise;
}
