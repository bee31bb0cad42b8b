// A form generated from a situation's JSON Schema: the fallback editor for every panel.
import {h, clear, copy, humanize, uid} from "./dom.js";
import {checkbox, segmented, select, smallButton, stepper, textInput} from "./widgets.js";
import {factionName} from "./names.js";

function typeOf(schema) {
  if (!schema) return null;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null") || null;
  if (schema.type) return schema.type;
  if (schema.properties) return "object";
  if (schema.items || schema.prefixItems) return "array";
  return null;
}

function nullableInner(schema) {
  const opts = schema.anyOf || schema.oneOf;
  if (!opts) return null;
  const nonNull = opts.filter((o) => o.type !== "null");
  return nonNull.length === 1 && nonNull.length < opts.length ? nonNull[0] : null;
}

/** Return a value the schema accepts, filled with required fields. */
export function defaultFor(schema) {
  if (!schema) return null;
  if ("default" in schema) return copy(schema.default);
  if ("const" in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (nullableInner(schema)) return null;
  if (schema.anyOf || schema.oneOf) return defaultFor((schema.anyOf || schema.oneOf)[0]);
  switch (typeOf(schema)) {
    case "object": {
      const out = {};
      for (const key of schema.required || []) out[key] = defaultFor((schema.properties || {})[key]);
      return out;
    }
    case "array": {
      if (schema.prefixItems) return schema.prefixItems.map(defaultFor);
      const n = schema.minItems || 0;
      return Array.from({length: n}, () => defaultFor(schema.items));
    }
    case "integer": case "number": {
      const lo = schema.minimum ?? schema.exclusiveMinimum ?? 0;
      return Math.max(lo, 0) <= (schema.maximum ?? Infinity) ? Math.max(lo, 0) : lo;
    }
    case "boolean": return false;
    case "string": return "";
    default: return null;
  }
}

function joinPath(path, key) {
  if (typeof key === "number") return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/** Return the words of an enum value as the form shows them (factions as printed, keys humanized). */
function optionWords(v) {
  if (v === null) return "none";
  return factionName(v) === v ? humanize(v) : factionName(v);
}

/** Return the label a player reads for a property: the schema's title, else the key humanized. */
export function titleOf(schema, key) {
  const inner = schema && nullableInner(schema);
  const t = (schema && schema.title) || (inner && inner.title);
  return t || humanize(key);
}

/** Return the schema's description in a player's words, or null: enum keys (`perform_actions:`) read as
 *  their option labels, other snake_case names as words, `{"burn": 5}` as "burn 5", `null` as "none". */
export function hintOf(schema) {
  if (!schema) return null;
  const inner = nullableInner(schema);
  let text = schema.description || (inner && inner.description);
  if (!text) return null;
  const values = schema.enum || (inner && inner.enum) || [];
  for (const v of values) {
    if (typeof v !== "string" || !/^[a-z0-9_]+$/.test(v)) continue;
    text = text.replace(new RegExp(`(^|; )${v}:`, "g"), (m, pre) => `${pre}${optionWords(v)}:`);
    if (/_/.test(v)) text = text.split(v).join(optionWords(v).toLowerCase());
  }
  text = text.replace(/\{"([^"{}]+)": ([^{}]+)\}/g, "$1 $2")
    .replace(/\{(\w+): (\w+)\}/g, "$1 → $2")
    .replace(/\b([a-z]+(?:_[a-z]+)+)\b/g, (m) => m.replace(/_/g, " "))
    .replace(/\bnull\b/g, "none");
  return text;
}

/** Append the description of schema (as a hint under the field) to a field element; return el. */
function withHint(el, schema) {
  const hint = hintOf(schema);
  if (hint && el && !el.querySelector(":scope > .hint, :scope > small.hint")) {
    el.append(h("small", {class: "hint"}, hint));
  }
  return el;
}

/** Return "Exhausted cards" as "Exhausted card" (the label of one item of a list). */
function singular(text) {
  const one = (w) => (/ies$/i.test(w) ? w.replace(/ies$/i, "y") : /(ch|sh|x|o)es$/i.test(w) ? w.replace(/es$/i, "")
    : /[^s]s$/i.test(w) ? w.slice(0, -1) : w);
  const words = String(text).split(" ");
  const last = words.length - 1;
  if (/[^s]s$/i.test(words[last])) words[last] = one(words[last]);
  else if (/[^s]s$/i.test(words[0])) words[0] = one(words[0]);
  return words.join(" ");
}

