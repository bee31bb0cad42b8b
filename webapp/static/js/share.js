// Positions travel in the URL fragment as base64url-encoded UTF-8 JSON: #p=eyJnYW1lIjoi…

/** Return the base64url text of a JSON value. */
export function encodePosition(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Return the JSON value of a base64url text (throws on anything else). */
export function decodePosition(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder("utf-8", {fatal: true}).decode(bytes));
}

/** Return the position stated in the current URL (#p=… or ?p=…), or null. */
export function readFromLocation(loc = window.location) {
  const fromHash = new URLSearchParams(loc.hash.replace(/^#/, "")).get("p");
  const fromQuery = new URLSearchParams(loc.search).get("p");
  const raw = fromHash || fromQuery;
  if (!raw) return null;
  try {
    const value = decodePosition(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Return the shareable URL of a position on this page. */
export function shareURL(value, loc = window.location) {
  return `${loc.origin}${loc.pathname}#p=${encodePosition(value)}`;
}

/** Put the position in the address bar without adding a history entry. */
export function writeToLocation(value) {
  history.replaceState(null, "", `#p=${encodePosition(value)}`);
}
