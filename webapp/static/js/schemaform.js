// A form generated from a situation's JSON Schema: the fallback editor for every panel.
// Labels are the schema's titles (else the keys humanized) and each field's description is its hint, in a
// player's words (enum keys as their option labels, snake_case as words, JSON examples as text); a list's
// items are named after the item schema's title ("Exhausted card 1", "Add exhausted card", "Remove
// exhausted card 1"), their hints shown once per list; a tuple's fields take the words of a "[area, area,
// kind]" pattern in the list's description; an optional field with a default shows that default as its
// value (no "unknown"), a nullable one offers "none".
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

/** Return the words of an enum value as the form shows them: the schema's player-word label (x-enum-labels) when
 *  it has one, else factions as printed and other keys humanized. */
function optionWords(v, schema = null) {
  if (v === null) return "none";
  const labels = schema && (schema["x-enum-labels"] || ((nullableInner(schema) || {})["x-enum-labels"]));
  if (labels && typeof v === "string" && Object.prototype.hasOwnProperty.call(labels, v)) return labels[v];
  return factionName(v) === v ? humanize(v) : factionName(v);
}

/** Return the part of `schema` reached through property `keys` ("[]" steps into an array's items), or null. */
export function schemaAt(schema, ...keys) {
  let sc = schema;
  for (const k of keys) {
    if (!sc) return null;
    sc = k === "[]" ? sc.items : (sc.properties || {})[k];
  }
  return sc || null;
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
    .replace(/\bnull\b/g, "none")
    .replace(/^\[[^\]]*\];\s*/, "");   // a tuple's "[area, area, kind]; " becomes the labels of its fields
  return text.charAt(0).toUpperCase() + text.slice(1);
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
  const plural = (w) => /[a-z]{2}[^s']s$/i.test(w);
  if (plural(words[last])) words[last] = one(words[last]);
  else {
    const i = words.findIndex(plural);   // "Defense cards in play" → "Defense card in play"
    if (i >= 0) words[i] = one(words[i]);
  }
  return words.join(" ");
}

/** Return an editor of value under schema; set(v) replaces it; changed() is called after in-place edits. */
export function field(schema, label, get, set, changed, path) {
  schema = schema || {};
  const inner = nullableInner(schema);
  if (inner && inner.enum && !schema.enum) {
    const opts = [[null, "none"], ...inner.enum.map((v) => [v, optionWords(v, inner)])];
    if (opts.length <= 5) return segmented(label, opts, () => get() ?? null, set, {path});
    return select(label, opts, () => get() ?? null, set, {path});
  }
  if (inner && !schema.enum) {
    const innerType = typeOf(inner);
    if (innerType === "string") {
      return textInput(label, () => get() ?? "", (v) => set(v === "" ? null : v),
                       {maxLength: inner.maxLength || 200, path, placeholder: "none"});
    }
    if (innerType === "integer" || innerType === "number") {
      return stepper(label, () => get() ?? null, set, {min: inner.minimum ?? null, max: inner.maximum ?? null, path,
        hint: hintOf(schema), empty: {label: "none", start: defaultFor(inner), clear: () => set(null)}});
    }
    const holder = h("div", {class: "nullable", dataset: {path}});
    const draw = () => {
      clear(holder);
      const isNull = get() === null || get() === undefined;
      holder.append(segmented(label, [[true, "none"], [false, "given"]], () => isNull, (none) => {
        set(none ? null : defaultFor(inner));
        draw();
      }, {path}));
      if (!isNull) holder.append(field(inner, "", get, set, changed, path));
    };
    draw();
    return holder;
  }
  if (schema.enum) {
    const opts = schema.enum.map((v) => [v, optionWords(v, schema)]);
    if (opts.length <= 4 && schema.enum.every((o) => typeof o === "string" || o === null)) {
      return segmented(label, opts, get, set, {path});
    }
    return select(label, opts, get, set, {path});
  }
  if (schema.anyOf || schema.oneOf) {
    return textInput(`${label} (JSON)`, () => JSON.stringify(get()), (t) => {
      try { set(JSON.parse(t)); } catch { /* keep the last valid value */ }
    }, {path});
  }
  switch (typeOf(schema)) {
    case "object": return objectEditor(schema, label, get, set, changed, path);
    case "array": return arrayEditor(schema, label, get, set, changed, path);
    case "integer": case "number":
      return stepper(label, get, set, {min: schema.minimum ?? null, max: schema.maximum ?? null, path,
                                       hint: hintOf(schema)});
    case "boolean": return checkbox(label, get, set, {path});
    case "string": return textInput(label, get, set, {maxLength: schema.maxLength || 200, path});
    default:
      return textInput(`${label} (JSON)`, () => JSON.stringify(get() ?? null), (t) => {
        try { set(JSON.parse(t)); } catch { /* keep */ }
      }, {path});
  }
}

function legendWithHint(box, label, schema) {
  if (label) box.append(h("legend", {}, label));
  const hint = label ? hintOf(schema) : null;
  if (hint) box.append(h("small", {class: "hint"}, hint));
}

function objectEditor(schema, label, get, set, changed, path) {
  if (get() === null || typeof get() !== "object" || Array.isArray(get())) set(defaultFor(schema));
  const props = schema.properties || {};
  const required = new Set(schema.required || []);
  const box = h("fieldset", {class: "object", dataset: {path}});
  legendWithHint(box, label, schema);
  const keys = Object.keys(props).filter((k) => !("const" in props[k]));
  for (const key of keys) box.append(propertyRow(props[key], key, required.has(key), get, changed, joinPath(path, key), props));
  const extra = schema.additionalProperties;
  if (!keys.length && extra && typeof extra === "object") {
    box.append(mapEditor(schema, label, get, changed, path));
  }
  return box;
}

const UNKNOWN = "\u0000unknown";

/** Return the editor of one property of the object get(), labelled with the schema's title and described
 *  by its description. Required properties are always present. An optional property with a default shows
 *  that default as its value (the position leaves it out until it is changed; the engine applies the same
 *  default). Any other optional property is shown like any other field with "unknown" among its values:
 *  yes/no/unknown for booleans, its values plus "unknown" for enums, a blank number or text for "unknown",
 *  and objects and lists that join the position as soon as something is entered in them. "Unknown" leaves
 *  the property out, which lets the engine ask. */
export function propertyRow(ps, key, required, get, changed, sub, siblings = null) {
  const row = h("div", {class: "prop"});
  const label = titleOf(ps, key);
  const getV = () => get()[key];
  const setV = (v) => { get()[key] = v; changed(); };
  const draw = () => {
    clear(row);
    if (required) {
      if (!(key in get())) get()[key] = defaultFor(ps);
      row.append(withHint(field(ps, label, getV, setV, changed, sub), ps));
      return;
    }
    const present = () => key in get();
    const unset = () => { delete get()[key]; changed(); };
    const type = typeOf(ps);
    const inner = nullableInner(ps);
    const hasDefault = "default" in ps;
    const fallback = hasDefault ? ps.default : UNKNOWN;
    const shown = () => (present() ? get()[key] : fallback);
    // null, the default and "unknown" all leave the property out
    const setOrUnset = (v) => { if (v === UNKNOWN || (hasDefault && ps.default === null && v === null)) unset(); else setV(v); };
    if (type === "boolean" && !ps.enum) {
      const opts = [[true, "yes"], [false, "no"], ...(hasDefault ? [] : [[UNKNOWN, "unknown"]])];
      row.append(withHint(segmented(label, opts, shown, setOrUnset, {path: sub}), ps));
      return;
    }
    const choices = ps.enum || (inner && inner.enum ? [null, ...inner.enum] : null);
    if (choices) {
      const opts = [...choices.map((v) => [v, optionWords(v, ps)]), ...(hasDefault ? [] : [[UNKNOWN, "unknown"]])];
      const widget = opts.length <= 5 && choices.every((o) => typeof o === "string" || o === null) ? segmented : select;
      row.append(withHint(widget(label, opts, shown, setOrUnset, {path: sub}), ps));
      return;
    }
    const scalar = inner ? typeOf(inner) : type;
    const numSchema = inner || ps;
    const list = scalar === "integer" ? indexedList(ps, siblings) : null;
    if (list) {
      const empty = hasDefault ? "none" : "unknown";
      row.append(withHint(indexSelect(label, sub, list, siblings[list], get, () => (present() ? get()[key] : null),
                                      (v) => { if (v === null) unset(); else setV(v); }, empty), ps));
      return;
    }
    if (scalar === "integer" || scalar === "number") {
      const emptyLabel = hasDefault && ps.default === null ? "none" : "unknown";
      const withEmpty = !hasDefault || ps.default === null;
      row.append(stepper(label, () => (present() ? get()[key] : (withEmpty ? null : ps.default)), setV,
        {min: numSchema.minimum ?? null, max: numSchema.maximum ?? null, path: sub, hint: hintOf(ps),
         empty: withEmpty ? {label: emptyLabel, start: defaultFor(numSchema), clear: unset} : null}));
      return;
    }
    if (scalar === "string") {
      const placeholder = hasDefault && ps.default === null ? "none" : hasDefault ? null : "unknown";
      row.append(withHint(textInput(label, () => (present() ? get()[key] ?? "" : (hasDefault && ps.default !== null ? ps.default : "")),
        (v) => { if (v === "") unset(); else setV(v); }, {maxLength: numSchema.maxLength || 200, path: sub, placeholder}), ps));
      return;
    }
    if (type === "object" || type === "array") {
      // a draft that joins the position on the first edit (an empty list leaves it again)
      let draft = present() ? get()[key] : defaultFor(ps);
      const attach = () => {
        if (Array.isArray(draft) && !draft.length) delete get()[key];
        else get()[key] = draft;
        changed();
      };
      row.append(withHint(field(ps, label, () => (present() ? get()[key] : draft), (v) => { draft = v; attach(); }, attach, sub), ps));
      return;
    }
    if (inner) {
      row.append(withHint(field(ps, label, () => (present() ? get()[key] : null), setV, changed, sub), ps));
      return;
    }
    row.append(withHint(field(ps, label, getV, setV, changed, sub), ps));
  };
  draw();
  return row;
}

/** Return the key of the sibling list an integer property indexes ("Card resolved (index in drawn)",
 *  "Index in the cards of …"), or null. */
function indexedList(ps, siblings) {
  if (!siblings) return null;
  const text = `${titleOf(ps, "")} ${hintOf(ps) || ""}`.toLowerCase();
  if (!/\bindex\b/.test(text)) return null;
  const found = Object.keys(siblings).filter((k) => typeOf(siblings[k]) === "array"
    && new RegExp(`\\b${k.replace(/_/g, " ")}\\b`).test(text));
  return found.length === 1 ? found[0] : null;
}

/** Return a select of the items of the sibling list `list` (an index into it): "Morale card drawn 2: Fear 1".
 *  Its options are read again whenever it is focused or pressed, so cards added to the list show up. */
function indexSelect(label, path, list, listSchema, getObj, get, set, emptyLabel) {
  const id = uid("sel");
  const one = (listSchema.items && listSchema.items.title) || singular(titleOf(listSchema, list));
  const el = h("select", {id, dataset: {path}, onchange: (e) => set(e.target.value === "" ? null : parseInt(e.target.value, 10))});
  const fill = () => {
    const items = Array.isArray(getObj()[list]) ? getObj()[list] : [];
    const now = get();
    clear(el).append(h("option", {value: "", selected: now === null || now === undefined}, emptyLabel));
    items.forEach((item, i) => {
      const name = item && typeof item === "object" ? item.name || item.id || "" : item === null ? "" : optionWords(item);
      el.append(h("option", {value: String(i), selected: now === i}, `${one} ${i + 1}${name ? `: ${name}` : ""}`));
    });
    if (Number.isInteger(now) && now >= items.length) el.append(h("option", {value: String(now), selected: true}, `${one} ${now + 1}`));
  };
  fill();
  el.addEventListener("focus", fill);
  el.addEventListener("pointerdown", fill);
  return h("div", {class: "field select", dataset: {path}}, h("label", {for: id}, label.replace(/\s*\(index[^)]*\)/i, "")), el);
}

function mapEditor(schema, label, get, changed, path) {
  const valueSchema = schema.additionalProperties;
  const names = schema.propertyNames && schema.propertyNames.enum;
  const holder = h("div", {class: "map"});
  const draw = () => {
    clear(holder);
    const obj = get();
    for (const key of Object.keys(obj)) {
      const words = names ? optionWords(key) : key;
      holder.append(h("div", {class: "map-row"},
        field(valueSchema, words, () => get()[key], (v) => { get()[key] = v; changed(); }, changed, joinPath(path, key)),
        smallButton("Remove", () => { delete get()[key]; changed(); draw(); }, {"aria-label": `Remove ${words}`})));
    }
    const free = names ? names.filter((n) => !(n in obj)) : null;
    if (free && !free.length) return;
    const id = uid("key");
    let input;
    if (free) {
      input = h("select", {id}, free.map((n) => h("option", {value: n}, optionWords(n))));
    } else {
      input = h("input", {id, type: "text", maxlength: 60, placeholder: "name"});
    }
    const what = label ? label.toLowerCase() : "the list";
    holder.append(h("div", {class: "map-add"},
      h("label", {for: id}, `Add to ${what}`), input,
      smallButton("Add", () => {
        const key = input.value.trim();
        if (!key || key in get()) return;
        get()[key] = defaultFor(valueSchema);
        changed();
        draw();
      }, {"aria-label": `Add to ${what}`})));
  };
  draw();
  return holder;
}

/** Return the labels of a tuple's items: their titles, else the words of a "[area, area, a|b|c]" pattern
 *  at the start of the list's description, else "<label> i". */
function tupleLabels(items, listSchema, label) {
  const m = /^\[([^\]]+)\]/.exec((listSchema && listSchema.description) || "");
  const words = m ? m[1].split(",").map((w) => w.trim()) : [];
  return items.map((ps, i) => {
    if (ps && ps.title) return ps.title;
    const w = words.length === items.length ? words[i] : null;
    if (w && /\|/.test(w)) return "Kind";
    if (w) return humanize(w);
    return `${label || "Item"} ${i + 1}`;
  });
}

function arrayEditor(schema, label, get, set, changed, path, parent = null) {
  if (!Array.isArray(get())) set(defaultFor(schema));
  const box = h("fieldset", {class: "array", dataset: {path}});
  legendWithHint(box, label, schema);
  const list = h("ol", {class: "items"});
  box.append(list);
  if (schema.prefixItems) {
    box.classList.add("tuple");
    const names = tupleLabels(schema.prefixItems, parent, label);
    schema.prefixItems.forEach((ps, i) => {
      list.append(h("li", {}, field(ps, names[i], () => get()[i], (v) => { get()[i] = v; changed(); },
                                    changed, joinPath(path, i))));
    });
    return box;
  }
  const itemSchema = schema.items || {};
  const itemType = typeOf(itemSchema);
  const one = itemSchema.title || singular(label || "item");
  const lower = one.charAt(0).toLowerCase() + one.slice(1);
  if (itemType !== "object" && itemType !== "array") {
    const hint = hintOf(itemSchema);
    if (hint && hint !== hintOf(schema)) box.insertBefore(h("small", {class: "hint"}, hint), list);
  }
  const draw = () => {
    clear(list);
    const arr = get();
    if (!arr.length) list.append(h("li", {class: "empty muted"}, "None yet."));
    arr.forEach((_, i) => {
      const li = h("li", {class: `item item-${itemType || "any"}${i ? " repeat" : ""}`});   // hints once per list
      const name = `${one} ${i + 1}`;
      li.append(itemType === "array"
        ? arrayEditor(itemSchema, name, () => get()[i], (v) => { get()[i] = v; changed(); }, changed, joinPath(path, i), schema)
        : field(itemSchema, name, () => get()[i], (v) => { get()[i] = v; changed(); }, changed, joinPath(path, i)));
      const moves = arr.length > 1 ? [
        smallButton("↑", () => { if (i > 0) { [arr[i - 1], arr[i]] = [arr[i], arr[i - 1]]; changed(); draw(); } },
                    {"aria-label": `Move ${lower} ${i + 1} up`, title: "Move up", disabled: i === 0}),
        smallButton("↓", () => { if (i < arr.length - 1) { [arr[i + 1], arr[i]] = [arr[i], arr[i + 1]]; changed(); draw(); } },
                    {"aria-label": `Move ${lower} ${i + 1} down`, title: "Move down", disabled: i === arr.length - 1})] : [];
      li.append(h("div", {class: "item-actions"}, moves,
        smallButton(`Remove ${lower} ${i + 1}`, () => { arr.splice(i, 1); changed(); draw(); },
                    {"aria-label": `Remove ${lower} ${i + 1}`})));
      list.append(li);
    });
  };
  draw();
  box.append(h("button", {type: "button", class: "button small", onclick: () => {
    if (schema.maxItems !== undefined && get().length >= schema.maxItems) return;
    get().push(defaultFor(itemSchema));
    changed();
    draw();
  }}, `Add ${lower}`));
  return box;
}

/** Return the whole form of a position (game and situation are fixed by the board). */
export function renderForm(schema, position, changed) {
  return objectEditor(schema, "", () => position, () => {}, changed, "");
}
