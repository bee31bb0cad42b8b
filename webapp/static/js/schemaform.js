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

/** Return an editor of value under schema; set(v) replaces it; changed() is called after in-place edits. */
export function field(schema, label, get, set, changed, path) {
  schema = schema || {};
  const inner = nullableInner(schema);
  if (inner && inner.enum && !schema.enum) {
    const opts = [[null, "none"], ...inner.enum.map((v) => [v, factionName(v) === v ? humanize(v) : factionName(v)])];
    if (opts.length <= 5) return segmented(label, opts, () => get() ?? null, set, {path});
    return select(label, opts, () => get() ?? null, set, {path});
  }
  if (inner && !schema.enum) {
    const holder = h("div", {class: "nullable", dataset: {path}});
    const draw = () => {
      clear(holder);
      const isNull = get() === null || get() === undefined;
      holder.append(segmented(label, [[true, "none"], [false, "yes"]], () => isNull, (none) => {
        set(none ? null : defaultFor(inner));
        draw();
      }, {path}));
      if (!isNull) holder.append(field(inner, "", get, set, changed, path));
    };
    draw();
    return holder;
  }
  if (schema.enum) {
    const opts = schema.enum;
    if (opts.length <= 4 && opts.every((o) => typeof o === "string" || o === null)) {
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
                                       hint: schema.description || null});
    case "boolean": return checkbox(label, get, set, {path});
    case "string": return textInput(label, get, set, {maxLength: schema.maxLength || 200, path});
    default:
      return textInput(`${label} (JSON)`, () => JSON.stringify(get() ?? null), (t) => {
        try { set(JSON.parse(t)); } catch { /* keep */ }
      }, {path});
  }
}

function objectEditor(schema, label, get, set, changed, path) {
  if (get() === null || typeof get() !== "object" || Array.isArray(get())) set(defaultFor(schema));
  const props = schema.properties || {};
  const required = new Set(schema.required || []);
  const box = h("fieldset", {class: "object", dataset: {path}});
  if (label) box.append(h("legend", {}, label));
  const keys = Object.keys(props).filter((k) => !("const" in props[k]));
  for (const key of keys) box.append(propertyRow(props[key], key, required.has(key), get, changed, joinPath(path, key)));
  const extra = schema.additionalProperties;
  if (!keys.length && extra && typeof extra === "object") {
    box.append(mapEditor(schema, get, changed, path));
  }
  return box;
}

const UNKNOWN = "\u0000unknown";

/** Return the editor of one property of the object get(). Required properties are always present; an
 *  optional one is shown like any other field: yes/no/unknown for booleans, its values plus "unknown" for
 *  enums, a blank number or text for "unknown", and objects and lists that join the position as soon as
 *  something is entered in them. "Unknown" leaves the property out, which lets the engine ask. */
export function propertyRow(ps, key, required, get, changed, sub) {
  const row = h("div", {class: "prop"});
  const getV = () => get()[key];
  const setV = (v) => { get()[key] = v; changed(); };
  const draw = () => {
    clear(row);
    if (required) {
      if (!(key in get())) get()[key] = defaultFor(ps);
      row.append(field(ps, humanize(key), getV, setV, changed, sub));
      return;
    }
    const present = () => key in get();
    const unset = () => { delete get()[key]; changed(); };
    const type = typeOf(ps);
    const inner = nullableInner(ps);
    if (type === "boolean" && !ps.enum) {
      row.append(segmented(humanize(key), [[true, "yes"], [false, "no"], [UNKNOWN, "unknown"]],
        () => (present() ? get()[key] : UNKNOWN), (v) => { if (v === UNKNOWN) unset(); else setV(v); }, {path: sub}));
      return;
    }
    const choices = ps.enum || (inner && inner.enum ? [null, ...inner.enum] : null);
    if (choices) {
      const opts = [...choices.map((v) => [v, v === null ? "none" : factionName(v) === v ? humanize(v) : factionName(v)]), [UNKNOWN, "unknown"]];
      const widget = opts.length <= 5 && choices.every((o) => typeof o === "string" || o === null) ? segmented : select;
      row.append(widget(humanize(key), opts, () => (present() ? get()[key] : UNKNOWN),
        (v) => { if (v === UNKNOWN) unset(); else setV(v); }, {path: sub}));
      return;
    }
    if (type === "integer" || type === "number") {
      row.append(stepper(humanize(key), () => (present() ? get()[key] : null), setV,
        {min: ps.minimum ?? null, max: ps.maximum ?? null, path: sub, hint: ps.description || null,
         empty: {label: "unknown", start: defaultFor(ps), clear: unset}}));
      return;
    }
    if (type === "string") {
      row.append(textInput(humanize(key), () => (present() ? get()[key] : ""), (v) => { if (v === "") unset(); else setV(v); },
        {maxLength: ps.maxLength || 200, path: sub, placeholder: "unknown"}));
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
      row.append(field(ps, humanize(key), () => (present() ? get()[key] : draft), (v) => { draft = v; attach(); }, attach, sub));
      return;
    }
    if (inner) {
      row.append(field(ps, humanize(key), () => (present() ? get()[key] : null), setV, changed, sub));
      return;
    }
    row.append(field(ps, humanize(key), getV, setV, changed, sub));
  };
  draw();
  return row;
}

function mapEditor(schema, get, changed, path) {
  const valueSchema = schema.additionalProperties;
  const names = schema.propertyNames && schema.propertyNames.enum;
  const holder = h("div", {class: "map"});
  const draw = () => {
    clear(holder);
    const obj = get();
    for (const key of Object.keys(obj)) {
      holder.append(h("div", {class: "map-row"},
        field(valueSchema, key, () => get()[key], (v) => { get()[key] = v; changed(); }, changed, joinPath(path, key)),
        smallButton("Remove", () => { delete get()[key]; changed(); draw(); }, {"aria-label": `Remove ${key}`})));
    }
    const id = uid("key");
    let input;
    if (names) {
      input = h("select", {id}, names.filter((n) => !(n in obj)).map((n) => h("option", {value: n}, humanize(n))));
    } else {
      input = h("input", {id, type: "text", maxlength: 60, placeholder: "name"});
    }
    holder.append(h("div", {class: "map-add"},
      h("label", {for: id}, "Add an entry"), input,
      smallButton("Add", () => {
        const key = input.value.trim();
        if (!key || key in get()) return;
        get()[key] = defaultFor(valueSchema);
        changed();
        draw();
      })));
  };
  draw();
  return holder;
}

function arrayEditor(schema, label, get, set, changed, path) {
  if (!Array.isArray(get())) set(defaultFor(schema));
  const box = h("fieldset", {class: "array", dataset: {path}});
  if (label) box.append(h("legend", {}, label));
  const list = h("ol", {class: "items"});
  box.append(list);
  if (schema.prefixItems) {
    schema.prefixItems.forEach((ps, i) => {
      list.append(h("li", {}, field(ps, `${label || "item"} ${i + 1}`, () => get()[i], (v) => { get()[i] = v; changed(); },
                                    changed, joinPath(path, i))));
    });
    return box;
  }
  const itemSchema = schema.items || {};
  const itemType = typeOf(itemSchema);
  const singular = (label || "item").replace(/s$/, "").toLowerCase();
  const draw = () => {
    clear(list);
    const arr = get();
    arr.forEach((_, i) => {
      const li = h("li", {class: `item item-${itemType || "any"}`});
      li.append(field(itemSchema, itemType === "object" ? `${humanize(singular)} ${i + 1}` : `${humanize(singular)} ${i + 1}`,
                      () => get()[i], (v) => { get()[i] = v; changed(); }, changed, joinPath(path, i)));
      li.append(h("div", {class: "item-actions"},
        smallButton("↑", () => { if (i > 0) { [arr[i - 1], arr[i]] = [arr[i], arr[i - 1]]; changed(); draw(); } },
                    {"aria-label": `Move ${singular} ${i + 1} up`, disabled: i === 0}),
        smallButton("↓", () => { if (i < arr.length - 1) { [arr[i + 1], arr[i]] = [arr[i], arr[i + 1]]; changed(); draw(); } },
                    {"aria-label": `Move ${singular} ${i + 1} down`, disabled: i === arr.length - 1}),
        smallButton("Remove", () => { arr.splice(i, 1); changed(); draw(); },
                    {"aria-label": `Remove ${singular} ${i + 1}`})));
      list.append(li);
    });
  };
  draw();
  box.append(h("button", {type: "button", class: "button small", onclick: () => {
    if (schema.maxItems !== undefined && get().length >= schema.maxItems) return;
    get().push(defaultFor(itemSchema));
    changed();
    draw();
  }}, `Add ${singular}`));
  return box;
}

/** Return the whole form of a position (game and situation are fixed by the board). */
export function renderForm(schema, position, changed) {
  return objectEditor(schema, "", () => position, () => {}, changed, "");
}
